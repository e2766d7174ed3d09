"""The European Central Bank's euro reference rates (eurofxref): read, re-base, merge into a data file."""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import re
import zipfile
from dataclasses import dataclass, field
from xml.etree import ElementTree

from corridor.domain.model import ECB, RateSource, build_dataset
from corridor.domain.rates import FeedRates, live_rates
from corridor.settings import CommandError

_XML_NAMESPACE = "{http://www.ecb.int/vocabulary/2002-08-01/eurofxref}"
_MONTHS = "January February March April May June July August September October November December".split()
CURRENCY_CODE = re.compile(r"[A-Z]{3}")


def read_ecb(path: str) -> FeedRates:
    """`eurofxref-daily.xml`, `eurofxref.zip`, or the `eurofxref.csv` inside it, as the ECB feed's rates."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        raise CommandError(f"{path}: cannot read: {err.strerror}.") from None
    try:
        if data.startswith(b"PK"):
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                (name,) = [n for n in archive.namelist() if n.lower().endswith(".csv")]
                date, rates = _parse_csv(archive.read(name).decode("utf-8-sig"))
        elif data.lstrip().startswith(b"<"):
            date, rates = parse_daily_xml(data)
        else:
            date, rates = _parse_csv(data.decode("utf-8-sig"))
    except (ValueError, KeyError, IndexError, ElementTree.ParseError, zipfile.BadZipFile, UnicodeDecodeError) as err:
        raise CommandError(f"{path}: not an ECB reference-rate file in a known format ({err}).") from None
    for code, rate in rates.items():
        if not CURRENCY_CODE.fullmatch(code) or not math.isfinite(rate) or rate <= 0:
            raise CommandError(f"{path}: unusable rate {code}={rate}.")
    if not rates:
        raise CommandError(f"{path}: holds no rates.")
    return FeedRates(ECB, "EUR", rates, dict.fromkeys(rates, date))


def parse_daily_xml(data: bytes) -> tuple[dt.date, dict[str, float]]:
    # the ECB's file declares no DTD; expat in Python 3.11 refuses entity expansion attacks
    day = ElementTree.fromstring(data).find(f".//{_XML_NAMESPACE}Cube[@time]")
    if day is None:
        raise ValueError("no <Cube time=…> element")
    rates = {cube.attrib["currency"]: float(cube.attrib["rate"]) for cube in day.findall(f"{_XML_NAMESPACE}Cube")}
    return dt.date.fromisoformat(day.attrib["time"]), rates


def _parse_csv(text: str) -> tuple[dt.date, dict[str, float]]:
    header, values = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text)) if row][:2]
    if header[0] != "Date":
        raise ValueError("the first column is not Date")
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", values[0]):  # eurofxref-hist's layout: its newest day first
        date = dt.date.fromisoformat(values[0])
    else:
        day, month, year = values[0].split()  # "20 November 2026", whatever the locale
        date = dt.date(int(year), _MONTHS.index(month) + 1, int(day))
    given = zip(header[1:], values[1:], strict=False)  # a trailing comma makes one header more
    return date, {code: float(value) for code, value in given if code and value not in ("", "N/A")}


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
