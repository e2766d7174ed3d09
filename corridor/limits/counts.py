"""Counting requests in `limits`' storage, this process's memory or a Redis every instance shares, in fixed windows;
and serving them uncounted (fail open) while the store cannot be reached. No Flask here: corridor/limits/budgets.py
decides what a request is charged and answers for it."""

from __future__ import annotations

import math
import time
from time import monotonic
from typing import Any, NamedTuple, cast
from urllib.parse import urlsplit

from limits import RateLimitItem
from limits.storage import Storage, storage_from_string

from corridor.settings import WORKER_CONNECTIONS, ConfigError

STORES = ("memory", "redis", "rediss")
# a store on the same network answers in well under a millisecond: waiting longer only holds requests up
STORE_TIMEOUT_SECONDS = 0.25
# connections each process may open to Redis: one for every request a gevent worker serves at once, so that no request
# waits for another's; a pool that ran dry was once taken for a store that cannot be reached, and the limits went off
REDIS_CONNECTIONS = WORKER_CONNECTIONS
# past REDIS_CONNECTIONS (a threaded server, or more greenlets than gunicorn.conf.py allows), a request waits this
# long for a connection to come back before it is served uncounted
POOL_WAIT_SECONDS = 5
# once the store fails, requests skip it this long rather than each wait for it
DOWN_SECONDS = 5
WARN_EVERY_SECONDS = 60


class Count(NamedTuple):
    """Where one budget stands after a request: its size, what is left, and the seconds until its window ends."""

    limit: int
    remaining: int
    reset: int
    over: bool


class RateLimits:
    """The budgets and the store that counts them; the store is opened on first use, in the process that serves."""

    def __init__(self, uri: str, budgets: dict[str, RateLimitItem], logger: Any) -> None:
        self.uri = uri
        self.budgets = budgets
        self._logger = logger
        self._storage: Storage | None = None
        self._down_until = 0.0
        self._warned_at = -math.inf

    def count(self, budget: str, identity: str, cost: int = 1) -> Count | None:
        """Count `cost` against `identity`'s `budget` (0: only read where it stands); None while the store cannot be
        reached."""
        if monotonic() < self._down_until:
            return None
        item = self.budgets[budget]
        key = item.key_for(budget, identity)
        try:
            store = self._storage if self._storage is not None else self._open()
            used = store.incr(key, item.get_expiry(), amount=cost) if cost else store.get(key)
            ends = store.get_expiry(key)
        except Exception as error:  # whatever the store raises, requests are served (fail open)
            self._fail(getattr(error, "storage_error", error))  # limits' StorageError wraps the store's own
            return None
        # Redis's TTL is whole seconds, rounded to the nearest: half a second more never tells a client to come early
        late = 0.5 if self.uri.startswith("redis") else 0.0
        reset = max(1, math.ceil(ends - time.time() + late))
        return Count(item.amount, max(0, item.amount - used), reset, used > item.amount)

    def _open(self) -> Storage:
        # on first use: a gunicorn master that loads the app must fork no store's threads or sockets. Without a lock:
        # opening yields (a memory store starts a thread), and a lock made in the master, before gevent patches the
        # worker, held across that yield stopped the whole worker. Two requests may open one each: the first kept
        # serves both, and the other is dropped unused.
        options = {} if self.uri.startswith("memory") else {"connection_pool": redis_pool(self.uri)}
        opened = cast(Storage, storage_from_string(self.uri, wrap_exceptions=True, **options))  # never an aio one
        if self._storage is None:
            self._storage = opened
        return self._storage

    def _fail(self, error: Exception) -> None:
        now = monotonic()
        self._down_until = now + DOWN_SECONDS
        if now - self._warned_at >= WARN_EVERY_SECONDS:
            self._warned_at = now
            self._logger.warning(
                "Rate limits are not enforced: the store %s cannot be reached (%s); requests are "
                "served unlimited until it answers.",
                store_name(self.uri),
                type(error).__name__,
            )


def redis_pool(uri: str) -> Any:
    """At most REDIS_CONNECTIONS connections, a short timeout, and no retry: redis-py's default retries a failed
    command 3 times, sleeping up to 1, 2 and 4 seconds between them, all inside the request. Reads the URL without
    connecting: ValueError if its options are not redis-py's."""
    from redis import BlockingConnectionPool
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return BlockingConnectionPool.from_url(
        uri,
        max_connections=REDIS_CONNECTIONS,
        timeout=POOL_WAIT_SECONDS,
        socket_timeout=STORE_TIMEOUT_SECONDS,
        socket_connect_timeout=STORE_TIMEOUT_SECONDS,
        retry=Retry(NoBackoff(), 0),
    )


def store_name(uri: str) -> str:
    """The store's scheme, host and port, never a password in its URL (even one with `/`, `?` or `#` unencoded)."""
    scheme, _, rest = uri.partition("://")
    host = rest.rpartition("@")[2]  # what follows the last @: a password may hold any other character
    for end in "/?#":
        host = host.partition(end)[0]
    return f"{scheme}://{host}"


def store(uri: str) -> str:
    """RATE_LIMIT_STORAGE if it is memory:// or a Redis URL redis-py reads; ConfigError otherwise."""
    try:
        parts = urlsplit(uri)
        usable = parts.scheme in STORES and (parts.scheme == "memory" or bool(parts.hostname)) and parts.port != 0
        if usable and parts.scheme != "memory":
            redis_pool(uri).disconnect()  # its options and database number, read now rather than at each request
    except ValueError:  # a port that is not a number, or out of range; an option or database redis-py refuses
        usable = False
    if not usable:
        raise ConfigError(f"RATE_LIMIT_STORAGE must be memory:// or redis://host:port/db, not {store_name(uri)!r}.")
    return uri
