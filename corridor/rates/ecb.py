"""The European Central Bank's euro reference rates (eurofxref): read, re-base, merge into a data file."""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import math
import re
import zipfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from xml.etree import ElementTree

from corridor.data.files import NotRegularFile, read_regular_file
from corridor.domain.model import ECB, RateSource, build_dataset
from corridor.domain.rates import FeedRates, live_rates
from corridor.settings import CommandError

_XML_NAMESPACE = "{http://www.ecb.int/vocabulary/2002-08-01/eurofxref}"
_MONTHS = "January February March April May June July August September October November December".split()
CURRENCY_CODE = re.compile(r"[A-Z]{3}")
MAX_BYTES = 16 * 2**20  # a rate file, or the CSV in its zip: the whole history since 1999 is about 2 MB


def read_ecb(path: str) -> FeedRates:
    """`eurofxref-daily.xml`, `eurofxref.zip` or `eurofxref-hist.zip`, or the CSV inside either, as the ECB feed's
    rates of the newest day it holds; CommandError for a file that is not one, or not within bounds."""
    try:
        data = read_regular_file(path, MAX_BYTES)
    except NotRegularFile as err:
        raise CommandError(str(err)) from None
    except OSError as err:
        raise CommandError(f"{path}: cannot read: {err.strerror}.") from None
    _check_size(path, len(data))
    try:
        if data.startswith(b"PK"):
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                (name,) = [n for n in archive.namelist() if n.lower().endswith(".csv")]
                _check_size(path, archive.getinfo(name).file_size)
                date, rates = _parse_csv(archive.read(name).decode("utf-8-sig"))
        elif data.removeprefix(codecs.BOM_UTF8).lstrip().startswith(b"<"):
            date, rates = parse_daily_xml(data)
        else:
            date, rates = _parse_csv(data.decode("utf-8-sig"))
    except (ValueError, KeyError, IndexError, ElementTree.ParseError, zipfile.BadZipFile, UnicodeDecodeError) as err:
        raise CommandError(f"{path}: not an ECB reference-rate file in a known format ({err}).") from None
    tomorrow = dt.datetime.now(dt.UTC).date() + dt.timedelta(days=1)
    if date > tomorrow:  # as the service refuses such a day from the feed: it would lock out every real file after it
        raise CommandError(f"{path}: its day {date} is after tomorrow ({tomorrow}, UTC); nothing was written.")
    for code, rate in rates.items():
        if not CURRENCY_CODE.fullmatch(code) or not math.isfinite(rate) or rate <= 0:
            raise CommandError(f"{path}: unusable rate {code}={rate}.")
    if not rates:
        raise CommandError(f"{path}: holds no rates.")
    return FeedRates(ECB, "EUR", rates, dict.fromkeys(rates, date))


def _check_size(path: str, size: int) -> None:
    if size > MAX_BYTES:
        raise CommandError(
            f"{path}: refused: it holds more than {MAX_BYTES // 2**20} MB, where the ECB's files hold a few; nothing "
            "was written."
        )


def parse_daily_xml(data: bytes) -> tuple[dt.date, dict[str, float]]:
    # the ECB's file declares no DTD; expat in Python 3.11 refuses entity expansion attacks
    day = ElementTree.fromstring(data).find(f".//{_XML_NAMESPACE}Cube[@time]")
    if day is None:
        raise ValueError("no <Cube time=…> element")
    given = [(cube.attrib["currency"], float(cube.attrib["rate"])) for cube in day.findall(f"{_XML_NAMESPACE}Cube")]
    _once_each(code for code, _ in given)
    return dt.date.fromisoformat(day.attrib["time"]), dict(given)


def _once_each(codes: Iterable[str]) -> None:
    """ValueError naming a currency given twice: which of its rates is meant cannot be told."""
    repeated = [code for code, count in Counter(codes).items() if count > 1]
    if repeated:
        raise ValueError(f"{repeated[0]} is given twice")


def _parse_csv(text: str) -> tuple[dt.date, dict[str, float]]:
    """The newest day's rates: eurofxref-hist's rows are newest first, but a copy may have been sorted otherwise."""
    header, *days = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text)) if row]
    if header[0] != "Date":
        raise ValueError("the first column is not Date")
    _once_each(code for code in header[1:] if code)  # a trailing comma makes one header more, empty
    if not days:
        raise ValueError("no day under the header")
    values = max(days, key=lambda values: _day(values[0]))
    given = zip(header[1:], values[1:], strict=False)
    return _day(values[0]), {code: float(value) for code, value in given if code and value not in ("", "N/A")}


def _day(text: str) -> dt.date:
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):  # eurofxref-hist's layout
        return dt.date.fromisoformat(text)
    day, month, year = text.split()  # "20 November 2026", whatever the locale
    return dt.date(int(year), _MONTHS.index(month) + 1, int(day))


@dataclass
class ImportReport:
    changed: list[tuple[str, float, float, RateSource]] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


def merge_into(raw: dict, feeds: list[FeedRates]) -> ImportReport:
    """Lay the feeds' rates over the data file's currencies, in place, to 6 significant figures, keeping each margin."""
    table, consumer, base = raw["rates"]["interbank"], raw["rates"]["consumer"], raw["rates"]["base"]
    if not any(base in {*feed.rates, feed.base} for feed in feeds):
        raise CommandError(f"No feed gives a {base} rate, so their rates cannot be re-based to {base}.")
    sources = raw["rates"].setdefault("sources", {})
    dated = {code: {"source": s["source"], "date": dt.date.fromisoformat(s["date"])} for code, s in sources.items()}
    as_of = dt.date.fromisoformat(raw["as_of"])
    before = build_dataset({**raw, "as_of": as_of, "rates": {**raw["rates"], "sources": dated}}).rates
    after = live_rates(before, feeds)
    given = {code for feed in feeds for code in {*feed.rates, feed.base}}
    report = ImportReport(ignored=sorted(given - set(table) - {base}))
    for code in sorted(table):
        if code == base:
            continue
        rate = float(f"{after.interbank[code]:.6g}")
        if after.sources[code] == before.sources[code] and rate == table[code]:
            (report.unchanged if code in given else report.kept).append(code)
            continue
        consumer[code] = float(f"{consumer[code] * rate / table[code]:.6g}")
        report.changed.append((code, table[code], rate, after.sources[code]))
        table[code] = rate
        sources[code] = {"source": after.sources[code].source, "date": after.sources[code].date.isoformat()}
    raw["rates"]["sources"] = dict(sorted(sources.items()))
    return report
