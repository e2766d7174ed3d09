"""The feeds' answers read and checked, and one refresh of both: a fault keeps the last good rates."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
import math
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from xml.etree import ElementTree

from corridor.domain.model import ECB, FRANKFURTER, RATE_RANGE, Dataset, Rates
from corridor.domain.rates import FeedRates, live_rates, too_far
from corridor.rates.ecb import CURRENCY_CODE, parse_daily_xml
from corridor.rates.fetch import FeedError, get, shown_url
from corridor.settings import Settings

SERIES_DAYS = 366  # Frankfurter's daily series is kept this far back, so a year of it is always there
ACCEPT = ".venv/bin/flask --app app rates fetch --accept"


@dataclass(frozen=True)
class FeedState:
    source: str
    url: str | None  # None: off
    rates: FeedRates | None = None
    checked_at: dt.datetime | None = None
    error: str | None = "not fetched yet"
    changed_at: dt.datetime | None = None  # when the rates in force from it last changed
    held: dt.date | None = None  # the day of an answer held back for moving the rates too far

    @property
    def status(self) -> str:
        """`off`, `ok`, `held` (its rates moved too far to serve unconfirmed) or `failing` (or not tried yet)."""
        if self.url is None:
            return "off"
        if self.error is None:
            return "ok"
        return "held" if self.held else "failing"


@dataclass(frozen=True)
class LiveRates:
    ecb: FeedState
    frankfurter: FeedState
    ecb_days: Mapping[dt.date, Mapping[str, float]] = field(default_factory=dict)
    series: Mapping[str, Mapping[dt.date, float]] = field(default_factory=dict)  # Frankfurter's: code → day → rate
    series_base: str = "USD"  # the currency the series are quoted against

    @classmethod
    def configured(cls, settings: Settings) -> LiveRates:
        return cls(FeedState(ECB, settings.ecb_rates_url), FeedState(FRANKFURTER, settings.frankfurter_url))

    @property
    def feeds(self) -> tuple[FeedState, FeedState]:
        """In precedence order: the ECB's rate wins for a currency it publishes."""
        return self.ecb, self.frankfurter

    @property
    def feed_rates(self) -> list[FeedRates]:
        return [feed.rates for feed in self.feeds if feed.rates is not None]

    @property
    def figures(self) -> tuple:
        """Everything served figures are made of; a refresh that leaves it equal changes no figure."""
        return self.feed_rates, self.ecb_days, self.series

    def report(self, dataset: Dataset) -> list[dict]:
        """Each feed as health shows it; its date that of its own rates, or those the data file says it gave."""
        return [
            {
                "source": feed.source,
                "status": feed.status,
                "date": feed.rates.date if feed.rates else file_day(feed.source, dataset.rates),
                "checkedAt": feed.checked_at,
                "error": None if feed.url is None else feed.error,
            }
            for feed in self.feeds
        ]

    @property
    def changed_at(self) -> dt.datetime | None:
        return max((feed.changed_at for feed in self.feeds if feed.changed_at), default=None)


def refresh_live(
    live: LiveRates,
    dataset: Dataset,
    ecb_history: set[str] | None,
    now: dt.datetime,
    log: logging.Logger,
    accept: bool = False,
) -> LiveRates:
    """Ask each feed once; what one gives replaces its rates in force, a fault or too far a move keeps them (one log
    line). Frankfurter's daily series is asked for when the tables hold a currency `ecb_history` lacks (None: never)."""
    in_force = live_rates(dataset.rates, live.feed_rates)
    tried = partial(_tried, file_rates=dataset.rates, in_force=in_force, now=now, log=log, accept=accept)
    ecb, ecb_days = live.ecb, dict(live.ecb_days)
    if ecb.url is not None:
        ecb, _ = tried(ecb, ecb.url, lambda body: (parse_ecb_daily(body), []))
        if ecb.error is None and ecb.rates is not None:
            ecb_days[ecb.rates.date] = dict(ecb.rates.rates)
    frankfurter, base = live.frankfurter, dataset.rates.base
    series = live.series if live.series_base == base else {}  # held against another base: of no use
    if frankfurter.url is not None:
        others = set(dataset.currencies) - {base}
        since = now.date() - dt.timedelta(days=SERIES_DAYS)
        wanted = ecb_history is not None and bool(others - ecb_history)
        # from the last day held of every currency held (it may have been revised since), or a year back if none
        start = max(min((max(days) for days in series.values() if days), default=since), since)
        url = frankfurter_url(frankfurter.url, base, others, start if wanted else None)
        frankfurter, days = tried(frankfurter, url, lambda body: parse_frankfurter(body, base, since))
        if wanted and frankfurter.error is None:  # the held series extended and corrected, from `since` on
            merged = {code: {d: r for d, r in held.items() if d >= since} for code, held in series.items()}
            for day in days:
                for code, rate in day.rates.items():
                    merged.setdefault(code, {})[day.date] = rate
            series = merged
    return LiveRates(ecb, frankfurter, ecb_days, series, base)


