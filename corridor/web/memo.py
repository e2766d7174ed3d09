"""A bounded least-recently-used cache that threads may share (`flask run` serves with threads)."""

from __future__ import annotations

import threading
from typing import Callable, Generic, Hashable, TypeVar

from cachetools import LRUCache

V = TypeVar("V")


class SharedLRU(Generic[V]):
    """Values by key, at most `limit` in total `size`; the least recently used leave first."""

    def __init__(self, limit: int, size: Callable[[V], int] = lambda value: 1) -> None:
        self._size = size
        self._cache: LRUCache[Hashable, V] = LRUCache(maxsize=limit, getsizeof=size)
        self._lock = threading.Lock()  # cachetools' caches are not safe to share unlocked

    def get(self, key: Hashable) -> V | None:
        """The value kept for `key`, if any; it becomes the most recently used."""
        with self._lock:
            return self._cache.get(key)

    def put(self, key: Hashable, value: V) -> None:
        """Keep `value`, unless it alone is over the limit."""
        if self._size(value) <= self._cache.maxsize:
            with self._lock:
                self._cache[key] = value

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._cache.clear()

    def __len__(self) -> int:
        return len(self._cache)

    @property
    def total(self) -> int:
        """The total size of what is kept."""
        return self._cache.currsize
