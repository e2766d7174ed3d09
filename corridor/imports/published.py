"""The World Bank's published average cost of each corridor by quarter (DataBank's `ATCR.CORR`), from its CSV export."""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field

from sqlalchemy import Double, Integer, String, delete, func, select, tuple_
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.orm import Mapped, mapped_column

from corridor.data.database import Model, read_versioned
from corridor.domain.observations import PERCENT_FROM, PERCENT_TO
from corridor.domain.published import PublishedCosts
from corridor.imports.store import ImportRun, batches, insert_all, record, transaction
from corridor.imports.tabular import ImportRefused, Skips, column_key, ends_a_line, open_tables

SERIES = "ATCR.CORR"
# a quarter's column as DataBank heads it: `2015Q2 [YR2015Q2]`, or `2015Q2` alone
_QUARTER = re.compile(r"^(\d{4})Q([1-4])(?: \[YR\1Q\2\])?$")
_CODE = re.compile(r"^[A-Z]{3}$")
NO_FIGURE = ".."
# the columns a line is read by, named as column_key writes them
_COLUMNS = "sendingcountriescode sendingcountriesname seriescode receivingcountriescode receivingcountriesname".split()


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
    with open_tables(path) as (kind, tables):
        rows = tables[0].rows
        header = next(rows, None)
        if header is None:
            raise ImportRefused(f"{path}: the file is empty.")
        keys = [column_key(name) for name in header[1]]
        missing = [key for key in _COLUMNS if key not in keys]
        quarters = {i: f"{q[1]}Q{q[2]}" for i, name in enumerate(header[1]) if (q := _QUARTER.match(str(name).strip()))}
        if missing or not quarters:
            lacks = f"missing: {', '.join(missing)}" if missing else "no quarter column"
            raise ImportRefused(
                f"{path} is not a DataBank export of the corridors' average cost: its first line "
                "needs the columns Sending Countries Code, Receiving Countries Code, Series Code and "
                f"quarters such as 2015Q2 [YR2015Q2]; {lacks}."
            )
        repeated = {key for key, count in Counter(keys).items() if count > 1 and key in _COLUMNS}
        repeated |= {q for q, count in Counter(quarters.values()).items() if count > 1}
        twice = [name for i, name in enumerate(header[1]) if keys[i] in repeated or quarters.get(i) in repeated]
        if twice:  # which of the two is meant cannot be told
            raise ImportRefused(f"{path}: its first line names the column {str(twice[0])!r} twice; nothing was stored.")
        at = [keys.index(key) for key in _COLUMNS]
        report = PublishedReport(path, sorted(quarters.values()))
        for number, cells in rows:
            report.rows += 1
            _read_row(report, number, cells, at, quarters)
    if kind == "CSV" and not ends_a_line(path):  # DataBank ends its every line: a file cut short, maybe in a figure
        raise ImportRefused(f"{path}: its last line has no line break, as a file cut short; nothing was stored.")
    if not report.figures:
        raise ImportRefused(f"{path}: no row holds a figure of series {SERIES}; nothing was stored.")
    return report


def _read_row(report: PublishedReport, number: int, cells: tuple, at: list[int], quarters: dict[int, str]) -> None:
    where = f"line {number}"
    line = {i: str(cell).strip() for i, cell in enumerate(cells) if cell is not None}
    src, src_name, series, dst, dst_name = (line.get(index, "") for index in at)
    if not src and not dst:
        report.skips.add("no country codes (a blank line or the export's notes)", where)
        return
    if series != SERIES:
        report.skips.add(f"not series {SERIES}", where)
        return
    figures = {}
    for index, period in quarters.items():
        if (value := line.get(index, "")) in ("", NO_FIGURE):
            continue
        try:
            cost = float(value)
        except ValueError:
            report.skips.add("a figure that is not a number", f"{where}, {period}")
            continue
        if not PERCENT_FROM <= cost <= PERCENT_TO:
            report.skips.add(f"a figure outside {PERCENT_FROM:g} to {PERCENT_TO:g} %", f"{where}, {period}")
            continue
        figures[period] = cost
    if not figures:  # the export lists every pair of countries, most with no figure at all
        return
    if not (_CODE.match(src) and _CODE.match(dst)) or src == dst:
        report.skips.add("not two different three-letter country codes", where)
        return
    names = (src_name[:255] or src, dst_name[:255] or dst)
    report.corridors += 1
    report.figures.update({(src, dst, period): (cost, *names) for period, cost in figures.items()})


def import_published(engine: Engine, path: str) -> PublishedReport:
    """Store the export at `path` in one transaction, withdrawing figures it lacks of the pairs and periods it has."""
    report = read_published(path)
    pairs = {(src, dst) for src, dst, _ in report.figures}
    with transaction(engine) as (connection, begun):
        stored = {
            (r.source_country, r.destination_country, r.period): (r.cost, r.source_name, r.destination_name)
            for r in connection.execute(select(_COSTS).where(_COSTS.c.period.in_(report.periods)))
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
            connection.execute(delete(_COSTS).where(tuple_(*_COSTS.primary_key).in_(keys)))
        rows = [dict(zip(_COSTS.c.keys(), (*key, *value), strict=True)) for key, value in changed.items()]
        insert_all(connection, _COSTS, rows)
        report.import_id = record(connection, PublishedImport, path, figures=len(report.figures))
    return report


def read_published_costs(engine: Engine) -> PublishedCosts | None:
    """Every stored figure; None if none was ever imported. Read again only when an import is newer."""
    return read_versioned(engine, select(func.max(PublishedImport.id)), _every_figure)


def _every_figure(connection: Connection, version: Row) -> PublishedCosts:
    return PublishedCosts.build(version[0], connection.execute(select(_COSTS)))