def _tried(
    feed: FeedState,
    url: str,
    parse: Callable[[bytes], tuple[FeedRates, list[FeedRates]]],
    file_rates: Rates,
    in_force: Rates,
    now: dt.datetime,
    log: logging.Logger,
    accept: bool,
) -> tuple[FeedState, list[FeedRates]]:
    """`parse` gives an answer's latest rates and each day of them that enters the history (none if refused)."""
    day_in_force = feed.rates.date if feed.rates is not None else file_day(feed.source, file_rates)
    kept = f"the rates of {day_in_force}" if day_in_force else "the data file's rates"
    try:
        answer = get(url)
        rates, days = parse(answer.body)
        _check_rebased(rates, file_rates.base)
        tomorrow = now.date() + dt.timedelta(days=1)
        if rates.date > tomorrow:
            raise FeedError(f"its day {rates.date} is after tomorrow ({tomorrow}, UTC)")
        if day_in_force is not None and rates.date < day_in_force:
            raise FeedError(f"ignored: its day {rates.date} is older than the rates in force ({day_in_force})")
    except Exception as err:  # a FeedError, or anything else an answer could cause: the rates in force stay
        reason = str(err) if isinstance(err, FeedError) else f"cannot use the answer ({type(err).__name__})"
        log.warning("Rates feed %s (%s) refused: %s; keeping %s.", feed.source, shown_url(feed.url or ""), reason, kept)
        return dataclasses.replace(feed, checked_at=now, error=reason, held=None), []
    answered = shown_url(answer.url)
    moves = () if accept else ((day.date, unusual_move(day, in_force, file_rates)) for day in (rates, *days))
    held, move = next(((day, move) for day, move in moves if move is not None), (None, None))
    if move is not None:
        reason = f"held back: its day {held} {move}; if it is right, take it with `{ACCEPT}`, then HUP"
        log.warning("Rates feed %s (%s) %s; keeping %s.", feed.source, answered, reason, kept)
        return dataclasses.replace(feed, checked_at=now, error=reason, held=held), []
    changed = feed.rates is None or (feed.rates.rates, feed.rates.dates) != (rates.rates, rates.dates)
    if changed:
        log.info("Rates feed %s (%s): %d rates of %s.", feed.source, answered, len(rates.rates), rates.date)
    changed_at = now if changed else feed.changed_at
    return dataclasses.replace(feed, rates=rates, checked_at=now, error=None, held=None, changed_at=changed_at), days


def file_day(source: str, file_rates: Rates) -> dt.date | None:
    """The newest day of the data file's rates from `source` (`ECB`, `Frankfurter`), or None if it holds none."""
    return max((s.date for s in file_rates.sources.values() if s.source == source), default=None)


def unusual_move(rates: FeedRates, in_force: Rates, file_rates: Rates) -> str | None:
    """Why the rates move too far to serve unconfirmed, or None; one the data file holds (`--accept`) is confirmed."""
    moved = too_far(in_force, rates)
    if moved is not None:
        move, codes = moved
        taken = live_rates(file_rates, [rates])
        if not all(
            taken.sources[code] == file_rates.sources[code]
            and float(f"{taken.interbank[code]:.6g}") == file_rates.interbank[code]
            for code in codes
        ):
            return move
    # the rates in force are the feeds' last accepted days, which a feed could walk far in steps each under the bound;
    # the data file's only an operator changes
    moved = too_far(file_rates, rates)
    return None if moved is None else f"{moved[0]} from the data file's rates"


