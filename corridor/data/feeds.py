"""The two rate feeds over HTTP: the ECB's daily reference file and Frankfurter's rates, read and checked."""

from __future__ import annotations

import datetime as dt
import http.client
import json
import math
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Iterable, Mapping
from xml.etree import ElementTree

from corridor import __version__
from corridor.domain.model import ECB, FRANKFURTER
from corridor.domain.rates import FeedRates

TIMEOUT_S = 10.0  # for a whole answer, however slowly it trickles in
MAX_BYTES = 2 * 2**20
_XML_NAMESPACE = "{http://www.ecb.int/vocabulary/2002-08-01/eurofxref}"
_CODE = re.compile(r"[A-Z]{3}")


class FeedError(Exception):
    """A feed's answer that cannot be used; the message is the reason, for a log line and for health."""


def feed_url(setting: str) -> str | None:
    """A feed's URL from its setting; None when it is `off` or empty."""
    setting = setting.strip()
    return None if setting.lower() in ("", "off") else setting


def shown_url(url: str) -> str:
    """The URL as a log line may show it: no credentials, no query."""
    parts = urllib.parse.urlsplit(url)
    try:
        host = parts.hostname or "" if parts.port is None else f"{parts.hostname}:{parts.port}"
    except ValueError:  # a port that is not a number
        host = parts.hostname or ""
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


def get(url: str, timeout: float | None = None, max_bytes: int = MAX_BYTES) -> bytes:
    """The body of a 200 answer to GET `url`, within `timeout` seconds (TIMEOUT_S) and `max_bytes`; or FeedError."""
    timeout = TIMEOUT_S if timeout is None else timeout
    deadline = time.monotonic() + timeout
    request = urllib.request.Request(url, headers={"User-Agent": f"corridor-api/{__version__}"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            if answer.status != 200:
                raise FeedError(f"HTTP {answer.status} instead of 200")
            body = bytearray()
            while chunk := answer.read1(65536):
                body += chunk
                if len(body) > max_bytes:
                    raise FeedError(f"the answer is over {max_bytes:,} bytes")
                if time.monotonic() > deadline:
                    raise FeedError(f"no whole answer within {timeout:g} s")
            if answer.length:  # bytes its Content-Length promised that never came
                raise FeedError("the answer was cut short")
            return bytes(body)
    except urllib.error.HTTPError as err:
        raise FeedError(f"HTTP {err.code} instead of 200") from None
    except urllib.error.URLError as err:
        raise FeedError(f"cannot connect: {_reason(err.reason)}") from None
    except (TimeoutError, socket.timeout):
        raise FeedError(f"no whole answer within {timeout:g} s") from None
    except http.client.IncompleteRead:
        raise FeedError("the answer was cut short") from None
    except (http.client.HTTPException, OSError, ValueError) as err:
        raise FeedError(f"cannot read the answer: {_reason(err)}") from None


def _reason(reason: Any) -> str:
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused"
    if isinstance(reason, (TimeoutError, socket.timeout)):
        return "timed out"
    return getattr(reason, "strerror", None) or str(reason) or type(reason).__name__


def parse_ecb_daily(body: bytes) -> FeedRates:
    """The ECB's eurofxref-daily.xml: one day's euro rates; FeedError unless every rate is usable."""
    try:
        root = ElementTree.fromstring(body)  # expat refuses entity-expansion attacks; the file has no DTD
    except ElementTree.ParseError as err:
        raise FeedError(f"not XML, or cut short ({err})") from None
    day = root.find(f".//{_XML_NAMESPACE}Cube[@time]")
    if day is None:
        raise FeedError("no day in the file (no <Cube time=…>)")
    try:
        date = dt.date.fromisoformat(day.attrib["time"])
        rates = {cube.attrib["currency"]: float(cube.attrib["rate"]) for cube in day.findall(f"{_XML_NAMESPACE}Cube")}
    except (KeyError, ValueError) as err:
        raise FeedError(f"not the ECB's layout ({err})") from None
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
        if not isinstance(quote, str) or not _CODE.fullmatch(quote):
            raise FeedError(f"a row's quote {str(quote)[:10]!r} is not a currency code")
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not math.isfinite(rate) or rate <= 0:
            raise FeedError(f"refused whole: the {quote} rate {str(rate)[:20]} is not a number above 0")
        result.append((day, quote, float(rate)))
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


def frankfurter_series(rows: list[tuple[dt.date, str, float]]) -> dict[str, dict[dt.date, float]]:
    """Quote → day → rate."""
    series: dict[str, dict[dt.date, float]] = {}
    for day, quote, rate in rows:
        series.setdefault(quote, {})[day] = rate
    return series


def merged_series(held: Mapping[str, Mapping[dt.date, float]], fetched: Mapping[str, Mapping[dt.date, float]],
                  since: dt.date) -> dict[str, dict[dt.date, float]]:
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
        if not _CODE.fullmatch(code):
            raise FeedError(f"{code[:10]!r} is not a currency code")
        if not math.isfinite(rate) or rate <= 0:
            raise FeedError(f"refused whole: the {code} rate {rate} is not a number above 0")
    return FeedRates(source, base, rates, dates)
