"""The European Central Bank's euro reference rates (eurofxref): read, re-base, merge."""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import re
import zipfile
from dataclasses import dataclass, field
from xml.etree import ElementTree

from corridor.settings import ConfigError

_XML_NAMESPACE = "{http://www.ecb.int/vocabulary/2002-08-01/eurofxref}"
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_CODE = re.compile(r"[A-Z]{3}")


class EcbError(ConfigError):
    """An ECB file this command cannot use."""


@dataclass(frozen=True)
class EcbRates:
    """One day's reference rates: units of each currency per 1 EUR."""

    date: dt.date
    per_euro: dict[str, float]


def read_ecb(path: str) -> EcbRates:
    """`eurofxref-daily.xml`, `eurofxref.zip`, or the `eurofxref.csv` inside it."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        raise EcbError(f"{path}: cannot read: {err.strerror}.") from None
    try:
        if data.startswith(b"PK"):
            date, rates = _parse_csv(_csv_in_zip(data))
        elif data.lstrip().startswith(b"<"):
            date, rates = _parse_xml(data)
        else:
            date, rates = _parse_csv(data.decode("utf-8-sig"))
    except (ValueError, KeyError, IndexError, ElementTree.ParseError, zipfile.BadZipFile, UnicodeDecodeError) as err:
        raise EcbError(f"{path}: not an ECB reference-rate file in a known format ({err}).") from None
    for code, rate in rates.items():
        if not _CODE.fullmatch(code) or not math.isfinite(rate) or rate <= 0:
            raise EcbError(f"{path}: unusable rate {code}={rate}.")
    if not rates:
        raise EcbError(f"{path}: holds no rates.")
    return EcbRates(date, rates)


def _csv_in_zip(data: bytes) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        (name,) = [n for n in archive.namelist() if n.lower().endswith(".csv")]
        return archive.read(name).decode("utf-8-sig")


def _parse_xml(data: bytes) -> tuple[dt.date, dict[str, float]]:
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
    day, month, year = values[0].split()  # "20 November 2026", whatever the locale
    date = dt.date(int(year), _MONTHS.index(month) + 1, int(day))
    rates = {code: float(value) for code, value in zip(header[1:], values[1:]) if code and value not in ("", "N/A")}
    return date, rates


@dataclass
class ImportReport:
    """What an import did to the interbank table."""

    changed: list[tuple[str, float, float]] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


def merge_into(raw: dict, ecb: EcbRates) -> ImportReport:
    """Re-base the ECB's rates to the data's base; update its interbank table and `as_of` in place."""
    # only currencies already in the tables (both must hold the same ones); 6 significant
    # figures, like the ECB's own
    per_euro = {**ecb.per_euro, "EUR": 1.0}
    base = raw["rates"]["base"]
    if base not in per_euro:
        raise EcbError(f"The ECB file has no {base} rate, so its rates cannot be re-based to {base}.")
    table = raw["rates"]["interbank"]
    report = ImportReport(ignored=sorted(set(per_euro) - set(table)))
    for code in sorted(table):
        if code == base:
            continue
        if code not in per_euro:
            report.kept.append(code)
            continue
        rate = float(f"{per_euro[code] / per_euro[base]:.6g}")
        if rate == table[code]:
            report.unchanged.append(code)
        else:
            report.changed.append((code, table[code], rate))
            table[code] = rate
    raw["as_of"] = ecb.date.isoformat()
    return report
