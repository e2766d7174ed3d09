"""The survey in the database: every imported observation with its period, and the imports that brought them.

An import is one transaction. Each country pair's rows of a period are fingerprinted as they stream in; a pair and
period whose fingerprint is the one stored already keeps its rows (the new copies are dropped), any other replaces that
pair's rows of that period whole (the World Bank revises); pairs and periods the file does not hold are left as they
are. Serving reads each country pair's latest period, once per import.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Boolean,
    ColumnElement,
    Date,
    DateTime,
    Double,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    tuple_,
)
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.orm import Mapped, mapped_column

from corridor.data.database import Model
from corridor.domain.costs import CostHistory, CostRow, cost_history
from corridor.domain.model import Corridor
from corridor.domain.survey import (
    AMOUNT_BELOW,
    FEE_TIMES,
    FIRST_PERIOD,
    PERCENT_FROM,
    PERCENT_TO,
    Observation,
    PricePoint,
    Survey,
    firm_name,
    last_period,
)
from corridor.rates.store import bump_stamp

BATCH = 2000  # rows per INSERT: few round trips, little memory
FIRST_SURVEY_ID = 1001  # the survey's corridors are numbered from here up, above the data file's


class SurveyImport(Model):
    """One run of `prices import-rpw` that changed something."""

    __tablename__ = "survey_imports"
    __table_args__ = {"sqlite_autoincrement": True}  # a number is never reused: it is the survey's version

    id: Mapped[int] = mapped_column(primary_key=True)
    file_name: Mapped[str] = mapped_column(String(255))
    file_sha256: Mapped[str] = mapped_column(String(64))
    imported_at: Mapped[dt.datetime] = mapped_column(DateTime())


class SurveyPeriod(Model):
    """A country pair's period as last imported: the import its rows came with, and their fingerprint."""

    __tablename__ = "survey_periods"

    period: Mapped[str] = mapped_column(String(6), primary_key=True)
    source_country: Mapped[str] = mapped_column(String(3), primary_key=True)
    destination_country: Mapped[str] = mapped_column(String(3), primary_key=True)
    import_id: Mapped[int] = mapped_column(ForeignKey("survey_imports.id"))
    digest: Mapped[str] = mapped_column(String(64))
    rows: Mapped[int] = mapped_column(Integer())


