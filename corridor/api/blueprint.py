"""flask-smorest's Blueprint with what a group needs of every request declared where it is made (its Policy)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from functools import wraps
from typing import Any, cast

import flask_smorest
from flask import Response, current_app
from marshmallow import Schema

from corridor.api.auth import require_api_key
from corridor.api.caching import answer_kept, cached
from corridor.api.queries import QueryParser
from corridor.state.policy import Policy


class Blueprint(flask_smorest.Blueprint):
    """A group of the JSON API, set up as its policy declares: a bearer key required before anything else if it asks
    for one; its queries loaded by QueryParser, its kept answers sent with the policy's Cache-Control."""

    ARGUMENTS_PARSER = QueryParser()

    def __init__(
        self, name: str, import_name: str, *, policy: Policy, tag: str, tag_description: str, **kwargs: Any
    ) -> None:
        super().__init__(name, import_name, **kwargs)
        if policy.cache_control is None:
            raise ValueError(f"{name}: a JSON API blueprint keeps its answers: its policy needs cache_control")
        self.policy, self.tag, self.tag_description = policy, tag, tag_description
        self.cache_control: str = policy.cache_control
        if policy.bearer_key:
            self.before_request(require_api_key)  # before any parameter is looked at
        self.before_request(functools.partial(answer_kept, self.cache_control))  # once the request may be answered

    def cached(self, view: Callable[..., Response]) -> Callable[..., Response]:
        """Keep the view's answers per data version and loaded query (corridor/api/caching.py)."""
        return cached(view, self.cache_control)

    def cached_unless_given(self, *names: str) -> Callable[[Callable[..., Any]], Callable[..., Response]]:
        """As `cached`, except that a query giving any parameter `names` (a free-form amount) is answered unkept."""
        return functools.partial(cached, cache_control=self.cache_control, unless_given=frozenset(names))

    def cached_weighing(self, weight: Callable[..., int]) -> Callable[[Callable[..., Any]], Callable[..., Response]]:
        """As `cached`, each request costing `weight(**query)` units of its budget (a history range, by its rates)."""
        return functools.partial(cached, cache_control=self.cache_control, weight=weight)

    def response_either(
        self, *schemas: type[Schema], headers: dict | None = None
    ) -> Callable[[Callable[..., Any]], Callable[..., Response]]:
        """A 200 in one of `schemas`, the one the view returns with its value as `(schema, value)`, or `(schema, value,
        headers)`; documented as their oneOf, with `headers` if given."""
        dumpers = {schema: schema() for schema in schemas}
        documented = self.doc(
            responses={
                200: {
                    "description": "OK",
                    "content": {"application/json": {"schema": {"oneOf": list(schemas)}}},
                    **({"headers": headers} if headers else {}),
                }
            }
        )

        def decorate(view: Callable[..., tuple[Any, ...]]) -> Callable[..., Response]:
            @documented
            @wraps(view)
            def dumped(*args: Any, **kwargs: Any) -> Response:
                schema, value, *headers = view(*args, **kwargs)  # and a page's Link header, if it made one
                response = cast(Response, current_app.json.response(dumpers[schema].dump(value)))
                response.headers.extend(*headers)
                return response

            return dumped

        return decorate
