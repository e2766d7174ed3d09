"""HTTP plumbing shared by both groups: JSON bodies, strong ETags, common headers (SPEC §8)."""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from typing import Any, NamedTuple

from flask import Flask, Response, current_app, g, request
from werkzeug.routing import BaseConverter

_CLIENT_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")


class Body(NamedTuple):
    """A serialised JSON body and its strong validator."""

    data: bytes
    etag: str


def json_bytes(payload: Any) -> bytes:
    """Compact UTF-8 JSON, keys in schema order, one trailing newline for terminals."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def make_body(payload: Any) -> Body:
    """Serialise once; the ETag is the first 32 hex digits of the body's SHA-256."""
    data = json_bytes(payload)
    return Body(data, hashlib.sha256(data).hexdigest()[:32])


def json_response(body: Body, cache_control: str, *, etag: bool = True) -> Response:
    """A 200 carrying `body`, or a bodiless 304 when If-None-Match names its ETag.

    Only If-None-Match is evaluated: these are read-only resources, and If-Match or
    If-Unmodified-Since guard writes, which this API has none of.
    """
    if etag and request.if_none_match.contains_weak(body.etag):
        response = current_app.response_class(status=304)
        del response.headers["Content-Type"]
    else:
        response = current_app.response_class(body.data, mimetype="application/json")
    if etag:
        response.headers["ETag"] = f'"{body.etag}"'
    response.headers["Cache-Control"] = cache_control
    return response


class CorridorIdConverter(BaseConverter):
    """A corridor id in a path: ASCII digits, no leading zero; anything else fails routing (404)."""

    regex = "[1-9][0-9]*"


def allow_header(methods: list[str]) -> str:
    """An Allow value in a fixed, readable order: GET, HEAD, OPTIONS, then any others."""
    order = {"GET": 0, "HEAD": 1, "OPTIONS": 2}
    return ", ".join(sorted(set(methods), key=lambda m: (order.get(m, 3), m)))


def request_id() -> str:
    """The client's X-Request-ID when well-formed, else a fresh one; fixed per request."""
    if "request_id" not in g:
        given = request.headers.get("X-Request-ID", "")
        g.request_id = given if _CLIENT_REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
    return g.request_id


def _common_headers(response: Response) -> Response:
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Request-ID"] = request_id()
    return response


def configure_http(app: Flask) -> None:
    """Paths matched exactly as written (no slash merging, so no redirects); common headers."""
    app.url_map.merge_slashes = False
    app.url_map.converters["corridor_id"] = CorridorIdConverter
    app.after_request(_common_headers)
