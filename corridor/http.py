"""HTTP plumbing shared by both groups: JSON bodies, strong ETags, common headers (SPEC §8)."""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from typing import Any

from flask import Flask, Response, current_app, g, request

_CLIENT_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")


def json_bytes(payload: Any) -> bytes:
    """Compact UTF-8 JSON, keys in schema order, one trailing newline for terminals."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def etag_of(body: bytes) -> str:
    """A strong validator: the body's SHA-256, shortened."""
    return hashlib.sha256(body).hexdigest()[:32]


def json_response(payload: Any, cache_control: str) -> Response:
    """A 200 with a strong ETag, answered 304 when the client already has it."""
    body = json_bytes(payload)
    response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(etag_of(body))
    response.headers["Cache-Control"] = cache_control
    return response.make_conditional(request)


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


def register_common_headers(app: Flask) -> None:
    """Headers every response carries, errors included."""
    app.after_request(_common_headers)
