"""HTTP around every response: proxies, paths as written, request ids, security headers."""

from __future__ import annotations

import orjson
from flask import Flask, Response, g, request
from flask_orjson import OrjsonProvider
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import BaseConverter

from corridor.serving.logs import request_id
from corridor.settings import current_settings

HSTS = "max-age=31536000"
ROUTE = "corridor.route"  # the environ's key for the route a request matched, once the app has answered


class CorridorIdConverter(BaseConverter):
    """A corridor id in a path. Ids are ASCII digits with no leading zero (ID_PATTERN, as the document says); any
    other segment is routed too, so that `01` or `１` gets the 404 that quotes the id, not the unknown path's."""

    ID_PATTERN = "[1-9][0-9]*"


class JsonProvider(OrjsonProvider):
    """Flask's JSON written by orjson (flask-orjson): the bytes the standard library writes compact, in the schemas'
    key order and UTF-8, some ten times faster (docs/PERFORMANCE.md); each answer ends its line, as Flask's own do."""

    option = orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS  # keys as the standard library writes them


def register_http(app: Flask) -> None:
    """Proxy headers from PROXY_HOPS hops, paths as written, answers written by orjson, the headers every response
    carries."""
    hops = current_settings(app).proxy_hops
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]  # as Flask's docs do
    app.url_map.merge_slashes = False
    app.url_map.converters["corridor_id"] = CorridorIdConverter
    app.json = JsonProvider(app)
    app.after_request(add_common_headers)


def add_common_headers(response: Response) -> Response:
    """The request id, nosniff, HSTS over HTTPS (as the trusted proxies saw it), no framing of a page, where the
    request's rate-limit budget stands; OPTIONS as 204 No Content."""
    if request.method == "OPTIONS" and response.status_code == 200 and "Allow" in response.headers:
        response.status_code = 204  # Flask's own answer: nothing in it but Allow, given in one order
        response.headers["Allow"] = ", ".join(sorted(response.allow))
        del response.headers["Content-Type"]
    headers = response.headers
    headers.add("X-Request-ID", request_id())
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
