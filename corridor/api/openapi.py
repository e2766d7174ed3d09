"""The OpenAPI document: flask-smorest writes it from the blueprints and schemas; here, what operations share, read
from each blueprint's policy, and the route that serves it."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import flask_smorest
from apispec import BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin, resolver
from flask import Flask, Response, current_app
from marshmallow import fields
from werkzeug.exceptions import HTTPException
from werkzeug.http import generate_etag

from corridor import __version__
from corridor.api.caching import conditional
from corridor.api.errors import PROBLEM_MEDIA_TYPE, http_error
from corridor.serving.http import CorridorIdConverter
from corridor.state.policy import Policy, PolicyBlueprint, is_exempt
from schemas.fields import PercentText
from schemas.problem import ProblemSchema

DESCRIPTION = (
    "What it really costs to send money from one currency to another. Rates are the ECB's and Frankfurter's; "
    "the surveyed corridors carry the prices of the World Bank's Remittance Prices Worldwide, each offer with its "
    "source and dates, and the others' fees and margins are illustrative sample data. "
    "Group A (/api/) needs a bearer key and sends no CORS headers: "
    "a key in a web page can be read by anyone who loads it, so call Group A from a server. "
    "Group B (/api/poc/) is public and readable from any origin. Before the app sees a request, its "
    "server refuses a request line over 2048 bytes (414 URI Too Long) and more than 50 headers or one over "
    "8190 bytes (431 Request Header Fields Too Large, or 400): those answers are the server's own text/html "
    "pages, not problem details, and no operation lists them. The full reference, with how every figure "
    "is computed: [/api/docs/guide](/api/docs/guide). Get a key for Group A at "
    "[/account/signup](/account/signup)."
)
BEARER = "bearerAuth"
_TEXT = {"schema": {"type": "string"}}
_REQUEST_ID = {"X-Request-ID": {**_TEXT, "description": "The client's request id, or a generated one."}}
_VALIDATORS = {
    "ETag": {**_TEXT, "description": "Strong validator; send it back in If-None-Match."},
    "Last-Modified": {
        **_TEXT,
        "description": "When the figures served last changed: the latest of the data's as_of "
        "and the history's last day (each at midnight GMT) and the moment the live "
        "rates last changed; send it back in If-Modified-Since.",
    },
}
_CORS = {
    "Access-Control-Allow-Origin": {
        "schema": {"type": "string", "enum": ["*"]},
        "description": "Any origin may read it.",
    },
    "Access-Control-Expose-Headers": {
        **_TEXT,
        "description": "Content-Disposition (a CSV file's name), ETag, Last-Modified, Link (a list's next "
        "page), X-Request-ID, the RateLimit headers and Retry-After: readable by a page's script.",
    },
}


def _header_parameter(name: str, description: str) -> dict[str, Any]:
    return {"in": "header", "name": name, "required": False, "schema": {"type": "string"}, "description": description}


_REQUEST_HEADERS = [
    _header_parameter(
        "X-Request-ID",
        "Your id for this request, echoed back when it is at most 128 of A-Z a-z 0-9 . _ -; "
        "any other value is replaced by a generated id.",
    ),
]
_CONDITIONAL_HEADERS = [
    _header_parameter("If-None-Match", "ETags you hold, quoted and comma-separated, or *: 304 if one is current."),
    _header_parameter(
        "If-Modified-Since", "An HTTP date: 304 if the data is not newer. Ignored when If-None-Match is sent."
    ),
    _header_parameter(
        "If-Match", "ETags, quoted and comma-separated, or *: 412 unless one is current, compared strongly."
    ),
]
_SECONDS = {"schema": {"type": "integer", "minimum": 1}}
_RATE_LIMIT = {
    "RateLimit-Limit": {
        "schema": {"type": "integer"},
        "description": "The size of the budget this request counted "
        "against: per key on Group A, per address elsewhere (docs/API.md#rate-limits).",
    },
    "RateLimit-Remaining": {"schema": {"type": "integer", "minimum": 0}, "description": "What is left of it."},
    "RateLimit-Reset": {**_SECONDS, "description": "Seconds until its window ends and it is whole again."},
}
OMITTED_WHEN = "x-omitted-when"  # a dumped field's metadata: when an answer leaves it out
_RETRY_AFTER = {"Retry-After": {**_SECONDS, "required": True, "description": "Seconds to wait before trying again."}}


class Api(flask_smorest.Api):
    """flask-smorest's Api: errors are problem details, and each operation lists its own."""

    ERROR_SCHEMA = ProblemSchema
    DEFAULT_ERROR_RESPONSE_NAME = None

    def handle_http_exception(self, error: HTTPException) -> Response:
        """HTTP's own errors (Werkzeug's, from routing) on the one error path: flask-smorest registers this for them."""
        return http_error(error)


