"""The feeds' state and the version stamp in the database, and the one fetch lock (CONTRIBUTING.md, "Shared state")."""

from __future__ import annotations

import dataclasses
import datetime as dt
import fcntl
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy import Engine, case, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from corridor.data.database import Base
from corridor.domain.model import ECB
from corridor.domain.rates import FeedRates
from corridor.rates.live import FeedState, LiveRates

# each feed's FeedState as the last fetch left it, and its days, as JSON
FEEDS = sa.Table(
    "feed_states",
    Base.metadata,
    sa.Column("source", sa.String(20), primary_key=True),
    sa.Column("state", sa.Text(), nullable=False),
    sa.Column("fetched_at", sa.DateTime(), nullable=False),
)
STAMP = sa.Table(  # one row, id 1: `Stamp`
    "data_stamp",
    Base.metadata,
    sa.Column("id", sa.Integer(), primary_key=True),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("fetch_started_at", sa.Float()),
    sa.Column("asked_at", sa.Float()),
    sa.Column("burst_at", sa.Float()),
)
LOCK_KEY = 0x636F7272  # the advisory lock's key on PostgreSQL: "corr"


class Stamp(NamedTuple):  # times in epoch seconds
    version: int
    started: float | None  # of the last fetch
    asked: float | None  # the last ask for a fetch (a HUP's)
    burst: float | None  # when the burst of asks it belongs to began


def read_stamp(connection: Connection) -> Stamp:
    return Stamp(*connection.execute(select(*list(STAMP.c)[1:]).where(STAMP.c.id == 1)).one())


def bump_stamp(connection: Connection) -> None:
    connection.execute(update(STAMP).where(STAMP.c.id == 1).values(version=STAMP.c.version + 1))


def mark_started(connection: Connection, now: float) -> None:
    connection.execute(update(STAMP).where(STAMP.c.id == 1).values(fetch_started_at=now))


def ask_refresh(engine: Engine, quiet_s: float, now: float) -> None:
    """Asks each within `quiet_s` of the last are one burst, which `due` serves at once and once more after its last."""
    c = STAMP.c
    new_burst = func.coalesce(c.asked_at, now - quiet_s - 1) < now - quiet_s
    with engine.begin() as connection:
        connection.execute(
            update(STAMP).where(c.id == 1).values(asked_at=now, burst_at=case((new_burst, now), else_=c.burst_at))
        )


def due(stamp: Stamp, live: LiveRates, interval_s: int, quiet_s: float, now: float, born: float = float("inf")) -> bool:
    """Whether the feeds are to be asked now: one never asked (at its URL), the last fetch an interval old, or an ask
    pending: the first of a burst at once, the rest once the burst has been quiet for `quiet_s`. A process `born` after
    an ask (a HUP's new worker) serves it: the workers before it are retiring, and would drop the fetch."""
    asked = [feed for feed in live.feeds if feed.url is not None]
    if not asked:
        return False
    if any(feed.checked_at is None for feed in asked):
        return True
    started = stamp.started if stamp.started is not None else -float("inf")
    if interval_s and now - started >= interval_s:
        return True
    if stamp.asked is None or stamp.asked <= started or stamp.asked > born:
        return False
    return started < (stamp.burst or 0) or now - stamp.asked >= quiet_s


@contextmanager
def fetch_lock(engine: Engine) -> Iterator[bool]:
    """Whether this process holds the one fetch lock (never waiting for it), until the block ends."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:  # an unpooled engine: a connection that dies takes its lock with it
            held = bool(connection.scalar(select(func.pg_try_advisory_lock(LOCK_KEY))))
            connection.commit()
            try:
                yield held
            finally:
                if held:
                    connection.execute(select(func.pg_advisory_unlock(LOCK_KEY)))
                    connection.commit()
        return
    with open(f"{engine.url.database}.fetch-lock", "a") as handle:  # closing the file lets go of its lock
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True


def read_live(connection: Connection, configured: LiveRates) -> LiveRates:
    """The feeds as stored, each one only if it was fetched from the URL configured here; else as `configured`."""
    stored = {row.source: json.loads(row.state) for row in connection.execute(select(FEEDS.c.source, FEEDS.c.state))}
    ecb, frankfurter = (_feed(feed, stored.get(feed.source)) for feed in configured.feeds)
    ecb_state = stored.get(ECB, {}) if ecb.checked_at else {}
    frankfurter_state = stored.get(frankfurter.source, {}) if frankfurter.checked_at else {}
    day = dt.date.fromisoformat
    return LiveRates(
        ecb,
        frankfurter,
        {day(d): rates for d, rates in ecb_state.get("days", {}).items()},
        {code: {day(d): r for d, r in days.items()} for code, days in frankfurter_state.get("series", {}).items()},
        frankfurter_state.get("series_base", configured.series_base),
    )


def write_live(connection: Connection, live: LiveRates, now: dt.datetime) -> None:
    asked = [feed for feed in live.feeds if feed.url is not None]
    extra: dict[str, dict] = {
        ECB: {"days": {day.isoformat(): dict(rates) for day, rates in live.ecb_days.items()}},
        live.frankfurter.source: {
            "series": {code: {d.isoformat(): r for d, r in days.items()} for code, days in live.series.items()},
            "series_base": live.series_base,
        },
    }
    connection.execute(delete(FEEDS).where(FEEDS.c.source.in_([feed.source for feed in asked])))
    rows = [
        {
            "source": feed.source,
            "state": json.dumps({**dataclasses.asdict(feed), **extra[feed.source]}, default=lambda v: v.isoformat()),
            "fetched_at": now.replace(tzinfo=None),
        }
        for feed in asked
    ]
    if rows:
        connection.execute(insert(FEEDS), rows)
    bump_stamp(connection)


def _feed(configured: FeedState, state: dict | None) -> FeedState:
    if state is None or configured.url is None or state["url"] != configured.url:
        return configured
    rates, day = state["rates"], dt.date.fromisoformat
    return dataclasses.replace(
        configured,
        rates=rates and FeedRates(**{**rates, "dates": {c: day(d) for c, d in rates["dates"].items()}}),
        checked_at=state["checked_at"] and dt.datetime.fromisoformat(state["checked_at"]),
        error=state["error"],
        changed_at=state["changed_at"] and dt.datetime.fromisoformat(state["changed_at"]),
        held=state["held"] and day(state["held"]),
    )
