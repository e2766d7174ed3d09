"""CORS where a blueprint's policy makes it public (Group B and the document): scripts of any origin may read every
answer under its prefix, errors and unknown paths included, with GET or HEAD and no credentials.

Written here, not with flask-cors: this one fixed policy comes down to two constant headers on an answer and four
more on a preflight, which flask-cors worked out anew on every answer for 28 µs, a fifth of a kept Group B answer
(docs/PERFORMANCE.md)."""

from __future__ import annotations

import re

from flask import Flask, Response, request

from corridor.state.policy import policy_of

ALLOWED_METHODS = ("GET", "HEAD")
# Authorization is allowed (and ignored) so that a page's fetch wrapper that adds a key to every call still reaches
# Group B
ALLOWED_HEADERS = ("Authorization", "Content-Type", "If-Modified-Since", "If-None-Match", "X-Request-ID")
EXPOSED_HEADERS = (
    "ETag",
    "Last-Modified",
    "Link",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "Retry-After",
    "X-Request-ID",
)
PREFLIGHT_MAX_AGE = 600  # seconds a browser may keep a preflight's answer

_ALLOWED_LOWER = frozenset(name.lower() for name in ALLOWED_HEADERS)
_EXPOSED = ", ".join(EXPOSED_HEADERS)
_METHODS = ", ".join(ALLOWED_METHODS)


def allow_any_origin(app: Flask) -> None:
    """Add the CORS headers to every answer under the prefix of a blueprint whose policy asks for them."""
    prefixes = [bp.url_prefix for bp in app.blueprints.values() if bp.url_prefix and policy_of(bp).cors]
    public = re.compile("|".join(rf"{re.escape(prefix)}(?:/|\Z)" for prefix in prefixes))

    def add_cors_headers(response: Response) -> Response:
        if public.match(request.path) is None:
            return response
        headers = response.headers
        headers.add("Access-Control-Allow-Origin", "*")
        headers.add("Access-Control-Expose-Headers", _EXPOSED)
        if request.method == "OPTIONS":
            add_preflight_headers(response)
        return response

    app.after_request(add_cors_headers)


def add_preflight_headers(response: Response) -> None:
    """A preflight that asks for an allowed method: the methods, those of the headers it asks for that are allowed
    (as it wrote them), and how long to keep this answer. One that asks for any other method gets none of them, and
    the browser does not send the request."""
    asked_method = request.headers.get("Access-Control-Request-Method", "").upper()
    if asked_method not in ALLOWED_METHODS:
        return
    headers = response.headers
    headers["Access-Control-Allow-Methods"] = _METHODS
    asked = (name.strip() for name in request.headers.get("Access-Control-Request-Headers", "").split(","))
    allowed = sorted(name for name in asked if name.lower() in _ALLOWED_LOWER)
    if allowed:
        headers["Access-Control-Allow-Headers"] = ", ".join(allowed)
    headers["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)
