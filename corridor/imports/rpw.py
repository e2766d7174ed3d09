"""The survey's rows read from its workbook or a CSV: a row that cannot be read is skipped with its reason."""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import math
import re
from collections.abc import Callable, Iterator
from typing import Any

from corridor.domain.countries import is_country, is_known_currency
from corridor.domain.observations import Observation, OutOfBounds, PricePoint, bounded, last_period
from corridor.imports.tabular import ImportRefused, Rows, Skips, Table, column_key

SHEETS = ("Dataset (from Q2 2016)", "Dataset (up to Q1 2016)")  # the published workbook's, read in this order
HEADER_ROWS = 10  # a sheet's header is among its first rows
POINT = ("lcu amount", "lcu fee", "fx margin", "total cost %")  # a price point's figures, as PricePoint takes them
REQUIRED = (
    *("period", "source code", "destination code", "firm", "cc1 lcu amount", "cc1 lcu code"),
    *("cc1 lcu fee", "cc1 fx margin", "cc1 total cost %", "transparent"),
)
OPTIONAL = (
    *("firm type", "payment instrument", "speed actual", "pickup method", "date", "inter lcu bank fx"),
    *("note1", "note2", "cc1 denomination amount", "source region", "destination region", "cc2 lcu code"),
    *("cc2 denomination amount", *(f"cc2 {name}" for name in POINT)),
)
_PERIOD = re.compile(r"([0-9]{4})\s*[-_ ]?\s*(?:Q([1-4])|([1-4])Q)", re.IGNORECASE)
_EXCEL_EPOCH = dt.date(1899, 12, 30)  # day 0 of a date an Excel cell holds as a number
_YES, _NO = {"yes", "y", "true", "1"}, {"no", "n", "false", "0"}

Get = Callable[[str], Any]  # a row's cell by column name: stripped text, None for a blank


class Skip(Exception): ...


def sheets_of(path: str, kind: str, tables: list[Table]) -> list[Table]:
    """The file's sheets with the required columns, found, and the rows under them, the published ones first."""
    named = {table.name.strip().lower(): table for table in tables}
    order = [named[s.lower()] for s in SHEETS if s.lower() in named]
    order += [table for table in tables if table not in order]
    sheets, missing = [], {}
    for table in order:
        found = _header(table.rows)
        if isinstance(found, list):
            missing[table.name] = found
        else:
            size = table.size - found[0] if table.size else None
            sheets.append(Table(table.name, table.rows, size, found[1]))
    if sheets:
        return sheets
    if kind == "CSV":
        raise ImportRefused(f"{path}: no header row with the required columns; missing: {', '.join(missing['CSV'])}.")
    raise ImportRefused(
        f"{path}: no sheet has a header row with the required columns; "
        + "; ".join(f"{name!r} lacks {', '.join(lack)}" for name, lack in missing.items())
        + "."
    )


def _header(rows: Rows) -> tuple[int, dict[str, int]] | list[str]:
    """The header among the first rows: its row number and column keys; or what the best candidate lacks."""
    best: list[str] = list(REQUIRED)
    for number, row in itertools.islice(rows, HEADER_ROWS):
        columns: dict[str, int] = {}
        for index, name in enumerate(row):
            columns.setdefault(column_key(name), index)
        lacking = [name for name in REQUIRED if column_key(name) not in columns]
        if not lacking:
            return number, columns
        if len(lacking) < len(best):
            best = lacking
    return best


def observations(sheet: Table, skips: Skips) -> Iterator[tuple[int, Observation]]:
    """The sheet's readable rows with their numbers; the others counted in `skips`, blank ones passed over unsaid."""
    at = {name: sheet.columns.get(column_key(name)) for name in (*REQUIRED, *OPTIONAL)}
    if at["note1"] is None:  # as one of the sheets names it
        at["note1"] = sheet.columns.get(column_key("standard note"))
    where = "row {}" if sheet.name == "CSV" else f"{sheet.name!r} row {{}}"
    last = last_period(dt.date.today())
    for number, cells in sheet.rows:
        # the count first: a sheet's rows of empty cells pass in C
        if cells.count(None) == len(cells) or not any(cell not in (None, "") and str(cell).strip() for cell in cells):
            continue

        def get(name: str, cells: tuple = cells) -> Any:
            index = at[name]
            value = None if index is None or index >= len(cells) else cells[index]
            return (value.strip() or None) if isinstance(value, str) else value

        try:
            yield number, bounded(_observation(get), last)
        except (Skip, OutOfBounds) as skip:
            skips.add(str(skip), where.format(number))


