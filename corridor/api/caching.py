"""Answers kept per data version: a view's 200, by endpoint and loaded query, served again with its ETag, Last-Modified
and Cache-Control, or a 304 or 412 as the request's conditions say.

flask-smorest's `etag` would hash the dumped answer of every request; keeping the body with its ETag per data version
means a repeated request neither dumps nor hashes anything.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Response, current_app, request
from flask_smorest import Blueprint as SmorestBlueprint

from corridor.api.errors import problem

_CONDITIONS = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_MATCH")
NOT_MODIFIED = {"description": "Not Modified: If-None-Match named the current ETag, or If-Modified-Since "
                               "is not older than the data."}


def cached(view: Callable[..., Response], cache_control: str) -> Callable[..., Response]:
    """Keep a view's response by endpoint and loaded query in the data version's cache, the view given that version's
    catalog; answer conditionally."""
    # between `arguments` and `response`: the key is the loaded query, the value what flask-smorest dumped

    @SmorestBlueprint.doc(responses={304: NOT_MODIFIED})
    @wraps(view)
    def respond(**query: Any) -> Response:
        data = current_app.extensions["corridor"].data  # once: a refresh swaps it whole
        key = f"{request.endpoint}{sorted(query.items())}"
        kept = data.responses.get(key) or data.responses.keep(key, view(data.catalog, **query))
        response = current_app.response_class(kept.body, headers=kept.headers)
        response.headers.add("Cache-Control", cache_control)
        response.headers.add("Last-Modified", data.last_modified)
        # Werkzeug's make_conditional only when there is something to decide (docs/PERFORMANCE.md)
        return conditional(response) if any(name in request.environ for name in _CONDITIONS) else response

    return respond


def conditional(response: Response) -> Response:
    """`response`, or a 412 or 304 as its validators and the request's conditions say, in HTTP's order."""
    environ = request.environ
    if not any(name in environ for name in _CONDITIONS):
        return response
    if "HTTP_IF_MATCH" in environ:
        # decided here: Werkzeug reads `*` as a tag, and lets a matching If-Match undo a 304; a value
        # that holds no tag (an empty one) is ignored, as Werkzeug ignores it
        if request.if_match and not request.if_match.contains(response.get_etag()[0]):
            return problem(412, "precondition_failed", "If-Match names no current ETag of this resource; "
                                                       "send it without If-Match, or with the ETag you hold.")
        del environ["HTTP_IF_MATCH"]
    try:
        response.make_conditional(request)
    except OverflowError:  # a year beyond datetime's: Werkzeug's parse_date lets it through; HTTP ignores such dates
        del environ["HTTP_IF_MODIFIED_SINCE"]
        response.make_conditional(request)
    del response.headers["Date"]  # the server writes its own
    return response
