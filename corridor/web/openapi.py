"""The OpenAPI 3.0 document, built with apispec from the schemas and `@endpoint`s that serve."""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Flask
from marshmallow import Schema
from werkzeug.routing import Rule

from corridor import __version__
from corridor.web.http import CorridorIdConverter
from schemas.problem import ProblemSchema

_BEARER = "bearerAuth"
_GROUPS = {
    "api": ("Group A", "snake_case figures; needs `Authorization: Bearer <key>`."),
    "poc": ("Group B", "camelCase display strings in an `ok` envelope; public."),
}
_PATH_PARAMETER = re.compile(r"<(?:[a-z_]+:)?([a-z_]+)>")
_ID_PATTERN = f"^{CorridorIdConverter.regex}$"
_HEADER = {"schema": {"type": "string"}}
_REQUEST_ID = {"X-Request-ID": {**_HEADER, "description": "The client's request id, or a generated one."}}
_ETAG = {"ETag": {**_HEADER, "description": "Strong validator; send it back in If-None-Match."}}
_REQUEST_HEADERS = [
    {"in": "header", "name": "X-Request-ID", "required": False, "schema": {"type": "string"},
     "description": "Your id for this request, echoed back when it is at most 128 of A-Z a-z 0-9 . _ -; "
                    "any other value is replaced by a generated id."},
]


def build_openapi(app: Flask) -> dict[str, Any]:
    """Every documented route of `app`, its parameters, responses and errors."""
    plugin = MarshmallowPlugin()
    spec = APISpec(
        title="Corridor API",
        version=__version__,
        openapi_version="3.0.3",
        plugins=[plugin],
        info={"description": "What it really costs to send money from one currency to another. "
                             "Figures are illustrative sample data, not live quotes."},
        tags=[{"name": name, "description": text} for name, text in _GROUPS.values()],
    )
    spec.components.security_scheme(_BEARER, {"type": "http", "scheme": "bearer"})
    spec.components.schema("Problem", schema=ProblemSchema)
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        view = app.view_functions[rule.endpoint]
        if hasattr(view, "operation"):
            path = _PATH_PARAMETER.sub(r"{\1}", rule.rule)
            spec.path(path=path, operations={"get": _operation(rule, view, plugin)})
    document = spec.to_dict()
    for schema in document["components"]["schemas"].values():
        # every dumped field is always present, and nothing else is
        schema["required"] = list(schema["properties"])
        schema["additionalProperties"] = False
    return document


def _operation(rule: Rule, view: Any, plugin: MarshmallowPlugin) -> dict[str, Any]:
    operation = view.operation
    blueprint, name = rule.endpoint.split(".")
    group, summary = _GROUPS[blueprint][0], view.__doc__.strip().splitlines()[0]
    responses = operation.response if isinstance(operation.response, tuple) else (operation.response,)
    success = {"schema": {"oneOf": list(responses)}} if len(responses) > 1 else {"schema": responses[0]}
    cached = operation.cached
    headers = {
        "Cache-Control": {"schema": {"type": "string", "enum": [operation.cache_control]}, "required": True},
        **_REQUEST_ID,
        **(_ETAG if cached else {}),
    }
    result: dict[str, Any] = {
        "operationId": rule.endpoint.replace(".", "_"),
        "summary": summary,
        "tags": [group],
        "parameters": [*_query_parameters(operation.query, plugin), *_REQUEST_HEADERS, *_path_parameters(rule)],
        "responses": {"200": {"description": summary, "headers": headers, "content": {"application/json": success}}},
    }
    if cached:
        result["responses"]["304"] = {"description": "Not Modified: If-None-Match named the current ETag.", "headers": _ETAG}
    for status in sorted(set(operation.errors)):
        result["responses"][str(status)] = _problem_response(status)
    if group == "Group A":
        result["security"] = [{_BEARER: []}]
    return result


def _query_parameters(query: Schema, plugin: MarshmallowPlugin) -> list[dict[str, Any]]:
    """One parameter per field, or one exploded object for a schema with `required_if_any`."""
    # `from=…&to=…` on the wire either way: OpenAPI 3.0 parameters cannot depend on each other,
    # but a schema can
    needed = list(getattr(query, "required_if_any", ()))
    if not needed:
        return [{"in": "query", "schema": query}]
    properties = {f.data_key or n: plugin.converter.field2property(f) for n, f in query.fields.items()}
    return [{
        "in": "query", "name": "query", "style": "form", "explode": True, "required": False,
        "description": f"Give no parameter, or {' and '.join(needed)} with any of the others.",
        "schema": {"type": "object", "properties": properties, "additionalProperties": False,
                   "oneOf": [{"required": needed}, {"maxProperties": 0}]},
    }]


def _path_parameters(rule: Rule) -> list[dict[str, Any]]:
    return [
        {"in": "path", "name": name, "required": True, "description": "Corridor id: digits, no leading zero.",
         "schema": {"type": "string", "pattern": _ID_PATTERN, "example": "1"}}
        for name in rule.arguments
    ]


def _problem_response(status: int) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": HTTPStatus(status).phrase,
        "content": {"application/problem+json": {"schema": "Problem"}},
    }
    if status == 401:
        response["headers"] = {"WWW-Authenticate": {**_HEADER, "description": 'Bearer realm="corridor-api"…'}}
    return response
