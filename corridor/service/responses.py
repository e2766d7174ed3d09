"""The responses kept from one data version: their bytes and headers, bounded by what they take."""

from __future__ import annotations

import sys
import threading
from operator import attrgetter
from typing import NamedTuple

from cachetools import LRUCache
from flask import Response

# what a kept response costs besides its body, key and headers: its tuple, the bytes object and the
# LRU's bookkeeping (measured with tracemalloc in tests/test_caching.py)
ENTRY_OVERHEAD = 370


class Kept(NamedTuple):
    """A 200 as sent: its body and headers (its type, strong ETag, a file's name), and what keeping it costs."""

    body: bytes
    headers: tuple[tuple[str, str], ...]
    size: int


class ResponseCache(LRUCache):
    """Kept responses by key, at most `limit` bytes in all, the least recently used out first.

    Read with cachetools' own `get`, without a lock: each step of it is one operation of a dict or an OrderedDict, and
    a key another thread drops at that moment reads as missing (the answer is built again). `keep` writes under the
    lock, as `flask run` serves with threads.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(maxsize=limit, getsizeof=attrgetter("size"))
        # made in gunicorn's master, before gevent patches a worker, the lock is a real one: safe, as nothing held
        # under it ever yields to another greenlet
        self._lock = threading.Lock()

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
        if kept.size <= self.maxsize:
            with self._lock:
                self[key] = kept
        return kept

    @property
    def size(self) -> int:
        """The bytes counted for what is kept."""
        return self.currsize
