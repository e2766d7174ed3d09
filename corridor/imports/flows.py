"""The KNOMAD/World Bank bilateral remittance matrix (US$ millions a year), read to its WORLD row and column."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from sqlalchemy import Double, Integer, String, delete, func, select
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.orm import Mapped, mapped_column

from corridor.data.database import Model, read_versioned
from corridor.domain.countries import country_code
from corridor.domain.published import Flows
from corridor.imports.store import ImportRun, insert_all, record, transaction
from corridor.imports.tabular import ImportRefused, open_tables

WORLD = "WORLD"
# the data file's bound on a corridor's flow, US$ 1,000,000,000 billion: far from any real figure, and every figure
# derived from it stays finite
MAX_USD_MILLIONS = 1e12
MAX_COUNTRIES = 1000  # the columns read: the 2021 matrix has 214 countries and its WORLD column
# the World Bank's names that CLDR names otherwise, or not at all, each after its code (the World Bank's own where
# ISO 3166 has none: KSV, CHI), between semicolons
WORLD_BANK_NAMES = {
    name: code
    for code, name in (
        entry.split(None, 1)
        for entry in """ATG Antigua and Barbuda; BHS Bahamas, The; BIH Bosnia and Herzegovina; BRN Brunei Darussalam;
            CPV Cabo Verde; CHI Channel Islands; COD Congo, Dem. Rep.; COG Congo, Rep.; CIV Cote d'Ivoire; CUW Curacao;
            CZE Czech Republic; EGY Egypt, Arab Rep.; FRO Faeroe Islands; GMB Gambia, The; HKG Hong Kong SAR, China;
            IRN Iran, Islamic Rep.; PRK Korea, Dem. Rep.; KOR Korea, Rep.; KSV Kosovo; KGZ Kyrgyz Republic;
            LAO Lao PDR; MAC Macao SAR, China; FSM Micronesia, Fed. Sts.; MMR Myanmar; RUS Russian Federation;
            STP Sao Tome and Principe; SXM Sint Maarten (Dutch part); SVK Slovak Republic; KNA St. Kitts and Nevis;
            LCA St. Lucia; MAF St. Martin (French part); VCT St. Vincent and the Grenadines; SYR Syrian Arab Republic;
            TTO Trinidad and Tobago; TUR Turkey; TCA Turks and Caicos Islands; VEN Venezuela, RB;
            VIR Virgin Islands (U.S.); PSE West Bank and Gaza; YEM Yemen, Rep.""".split(";")
    )
}
_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")


class FlowImport(ImportRun, Model):
    __tablename__ = "flow_imports"

    year: Mapped[int] = mapped_column(Integer())


class Flow(Model):
    """The money a country's residents sent to another's in a year, in US$ millions, as the matrix estimates it."""

    __tablename__ = "remittance_flows"

    year: Mapped[int] = mapped_column(Integer(), primary_key=True)
    source_country: Mapped[str] = mapped_column(String(3), primary_key=True)
    destination_country: Mapped[str] = mapped_column(String(3), primary_key=True)
    usd_millions: Mapped[float] = mapped_column(Double())


_FLOWS = Flow.metadata.tables[Flow.__tablename__]


@dataclass
class FlowReport:
    path: str
    year: int
    countries: int = 0
    flows: dict[tuple[str, str], float] = field(default_factory=dict)
    import_id: int | None = None  # None: nothing changed
    replaced: int | None = None  # figures of the same year imported before; None: a new year

    def lines(self) -> list[str]:
        first = (
            f"{os.path.basename(self.path)}: {self.year}, {self.countries} countries, {len(self.flows):,} "
            f"non-zero pairs, US$ {sum(self.flows.values()):,.1f} millions in all"
        )
        if self.import_id is None:
            return [f"{first}. Nothing changed: {self.year} is imported already with these very figures."]
        state = "a new year" if self.replaced is None else f"replaces the {self.replaced:,} figures imported before"
        return [f"{first}; import {self.import_id}, {state}."]


def code_of(name: str, cell: str) -> str:
    name = " ".join(str(name).split())
    code = WORLD_BANK_NAMES.get(name) or country_code(name)
    if code is None:
        raise ImportRefused(
            f"cell {cell}: {name!r} is no country this import knows; nothing was stored. Add it to "
            "WORLD_BANK_NAMES in corridor/imports/flows.py with its ISO 3166 alpha-3 code."
        )
    return code


def _cell_name(row: int, column: int) -> str:
    from openpyxl.utils import get_column_letter  # only an import needs openpyxl: serving never loads it

    return f"{get_column_letter(column + 1)}{row}"


def read_flows(path: str) -> FlowReport:
    """The matrix at `path`: its year from the title, each non-zero figure up to the WORLD row and column."""
    with open_tables(path, columns=MAX_COUNTRIES + 2) as (kind, tables):
        if kind != "workbook":
            raise ImportRefused(f"{path} is not an Excel workbook (.xlsx): the matrix is published as one.")
        for table in tables:
            rows = (cells for _, cells in table.rows)
            title, across = next(rows, None), next(rows, None)
            if title is None or across is None or "receiving" not in str(across[0] or "").lower():
                continue
            year = next((int(y) for cell in title if cell for y in _YEAR.findall(str(cell))), None)
            if year is None:
                raise ImportRefused(f"{path}, sheet {table.name!r}: its title (cell A1) names no year.")
            return _read_matrix(path, year, across, rows)
    raise ImportRefused(
        f"{path} is not a bilateral remittance matrix: no sheet has the receiving countries across its "
        "second row under a label that says so."
    )


def _read_matrix(path: str, year: int, across: tuple, rows) -> FlowReport:
    receivers: list[tuple[int, str]] = []
    named_across: dict[str, str] = {}  # each receiving country's cell
    for column, name in enumerate(across[1:], start=1):
        if name is None or not str(name).strip():
            continue
        if str(name).strip().upper() == WORLD:  # `World` in a copy as in the original
            break
        cell = _cell_name(2, column)
        code = code_of(name, cell)
        _once(code, named_across, cell)
        receivers.append((column, code))
    else:
        raise ImportRefused(f"{path}: the second row has no {WORLD} column; the matrix ends there.")
    report = FlowReport(path, year, countries=len(receivers))
    senders: dict[str, str] = {}
    for number, cells in enumerate(rows, start=3):
        sender = str(cells[0] or "").strip() if cells else ""
        if sender.upper() == WORLD:
            return report
        if not sender:
            continue
        source = code_of(sender, f"A{number}")
        _once(source, senders, f"A{number}")
        for column, destination in receivers:
            value = cells[column] if column < len(cells) else None
            if value in (None, "", 0):
                continue
            if not _usd_millions(value):
                raise ImportRefused(
                    f"cell {_cell_name(number, column)}: {value!r} is not a sum of money from 0 to "
                    f"{MAX_USD_MILLIONS:,.0f} (US$ millions); nothing was stored."
                )
            if source != destination:
                report.flows[(source, destination)] = float(value)
    raise ImportRefused(f"{path}: column A has no {WORLD} row; the matrix ends there.")


def _once(code: str, seen: dict[str, str], cell: str) -> None:
    """Note that `cell` names the country `code`; ImportRefused if another cell of `seen` did: whose figures are meant
    cannot be told."""
    if code in seen:
        raise ImportRefused(f"cell {cell}: {code} is named in cell {seen[code]} too; nothing was stored.")
    seen[code] = cell


def _usd_millions(value: object) -> bool:
    """A figure the matrix may hold: a number (not a boolean) from 0 to MAX_USD_MILLIONS, so finite."""
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= MAX_USD_MILLIONS


def import_flows(engine: Engine, path: str) -> FlowReport:
    """Read the matrix at `path` and store its year in one transaction, replacing that year's figures whole."""
    report = read_flows(path)
    this_year = _FLOWS.c.year == report.year
    with transaction(engine) as (connection, begun):
        stored = {(src, dst): amount for _, src, dst, amount in connection.execute(select(_FLOWS).where(this_year))}
        if stored == report.flows:
            begun.rollback()
            return report
        report.replaced = len(stored) if stored else None
        connection.execute(delete(_FLOWS).where(this_year))
        rows = [
            {"year": report.year, "source_country": src, "destination_country": dst, "usd_millions": amount}
            for (src, dst), amount in report.flows.items()
        ]
        insert_all(connection, _FLOWS, rows)
        report.import_id = record(connection, FlowImport, path, year=report.year)
    return report


def read_latest_flows(engine: Engine) -> Flows | None:
    """The flows of the latest year imported; None if no matrix ever was. Read again only when an import is newer."""
    return read_versioned(engine, select(func.max(FlowImport.id)), _latest_year)


def _latest_year(connection: Connection, version: Row) -> Flows:
    c = _FLOWS.c
    year = connection.execute(select(func.max(c.year))).scalar()
    # within bounds, as an import now checks: a figure stored before it did (an infinity) must not stop the service
    figures = select(c.source_country, c.destination_country, c.usd_millions)
    rows = connection.execute(figures.where(c.year == year, c.usd_millions.between(0, MAX_USD_MILLIONS)))
    return Flows.build(version[0], year or 0, rows)