def schema_name(schema: Any) -> str:
    """apispec's name of a schema; none for flask-smorest's pagination metadata, which no page here has (pages have
    links, corridor/api/paging.py): unnamed, it is written inline in a header no operation names, so nowhere."""
    name = resolver(schema)
    return "" if name == "PaginationMetadata" else name  # apispec reads an empty name as none


class SharedParts(BasePlugin):
    """What every operation shares, said once from its blueprint's policy: its id and tag, request ids, caching, the
    key or CORS, rate limits and problem details; and every schema's fields, always present."""

    def __init__(self, app: Flask) -> None:
        super().__init__()
        self.app = app

    def operation_helper(self, path: str | None = None, operations: dict | None = None, **kwargs: Any) -> None:
        """Complete each operation flask-smorest documented from a route of `kwargs["rule"]`."""
        endpoint = kwargs["rule"].endpoint
        blueprint: Any = self.app.blueprints[endpoint.split(".")[0]]  # ours: a policy and a tag
        policy = blueprint.policy
        limited = not is_exempt(self.app.view_functions.get(endpoint))
        cors = _CORS if policy.cors else {}
        for operation in (operations or {}).values():
            operation["operationId"] = endpoint.replace(".", "_")
            operation["tags"] = [blueprint.tag]
            responses = operation["responses"]
            # `cached` documents its 304: such an operation has validators and takes conditions
            cached = 304 in responses
            operation["parameters"] = [
                *operation.get("parameters", []),
                *_REQUEST_HEADERS,
                *(_CONDITIONAL_HEADERS if cached else []),
            ]
            success = responses[200]
            success["headers"] = {
                "Cache-Control": {"schema": {"type": "string", "enum": [policy.cache_control]}, "required": True},
                **_REQUEST_ID,
                **(_VALIDATORS if cached else {}),
                **(_RATE_LIMIT if limited else {}),
                **cors,
                **success.get("headers", {}),
            }
            problems = [status for status in responses if isinstance(status, int) and status >= 400]
            if cached:
                responses[304] = {**responses[304], "headers": {"ETag": _VALIDATORS["ETag"], **cors}}
                problems.append(412)
            if policy.bearer_key:
                operation["security"] = [{BEARER: []}]
                problems += [401, 503]  # 503: an account key while the accounts database cannot be asked
            if limited:
                problems.append(429)
            for status in problems:
                declared = responses.get(status)
                if isinstance(declared, dict) and "content" in declared:  # its own body, such as health's 503
                    responses[status] = {**declared, "headers": {**_REQUEST_ID, **cors, **declared.get("headers", {})}}
                else:
                    responses[status] = _problem(status, cors)
            operation["responses"] = dict(sorted(responses.items()))

    def schema_helper(self, name: str, definition: dict, **kwargs: Any) -> dict:
        """Every dumped field is present, but for those whose metadata says when they are left out
        (`x-omitted-when`), and nothing else is."""
        properties = definition.get("properties", {})
        return {
            "required": [name for name, spec in properties.items() if OMITTED_WHEN not in spec],
            "additionalProperties": False,
        }


