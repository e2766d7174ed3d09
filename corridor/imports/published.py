"""The World Bank's published average cost of each corridor by quarter (DataBank, series `ATCR.CORR`): a DataBank CSV
export read row by row, and stored as one figure per country pair and period in one transaction."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from sqlalchemy import Double, Integer, String, delete, func, select, tuple_
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.orm import Mapped, mapped_column

from corridor.data.database import Model, read_versioned
from corridor.domain.published import PublishedCosts
from corridor.imports.store import ImportRun, batches, insert_all, record, transaction
from corridor.imports.tabular import ImportRefused, Skips, column_key, open_tables

SERIES = "ATCR.CORR"
# a quarter's column as DataBank heads it: `2015Q2 [YR2015Q2]`, or `2015Q2` alone
_QUARTER = re.compile(r"^(\d{4})Q([1-4])(?: \[YR\1Q\2\])?$")
_CODE = re.compile(r"^[A-Z]{3}$")
NO_FIGURE = ".."
LOWEST, HIGHEST = -100.0, 1000.0  # a cost in percent no survey can leave (the survey import's bounds)
_COLUMNS = {
    "sending": "sendingcountriescode",
    "sending_name": "sendingcountriesname",
    "series": "seriescode",
    "receiving": "receivingcountriescode",
    "receiving_name": "receivingcountriesname",
}


class PublishedImport(ImportRun, Model):
    __tablename__ = "published_imports"

    figures: Mapped[int] = mapped_column(Integer())


class PublishedCost(Model):
    """The World Bank's average total cost of sending USD 200 in a corridor in a period, in percent, as published."""

    __tablename__ = "published_costs"

    # its columns in the order PublishedCosts.build takes a row's
    source_country: Mapped[str] = mapped_column(String(3), primary_key=True)
    destination_country: Mapped[str] = mapped_column(String(3), primary_key=True)
    period: Mapped[str] = mapped_column(String(6), primary_key=True)
    cost: Mapped[float] = mapped_column(Double())
    source_name: Mapped[str] = mapped_column(String(255))
    destination_name: Mapped[str] = mapped_column(String(255))


_COSTS = PublishedCost.metadata.tables[PublishedCost.__tablename__]


@dataclass
class PublishedReport:
    path: str
    periods: list[str]
    rows: int = 0
    corridors: int = 0
    figures: dict[tuple[str, str, str], tuple[float, str, str]] = field(default_factory=dict)
    skips: Skips = field(default_factory=Skips)
    import_id: int | None = None  # None: nothing changed
    added: int = 0
    revised: int = 0
    removed: int = 0

    def lines(self) -> list[str]:
        first = (
            f"{os.path.basename(self.path)}: {self.rows:,} rows read, {len(self.figures):,} figures of "
            f"{self.corridors:,} corridors, {self.periods[0]} to {self.periods[-1]}"
        )
        if self.import_id is None:
            return [f"{first}. Nothing changed: every figure is stored already.", *self.skips.lines()]
        done = f"{self.added:,} new, {self.revised:,} revised, {self.removed:,} withdrawn"
        return [f"{first}; import {self.import_id}: {done}.", *self.skips.lines()]


def read_published(path: str) -> PublishedReport:
    """Every figure of the export at `path`; ImportRefused if it is not a DataBank export of `ATCR.CORR`."""
    with open_tables(path) as (_, tables):
        rows = tables[0].rows
        header = next(rows, None)
        if header is None:
            raise ImportRefused(f"{path}: the file is empty.")
        keys = [column_key(name) for name in header[1]]
        missing = [key for key in _COLUMNS.values() if key not in keys]
        quarters = {i: f"{q[1]}Q{q[2]}" for i, name in enumerate(header[1]) if (q := _QUARTER.match(str(name).strip()))}
        if missing or not quarters:
            lacks = f"missing: {', '.join(missing)}" if missing else "no quarter column"
            raise ImportRefused(
                f"{path} is not a DataBank export of the corridors' average cost: its first line "
                "needs the columns Sending Countries Code, Receiving Countries Code, Series Code and "
                f"quarters such as 2015Q2 [YR2015Q2]; {lacks}."
            )
        at = {name: keys.index(key) for name, key in _COLUMNS.items()}
        report = PublishedReport(path, sorted(quarters.values()))
        for number, cells in rows:
            report.rows += 1
            _read_row(report, number, [str(cell).strip() if cell is not None else "" for cell in cells], at, quarters)
    if not report.figures:
        raise ImportRefused(f"{path}: no row holds a figure of series {SERIES}; nothing was stored.")
    return report


