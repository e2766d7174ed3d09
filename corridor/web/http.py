"""HTTP shared by both groups: JSON bodies and their ETags, conditional GET, common headers."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from typing import Any, NamedTuple

from flask import Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import BaseConverter

from corridor.settings import proxy_hops

HSTS = "max-age=31536000"
_CLIENT_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")


_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # made once, not per body


def json_bytes(payload: Any) -> bytes:
    """Compact UTF-8 JSON, keys in schema order, one trailing newline for terminals."""
    return _encoder.encode(payload).encode() + b"\n"


class Body(NamedTuple):
    """A serialised JSON body and its strong validator."""

    data: bytes
    etag: str


def make_body(payload: Any) -> Body:
    """Serialise once; the ETag is the first 32 hex digits of the body's SHA-256."""
    data = json_bytes(payload)
    return Body(data, hashlib.sha256(data).hexdigest()[:32])


def json_response(body: Body, cache_control: str, *, etag: bool = True) -> Response:
    """A 200 carrying `body`, or a bodiless 304 when If-None-Match names its ETag.

    Only If-None-Match is evaluated: If-Match and If-Unmodified-Since guard writes, and this API
    has none.
    """
    headers = [("Cache-Control", cache_control)]
    if etag:
        headers.append(("ETag", f'"{body.etag}"'))
        if request.if_none_match.contains_weak(body.etag):
            response = Response(status=304, headers=headers)
            del response.headers["Content-Type"]
            return response
    headers.append(("Content-Type", "application/json"))
    return Response(body.data, headers=headers)


class CorridorIdConverter(BaseConverter):
    """A corridor id in a path: at most 18 ASCII digits, no leading zero; anything else fails routing (404)."""

    regex = "[1-9][0-9]{0,17}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


CORS = {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag, X-Request-ID"}
CORS_PREFLIGHT = {
    **CORS,
    "Access-Control-Allow-Methods": "GET, HEAD",
    "Access-Control-Allow-Headers": "If-None-Match, X-Request-ID",
    "Access-Control-Max-Age": "600",
}


def configure_http(app: Flask, public_prefix: str) -> None:
    """Proxy headers from PROXY_HOPS hops; paths matched as written; the headers every response
    carries, and CORS on every one under `public_prefix` (errors and unknown paths included)."""
    hops = proxy_hops(app.config["PROXY_HOPS"])
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)
    app.url_map.merge_slashes = False
    app.url_map.converters["corridor_id"] = CorridorIdConverter

    # one hook for all of them: each hook Flask calls costs about as much as the headers it sets
    @app.after_request
    def add_common_headers(response: Response) -> Response:
        environ = request.environ
        headers = response.headers
        given = environ.get("HTTP_X_REQUEST_ID", "")
        headers.add("X-Request-ID", given if _CLIENT_REQUEST_ID.fullmatch(given) else secrets.token_hex(16))
        headers.add("X-Content-Type-Options", "nosniff")
        if request.is_secure:
            headers.add("Strict-Transport-Security", HSTS)
        if environ["PATH_INFO"].startswith(public_prefix):
            headers.extend(CORS_PREFLIGHT if environ["REQUEST_METHOD"] == "OPTIONS" else CORS)
        return response
