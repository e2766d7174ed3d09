"""Answers kept per data version: a view's 200, by endpoint and loaded query, served again with its ETag, Last-Modified
and Cache-Control, or a 304 or 412 as the request's conditions say.

flask-smorest's `etag` would hash the dumped answer of every request; keeping the body with its ETag per data version
means a repeated request neither dumps nor hashes anything. A URL asked again as it was sent is answered before its
query is loaded at all (`answer_kept`): loading it was most of what a kept answer cost (docs/PERFORMANCE.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask, Response, current_app, g, request

from corridor.api.errors import problem
from corridor.limits import charge
from corridor.state import current_service
from corridor.state.policy import request_policy
from corridor.state.responses import CACHE_LOOKUP, Kept

if TYPE_CHECKING:
    from corridor.state.versions import DataVersion

CONDITIONS = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_MATCH")
# smaller answers go as they are: a few hundred bytes fit one packet either way, and gzip's header and the
# client's inflating would cost more than the bytes saved
GZIP_MIN_BYTES = 1024
# the lists of every corridor, whole: at 2,000 corridors the longest takes over a second to build (make bench-scale)
WHOLE_LISTS = ("/api/corridors", "/api/poc/corridors", "/api/poc/providers", "/api/poc/full")
NOT_MODIFIED = {
    "description": "Not Modified: If-None-Match named the current ETag, or If-Modified-Since "
    "is not older than the data."
}


def build_whole_lists(app: Flask, version: DataVersion) -> None:
    """Keep the whole lists' answers, plain and compressed, in `version`, as their first requests would: called before
    any request is served from it, so that none waits."""
    for url in WHOLE_LISTS:
        with app.test_request_context(url, headers={"Accept-Encoding": "gzip"}):
            g.building = version
            # the view as its blueprint's hooks leave it: answer_kept sets the URL's key; no key or budget is checked
            if answer_kept(request_policy().cache_control or "") is None:
                app.view_functions[request.endpoint or ""]()


def answer_kept(cache_control: str, key: str | None = None, kept: Kept | None = None) -> Response | None:
    """Send the answer `kept` under `key`; or, as a JSON API blueprint's last before-request hook, the one kept for
    the URL as sent, if any, its query not loaded again and the request charged what its first one was (a history
    range's weight). Compressed if the client accepts gzip and it is over GZIP_MIN_BYTES; with its validators and
    Cache-Control, or the 304 or 412 the request's conditions ask for."""
    environ = request.environ
    data = g.get("building") or current_service().data
    if kept is None:
        # the URL as sent is its key in the cache, beside the loaded queries' keys
        g.url_key = f"url {environ.get('PATH_INFO', '')}?{environ.get('QUERY_STRING', '')}"
        found = data.responses.get(g.url_key) if request.method in ("GET", "HEAD") else None
        kept = data.responses.get(found.key) if found is not None else None
        if found is None or kept is None:  # a URL not asked before, or whose answer was dropped since
            return None
        if found.extra > 0 and "rate_budget" in g:  # as its first request was charged
            budget, identity = g.rate_budget
            charge(budget, identity, cost=found.extra)
        key = found.key
        environ[CACHE_LOOKUP] = "hit"
    compressible = len(kept.body) >= GZIP_MIN_BYTES
    if compressible and "HTTP_ACCEPT_ENCODING" in environ and request.accept_encodings["gzip"]:
        kept = data.responses.gzipped(key or "", kept)
    response = current_app.response_class(kept.body, headers=kept.headers)
    if compressible:
        response.vary.add("Accept-Encoding")
    response.headers.add("Cache-Control", cache_control)
    response.headers.add("Last-Modified", data.last_modified)
    # Werkzeug's make_conditional only when there is something to decide (docs/PERFORMANCE.md)
    return response if environ.keys().isdisjoint(CONDITIONS) else conditional(response)


def conditional(response: Response) -> Response:
    """`response`, or a 412 or 304 as its validators and the request's conditions say, in HTTP's order."""
    environ = request.environ
    if "HTTP_IF_MATCH" in environ:
        # decided here: Werkzeug reads `*` as a tag, and lets a matching If-Match undo a 304; a value
        # that holds no tag (an empty one) is ignored, as Werkzeug ignores it
        if request.if_match and not request.if_match.contains(response.get_etag()[0] or ""):
            return problem(
                412,
                "precondition_failed",
                "If-Match names no current ETag of this resource; send it without If-Match, or with the ETag you hold.",
            )
        del environ["HTTP_IF_MATCH"]
    try:
        response.make_conditional(request)
    except OverflowError:  # a year beyond datetime's: Werkzeug's parse_date lets it through; HTTP ignores such dates
        del environ["HTTP_IF_MODIFIED_SINCE"]
        response.make_conditional(request)
    del response.headers["Date"]  # the server writes its own
    return response
