"""The endpoints both groups serve with one function each, dumped by each group's own schemas; and how an answer that
is a CSV file is sent and documented."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask import Response, current_app
from marshmallow import Schema

from corridor.domain.benchmark import Benchmark
from corridor.domain.catalog import Catalog
from corridor.domain.countries import Currency
from corridor.domain.history import Series
from corridor.domain.rounding import round_significant
from schemas.query import HistoryQuery, NoQuery

SchemaLike = Schema | type[Schema]  # flask-smorest takes either

if TYPE_CHECKING:
    from corridor.api.blueprint import Blueprint


def csv_file_header(filename: str) -> dict[str, Any]:
    """The documented header of an answer that is a CSV file to save as `filename`."""
    return {"Content-Disposition": {"schema": {"type": "string"}, "description": f'attachment; filename="{filename}".'}}


def csv_only(description: str, example: str, headers: dict[str, Any]) -> dict[int, Any]:
    """The documented answer of an operation that answers only with a CSV file."""
    content = {"text/csv": {"schema": {"type": "string"}, "example": example}}
    return {200: {"description": description, "content": content, "headers": headers}}


def csv_or_json(bp: Blueprint, example: str, headers: dict[str, Any] | None = None) -> Callable:
    """The documented CSV answer of an operation that answers JSON, or with format=csv a CSV file."""
    return bp.alt_response(
        200, content_type="text/csv", schema={"type": "string"}, example=example, headers=headers, success=True
    )


def csv_file(text: str, filename: str) -> Response:
    """`text` as a CSV file to save as `filename`."""
    return current_app.response_class(
        text, mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )


_CSV_EXAMPLE = "date,rate\r\n2026-10-29,18.9015\r\n2026-10-30,18.9077\r\n"
_CSV_FILE = csv_file_header("FROM_TO_START_END.csv")
_CSV_ONLY = csv_only("The series as a CSV file: `date,rate`, one line per point.", _CSV_EXAMPLE, _CSV_FILE)


def register_shared_views(
    bp: Blueprint, *, currencies_schema: SchemaLike, benchmark_schema: SchemaLike, history_schema: SchemaLike
) -> None:
    """Declare on `bp` the endpoints every group serves, each dumped by the schema given for it."""

    @bp.route("/currencies")
    @bp.arguments(NoQuery(), location="query", as_kwargs=True)
    @bp.cached
    @bp.response(200, currencies_schema)
    def currencies(catalog: Catalog) -> list[Currency]:
        """Every currency in the rate tables with its English name, by code."""
        return list(catalog.currencies)  # a list: flask-smorest reads a tuple as (body, status, headers)

    @bp.route("/benchmark")
    @bp.arguments(NoQuery(), location="query", as_kwargs=True)
    @bp.cached
    @bp.response(200, benchmark_schema)
    def benchmark(catalog: Catalog) -> Benchmark:
        """UN SDG 10.c figures over the active corridors at the reference amount."""
        return catalog.benchmark

    @bp.route("/history")
    @bp.arguments(HistoryQuery(), location="query", as_kwargs=True)
    @bp.alt_response(404)
    @bp.cached(weight=range_weight)
    @bp.response(200, history_schema)
    @csv_or_json(bp, _CSV_EXAMPLE, _CSV_FILE)
    def history(catalog: Catalog, format: str, **query: Any) -> Series | Response:
        """A pair's reference rates (the ECB's, or Frankfurter's) by day, week or month, or on one date; JSON or CSV."""
        series = catalog.rate_history(**query)
        return series_csv(series) if format == "csv" else series

    # the same as format=csv, as an operation of its own: a generated client decodes each operation's 200 one way
    @bp.route("/history.csv")
    @bp.arguments(HistoryQuery(exclude=("format",)), location="query", as_kwargs=True)
    @bp.alt_response(404)
    @bp.doc(responses=_CSV_ONLY)
    @bp.cached(weight=range_weight)
    def history_csv(catalog: Catalog, **query: Any) -> Response:
        """A pair's reference rates as a CSV file, as /history with format=csv; for clients that type each answer."""
        return series_csv(catalog.rate_history(**query))


# days of a range that hold about 30 rates of each interval (5 business days a week): a request's work grows with its
# rates, each 30 of them costing about what a kept answer does (docs/PERFORMANCE.md)
DAYS_PER_UNIT = {"day": 42, "week": 210, "month": 900}


def range_weight(
    interval: str = "day", start: dt.date | None = None, end: dt.date | None = None, **query: object
) -> int:
    """What a history request counts against its budget: one, and one more per 30 rates its range can hold (a date
    alone: one)."""
    return 1 + (end - start).days // DAYS_PER_UNIT[interval] if start and end else 1


def series_csv(series: Series) -> Response:
    """A series as a CSV file named FROM_TO_START_END.csv: `date,rate`, each rate as JSON writes it."""
    lines = [
        "date,rate",
        *(f"{point.date.isoformat()},{round_significant(point.rate, 6)!r}" for point in series.points),
    ]
    filename = f"{series.from_currency}_{series.to_currency}_{series.start}_{series.end}.csv"
    return csv_file("\r\n".join(lines) + "\r\n", filename)
