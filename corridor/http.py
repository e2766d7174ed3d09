"""HTTP plumbing shared by both groups: JSON bodies, strong ETags, common headers (SPEC §8)."""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import secrets
from typing import Any, Iterable, NamedTuple

from flask import Flask, Response, current_app, request
from werkzeug.datastructures import Headers
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import BaseConverter

from corridor.config import proxy_hops
from corridor.encoding import json_bytes

_CLIENT_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")


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

    Only If-None-Match is evaluated: these are read-only resources, and If-Match or
    If-Unmodified-Since guard writes, which this API has none of.
    """
    headers = [("ETag", f'"{body.etag}"'), ("Cache-Control", cache_control)] if etag else [("Cache-Control", cache_control)]
    req = request._get_current_object()  # one proxy lookup, not one per attribute (corridor.state)
    # the raw header first: parsing an absent If-None-Match costs more than the rest of this
    if etag and req.environ.get("HTTP_IF_NONE_MATCH") and req.if_none_match.contains_weak(body.etag):
        response = current_app.response_class(status=304, headers=headers)
        del response.headers["Content-Type"]
        return response
    # Content-Type given as a header, not as mimetype: the response then neither derives it nor
    # scans its headers to set it (hot path)
    return JsonBodyResponse(body.data, headers=[*headers, _JSON_CONTENT_TYPE])


_JSON_CONTENT_TYPE = ("Content-Type", "application/json")


class JsonBodyResponse(Response):
    """A 200 with a JSON body, whose headers go out as they are."""

    def get_wsgi_headers(self, environ: dict) -> Headers:
        """A 200's own headers. Werkzeug's version copies and re-checks every header to fix
        Location, Content-Location and the length of bodiless statuses; a JSON body has its
        Content-Length set and nothing in this API gives it a Location, so the copy only cost time
        (7 µs here, a third of what the service adds to the floor). Any other status, which a
        hook might set, takes Werkzeug's way."""
        if self.status_code != 200:
            return super().get_wsgi_headers(environ)
        return self.headers

    def get_app_iter(self, environ: dict) -> Iterable[bytes]:
        """A 200's body as it was set: one bytes object in a list. Werkzeug wraps it in a generator
        that encodes text and in an iterator that runs close hooks (3 µs here), and a JSON body set
        as bytes, with no close hook, needs neither. HEAD, other statuses, a body a hook replaced and
        a response with close hooks take Werkzeug's way."""
        body = self.response
        if (self.status_code != 200 or environ["REQUEST_METHOD"] == "HEAD" or self._on_close
                or type(body) is not list or len(body) != 1 or type(body[0]) is not bytes):
            return super().get_app_iter(environ)
        return body


class CorridorIdConverter(BaseConverter):
    """A corridor id in a path: ASCII digits, no leading zero; anything else fails routing (404)."""

    regex = "[1-9][0-9]*"


def allow_header(methods: list[str]) -> str:
    """An Allow value in a fixed, readable order: GET, HEAD, OPTIONS, then any others."""
    order = {"GET": 0, "HEAD": 1, "OPTIONS": 2}
    return ", ".join(sorted(set(methods), key=lambda m: (order.get(m, 3), m)))


class RequestIds:
    """Fresh request ids: 16 random hex digits per process, then a 16-digit counter.

    Unique without a call to the system's random source per request; a forked worker draws its
    own prefix, so two workers never hand out the same id.
    """

    def __init__(self) -> None:
        self.reseed()
        os.register_at_fork(after_in_child=self.reseed)

    def reseed(self) -> None:
        self.prefix = secrets.token_hex(8)
        self.counter = itertools.count()

    def __call__(self) -> str:
        return f"{self.prefix}{next(self.counter):016x}"


_new_request_id = RequestIds()


def request_id(environ: dict) -> str:
    """The client's X-Request-ID when well-formed, else a fresh 32-hex-digit one; fixed per request."""
    rid = environ.get("corridor.request_id")
    if rid is None:
        given = environ.get("HTTP_X_REQUEST_ID", "")
        rid = environ["corridor.request_id"] = given if _CLIENT_REQUEST_ID.fullmatch(given) else _new_request_id()
    return rid


HSTS = "max-age=31536000"


def _common_headers(response: Response) -> Response:
    req = request._get_current_object()  # one proxy lookup, not one per attribute (corridor.state)
    headers = response.headers
    headers.add("X-Content-Type-Options", "nosniff")
    headers.add("X-Request-ID", request_id(req.environ))
    if req.is_secure:
        headers.add("Strict-Transport-Security", HSTS)
    return response


def configure_http(app: Flask) -> None:
    """Proxy headers from PROXY_HOPS hops; paths matched as written (no redirects); common headers."""
    hops = proxy_hops(app.config["PROXY_HOPS"])
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)
    app.url_map.merge_slashes = False
    app.url_map.converters["corridor_id"] = CorridorIdConverter
    app.after_request(_common_headers)
