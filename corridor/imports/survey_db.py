"""The survey in the database: its rows by country pair and period, each replaced whole by a release that differs."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.orm import Mapped, mapped_column

from corridor.data.database import Model, read_versioned
from corridor.domain import observations as rules
from corridor.domain.costs import CostHistory, CostRow, cost_history
from corridor.domain.model import Corridor
from corridor.domain.observations import Observation, PricePoint, Survey, firm_name, last_period
from corridor.imports.store import ImportRun, batches, insert_all, record, transaction

FIRST_SURVEY_ID = 1001  # the survey's corridors are numbered from here up, above the data file's
KEYS_AT_ONCE = 500  # (period, pair) keys in one statement: within every database's limit of bound parameters
STATES = ("new", "revised", "unchanged")  # of a country pair's period an import holds
_POINT = tuple(f.name for f in dataclasses.fields(PricePoint))
_PLAIN = tuple(f.name for f in dataclasses.fields(Observation) if f.name not in ("cc1", "cc2"))
KEY = ("period", "source_country", "destination_country")  # of a country pair's period
Key = tuple[str, str, str]


class SurveyImport(ImportRun, Model):
    __tablename__ = "survey_imports"

    file_sha256: Mapped[str] = mapped_column(sa.String(64))


class SurveyPeriod(Model):
    """A country pair's period as last imported: the import its rows came with, and their fingerprint."""

    __tablename__ = "survey_periods"

    period: Mapped[str] = mapped_column(sa.String(6), primary_key=True)
    source_country: Mapped[str] = mapped_column(sa.String(3), primary_key=True)
    destination_country: Mapped[str] = mapped_column(sa.String(3), primary_key=True)
    import_id: Mapped[int] = mapped_column(sa.ForeignKey("survey_imports.id"))
    digest: Mapped[str] = mapped_column(sa.String(64))
    rows: Mapped[int] = mapped_column(sa.Integer())


