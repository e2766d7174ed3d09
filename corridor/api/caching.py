"""Answers kept per data version: a view's 200, by endpoint and loaded query, served again with its ETag, Last-Modified
and Cache-Control, or a 304 or 412 as the request's conditions say.

flask-smorest's `etag` would hash the dumped answer of every request; keeping the body with its ETag per data version
means a repeated request neither dumps nor hashes anything. A URL asked again as it was sent is answered before its
query is loaded at all (`answer_kept`): loading it was most of what a kept answer cost (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import wraps
from typing import TYPE_CHECKING, Any, cast

from flask import Flask, Response, current_app, g, request, send_from_directory
from marshmallow import Schema

from corridor.api.errors import problem
from corridor.limits.budgets import charge
from corridor.state import current_service
from corridor.state.policy import request_policy
from corridor.state.responses import CACHE_LOOKUP, Kept

if TYPE_CHECKING:
    from corridor.state.versions import DataVersion

_CONDITIONS = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_MATCH")
# smaller answers go as they are: a few hundred bytes fit one packet either way, and gzip's header and the
# client's inflating would cost more than the bytes saved
GZIP_MIN_BYTES = 1024
# the lists of every corridor, whole: at 2,000 corridors the longest takes over a second to build (make bench-scale)
WHOLE_LISTS = ("/api/corridors", "/api/poc/corridors", "/api/poc/providers", "/api/poc/full")
NOT_MODIFIED = {
    "description": "Not Modified: If-None-Match named the current ETag, or If-Modified-Since "
    "is not older than the data."
}


def cached(
    view: Callable[..., Any],
    cache_control: str,
    weight: Callable[..., int] | None = None,
    unless_given: frozenset[str] = frozenset(),
    dumpers: Mapping[type[Schema], Schema] | None = None,
) -> Callable[..., Response]:
    """Keep a view's response by endpoint and loaded query in the data version's cache, the view given that version's
    catalog; answer conditionally. A request costs `weight(**query)` units of its budget in all, if given. A query
    that gives a parameter of `unless_given` is answered the same way, but neither kept nor compressed. With
    `dumpers`, the view returns `(schema, value)` or `(schema, value, headers)`, dumped by that schema's dumper."""

    @wraps(view)
    def respond(**query: Any) -> Response:
        service = current_service()
        data = g.setdefault("data", service.data)  # as the request first read it: a refresh swaps it whole
        extra = 0  # charged beyond the unit its budget's hook charged
        if weight is not None and service.limits is not None and "rate_budget" in g:
            budget, identity = g.rate_budget
            # a request dearer than the whole budget costs the budget
            extra = min(weight(**query), service.limits.budgets[budget].amount) - 1
            if extra > 0:
                charge(budget, identity, cost=extra)
        # a quote at an amount of the client's: few are asked twice, so keeping each would cost more than building it,
        # and a stream of them would push out of the cache the answers that are asked again; compressing it for each
        # request would cost more than it saves on some 2 KB (docs/PERFORMANCE.md)
        one_off = not unless_given.isdisjoint(query)
        key = "" if one_off else f"{request.endpoint}{sorted(query.items())}"
        kept = None if one_off else data.responses.get(key)
        request.environ[CACHE_LOOKUP] = "miss" if kept is None else "hit"
        response = None
        if kept is None:
            response = view(data.catalog, **query)
            if dumpers is not None:
                schema, value, *headers = response  # and a page's Link header, if it made one
                response = cast(Response, current_app.json.response(dumpers[schema].dump(value)))
                response.headers.extend(*headers)
            if one_off:
                response.add_etag()  # of its body, as a kept answer's
                response.headers.update({"Cache-Control": cache_control, "Last-Modified": data.last_modified})
                return response if request.environ.keys().isdisjoint(_CONDITIONS) else conditional(response)
        # built and kept, or another spelling of a kept query: either way, the URL as sent points at it
        built = data.responses.keep(key, response, g.url_key, extra)
        answer = answer_kept(cache_control, key, kept or built)
        assert answer is not None, "a kept answer given is sent"
        return answer

    return respond


def build_whole_lists(app: Flask, version: DataVersion) -> None:
    """Keep the whole lists' answers, plain and compressed, in `version`, as their first requests would: called before
    any request is served from it, so that none waits."""
    for url in WHOLE_LISTS:
        with app.test_request_context(url, headers={"Accept-Encoding": "gzip"}):
            g.data = version
            # the view as its blueprint's hooks leave it: answer_kept sets the URL's key; no key or budget is checked
            if answer_kept(request_policy().cache_control or "") is None:
                app.view_functions[request.endpoint or ""]()


def answer_kept(cache_control: str, key: str | None = None, kept: Kept | None = None) -> Response | None:
    """Send the answer `kept` under `key`; or, as a JSON API blueprint's last before-request hook, the one kept for
    the URL as sent, if any, its query not loaded again and the request charged what its first one was (a history
    range's weight). Compressed if the client accepts gzip and it is over GZIP_MIN_BYTES; with its validators and
    Cache-Control, or the 304 or 412 the request's conditions ask for."""
    environ = request.environ
    # the version the whole request reads, its query loaded and its answer built from it and kept in it
    data = g.setdefault("data", current_service().data)
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
    return response if environ.keys().isdisjoint(_CONDITIONS) else conditional(response)


def static_file(directory: str | os.PathLike[str], name: str, cache_control: str) -> Response:
    """A file of `directory`, whole (a Range is ignored, as HTTP allows), its conditions decided as an answer's."""
    response = send_from_directory(directory, name, conditional=False)
    response.headers["Cache-Control"] = cache_control
    return conditional(response)


def conditional(response: Response) -> Response:
    """`response`, or a 412 or 304 as its validators and the request's conditions say, in HTTP's order."""
    # Werkzeug decides from the request's environ, or from a copy of it given without the headers decided here; the
    # request keeps the headers as sent
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
        environ = {name: value for name, value in environ.items() if name != "HTTP_IF_MATCH"}
    try:
        response.make_conditional(environ)
    except OverflowError:  # a year beyond datetime's: Werkzeug's parse_date lets it through; HTTP ignores such dates
        response.make_conditional({name: value for name, value in environ.items() if name != "HTTP_IF_MODIFIED_SINCE"})
    del response.headers["Date"]  # the server writes its own
    return response
