"""What a blueprint needs of every request, carried by the blueprint: read by the hooks and the OpenAPI document
alike."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Blueprint, current_app, request

View = TypeVar("View", bound=Callable)


@dataclass(frozen=True)
class Policy:
    bearer_key: bool = False  # `Authorization: Bearer <a live key>`, checked before anything else
    # whose rate-limit budget counts a request: "api", its key's; "public", its address's; None, nobody's
    budget: str | None = "public"
    cache_control: str | None = None  # kept answers carry it (and an ETag); None: nothing is kept
    cors: bool = False  # scripts of any origin may read the answers
    error_page: str | None = None  # a template: errors are answered as pages rather than problem details


PUBLIC = Policy()  # every path outside a blueprint, unknown ones included


class PolicyBlueprint(Blueprint):
    def __init__(self, name: str, import_name: str, *, policy: Policy, **kwargs: Any) -> None:
        super().__init__(name, import_name, **kwargs)
        self.policy = policy


def policy_of(blueprint: object) -> Policy:
    """A blueprint's policy (the JSON API's groups carry one too: corridor/api/blueprint.py); PUBLIC outside every
    blueprint."""
    return getattr(blueprint, "policy", PUBLIC)


def request_policy() -> Policy:
    return policy_of(current_app.blueprints.get(request.blueprint or ""))


def exempt(view: View) -> View:
    """Mark a view no budget counts: a probe must always get through."""
    view.exempt_from_limits = True  # type: ignore[attr-defined]
    return view


def is_exempt(view: Callable | None) -> bool:
    """Whether `exempt` marked the view (or one it wraps)."""
    return getattr(view, "exempt_from_limits", False)