def _problem(status: int, cors: dict[str, Any]) -> dict[str, Any]:
    headers = {**_REQUEST_ID, **cors}
    if status == 401:
        headers["WWW-Authenticate"] = {**_TEXT, "description": 'Bearer realm="corridor-api"…'}
    if status == 429:
        headers.update({**_RETRY_AFTER, **{name: {**header, "required": True} for name, header in _RATE_LIMIT.items()}})
    if status == 503:
        headers.update(_RETRY_AFTER)
    return {
        "description": HTTPStatus(status).phrase,
        "headers": headers,
        "content": {PROBLEM_MEDIA_TYPE: {"schema": "Problem"}},
    }


def dependency_rule(converter: Any, field: fields.Field, ret: dict, **kwargs: Any) -> dict:
    """A query parameter's dependency on the others, in words: OpenAPI 3.0 parameters cannot state it."""
    # a query schema's `required_if_any` names parameters required once any is given; a default is
    # what generated clients send when the caller gives nothing, so a dependent one declares none
    needed = tuple(getattr(field.parent, "required_if_any", ()))
    name = field.data_key or field.name
    if len(needed) > 1 and name in needed:
        rule = f"Give {' and '.join(f'`{n}`' for n in needed)} together, or none of them (400 otherwise)."
    elif needed and name not in needed:
        rule = f"Needs {' and '.join(f'`{n}`' for n in needed)} (400 otherwise)."
    else:
        return {}
    ret["schema"].pop("default", None)
    return {"description": f"{ret.get('description', '')} {rule}".strip()}


def nullable_reference(converter: Any, field: fields.Field, ret: dict, **kwargs: Any) -> dict:
    """A nested schema that may be null as OpenAPI 3.0 says it, `allOf: [$ref], nullable: true`."""
    # apispec writes `anyOf: [$ref, {type: object, nullable: true}]`, which generators read as "X, or any object,
    # or null" (`X | Record<string, never> | null`)
    choices = ret.get("anyOf", [])
    if {"type": "object", "nullable": True} in choices:
        ret.pop("anyOf")
        return {"allOf": [choice for choice in choices if "$ref" in choice], "nullable": True}
    return {}


def build_api(app: Flask, *groups: Any) -> Api:
    """flask-smorest's Api on `app`, its document completed by SharedParts, a tag for each group."""
    # the document is served by `serve_document`, the docs page by corridor/pages: no URL prefix for flask-smorest's
    api = Api(
        app,
        spec_kwargs={
            "title": "Corridor API",
            "version": __version__,
            "openapi_version": "3.0.3",
            "info": {"description": DESCRIPTION},
            "servers": [{"url": "/", "description": "The server that serves this document."}],
            "tags": [{"name": group.tag, "description": group.tag_description} for group in groups],
            "extra_plugins": [SharedParts(app)],
            "marshmallow_plugin": MarshmallowPlugin(schema_name_resolver=schema_name),
        },
    )
    api.spec.components.security_scheme(
        BEARER,
        {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "A key you make at /account (sign up, then API keys: `cor_` and 43 characters), "
                "or one the operator gave you."
            ),
        },
    )
    api.register_field(PercentText, "string", None)  # a Float subclass, for its rounding, dumped as text
    api.ma_plugin.converter.add_parameter_attribute_function(dependency_rule)
    api.ma_plugin.converter.add_attribute_function(nullable_reference)
    api.register_converter(
        CorridorIdConverter,
        lambda converter: {"type": "string", "pattern": f"^{converter.ID_PATTERN}$", "example": "1"},
    )
    return api


def serve_document(app: Flask, api: Api) -> None:
    """`/api/openapi.json`: the document, written once now that every route is registered; public and readable from
    any origin, with an ETag."""
    document = app.json.dumps(api.spec.to_dict()).encode()
    etag = generate_etag(document)
    bp = PolicyBlueprint("document", __name__, url_prefix="/api/openapi.json", policy=Policy(cors=True))

    @bp.get("")
    def openapi_json() -> Response:
        """The OpenAPI document: a client that holds it gets a 304."""
        response = current_app.response_class(document, mimetype="application/json")
        response.set_etag(etag)
        response.headers["Cache-Control"] = "public, max-age=60"
        return conditional(response)

    app.register_blueprint(bp)
