"""Account keys on Group A's hot path: the database asked at most once per key every KEY_TRUST_SECONDS."""

from __future__ import annotations

import datetime as dt
import re
import threading
import time
from collections.abc import Callable

from cachetools import TTLCache
from flask import current_app
from sqlalchemy.exc import SQLAlchemyError

from corridor.accounts.models import KEY_PREFIX, KeyRecord, find_key, record_use, utcnow
from corridor.data.database import error_reason
from corridor.errors import ApiError

# A revoked, expired or deleted key stops working within KEY_TRUST_SECONDS (a setting, 5 by default) on every
# instance: each process keeps what it learnt of a key that long. At most MAX_KEYS live keys are kept (about 200
# bytes each), and apart from them at most MAX_UNKNOWN keys found in no account, so that a flood of made-up keys
# cannot push the live ones out; beyond either bound the oldest go first.
MAX_KEYS = 10_000
MAX_UNKNOWN = 1_000
USE_EVERY = dt.timedelta(minutes=1)  # "last used" is written at most this often per key
DOWN_SECONDS = 5.0  # after the database failed, account keys answer 503 this long without asking it again
_FORMAT = re.compile(re.escape(KEY_PREFIX) + r"[A-Za-z0-9_-]{43}")  # what create_key makes: nothing else is looked up


class AccountKeys:
    def __init__(
        self,
        trust_seconds: float,
        clock: Callable[[], float] = time.monotonic,
        on_unavailable: Callable[[], object] = int,
    ) -> None:
        self._clock, self._on_unavailable = clock, on_unavailable
        self._live: TTLCache[str, KeyRecord] = TTLCache(MAX_KEYS, trust_seconds, timer=clock)
        self._unknown: TTLCache[str, bool] = TTLCache(MAX_UNKNOWN, trust_seconds, timer=clock)
        self._used: TTLCache[int, bool] = TTLCache(MAX_KEYS, USE_EVERY.total_seconds(), timer=clock)
        self._down_until = 0.0
        self._lock = threading.Lock()  # cachetools' caches are not thread-safe (`flask run` is threaded)

    def live(self, key: str, key_digest: bytes, before_asking: Callable[[bytes], None]) -> KeyRecord | None:
        """The live account key `key`, or None; `before_asking(key_digest)` runs before the database is asked (and may
        refuse the request); a 503 ApiError if the database fails."""
        if not _FORMAT.fullmatch(key):
            return None
        digest = key_digest.hex()
        with self._lock:
            record = self._live.get(digest)
            unknown = digest in self._unknown
        if record is None and not unknown:
            before_asking(key_digest)
            record = self._look_up(digest)
        if record is None or (record.expires_at is not None and record.expires_at <= utcnow()):
            return None
        return record

    def forget(self, *digests: str) -> None:
        """Ask the database next time: this process has made, revoked or deleted these keys."""
        with self._lock:
            for digest in digests:
                self._live.pop(digest, None)
                self._unknown.pop(digest, None)

    def _look_up(self, digest: str) -> KeyRecord | None:
        if self._clock() < self._down_until:
            raise self._unavailable()
        try:
            record = find_key(digest)
        except SQLAlchemyError as err:
            self._down_until = self._clock() + DOWN_SECONDS
            current_app.logger.error(
                "The accounts database failed (%s); account keys answer 503 for %.0f s.",
                error_reason(err),
                DOWN_SECONDS,
            )
            raise self._unavailable() from None
        with self._lock:
            if record is None:
                self._unknown[digest] = True
            else:
                self._live[digest] = record
        return record

    def _unavailable(self) -> ApiError:
        self._on_unavailable()  # the metrics count each 503
        return ApiError(
            503, "unavailable", "API keys cannot be checked right now; try again in a minute.", {"Retry-After": "60"}
        )

    def record_use(self, record: KeyRecord) -> None:
        with self._lock:
            if record.id in self._used:
                return
            self._used[record.id] = True
        try:
            record_use(record.id, utcnow(), USE_EVERY)
        except SQLAlchemyError as err:  # a missed "last used" must not refuse a live key; the next minute tries again
            current_app.logger.warning("A key's last use could not be written: %s", type(err).__name__)
