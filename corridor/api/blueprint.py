"""flask-smorest's Blueprint with what a group needs of every request declared where it is made (its Policy)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

import flask_smorest
from marshmallow import Schema, fields

from corridor.api.auth import require_api_key
from corridor.api.caching import NOT_MODIFIED, answer_kept, cached
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

    def response(self, status_code: int, schema: Any = None, **kwargs: Any) -> Any:
        """flask-smorest's, the schema's nested schemas made now rather than within its first request."""
        return super().response(
            status_code, schema and with_nested(schema() if isinstance(schema, type) else schema), **kwargs
        )

    def cached(
        self,
        view: Callable[..., Any] | None = None,
        *,
        weight: Callable[..., int] | None = None,
        unless_given: Iterable[str] = (),
        either: tuple[type[Schema], ...] = (),
        headers: dict | None = None,
    ) -> Any:
        """Keep the view's answers per data version and loaded query (corridor/api/caching.py), each request costing
        `weight(**query)` units of its budget if given (a history range, by its rates); a query giving any parameter
        of `unless_given` (a free-form amount) is answered unkept. `either`: the view returns `(schema, value)` or
        `(schema, value, headers)`, a 200 in one of these schemas, documented as their oneOf with `headers`."""
        if view is None:
            return functools.partial(
                self.cached, weight=weight, unless_given=unless_given, either=either, headers=headers
            )
        responses: dict[int, dict] = {304: NOT_MODIFIED}
        if either:
            content = {"application/json": {"schema": {"oneOf": list(either)}}}
            responses[200] = {"description": "OK", "content": content, **({"headers": headers} if headers else {})}
        dumpers = {schema: with_nested(schema()) for schema in either} if either else None
        return self.doc(responses=responses)(cached(view, self.cache_control, weight, frozenset(unless_given), dumpers))


def with_nested(schema: Schema) -> Schema:
    """`schema` with each nested schema made, as marshmallow makes one on its first dump (binding its fields: a
    CamelCaseSchema names each then)."""
    for field in schema.dump_fields.values():
        nested = getattr(field, "inner", field)  # a list's items
        if isinstance(nested, fields.Nested):
            with_nested(nested.schema)
    return schema
