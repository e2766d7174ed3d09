"""flask-smorest's Blueprint with what a group needs of every request declared where it is made (its Policy)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, cast

import flask_smorest
from flask import Response, current_app, g, request
from marshmallow import Schema, fields

from corridor.api.auth import require_api_key
from corridor.api.caching import CONDITIONS, NOT_MODIFIED, answer_kept, conditional
from corridor.api.queries import QueryParser
from corridor.limits import charge
from corridor.state import current_service
from corridor.state.policy import Policy
from corridor.state.responses import CACHE_LOOKUP


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
        """Keep the view's answers by endpoint and loaded query in the data version's cache (corridor/api/caching.py),
        the view given that version's catalog; answer conditionally. A request costs `weight(**query)` units of its
        budget in all if given (a history range, by its rates); a query giving any parameter of `unless_given` (a
        free-form amount) is answered the same way, but neither kept nor compressed. `either`: the view returns
        `(schema, value)` or `(schema, value, headers)`, a 200 in one of these schemas, documented as their oneOf with
        `headers`."""
        if view is None:
            return functools.partial(
                self.cached, weight=weight, unless_given=unless_given, either=either, headers=headers
            )
        responses: dict[int, dict] = {304: NOT_MODIFIED}
        if either:
            content = {"application/json": {"schema": {"oneOf": list(either)}}}
            responses[200] = {"description": "OK", "content": content, **({"headers": headers} if headers else {})}
        dumpers = {schema: with_nested(schema()) for schema in either} if either else None
        cache_control, unless = self.cache_control, frozenset(unless_given)

        @functools.wraps(view)
        def respond(**query: Any) -> Response:
            service = current_service()
            data = g.get("building") or service.data  # once: a refresh swaps it whole
            extra = 0  # charged beyond the unit its budget's hook charged
            if weight is not None and service.limits is not None and "rate_budget" in g:
                budget, identity = g.rate_budget
                # a request dearer than the whole budget costs the budget
                extra = min(weight(**query), service.limits.budgets[budget].amount) - 1
                if extra > 0:
                    charge(budget, identity, cost=extra)
            # a quote at an amount of the client's: few are asked twice, so keeping each would cost more than building
            # it, and a stream of them would push out of the cache the answers that are asked again; compressing it for
            # each request would cost more than it saves on some 2 KB (docs/PERFORMANCE.md)
            one_off = not unless.isdisjoint(query)
            key = "" if one_off else f"{request.endpoint}{sorted(query.items())}"
            kept = None if one_off else data.responses.get(key)
            request.environ[CACHE_LOOKUP] = "miss" if kept is None else "hit"
            response = None
            if kept is None:
                response = view(data.catalog, **query)
                if dumpers is not None:
                    schema, value, *headers = response  # and a page's Link header, if it made one
                    response = cast(Response, current_app.json.response(dumpers[schema].dump(value)))
                    response.headers.extend(*headers)
                if one_off:
                    response.add_etag()  # of its body, as a kept answer's
                    response.headers.update({"Cache-Control": cache_control, "Last-Modified": data.last_modified})
                    return response if request.environ.keys().isdisjoint(CONDITIONS) else conditional(response)
            # built and kept, or another spelling of a kept query: either way, the URL as sent points at it
            built = data.responses.keep(key, response, g.url_key, extra)
            answer = answer_kept(cache_control, key, kept or built)
            assert answer is not None, "a kept answer given is sent"
            return answer

        return self.doc(responses=responses)(respond)


def with_nested(schema: Schema) -> Schema:
    """`schema` with each nested schema made, as marshmallow makes one on its first dump (binding its fields: a
    CamelCaseSchema names each then)."""
    for field in schema.dump_fields.values():
        nested = getattr(field, "inner", field)  # a list's items
        if isinstance(nested, fields.Nested):
            with_nested(nested.schema)
    return schema
