"""HTTP around every response: proxies, paths as written, request ids, security headers, CORS."""

from __future__ import annotations

import re
import secrets

import orjson
from flask import Flask, Response, g, request
from flask_orjson import OrjsonProvider
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import BaseConverter

from corridor.serving.logs import CLIENT_REQUEST_ID
from corridor.settings import current_settings
from corridor.state.policy import policy_of

HSTS = "max-age=31536000"
ROUTE = "corridor.route"  # the environ's key for the route a request matched, once the app has answered
# CORS, written here rather than with flask-cors: this one fixed policy comes down to two constant headers on an answer
# and four more on a preflight, which flask-cors worked out anew on every answer for 28 µs (docs/PERFORMANCE.md)
ALLOWED_METHODS = ("GET", "HEAD")
# Authorization is allowed (and ignored) so that a page's fetch wrapper that adds a key to every call still reaches
# Group B; in lower case, as a preflight's names are compared
ALLOWED_HEADERS = frozenset(
    {"authorization", "content-type", "if-match", "if-modified-since", "if-none-match", "x-request-id"}
)
EXPOSED_HEADERS = (
    "Content-Disposition, ETag, Last-Modified, Link, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, "
    "Retry-After, X-Request-ID"
)
PREFLIGHT_MAX_AGE = "600"  # seconds a browser may keep a preflight's answer


class CorridorIdConverter(BaseConverter):
    """A corridor id in a path. Ids are ASCII digits with no leading zero (ID_PATTERN, as the document says); any
    other segment is routed too, so that `01` or `１` gets the 404 that quotes the id, not the unknown path's."""

    ID_PATTERN = "[1-9][0-9]*"


class JsonProvider(OrjsonProvider):
    """Flask's JSON written by orjson (flask-orjson): the bytes the standard library writes compact, in the schemas'
    key order and UTF-8, some ten times faster (docs/PERFORMANCE.md); each answer ends its line, as Flask's own do."""

    option = orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS  # keys as the standard library writes them


def register_http(app: Flask) -> None:
    """Proxy headers from PROXY_HOPS hops, paths as written, answers written by orjson."""
    hops = current_settings(app).proxy_hops
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]  # as Flask's docs do
    app.url_map.merge_slashes = False
    app.url_map.converters["corridor_id"] = CorridorIdConverter
    app.json = JsonProvider(app)


def register_response_headers(app: Flask) -> None:
    """The headers every answer carries, in one hook: CORS under the prefix of each blueprint whose policy makes it
    public (errors and unknown paths included), the request id, nosniff, HSTS over HTTPS (as the trusted proxies saw
    it), no framing of a page, where the request's rate-limit budget stands; OPTIONS as 204 No Content. Registered
    once every blueprint is: which prefixes are public is worked out once."""
    prefixes = [bp.url_prefix for bp in app.blueprints.values() if bp.url_prefix and policy_of(bp).cors]
    # with no public prefix, a pattern that matches no path: an empty one would match every path
    public = re.compile("|".join(rf"{re.escape(prefix)}(?:/|\Z)" for prefix in prefixes) or "(?!)")

    @app.after_request
    def add_headers(response: Response) -> Response:
        headers = response.headers
        options = request.method == "OPTIONS"
        if public.match(request.path) is not None:  # scripts of any origin may read it, with GET or HEAD
            headers.add("Access-Control-Allow-Origin", "*")
            headers.add("Access-Control-Expose-Headers", EXPOSED_HEADERS)
            # a preflight that asks for another method gets none of these: the browser does not send the request
            if options and request.headers.get("Access-Control-Request-Method", "").upper() in ALLOWED_METHODS:
                headers["Access-Control-Allow-Methods"] = ", ".join(ALLOWED_METHODS)
                asked = (name.strip() for name in request.headers.get("Access-Control-Request-Headers", "").split(","))
                allowed = sorted(name for name in asked if name.lower() in ALLOWED_HEADERS)  # as the browser wrote
                if allowed:
                    headers["Access-Control-Allow-Headers"] = ", ".join(allowed)
                headers["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
        if options and response.status_code == 200 and "Allow" in headers:
            response.status_code = 204  # Flask's own answer: nothing in it but Allow, given in one order
            headers["Allow"] = ", ".join(sorted(response.allow))
            del headers["Content-Type"]
        if "request_id" not in g:  # else made for a log line already (corridor/serving/logs.py's request_id)
            given = request.headers.get("X-Request-ID")
            g.request_id = given if given and CLIENT_REQUEST_ID.fullmatch(given) else secrets.token_hex(16)
        headers.add("X-Request-ID", g.request_id)
        # for the metrics and the JSON access log: the route's template, never the path a client chose
        rule = request.url_rule
        request.environ[ROUTE] = rule.rule if rule is not None else None
        headers.add("X-Content-Type-Options", "nosniff")
        if response.mimetype == "text/html":  # every page's CSP says frame-ancestors 'none'; this, for older browsers
            headers.add("X-Frame-Options", "DENY")
        if request.scheme == "https":
            headers.add("Strict-Transport-Security", HSTS)
        count = g.get("rate_limit")  # the tightest rate-limit budget this request counted against (corridor/limits)
        if count is not None:
            headers["RateLimit-Limit"] = str(count.limit)
            headers["RateLimit-Remaining"] = str(count.remaining)
            headers["RateLimit-Reset"] = str(count.reset)
        return response
