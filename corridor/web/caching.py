"""The response cache: 200s that depend only on the data and the loaded query, kept per data version, bounded."""

from __future__ import annotations

import sys
import threading
from functools import wraps
from operator import attrgetter
from typing import Any, Callable, NamedTuple

from cachetools import LRUCache
from flask import Response, current_app, request
from flask_smorest import Blueprint as SmorestBlueprint

from corridor.web.errors import problem

# what a kept response costs besides its body, key and headers: its tuple, the bytes object and the
# LRU's bookkeeping (measured with tracemalloc in tests/test_caching.py)
ENTRY_OVERHEAD = 370
# what clients and caches may do with a kept response, by group: Group A's are for the key holder alone
CACHE_CONTROL = {"api": "private, max-age=60", "poc": "public, max-age=60"}
_CONDITIONS = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_MATCH")
NOT_MODIFIED = {"description": "Not Modified: If-None-Match named the current ETag, or If-Modified-Since "
                               "is not older than the data."}


class Kept(NamedTuple):
    """A 200 as sent: its body and headers (its type, strong ETag, a file's name), and what keeping it costs."""

    body: bytes
    headers: tuple[tuple[str, str], ...]
    size: int


class ResponseCache:
    """Kept responses by key, at most `limit` bytes in all, the least recently used out first."""

    def __init__(self, limit: int) -> None:
        self._kept: LRUCache[str, Kept] = LRUCache(maxsize=limit, getsizeof=attrgetter("size"))
        self._lock = threading.Lock()  # `flask run` serves with threads; cachetools' caches are not thread-safe

    def get(self, key: str) -> Kept | None:
        """The response kept for `key`, if any; it becomes the most recently used."""
        with self._lock:
            return self._kept.get(key)

    def keep(self, key: str, response: Response) -> Kept:
        """Keep `response`'s body, headers and a new strong ETag under `key`, unless it alone is over the limit."""
        response.add_etag()
        headers = [("Content-Type", response.content_type), ("ETag", response.headers["ETag"])]
        if "Content-Disposition" in response.headers:
            headers.append(("Content-Disposition", response.headers["Content-Disposition"]))
        body = response.get_data()
        kept_headers = tuple(headers)
        size = len(body) + sys.getsizeof(key) + sys.getsizeof(kept_headers) + ENTRY_OVERHEAD
        for header in kept_headers:
            size += sys.getsizeof(header) + sys.getsizeof(header[1])
        kept = Kept(body, kept_headers, size)
        if kept.size <= self._kept.maxsize:
            with self._lock:
                self._kept[key] = kept
        return kept

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def size(self) -> int:
        """The bytes counted for what is kept."""
        return self._kept.currsize


def cached(view: Callable[..., Response]) -> Callable[..., Response]:
    """Keep a view's response by endpoint and loaded query in the data version's cache; answer conditionally."""
    # between `arguments` and `response`: the key is the loaded query, the value what flask-smorest dumped

    @SmorestBlueprint.doc(responses={304: NOT_MODIFIED})
    @wraps(view)
    def respond(**query: Any) -> Response:
        data = current_app.extensions["corridor"].data  # once: a refresh swaps it whole
        key = f"{request.endpoint}{sorted(query.items())}"
        kept = data.responses.get(key) or data.responses.keep(key, view(**query))
        response = current_app.response_class(kept.body, headers=kept.headers)
        response.headers.add("Cache-Control", CACHE_CONTROL[request.blueprint])
        response.headers.add("Last-Modified", data.last_modified)
        return conditional(response)

    return respond


def conditional(response: Response) -> Response:
    """`response`, or a 412 or 304 as its validators and the request's conditions say, in HTTP's order."""
    environ = request.environ
    if not any(name in environ for name in _CONDITIONS):
        return response  # nothing to decide: make_conditional took a sixth of a kept response's time in process
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
