"""HTTP shared by both groups: JSON bodies and their ETags, conditional GET, common headers."""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import json
import re
import secrets
from typing import Any, NamedTuple

from flask import Flask, Response, request
from werkzeug.http import http_date
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import BaseConverter

from corridor.settings import whole_number

HSTS = "max-age=31536000"
GZIP_MIN = 1024  # bytes: smaller bodies are sent as they are
_CLIENT_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")


_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # made once, not per body


def json_bytes(payload: Any) -> bytes:
    """Compact UTF-8 JSON, keys in schema order, one trailing newline for terminals."""
    return _encoder.encode(payload).encode() + b"\n"


class Body(NamedTuple):
    """A serialised body and its strong validator, and a gzip copy with its own when large."""

    data: bytes
    etag: str
    gzipped: bytes | None = None
    gzipped_etag: str | None = None
    media_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()  # any others it is sent with, such as Content-Disposition

    @property
    def size(self) -> int:
        """Bytes held, with what its key, ETags and a cache's bookkeeping take (about 500)."""
        return len(self.data) + len(self.gzipped or b"") + 512


def _etag(data: bytes) -> str:
    # the first 32 hex digits of the SHA-256: strong, and a different one per encoding
    return hashlib.sha256(data).hexdigest()[:32]


def make_body(payload: Any, *, compress: bool = True) -> Body:
    """Serialise once as JSON; see `encode_body`."""
    return encode_body(json_bytes(payload), compress=compress)


def encode_body(data: bytes, *, compress: bool = True, media_type: str = "application/json",
                headers: tuple[tuple[str, str], ...] = ()) -> Body:
    """A body of GZIP_MIN bytes or more is also kept gzip-compressed, if `compress`."""
    if not compress or len(data) < GZIP_MIN:
        return Body(data, _etag(data), media_type=media_type, headers=headers)
    gzipped = gzip.compress(data, mtime=0)  # no timestamp: every worker builds the same bytes
    return Body(data, _etag(data), gzipped, _etag(gzipped), media_type, headers)


class LastModified(NamedTuple):
    """The data's date as a Last-Modified time, and as its header value, worked out once."""

    when: dt.datetime
    text: str

    @classmethod
    def of(cls, day: dt.date) -> LastModified:
        """Midnight GMT at the start of `day`."""
        when = dt.datetime(day.year, day.month, day.day, tzinfo=dt.timezone.utc)
        return cls(when, http_date(when))


def json_response(body: Body, cache_control: str, *, etag: bool = True,
                  modified: LastModified | None = None) -> Response:
    """A 200 carrying `body` (its gzip copy if the client accepts it), or a 304 if unchanged."""
    # If-None-Match, else If-Modified-Since, as RFC 9110 orders them: If-Match and
    # If-Unmodified-Since guard writes, which this API has none of
    environ = request.environ  # the headers are parsed only when sent
    data, tag, encoding = body.data, body.etag, None
    headers = [("Cache-Control", cache_control)]
    if body.gzipped is not None:
        headers.append(("Vary", "Accept-Encoding"))
        if "HTTP_ACCEPT_ENCODING" in environ and request.accept_encodings["gzip"]:  # 0: refused or not named
            data, tag, encoding = body.gzipped, body.gzipped_etag, "gzip"
    if etag:
        headers.append(("ETag", f'"{tag}"'))
        if modified is not None:
            headers.append(("Last-Modified", modified.text))
        if "HTTP_IF_NONE_MATCH" in environ:
            unchanged = request.if_none_match.contains_weak(tag)
        else:
            since = _if_modified_since() if modified and "HTTP_IF_MODIFIED_SINCE" in environ else None
            unchanged = since is not None and since >= modified.when
        if unchanged:
            response = Response(status=304, headers=headers)
            del response.headers["Content-Type"]
            return response
    if encoding:
        headers.append(("Content-Encoding", encoding))
    headers.append(("Content-Type", body.media_type))
    headers.extend(body.headers)
    return Response(data, headers=headers)


def _if_modified_since() -> dt.datetime | None:
    try:
        return request.if_modified_since
    except (OverflowError, ValueError):  # a year beyond datetime's: unreadable, so ignored
        return None


def allow_header(methods: list[str]) -> str:
    """An Allow value in a fixed, readable order: GET, HEAD, OPTIONS, then any others."""
    order = {"GET": 0, "HEAD": 1, "OPTIONS": 2}
    return ", ".join(sorted(set(methods), key=lambda m: (order.get(m, 3), m)))


class CorridorIdConverter(BaseConverter):
    """A corridor id in a path: ASCII digits, no leading zero; anything else fails routing (404)."""

    regex = "[1-9][0-9]*"


# Group B only: Group A's key belongs on a server, so browsers get no CORS there (docs/API.md);
# Authorization is allowed (and ignored) so that a page's fetch wrapper adding a key still works
CORS = {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag, Last-Modified, X-Request-ID"}
CORS_PREFLIGHT = {
    **CORS,
    "Access-Control-Allow-Methods": "GET, HEAD",
    "Access-Control-Allow-Headers": "Authorization, Content-Type, If-Modified-Since, If-None-Match, X-Request-ID",
    "Access-Control-Max-Age": "600",
}


def configure_http(app: Flask, public_prefix: str) -> None:
    """Proxy headers from PROXY_HOPS hops, paths as written, and the headers every response carries."""
    hops = whole_number(app.config, "PROXY_HOPS")
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
        if environ["wsgi.url_scheme"] == "https":  # as ProxyFix set it, from trusted hops only
            headers.add("Strict-Transport-Security", HSTS)
        options = environ["REQUEST_METHOD"] == "OPTIONS"
        if options and response.status_code == 200 and "Allow" in headers:  # Flask's own answer, no body
            response.status_code = 204
            headers["Allow"] = allow_header(headers["Allow"].split(", "))  # Flask's order varies by run
            del headers["Content-Type"]
        if environ["PATH_INFO"].startswith(public_prefix):
            headers.extend(CORS_PREFLIGHT if options else CORS)
        return response
