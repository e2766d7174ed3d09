"""Account keys on Group A's hot path: the database asked at most once per key every TRUST_SECONDS."""

from __future__ import annotations

import datetime as dt
import threading
import time
from typing import Callable

from cachetools import TTLCache
from flask import current_app
from sqlalchemy.exc import SQLAlchemyError

from corridor.data.accounts import KeyRecord, find_key, record_use, utcnow

# A revoked, expired or deleted key stops working within TRUST_SECONDS on every instance: each keeps
# what it learnt of a digest (live or not) that long. At most MAX_DIGESTS digests are kept (about
# 200 bytes each); beyond that the oldest go first.
TRUST_SECONDS = 5.0
MAX_DIGESTS = 10_000
USE_EVERY = dt.timedelta(minutes=1)  # "last used" is written at most this often per key
_ABSENT = KeyRecord(0, None)


class KeysUnavailable(Exception):
    """The database could not be asked."""


class AccountKeys:
    """Which digests are live account keys, as the database said at most TRUST_SECONDS ago."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._known: TTLCache[str, KeyRecord] = TTLCache(MAX_DIGESTS, TRUST_SECONDS, timer=clock)
        self._used: TTLCache[int, bool] = TTLCache(MAX_DIGESTS, USE_EVERY.total_seconds(), timer=clock)
        self._lock = threading.Lock()  # cachetools' caches are not thread-safe (`flask run` is threaded)

    def live(self, digest: str) -> bool:
        """Whether `digest` is a live account key's; its use recorded. KeysUnavailable if the database fails."""
        with self._lock:
            record = self._known.get(digest)
        if record is None:
            try:
                record = find_key(digest) or _ABSENT
            except SQLAlchemyError as err:
                raise KeysUnavailable() from err
            with self._lock:
                self._known[digest] = record
        if record is _ABSENT:
            return False
        now = utcnow()
        if record.expires_at is not None and record.expires_at <= now:
            return False
        self._record_use(record.id, now)
        return True

    def forget(self, *digests: str) -> None:
        """Ask the database next time: this process has just made, revoked or deleted these keys."""
        with self._lock:
            for digest in digests:
                self._known.pop(digest, None)

    def _record_use(self, key_id: int, now: dt.datetime) -> None:
        with self._lock:
            if key_id in self._used:
                return
            self._used[key_id] = True
        try:
            record_use(key_id, now, USE_EVERY)
        except SQLAlchemyError as err:  # a missed "last used" must not refuse a live key; the next minute tries again
            current_app.logger.warning("A key's last use could not be written: %s", type(err).__name__)
