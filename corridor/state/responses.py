"""The responses kept from one data version: their bytes and headers, bounded by what they take."""

from __future__ import annotations

import gzip
import sys
import threading
from operator import attrgetter
from typing import NamedTuple

from cachetools import LRUCache
from flask import Response

# what a kept response costs besides its body, key and headers: its tuple, the bytes object and the
# LRU's bookkeeping (measured with tracemalloc in tests/test_caching.py)
ENTRY_OVERHEAD = 370
# the environ's key for how this request's answer was looked for in the cache, `hit` or `miss`, which the request's
# metrics carry as a label (corridor/serving/prometheus.py): a field of the environ costs nothing; a count did
CACHE_LOOKUP = "corridor.cache"
GZIP_LEVEL = 6  # zlib's default: made once per answer, so a higher level would cost little, and gain 1–2 % at most


class Kept(NamedTuple):
    """A 200 as sent: its body and headers (its type, strong ETag, a file's name), and what keeping it costs."""

    body: bytes
    headers: tuple[tuple[str, str], ...]
    size: int


class KeptUrl(NamedTuple):
    """A URL as sent, pointing at the key of the answer kept for its loaded query (a key, not the answer: a dropped
    answer is not held by its URLs); what its request was charged beyond one unit (a history range's weight), and
    what keeping the pointer costs."""

    key: str
    extra: int
    size: int


class ResponseCache(LRUCache):
    """Kept responses by key, at most `limit` bytes in all, the least recently used out first.

    Read with `get`, without a lock: a key another thread drops between its check and its read reads as missing
    (`__missing__`). `keep` writes under the lock, as `flask run` serves with threads.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(maxsize=limit, getsizeof=attrgetter("size"))
        # made in gunicorn's master, before gevent patches a worker, the lock is a real one: safe, as nothing held
        # under it ever yields to another greenlet
        self._lock = threading.Lock()

    def __missing__(self, key: str) -> None:
        """A key another thread dropped between `get`'s check and its read reads as missing (the answer is built
        again), where cachetools raises KeyError; `get` stays cachetools' own, adding no call to a request."""
        return None

    def keep(self, key: str, response: Response | None, url: str | None = None, extra: int = 0) -> Kept | None:
        """Keep `response`'s body, headers and a new strong ETag under `key`, unless it alone is over the limit; and
        point `url`, the URL as sent, at what is kept there, with what its request was charged beyond one unit."""
        kept = None
        if response is not None:
            response.add_etag()
            headers = [("Content-Type", response.content_type), ("ETag", response.headers["ETag"])]
            for name in ("Content-Disposition", "Link"):  # a file's name; a page's links
                if name in response.headers:
                    headers.append((name, response.headers[name]))
            body = response.get_data()
            kept_headers = tuple(headers)
            size = len(body) + sys.getsizeof(key) + sys.getsizeof(kept_headers) + ENTRY_OVERHEAD
            size += sum(sys.getsizeof(header) + sys.getsizeof(header[1]) for header in kept_headers)
            kept = Kept(body, kept_headers, size)
            if kept.size > self.maxsize:
                return kept
        pointer = url and KeptUrl(key, extra, sys.getsizeof(url) + sys.getsizeof(key) + ENTRY_OVERHEAD)
        with self._lock:
            if kept is not None:
                self[key] = kept
            if pointer and pointer.size <= self.maxsize:
                self[url] = pointer
        return kept

    def gzipped(self, key: str, kept: Kept) -> Kept:
        """`kept` compressed with gzip, made once and kept beside it under `gzip <key>`: its own strong ETag (the
        plain one's, suffixed), as RFC 9110 asks of each encoding of a representation. An answer too big to keep is
        returned as it is."""
        found = self.get(f"gzip {key}")
        if found is not None:
            return found
        if kept.size > self.maxsize:  # not kept, so it would be compressed anew for every request: sent as it is
            return kept
        body = gzip.compress(kept.body, compresslevel=GZIP_LEVEL, mtime=0)  # mtime 0: the same bytes every time
        headers = tuple(
            ("ETag", f'{value[:-1]}-gzip"') if name == "ETag" else (name, value) for name, value in kept.headers
        ) + (("Content-Encoding", "gzip"),)
        zipped = Kept(body, headers, len(body) + sum(sys.getsizeof(v) for _, v in headers) + 2 * ENTRY_OVERHEAD)
        if zipped.size <= self.maxsize:
            with self._lock:
                self[f"gzip {key}"] = zipped
        return zipped
