"""The two rate feeds' answers, read and checked: the ECB's daily reference file and Frankfurter's rates (fetched by
corridor/rates/fetch.py)."""

from __future__ import annotations

import datetime as dt
import json
import math
import urllib.parse
from collections.abc import Iterable, Mapping
from xml.etree import ElementTree

from corridor.domain.model import ECB, FRANKFURTER, RATE_RANGE
from corridor.domain.rates import FeedRates
from corridor.rates.ecb import CURRENCY_CODE, parse_daily_xml
from corridor.rates.fetch import FeedError


def parse_ecb_daily(body: bytes) -> FeedRates:
    """The ECB's eurofxref-daily.xml: one day's euro rates; FeedError unless every rate is usable."""
    try:
        date, rates = parse_daily_xml(body)
    except ElementTree.ParseError as err:
        raise FeedError(f"not XML, or cut short ({err})") from None
    except (KeyError, ValueError) as err:
        raise FeedError("no day in the file" if "<Cube time" in str(err) else f"not the ECB's layout ({err})") from None
    return _checked(ECB, "EUR", rates, {code: date for code in rates})


def frankfurter_url(base_url: str, base: str, quotes: Iterable[str] = (), start: dt.date | None = None) -> str:
    """`{url}/rates?base=…[&quotes=…][&from=…]`."""
    query = {"base": base}
    if quotes:
        query["quotes"] = ",".join(sorted(quotes))
    if start:
        query["from"] = start.isoformat()
    return f"{base_url.rstrip('/')}/rates?{urllib.parse.urlencode(query, safe=',')}"


def parse_frankfurter(body: bytes, base: str) -> list[tuple[dt.date, str, float]]:
    """Frankfurter's `[{"date", "base", "quote", "rate"}, …]` as (day, quote, rate); FeedError unless all usable."""
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
    return result


def frankfurter_latest(rows: list[tuple[dt.date, str, float]], base: str) -> FeedRates:
    """Each quote's newest row."""
    rates: dict[str, float] = {}
    dates: dict[str, dt.date] = {}
    for day, quote, rate in sorted(rows):
        rates[quote], dates[quote] = rate, day
    return _checked(FRANKFURTER, base, rates, dates)


def frankfurter_days(rows: list[tuple[dt.date, str, float]], base: str, since: dt.date) -> list[FeedRates]:
    """Each day from `since` on as a feed's rates, oldest first."""
    days: dict[dt.date, dict[str, float]] = {}
    for day, quote, rate in sorted(rows):
        if day >= since:
            days.setdefault(day, {})[quote] = rate
    return [FeedRates(FRANKFURTER, base, rates, dict.fromkeys(rates, day)) for day, rates in days.items()]


def frankfurter_series(rows: list[tuple[dt.date, str, float]]) -> dict[str, dict[dt.date, float]]:
    """Quote → day → rate."""
    series: dict[str, dict[dt.date, float]] = {}
    for day, quote, rate in rows:
        series.setdefault(quote, {})[day] = rate
    return series


def merged_series(
    held: Mapping[str, Mapping[dt.date, float]], fetched: Mapping[str, Mapping[dt.date, float]], since: dt.date
) -> dict[str, dict[dt.date, float]]:
    """The held series extended (and corrected) by the fetched one, without days before `since`."""
    merged = {code: {day: rate for day, rate in days.items() if day >= since} for code, days in held.items()}
    for code, days in fetched.items():
        merged.setdefault(code, {}).update((day, rate) for day, rate in days.items() if day >= since)
    return merged


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a rate")


def _checked(source: str, base: str, rates: dict[str, float], dates: dict[str, dt.date]) -> FeedRates:
    if not rates:
        raise FeedError("no rates in the answer")
    for code, rate in rates.items():
        if not CURRENCY_CODE.fullmatch(code):
            raise FeedError(f"{code[:10]!r} is not a currency code")
        _usable(code, rate)
    return FeedRates(source, base, rates, dates)


def _usable(code: str, rate: float) -> float:
    low, high = RATE_RANGE
    if not math.isfinite(rate) or rate <= 0:
        raise FeedError(f"refused whole: the {code} rate {rate} is not a number above 0")
    if not low <= rate <= high:
        raise FeedError(f"refused whole: the {code} rate {rate} is not from {low:g} to {high:g}")
    return rate
