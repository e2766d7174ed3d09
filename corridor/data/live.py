"""The rates in force from each feed, and one refresh of both: a fault keeps the last good rates."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
from dataclasses import dataclass, field
from typing import Mapping

from corridor.data.feeds import (FeedError, feed_url, frankfurter_latest, frankfurter_series, frankfurter_url, get,
                                 merged_series, parse_ecb_daily, parse_frankfurter, shown_url)
from corridor.domain.model import ECB, FRANKFURTER, Dataset
from corridor.domain.rates import FeedRates

SERIES_DAYS = 366  # Frankfurter's daily series is kept this far back, so a year of it is always there
NOT_YET = "not fetched yet"


@dataclass(frozen=True)
class FeedState:
    """One feed: its URL (None: off), its last good rates, and how its last try went."""

    source: str
    url: str | None
    rates: FeedRates | None = None
    checked_at: dt.datetime | None = None
    error: str | None = NOT_YET
    changed_at: dt.datetime | None = None  # when the rates in force from it last changed

    @property
    def status(self) -> str:
        """`off`, `ok` (the last try gave usable rates) or `failing` (it did not, or none was made yet)."""
        if self.url is None:
            return "off"
        return "ok" if self.error is None else "failing"

    def date(self, dataset: Dataset) -> dt.date | None:
        """The day of the rates in force from this feed: its own, or those the data file says it gave."""
        if self.rates is not None:
            return self.rates.date
        return max((s.date for s in dataset.rates.sources.values() if s.source == self.source), default=None)


@dataclass(frozen=True)
class LiveRates:
    """Both feeds, the ECB days fetched, and Frankfurter's daily series (code → day → units per base)."""

    ecb: FeedState
    frankfurter: FeedState
    ecb_days: Mapping[dt.date, Mapping[str, float]] = field(default_factory=dict)
    series: Mapping[str, Mapping[dt.date, float]] = field(default_factory=dict)

    @classmethod
    def configured(cls, config: Mapping[str, object]) -> LiveRates:
        """Nothing fetched yet, from the feeds ECB_RATES_URL and FRANKFURTER_URL name."""
        return cls(FeedState(ECB, feed_url(str(config["ECB_RATES_URL"]))),
                   FeedState(FRANKFURTER, feed_url(str(config["FRANKFURTER_URL"]))))

    @property
    def feeds(self) -> tuple[FeedState, FeedState]:
        """The feeds in precedence order: the ECB's rate wins for a currency it publishes."""
        return self.ecb, self.frankfurter

    @property
    def feed_rates(self) -> list[FeedRates]:
        """The rates in force from each feed that gave some, in precedence order."""
        return [feed.rates for feed in self.feeds if feed.rates is not None]

    @property
    def figures(self) -> tuple:
        """Everything served figures are made of; a refresh that leaves it equal changes no figure."""
        return self.feed_rates, self.ecb_days, self.series

    def report(self, dataset: Dataset) -> list[dict]:
        """Each feed as health shows it: source, status, date, checkedAt, error."""
        return [{"source": feed.source, "status": feed.status, "date": feed.date(dataset),
                 "checkedAt": feed.checked_at, "error": None if feed.url is None else feed.error} for feed in self.feeds]

    @property
    def changed_at(self) -> dt.datetime | None:
        """When the rates in force last changed, if a feed ever gave any."""
        return max((feed.changed_at for feed in self.feeds if feed.changed_at), default=None)


def report_json(report: list[dict]) -> bytes:
    """A report as JSON, dates and times in ISO 8601."""
    return json.dumps([{**entry, "date": entry["date"] and entry["date"].isoformat(),
                        "checkedAt": entry["checkedAt"] and entry["checkedAt"].isoformat()} for entry in report]).encode()


def report_from_json(data: bytes) -> list[dict]:
    """A report written by `report_json`."""
    return [{**entry, "date": entry["date"] and dt.date.fromisoformat(entry["date"]),
             "checkedAt": entry["checkedAt"] and dt.datetime.fromisoformat(entry["checkedAt"])}
            for entry in json.loads(data)]


def refresh_live(live: LiveRates, dataset: Dataset, ecb_history: set[str] | None, now: dt.datetime,
                 log: logging.Logger) -> LiveRates:
    """Ask both feeds once; what one gives replaces its rates in force, a fault keeps them (one log line).

    `ecb_history`: the currencies of the ECB's history, to know whether Frankfurter's daily series is
    needed; None asks only for the latest rates.
    """
    ecb, ecb_days = live.ecb, dict(live.ecb_days)
    if ecb.url is not None:
        ecb = _tried(ecb, dataset, now, log, lambda: parse_ecb_daily(get(ecb.url)))
        if ecb.error is None and ecb.rates is not None:
            ecb_days[ecb.rates.date] = dict(ecb.rates.rates)
    frankfurter, series = live.frankfurter, live.series
    if frankfurter.url is not None:
        base = dataset.rates.base
        others = set(dataset.currencies) - {base}
        url = frankfurter_url(frankfurter.url, base, others)
        frankfurter = _tried(frankfurter, dataset, now, log, lambda: frankfurter_latest(parse_frankfurter(get(url), base), base))
        if ecb_history is not None and others - ecb_history:  # a currency only Frankfurter has a history of: its series, and the others' to cross with
            series, problem = _series(frankfurter.url, base, others, live.series, now.date())
            if problem and frankfurter.error is None:
                frankfurter = dataclasses.replace(frankfurter, error=problem)
                log.warning("Rates feed %s (%s) refused: %s; keeping the series held.", FRANKFURTER,
                            shown_url(frankfurter.url), problem)
    return LiveRates(ecb, frankfurter, ecb_days, series)


def _tried(feed: FeedState, dataset: Dataset, now: dt.datetime, log: logging.Logger, fetch) -> FeedState:
    in_force = feed.date(dataset)
    try:
        rates = fetch()
        if dataset.rates.base not in {*rates.rates, rates.base}:
            raise FeedError(f"no {dataset.rates.base} rate to re-base the others through")
        if in_force is not None and rates.date < in_force:
            raise FeedError(f"ignored: its day {rates.date} is older than the rates in force ({in_force})")
    except FeedError as err:
        kept = f"the rates of {in_force}" if in_force else "the data file's rates"
        log.warning("Rates feed %s (%s) refused: %s; keeping %s.", feed.source, shown_url(feed.url), err, kept)
        return dataclasses.replace(feed, checked_at=now, error=str(err))
    changed = feed.rates is None or (feed.rates.rates, feed.rates.dates) != (rates.rates, rates.dates)
    if changed:
        log.info("Rates feed %s (%s): %d rates of %s.", feed.source, shown_url(feed.url), len(rates.rates), rates.date)
    return dataclasses.replace(feed, rates=rates, checked_at=now, error=None,
                               changed_at=now if changed else feed.changed_at)


def _series(url: str, base: str, codes: set[str], held: Mapping[str, Mapping[dt.date, float]],
            today: dt.date) -> tuple[Mapping[str, Mapping[dt.date, float]], str | None]:
    since = today - dt.timedelta(days=SERIES_DAYS)
    # from the last day held for every currency (it may have been revised), or a year back
    start = min((max(held[code]) for code in codes if held.get(code)), default=since) if codes <= held.keys() else since
    try:
        rows = parse_frankfurter(get(frankfurter_url(url, base, codes, max(start, since))), base)
    except FeedError as err:
        return held, f"daily series: {err}"
    return merged_series(held, frankfurter_series(rows), since), None