def _read_row(
    report: PublishedReport, number: int, cells: list[str], at: dict[str, int], quarters: dict[int, str]
) -> None:
    def cell(index: int) -> str:
        return cells[index] if index < len(cells) else ""

    where = f"line {number}"
    src, dst = cell(at["sending"]), cell(at["receiving"])
    if not src and not dst:
        report.skips.add("no country codes (a blank line or the export's notes)", where)
        return
    if cell(at["series"]) != SERIES:
        report.skips.add(f"not series {SERIES}", where)
        return
    figures = {}
    for index, period in quarters.items():
        if (value := cell(index)) in ("", NO_FIGURE):
            continue
        try:
            cost = float(value)
        except ValueError:
            report.skips.add("a figure that is not a number", f"{where}, {period}")
            continue
        if not LOWEST <= cost <= HIGHEST:
            report.skips.add(f"a figure outside {LOWEST:g} to {HIGHEST:g} %", f"{where}, {period}")
            continue
        figures[period] = cost
    if not figures:  # the export lists every pair of countries, most with no figure at all
        return
    if not (_CODE.match(src) and _CODE.match(dst)) or src == dst:
        report.skips.add("not two different three-letter country codes", where)
        return
    names = (cell(at["sending_name"])[:255] or src, cell(at["receiving_name"])[:255] or dst)
    report.corridors += 1
    for period, cost in figures.items():
        report.figures[(src, dst, period)] = (cost, *names)


def import_published(engine: Engine, path: str) -> PublishedReport:
    """Store the export at `path` in one transaction, withdrawing figures it lacks of the pairs and periods it has."""
    report = read_published(path)
    pairs = {(src, dst) for src, dst, _ in report.figures}
    c = _COSTS.c
    with transaction(engine) as (connection, begun):
        stored = {
            (r.source_country, r.destination_country, r.period): (r.cost, r.source_name, r.destination_name)
            for r in connection.execute(select(_COSTS).where(c.period.in_(report.periods)))
            if (r.source_country, r.destination_country) in pairs
        }
        changed = {key: value for key, value in report.figures.items() if stored.get(key) != value}
        gone = stored.keys() - report.figures.keys()
        if not changed and not gone:
            begun.rollback()
            return report
        report.added = sum(key not in stored for key in changed)
        report.revised, report.removed = len(changed) - report.added, len(gone)
        for keys in batches(list(changed.keys() & stored.keys()) + list(gone)):
            connection.execute(
                delete(_COSTS).where(tuple_(c.source_country, c.destination_country, c.period).in_(keys))
            )
        rows = [dict(zip(_COSTS.c.keys(), (*key, *value), strict=True)) for key, value in changed.items()]
        insert_all(connection, _COSTS, rows)
        report.import_id = record(connection, PublishedImport, path, figures=len(report.figures))
    return report


def read_published_costs(engine: Engine) -> PublishedCosts | None:
    """Every stored figure; None if none was ever imported. Read again only when an import is newer."""
    return read_versioned(engine, select(func.max(PublishedImport.id)), _every_figure)


def _every_figure(connection: Connection, version: Row) -> PublishedCosts:
    return PublishedCosts.build(version[0], connection.execute(select(_COSTS)))