class SurveyCorridor(Model):
    """The id a country pair's corridor has, from its first import on."""

    __tablename__ = "survey_corridors"
    __table_args__ = (UniqueConstraint("source_country", "destination_country"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    source_country: Mapped[str] = mapped_column(String(3))
    destination_country: Mapped[str] = mapped_column(String(3))


class SurveyObservation(Model):
    """One row of the survey as published: a service's two price points in a period."""

    __tablename__ = "survey_observations"
    __table_args__ = (
        Index("ix_survey_observations_pair_period", "source_country", "destination_country", "period"),
        Index("ix_survey_observations_period_import", "period", "import_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    import_id: Mapped[int] = mapped_column(ForeignKey("survey_imports.id"))
    row: Mapped[int] = mapped_column(Integer())  # in its file, as a spreadsheet numbers it
    period: Mapped[str] = mapped_column(String(6))
    source_country: Mapped[str] = mapped_column(String(3))
    destination_country: Mapped[str] = mapped_column(String(3))
    firm: Mapped[str] = mapped_column(String(255))
    firm_type: Mapped[str | None] = mapped_column(String(255))
    payment: Mapped[str | None] = mapped_column(String(255))
    speed: Mapped[str | None] = mapped_column(String(255))
    pickup: Mapped[str | None] = mapped_column(String(255))
    currency: Mapped[str] = mapped_column(String(3))
    cc1_amount: Mapped[float] = mapped_column(Double())
    cc1_denomination: Mapped[float | None] = mapped_column(Double())
    cc1_fee: Mapped[float] = mapped_column(Double())
    cc1_margin: Mapped[float] = mapped_column(Double())
    cc1_total: Mapped[float] = mapped_column(Double())
    cc2_amount: Mapped[float | None] = mapped_column(Double())
    cc2_denomination: Mapped[float | None] = mapped_column(Double())
    cc2_fee: Mapped[float | None] = mapped_column(Double())
    cc2_margin: Mapped[float | None] = mapped_column(Double())
    cc2_total: Mapped[float | None] = mapped_column(Double())
    interbank: Mapped[float | None] = mapped_column(Double())
    transparent: Mapped[bool] = mapped_column(Boolean())
    collected: Mapped[dt.date | None] = mapped_column(Date())
    source_region: Mapped[str | None] = mapped_column(String(255))
    destination_region: Mapped[str | None] = mapped_column(String(255))
    note: Mapped[str | None] = mapped_column(String(255))


_OBSERVATIONS = SurveyObservation.metadata.tables[SurveyObservation.__tablename__]


def _values(observation: Observation) -> dict:
    """The row's columns, but for its import and row number."""
    values = {
        name: getattr(observation, name)
        for name in (
            "period",
            "source_country",
            "destination_country",
            "firm",
            "firm_type",
            "payment",
            "speed",
            "pickup",
            "currency",
            "interbank",
            "transparent",
            "collected",
            "source_region",
            "destination_region",
            "note",
        )
    }
    for prefix, point in (("cc1", observation.cc1), ("cc2", observation.cc2)):
        for name in ("amount", "denomination", "fee", "margin", "total"):
            values[f"{prefix}_{name}"] = getattr(point, name) if point else None
    # the columns' length: a longer text is cut, not refused
    for name in ("firm", "firm_type", "payment", "speed", "pickup", "source_region", "destination_region", "note"):
        values[name] = values[name] and values[name][:255]
    return values


@dataclass
class Counts:
    """Country pairs and their rows."""

    pairs: int = 0
    rows: int = 0

    def add(self, rows: int) -> None:
        self.pairs += 1
        self.rows += rows


@dataclass
class PeriodResult:
    """What an import did to one period's country pairs: those new to it, revised and unchanged."""

    new: Counts = field(default_factory=Counts)
    revised: Counts = field(default_factory=Counts)
    unchanged: Counts = field(default_factory=Counts)
    replaced: int = 0  # rows of earlier imports the revised pairs' rows replaced

    @property
    def rows(self) -> int:
        return self.new.rows + self.revised.rows + self.unchanged.rows

    @property
    def changed(self) -> bool:
        return bool(self.new.pairs or self.revised.pairs)


@dataclass
class ImportResult:
    """What an import did: per period, the country pairs and firms it read, and the corridor each pair joined."""

    import_id: int | None  # None: nothing changed
    periods: dict[str, PeriodResult] = field(default_factory=dict)
    pairs: set[tuple[str, str]] = field(default_factory=set)
    firms: set[str] = field(default_factory=set)
    new_corridors: dict[tuple[str, str], int] = field(default_factory=dict)
    joined: dict[tuple[str, str], Corridor] = field(default_factory=dict)  # the data file's corridor of a pair


Key = tuple[str, str, str]  # period, source country, destination country
KEYS_AT_ONCE = 500  # (period, pair) keys in one statement: within every database's limit of bound parameters


def import_observations(
    engine: Engine,
    rows: Iterable[tuple[int, Observation]],
    file_name: str,
    file_sha256: str,
    file_corridors: Callable[[], Iterable[Corridor]] = tuple,
    now: dt.datetime | None = None,
) -> ImportResult:
    """Store `rows` (row number, observation) as one import in one transaction; a country pair's period already stored
    with the same rows is left as it is. `file_corridors`: the data file's, which the pairs they have join, and whose
    ids new pairs' ids must avoid."""
    now = now or dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    with engine.connect() as connection, connection.begin() as transaction:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SET LOCAL statement_timeout = 0"))  # the service's 3 s is for requests
        import_id = connection.execute(
            insert(SurveyImport)
            .values(file_name=file_name[:255], file_sha256=file_sha256, imported_at=now)
            .returning(SurveyImport.id)
        ).scalar_one()
        digests: dict[Key, Any] = {}
        counts: dict[Key, int] = {}
        result = ImportResult(import_id)
        batch: list[dict] = []
        for number, observation in rows:
            values = _values(observation)
            key = (observation.period, observation.source_country, observation.destination_country)
            digests.setdefault(key, hashlib.sha256()).update(repr(sorted(values.items())).encode())
            counts[key] = counts.get(key, 0) + 1
            result.pairs.add(key[1:])
            result.firms.add(firm_name(observation.firm))
            batch.append({**values, "import_id": import_id, "row": number})
            if len(batch) >= BATCH:
                connection.execute(insert(_OBSERVATIONS), batch)
                batch = []
        if batch:
            connection.execute(insert(_OBSERVATIONS), batch)
        stored = {
            (p.period, p.source_country, p.destination_country): p.digest
            for p in connection.execute(select(SurveyPeriod))
        }
        unchanged: list[Key] = []
        revised: list[Key] = []
        new: list[Key] = []
        for key, digest in sorted(digests.items()):
            done = result.periods.setdefault(key[0], PeriodResult())
            held = stored.get(key)
            if held == digest.hexdigest():
                unchanged.append(key)
                done.unchanged.add(counts[key])
            else:
                (new if held is None else revised).append(key)
                (done.new if held is None else done.revised).add(counts[key])
        if not any(p.changed for p in result.periods.values()):
            transaction.rollback()
            return dataclasses.replace(result, import_id=None)
        o = _OBSERVATIONS.c
        for keys in _chunks(unchanged):
            connection.execute(delete(_OBSERVATIONS).where(o.import_id == import_id, _keyed(o, keys)))
        for keys in _chunks(revised):
            replaced = connection.execute(delete(_OBSERVATIONS).where(o.import_id != import_id, _keyed(o, keys)))
            result.periods[keys[0][0]].replaced += replaced.rowcount
            p = SurveyPeriod.__table__.c
            connection.execute(delete(SurveyPeriod).where(_keyed(p, keys)))
        connection.execute(
            insert(SurveyPeriod),
            [
                {
                    "period": key[0],
                    "source_country": key[1],
                    "destination_country": key[2],
                    "import_id": import_id,
                    "digest": digests[key].hexdigest(),
                    "rows": counts[key],
                }
                for key in (*revised, *new)
            ],
        )
        corridors = list(file_corridors())
        in_file = {(c.source_country, c.destination_country): c for c in corridors}
        result.joined = {pair: in_file[pair] for pair in result.pairs if pair in in_file}
        result.new_corridors = _number_pairs(connection, result.pairs - set(in_file), {c.id for c in corridors})
        bump_stamp(connection)  # last: every running instance takes the import up within seconds
    return result


def _chunks(keys: list[Key]) -> Iterator[list[Key]]:
    """The keys in runs of one period each, at most KEYS_AT_ONCE long."""
    for _, same_period in itertools.groupby(keys, key=lambda key: key[0]):
        run = list(same_period)
        for start in range(0, len(run), KEYS_AT_ONCE):
            yield run[start : start + KEYS_AT_ONCE]


def _keyed(columns: Any, keys: list[Key]) -> ColumnElement[bool]:
    return tuple_(columns.period, columns.source_country, columns.destination_country).in_(keys)


def _number_pairs(connection: Connection, pairs: set[tuple[str, str]], taken: set[int]) -> dict[tuple[str, str], int]:
    """Give each pair without a corridor id the next free one above every id held and taken."""
    held = {(c.source_country, c.destination_country) for c in connection.execute(select(SurveyCorridor))}
    top = connection.execute(select(func.max(SurveyCorridor.id))).scalar() or FIRST_SURVEY_ID - 1
    top = max(top, *taken, FIRST_SURVEY_ID - 1)
    new = {}
    for pair in sorted(pairs - held):
        top += 1
        new[pair] = top
        connection.execute(insert(SurveyCorridor).values(id=top, source_country=pair[0], destination_country=pair[1]))
    return new


_cache: dict[str, tuple[tuple, Survey]] = {}  # by database URL: the survey as last read, while its periods stay


def read_survey(engine: Engine) -> Survey | None:
    """Each country pair's latest period, and the corridor ids; None if nothing was ever imported. Read again only
    when an import is newer than the one last read."""
    url = engine.url.render_as_string(hide_password=False)
    with engine.connect() as connection:
        periods = tuple(
            connection.execute(
                select(func.max(SurveyPeriod.import_id), func.count(), func.sum(SurveyPeriod.rows))
            ).one()
        )
        if not periods[1]:
            return None
        last = last_period(dt.date.today())
        held = _cache.get(url)
        if held is not None and held[0] == (periods, last):
            return held[1]
        # a period after `last` was stored before the import refused it: it must not hide the pair's real latest
        latest = (
            select(
                _OBSERVATIONS.c.source_country,
                _OBSERVATIONS.c.destination_country,
                func.max(_OBSERVATIONS.c.period).label("period"),
            )
            .where(_OBSERVATIONS.c.period <= last)
            .group_by(_OBSERVATIONS.c.source_country, _OBSERVATIONS.c.destination_country)
            .subquery()
        )
        rows = connection.execute(
            select(_OBSERVATIONS)
            .join(
                latest,
                (_OBSERVATIONS.c.source_country == latest.c.source_country)
                & (_OBSERVATIONS.c.destination_country == latest.c.destination_country)
                & (_OBSERVATIONS.c.period == latest.c.period),
            )
            .order_by(_OBSERVATIONS.c.source_country, _OBSERVATIONS.c.destination_country, _OBSERVATIONS.c.id)
        )
        observations = tuple(_observation(row) for row in rows)
        ids = {(c.source_country, c.destination_country): c.id for c in connection.execute(select(SurveyCorridor))}
        costs = _cost_history(connection, last)
    survey = Survey(periods[0], observations, ids, costs)
    _cache[url] = (periods, last), survey
    return survey


_COST_COLUMNS = (
    "period",
    "source_country",
    "destination_country",
    "cc1_total",
    "transparent",
    "cc2_total",
    "firm_type",
    "speed",
    "destination_region",
)


def _cost_history(connection: Connection, last: str) -> CostHistory:
    """Every corridor's averages by period, streamed from every stored row in (pair, period) order: a release's
    200,000 rows pass through a group at a time. Rows out of bounds (stored before the import refused them) count in
    none."""
    o = _OBSERVATIONS.c
    rows = connection.execution_options(yield_per=5000).execute(
        select(*(o[name] for name in _COST_COLUMNS))
        .where(_in_bounds(last))
        .order_by(o.source_country, o.destination_country, o.period)
    )
    return cost_history(
        CostRow(period, src, dst, total, bool(transparent), total_500, firm_type, speed, region)
        for period, src, dst, total, transparent, total_500, firm_type, speed, region in rows
    )


def _in_bounds(last: str) -> ColumnElement[bool]:
    """A row within the bounds `bounded` holds it to, in SQL (`last`: the latest period)."""
    o = _OBSERVATIONS.c
    period = and_(
        o.period.between(FIRST_PERIOD, last), o.period.like("____Q_"), func.substr(o.period, 6, 1).between("1", "4")
    )

    def point(prefix: str) -> ColumnElement[bool]:
        amount = o[f"{prefix}_amount"]
        return and_(
            amount > 0,
            amount < AMOUNT_BELOW,
            o[f"{prefix}_fee"].between(0, FEE_TIMES * amount),
            *(o[f"{prefix}_{name}"].between(PERCENT_FROM, PERCENT_TO) for name in ("margin", "total")),
        )

    return and_(period, point("cc1"), or_(o.cc2_amount.is_(None), point("cc2")))


def _observation(row: Row[Any]) -> Observation:
    def point(prefix: str) -> PricePoint:
        return PricePoint(
            getattr(row, f"{prefix}_amount"),
            getattr(row, f"{prefix}_fee"),
            getattr(row, f"{prefix}_margin"),
            getattr(row, f"{prefix}_total"),
            getattr(row, f"{prefix}_denomination"),
        )

    return Observation(
        period=row.period,
        source_country=row.source_country,
        destination_country=row.destination_country,
        firm=row.firm,
        currency=row.currency,
        cc1=point("cc1"),
        transparent=row.transparent,
        cc2=None if row.cc2_amount is None else point("cc2"),
        interbank=row.interbank,
        firm_type=row.firm_type,
        speed=row.speed,
        pickup=row.pickup,
        collected=row.collected,
        note=row.note,
        payment=row.payment,
    )