def _check_rebased(rates: FeedRates, base: str) -> None:
    per_base = {**rates.rates, rates.base: 1.0}
    if base not in per_base:
        raise FeedError(f"no {base} rate to re-base the others through")
    low, high = RATE_RANGE
    for code, rate in per_base.items():
        if not low <= (rebased := rate / per_base[base]) <= high:
            raise FeedError(f"refused whole: the {code} rate per {base}, {rebased:g}, is not from {low:g} to {high:g}")


def parse_ecb_daily(body: bytes) -> FeedRates:
    try:
        date, rates = parse_daily_xml(body)
    except ElementTree.ParseError as err:
        raise FeedError(f"not XML, or cut short ({err})") from None
    except (KeyError, ValueError) as err:
        raise FeedError("no day in the file" if "<Cube time" in str(err) else f"not the ECB's layout ({err})") from None
    if not rates:
        raise FeedError("no rates in the answer")
    for code, rate in rates.items():
        if not CURRENCY_CODE.fullmatch(code):
            raise FeedError(f"{code[:10]!r} is not a currency code")
        _usable(code, rate)
    return FeedRates(ECB, "EUR", rates, dict.fromkeys(rates, date))


def frankfurter_url(base_url: str, base: str, quotes: Iterable[str], start: dt.date | None) -> str:
    query = {"base": base}
    if quotes:
        query["quotes"] = ",".join(sorted(quotes))
    if start:
        query["from"] = start.isoformat()
    return f"{base_url.rstrip('/')}/rates?{urllib.parse.urlencode(query, safe=',')}"


def parse_frankfurter(body: bytes, base: str, since: dt.date) -> tuple[FeedRates, list[FeedRates]]:
    """Frankfurter's `[{"date", "base", "quote", "rate"}, …]` as each quote's newest rate, and each day from `since` on
    (oldest first), as a feed's rates; FeedError unless every row is usable."""
    try:
        rows = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise FeedError(f"not JSON, or cut short ({str(err)[:80]})") from None
    if not isinstance(rows, list):
        raise FeedError("not a JSON array of rates")
    result = []
    for row in rows:
        if not isinstance(row, dict) or not {"date", "base", "quote", "rate"} <= row.keys():
            raise FeedError("a row is not {date, base, quote, rate}")
        if row["base"] != base:
            raise FeedError(f"a row's base is {str(row['base'])[:10]!r}, not {base}")
        try:
            day = dt.date.fromisoformat(row["date"])
        except (TypeError, ValueError):
            raise FeedError(f"a row's date {str(row['date'])[:20]!r} is not YYYY-MM-DD") from None
        quote, rate = row["quote"], row["rate"]
        if not isinstance(quote, str) or not CURRENCY_CODE.fullmatch(quote):
            raise FeedError(f"a row's quote {str(quote)[:10]!r} is not a currency code")
        if isinstance(rate, bool) or not isinstance(rate, (int, float)):
            raise FeedError(f"refused whole: the {quote} rate {str(rate)[:20]} is not a number")
        result.append((day, quote, _usable(quote, float(rate) if abs(rate) < 1e300 else math.inf)))
    if not result:
        raise FeedError("no rates in the answer")
    latest: dict[str, float] = {}
    dates: dict[str, dt.date] = {}
    days: dict[dt.date, dict[str, float]] = {}
    for day, quote, rate in sorted(result):
        latest[quote], dates[quote] = rate, day
        if day >= since:
            days.setdefault(day, {})[quote] = rate
    every_day = [FeedRates(FRANKFURTER, base, rates, dict.fromkeys(rates, day)) for day, rates in days.items()]
    return FeedRates(FRANKFURTER, base, latest, dates), every_day


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a rate")


def _usable(code: str, rate: float) -> float:
    low, high = RATE_RANGE
    if not math.isfinite(rate) or rate <= 0:
        raise FeedError(f"refused whole: the {code} rate {rate} is not a number above 0")
    if not low <= rate <= high:
        raise FeedError(f"refused whole: the {code} rate {rate} is not from {low:g} to {high:g}")
    return rate