class SurveyCorridor(Model):
    """The id a country pair's corridor has, from its first import on."""

    __tablename__ = "survey_corridors"
    __table_args__ = (sa.UniqueConstraint("source_country", "destination_country"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    source_country: Mapped[str] = mapped_column(sa.String(3))
    destination_country: Mapped[str] = mapped_column(sa.String(3))


class SurveyObservation(Model):
    """One row of the survey as published: a service's two price points in a period."""

    __tablename__ = "survey_observations"
    __table_args__ = (
        sa.Index("ix_survey_observations_pair_period", "source_country", "destination_country", "period"),
        sa.Index("ix_survey_observations_period_import", "period", "import_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    import_id: Mapped[int] = mapped_column(sa.ForeignKey("survey_imports.id"))
    row: Mapped[int] = mapped_column(sa.Integer())  # in its file, as a spreadsheet numbers it
    period: Mapped[str] = mapped_column(sa.String(6))
    source_country: Mapped[str] = mapped_column(sa.String(3))
    destination_country: Mapped[str] = mapped_column(sa.String(3))
    firm: Mapped[str] = mapped_column(sa.String(255))
    firm_type: Mapped[str | None] = mapped_column(sa.String(255))
    payment: Mapped[str | None] = mapped_column(sa.String(255))
    speed: Mapped[str | None] = mapped_column(sa.String(255))
    pickup: Mapped[str | None] = mapped_column(sa.String(255))
    currency: Mapped[str] = mapped_column(sa.String(3))
    cc1_amount: Mapped[float] = mapped_column(sa.Double())
    cc1_denomination: Mapped[float | None] = mapped_column(sa.Double())
    cc1_fee: Mapped[float] = mapped_column(sa.Double())
    cc1_margin: Mapped[float] = mapped_column(sa.Double())
    cc1_total: Mapped[float] = mapped_column(sa.Double())
    cc2_amount: Mapped[float | None] = mapped_column(sa.Double())
    cc2_denomination: Mapped[float | None] = mapped_column(sa.Double())
    cc2_fee: Mapped[float | None] = mapped_column(sa.Double())
    cc2_margin: Mapped[float | None] = mapped_column(sa.Double())
    cc2_total: Mapped[float | None] = mapped_column(sa.Double())
    interbank: Mapped[float | None] = mapped_column(sa.Double())
    transparent: Mapped[bool] = mapped_column(sa.Boolean())
    collected: Mapped[dt.date | None] = mapped_column(sa.Date())
    source_region: Mapped[str | None] = mapped_column(sa.String(255))
    destination_region: Mapped[str | None] = mapped_column(sa.String(255))
    note: Mapped[str | None] = mapped_column(sa.String(255))


_OBSERVATIONS = SurveyObservation.metadata.tables[SurveyObservation.__tablename__]
_CORRIDORS = SurveyCorridor.metadata.tables[SurveyCorridor.__tablename__]
_O = _OBSERVATIONS.c


def _values(observation: Observation) -> dict:
    """The row's columns, but for its import and row number; a text longer than its column is cut, not refused."""
    values = {name: getattr(observation, name) for name in _PLAIN}
    for prefix in ("cc1", "cc2"):
        point = getattr(observation, prefix)
        values.update({f"{prefix}_{name}": getattr(point, name) if point else None for name in _POINT})
    return {name: value[:255] if isinstance(value, str) else value for name, value in values.items()}


@dataclass
class PeriodResult:
    """How many of a period's country pairs, and their rows, are in each of STATES; and the rows they replaced."""

    pairs: Counter[str] = field(default_factory=Counter)
    rows: Counter[str] = field(default_factory=Counter)
    replaced: int = 0


@dataclass
class ImportResult:
    """What an import did: per period, the country pairs and firms it read, and the corridor each pair joined."""

    import_id: int | None  # None: nothing changed
    periods: dict[str, PeriodResult] = field(default_factory=dict)
    pairs: set[tuple[str, str]] = field(default_factory=set)
    firms: set[str] = field(default_factory=set)
    new_corridors: dict[tuple[str, str], int] = field(default_factory=dict)
    joined: dict[tuple[str, str], Corridor] = field(default_factory=dict)  # the data file's corridor of a pair


def import_observations(
    engine: Engine,
    rows: Iterable[tuple[int, Observation]],
    file_name: str,
    file_sha256: str,
    file_corridors: Callable[[], Iterable[Corridor]],
) -> ImportResult:
    """Store `rows` (row number, observation) as one import; pairs join `file_corridors`, new ids avoid theirs."""
    with transaction(engine) as (connection, begun):
        import_id = record(connection, SurveyImport, file_name, file_sha256=file_sha256)
        result = ImportResult(import_id)
        digests: dict[Key, Any] = {}
        counts = Counter[Key]()

        def stored_rows() -> Iterator[dict]:
            for number, observation in rows:
                values = _values(observation)
                key = (observation.period, observation.source_country, observation.destination_country)
                digests.setdefault(key, hashlib.sha256()).update(repr(sorted(values.items())).encode())
                counts[key] += 1
                result.pairs.add(key[1:])
                result.firms.add(firm_name(observation.firm))
                yield {**values, "import_id": import_id, "row": number}

        insert_all(connection, _OBSERVATIONS, stored_rows())
        # each stored key's fingerprint: KEY is the table's first columns
        stored: dict[tuple, str] = {tuple(p[:3]): p.digest for p in connection.execute(sa.select(SurveyPeriod))}
        keyed: dict[str, list[Key]] = {state: [] for state in STATES}
        for key, digest in sorted(digests.items()):
            held = stored.get(key)
            state = "unchanged" if held == digest.hexdigest() else "new" if held is None else "revised"
            keyed[state].append(key)
            done = result.periods.setdefault(key[0], PeriodResult())
            done.pairs[state], done.rows[state] = done.pairs[state] + 1, done.rows[state] + counts[key]
        if not keyed["new"] and not keyed["revised"]:
            begun.rollback()
            return dataclasses.replace(result, import_id=None)
        for keys in _chunks(keyed["unchanged"]):
            connection.execute(sa.delete(_OBSERVATIONS).where(_O.import_id == import_id, _keyed(_O, keys)))
        for keys in _chunks(keyed["revised"]):
            replaced = connection.execute(sa.delete(_OBSERVATIONS).where(_O.import_id != import_id, _keyed(_O, keys)))
            result.periods[keys[0][0]].replaced += replaced.rowcount
            connection.execute(sa.delete(SurveyPeriod).where(_keyed(SurveyPeriod.__table__.c, keys)))
        periods = [
            dict(zip(KEY, key, strict=True), import_id=import_id, digest=digests[key].hexdigest(), rows=counts[key])
            for key in (*keyed["revised"], *keyed["new"])
        ]
        connection.execute(sa.insert(SurveyPeriod), periods)
        corridors = list(file_corridors())
        in_file = {(c.source_country, c.destination_country): c for c in corridors}
        result.joined = {pair: in_file[pair] for pair in result.pairs if pair in in_file}
        result.new_corridors = _number_pairs(connection, result.pairs - set(in_file), {c.id for c in corridors})
    return result


def _chunks(keys: list[Key]) -> Iterator[Sequence[Key]]:
    """The keys in runs of one period each, at most KEYS_AT_ONCE long."""
    for _, same_period in itertools.groupby(keys, key=lambda key: key[0]):
        yield from batches(same_period, KEYS_AT_ONCE)


def _keyed(columns: Any, keys: Sequence[Key]) -> sa.ColumnElement[bool]:
    return sa.tuple_(*(columns[name] for name in KEY)).in_(keys)


def _number_pairs(connection: Connection, pairs: set[tuple[str, str]], taken: set[int]) -> dict[tuple[str, str], int]:
    """Give each pair without a corridor id the next free one above every id held and taken."""
    held = {(c.source_country, c.destination_country): c.id for c in connection.execute(sa.select(SurveyCorridor))}
    top = max([*held.values(), *taken, FIRST_SURVEY_ID - 1])
    new = {pair: top + number for number, pair in enumerate(sorted(pairs - held.keys()), start=1)}
    rows = [{"id": id_, "source_country": src, "destination_country": dst} for (src, dst), id_ in new.items()]
    insert_all(connection, _CORRIDORS, rows)
    return new


def read_survey(engine: Engine) -> Survey | None:
    """Each country pair's latest period, and the corridor ids; None if nothing was ever imported. Cached per import."""
    periods = sa.select(sa.func.max(SurveyPeriod.import_id), sa.func.count(), sa.func.sum(SurveyPeriod.rows))
    # what is served changes with the stored periods, and with the latest period a survey can hold today
    return read_versioned(engine, periods.add_columns(sa.literal(last_period(dt.date.today()))), _latest)


def _latest(connection: Connection, version: Row) -> Survey:
    last = version[-1]
    # a period after `last` was stored before the import refused it: it must not hide the pair's real latest
    pair = (_O.source_country, _O.destination_country)
    newest = sa.select(*pair, sa.func.max(_O.period).label("period")).where(_O.period <= last).group_by(*pair)
    latest = newest.subquery()
    same = sa.and_(*(column == latest.c[column.name] for column in (*pair, _O.period)))
    rows = connection.execute(sa.select(_OBSERVATIONS).join(latest, same).order_by(*pair, _O.id))
    observations = tuple(_observation(row) for row in rows)
    ids = {(c.source_country, c.destination_country): c.id for c in connection.execute(sa.select(SurveyCorridor))}
    return Survey(version[0], observations, ids, _cost_history(connection, last))


def _cost_history(connection: Connection, last: str) -> CostHistory:
    """Every corridor's averages by period, streamed by pair and period; rows stored out of bounds count in none."""
    # CostRow's fields, in its order
    names = "period source_country destination_country cc1_total transparent cc2_total firm_type speed"
    rows = connection.execution_options(yield_per=5000).execute(
        sa.select(*(_O[name] for name in [*names.split(), "destination_region"]))
        .where(_in_bounds(last))
        .order_by(_O.source_country, _O.destination_country, _O.period)
    )
    return cost_history(CostRow(*row) for row in rows)


def _in_bounds(last: str) -> sa.ColumnElement[bool]:
    """A row within the bounds `bounded` holds it to, in SQL (`last`: the latest period)."""
    period = sa.and_(
        _O.period.between(rules.FIRST_PERIOD, last),
        _O.period.like("____Q_"),
        sa.func.substr(_O.period, 6, 1).between("1", "4"),
    )

    def point(prefix: str) -> sa.ColumnElement[bool]:
        amount, fee, margin, total = (_O[f"{prefix}_{name}"] for name in ("amount", "fee", "margin", "total"))
        percents = (figure.between(rules.PERCENT_FROM, rules.PERCENT_TO) for figure in (margin, total))
        return sa.and_(amount > 0, amount < rules.AMOUNT_BELOW, fee.between(0, rules.FEE_TIMES * amount), *percents)

    return sa.and_(period, point("cc1"), sa.or_(_O.cc2_amount.is_(None), point("cc2")))


def _observation(row: Row[Any]) -> Observation:
    def point(prefix: str) -> PricePoint:
        return PricePoint(*(getattr(row, f"{prefix}_{name}") for name in _POINT))

    cc2 = None if row.cc2_amount is None else point("cc2")
    return Observation(**{name: getattr(row, name) for name in _PLAIN}, cc1=point("cc1"), cc2=cc2)