_THOUSANDS = re.compile(r"[-+]?[1-9][0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]*)?")  # not 0,315: a decimal comma


def _observation(get: Get) -> Observation:
    period = period_of(get("period"))
    countries = [_country(get(name), name) for name in ("source code", "destination code")]
    if countries[0] == countries[1]:
        raise Skip("source code and destination code are the same country")
    if get("firm") is None:
        raise Skip("no firm")
    currency = str(get("cc1 lcu code") or "").strip().upper()
    if not is_known_currency(currency):
        raise Skip("cc1 lcu code is not an ISO 4217 currency")
    amount, fee, margin, total = (_number(get(f"cc1 {name}"), f"cc1 {name}") for name in POINT)
    return Observation(
        period=period,
        source_country=countries[0],
        destination_country=countries[1],
        firm=str(get("firm")),
        currency=currency,
        cc1=PricePoint(amount, fee, margin, total, _optional(get("cc1 denomination amount"))),
        transparent=_yes_no(get("transparent")),
        cc2=_second_point(get, currency),
        interbank=_optional(get("inter lcu bank fx")),
        firm_type=_text(get("firm type")),
        payment=_text(get("payment instrument")),
        speed=_text(get("speed actual")),
        pickup=_text(get("pickup method")),
        collected=date_of(get("date")),
        source_region=_text(get("source region")),
        destination_region=_text(get("destination region")),
        note="; ".join(filter(None, (_text(get(name)) for name in ("note1", "note2")))) or None,
    )


def period_of(value: Any) -> str:
    """`2025_3Q`, `2025Q3`, `2025 Q3` → `2025Q3`; Skip otherwise."""
    match = _PERIOD.fullmatch(str(value or "").strip())
    if not match:
        raise Skip("unreadable period")
    return f"{match[1]}Q{match[2] or match[3]}"


def _country(value: Any, name: str) -> str:
    code = str(value or "").strip().upper()
    if not is_country(code):
        raise Skip(f"{name} is not an ISO 3166-1 alpha-3 country")
    return code


def _number(value: Any, name: str) -> float:
    number = _optional(value)
    if number is None:
        raise Skip(f"{name} is not a number")
    if name == "cc1 lcu amount" and number <= 0:  # of the figures, the amount alone must be above 0
        raise Skip(f"{name} is not above 0")
    return number


def _optional(value: Any) -> float | None:
    """A number a cell holds, or text of one (padded, with a `%` or commas between thousands); None otherwise: a decimal
    comma (`1,81`) is not read as thousands."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        value = value.replace("%", "").replace("\u00a0", "").strip()
        if "," in value:
            if not _THOUSANDS.fullmatch(value):
                return None
            value = value.replace(",", "")
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _second_point(get: Get, currency: str) -> PricePoint | None:
    """The cc2 price point if all its figures read, in the sending currency, amount above 0; else None (cc1 alone)."""
    code = str(get("cc2 lcu code") or currency).strip().upper()
    figures = [figure for name in POINT if (figure := _optional(get(f"cc2 {name}"))) is not None]
    if code != currency or len(figures) < len(POINT) or figures[0] <= 0:
        return None
    amount, fee, margin, total = figures
    return PricePoint(amount, fee, margin, total, _optional(get("cc2 denomination amount")))


def _yes_no(value: Any) -> bool:
    text = str("" if value is None else value).strip().lower()
    if text in _YES or text in _NO:
        return text in _YES
    raise Skip("transparent is neither yes nor no")


def _text(value: Any) -> str | None:
    return " ".join(str(value).split()) or None if value is not None else None


def date_of(value: Any) -> dt.date | None:
    """A cell's date: a date, a datetime, ISO text (a time after it ignored) or an Excel day number; else None."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 20000 <= value <= 80000:
        return _EXCEL_EPOCH + dt.timedelta(days=int(value))
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return dt.date.fromisoformat(value.strip()[:10])
    return None
