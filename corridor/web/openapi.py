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
_VALIDATORS = {
    "ETag": {**_HEADER, "description": "Strong validator; send it back in If-None-Match."},
    "Last-Modified": {**_HEADER, "description": "The data's date (as_of; for history, its last day), midnight GMT; "
                                                "send it back in If-Modified-Since."},
}
_CORS = {
    "Access-Control-Allow-Origin": {"schema": {"type": "string", "enum": ["*"]}, "description": "Any origin may read it."},
    "Access-Control-Expose-Headers": {**_HEADER, "description": "ETag, Last-Modified, X-Request-ID: readable by a page's script."},
}
_REQUEST_HEADERS = [
    {"in": "header", "name": "X-Request-ID", "required": False, "schema": {"type": "string"},
     "description": "Your id for this request, echoed back when it is at most 128 of A-Z a-z 0-9 . _ -; "
                    "any other value is replaced by a generated id."},
]
_CONDITIONAL_HEADERS = [
    {"in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
     "description": "ETags you hold, quoted and comma-separated, or *: 304 if one is current."},
    {"in": "header", "name": "If-Modified-Since", "required": False, "schema": {"type": "string"},
     "description": "An HTTP date: 304 if the data is not newer. Ignored when If-None-Match is sent."},
]
# gunicorn checks the request line and headers before the app sees them (docs/OPERATIONS.md)
_SERVER_LIMITS = {
    "414": "URI Too Long: the request line exceeds 2048 bytes. Answered by gunicorn as text/html, "
           "without the app's headers.",
    "431": "Request Header Fields Too Large: more than 50 headers, or one over 8190 bytes. Answered "
           "by gunicorn as text/html, without the app's headers.",
}
_CSV_EXAMPLE = "date,rate\r\n2026-10-29,18.9015\r\n2026-10-30,18.9077\r\n"
_DESCRIPTION = (
    "What it really costs to send money from one currency to another. Figures are illustrative "
    "sample data, not live quotes. Group A (/api/) needs a bearer key and sends no CORS headers: "
    "a key in a web page can be read by anyone who loads it, so call Group A from a server. "
    "Group B (/api/poc/) is public and readable from any origin. The full reference is docs/API.md "
    "in the repository."
)


def build_openapi(app: Flask) -> dict[str, Any]:
    """Every documented route of `app`, its parameters, responses and errors."""
    plugin = MarshmallowPlugin()
    spec = APISpec(
        title="Corridor API",
        version=__version__,
        openapi_version="3.0.3",
        plugins=[plugin],
        info={"description": _DESCRIPTION},
        servers=[{"url": "/", "description": "The server that serves this document."}],
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
    cached, public = operation.cached, group == "Group B"
    cors = _CORS if public else {}
    headers = {
        "Cache-Control": {"schema": {"type": "string", "enum": [operation.cache_control]}, "required": True},
        **_REQUEST_ID,
        **(_VALIDATORS if cached else {}),
        **cors,
    }
    result: dict[str, Any] = {
        "operationId": rule.endpoint.replace(".", "_"),
        "summary": summary,
        "tags": [group],
        "parameters": [*_query_parameters(operation.query, plugin), *_REQUEST_HEADERS,
                       *(_CONDITIONAL_HEADERS if cached else []), *_path_parameters(rule)],
        "responses": {"200": {"description": summary, "headers": headers, "content": {"application/json": success}}},
    }
    if operation.csv is not None:
        result["responses"]["200"]["content"]["text/csv"] = {"schema": {"type": "string", "example": _CSV_EXAMPLE}}
        headers["Content-Disposition"] = {**_HEADER, "description": 'With format=csv: attachment; filename="FROM_TO_START_END.csv".'}
    if cached:
        result["responses"]["304"] = {"description": "Not Modified: If-None-Match named the current ETag, or "
                                                     "If-Modified-Since is not older than the data.",
                                      "headers": {"ETag": _VALIDATORS["ETag"], **cors}}
    for status in sorted(set(operation.errors)):
        result["responses"][str(status)] = _problem_response(status, cors)
    for status, description in _SERVER_LIMITS.items():
        result["responses"][status] = {"description": description, "content": {"text/html": {"schema": {"type": "string"}}}}
    if not public:
        result["security"] = [{_BEARER: []}]
    return result


def _query_parameters(query: Schema, plugin: MarshmallowPlugin) -> list[dict[str, Any]]:
    """One optional or required parameter per field, its dependency on the others in its description."""
    # OpenAPI 3.0 parameters cannot depend on each other: a schema's `required_if_any` is stated
    # in words, and the contract check leaves it out of its positive data (scripts/contract_hooks.py)
    parameters = plugin.converter.schema2parameters(query, location="query")
    needed = tuple(getattr(query, "required_if_any", ()))
    for parameter in parameters:
        rule = _dependency(parameter["name"], needed)
        if rule:
            parameter["description"] = f"{parameter.get('description', '')} {rule}".strip()
            # a default is what generated clients send when the caller gives nothing
            parameter["schema"].pop("default", None)
    return parameters


def _dependency(name: str, needed: tuple[str, ...]) -> str:
    if len(needed) > 1 and name in needed:
        return f"Give {' and '.join(f'`{n}`' for n in needed)} together, or none of them (400 otherwise)."
    if needed and name not in needed:
        return f"Needs {' and '.join(f'`{n}`' for n in needed)} (400 otherwise)."
    return ""


def _path_parameters(rule: Rule) -> list[dict[str, Any]]:
    return [
        {"in": "path", "name": name, "required": True, "description": "Corridor id: digits, no leading zero.",
         "schema": {"type": "string", "pattern": _ID_PATTERN, "example": "1"}}
        for name in rule.arguments
    ]


def _problem_response(status: int, cors: dict[str, Any]) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": HTTPStatus(status).phrase,
        "headers": {**_REQUEST_ID, **cors},
        "content": {"application/problem+json": {"schema": "Problem"}},
    }
    if status == 401:
        response["headers"]["WWW-Authenticate"] = {**_HEADER, "description": 'Bearer realm="corridor-api"…'}
    return response
