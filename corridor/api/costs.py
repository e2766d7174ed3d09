"""The survey's cost over time, served by both groups with one function each: a corridor's averages by period (JSON
or CSV) and the global ones. Computed once per data version (corridor/domain/costs.py), answered from memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Response, current_app
from marshmallow import Schema

from corridor.domain.catalog import Catalog
from corridor.domain.costs import CorridorCosts, GlobalCosts
from corridor.domain.rounding import round_half_up
from schemas.query import CostsQuery, PeriodRange

if TYPE_CHECKING:
    from corridor.api.blueprint import Blueprint

CSV_COLUMNS = ("period", "average_total_cost_pct", "average_total_cost_pct_500", "smart_pct", "lowest_total_cost_pct",
               "observations", "transparent_observations")
_CSV_EXAMPLE = ("period,average_total_cost_pct,average_total_cost_pct_500,smart_pct,lowest_total_cost_pct,"
                "observations,transparent_observations\r\n2025Q1,11.14,6.03,2.31,1.98,16,16\r\n"
                "2025Q3,12.16,7.4,3.28,0.46,14,14\r\n")
_CSV_FILE = {"Content-Disposition": {"schema": {"type": "string"},
                                     "description": 'attachment; filename="SRC-DST_costs.csv".'}}
_CSV_ONLY = {200: {"description": "The periods as a CSV file, one line each (the averages by kind of firm are left "
                                  "out); an empty figure is null.",
                   "content": {"text/csv": {"schema": {"type": "string"}, "example": _CSV_EXAMPLE}},
                   "headers": _CSV_FILE}}


def register_cost_views(bp: Blueprint, *, costs_schema: type[Schema], global_schema: type[Schema]) -> None:
    """Declare on `bp` the survey's cost endpoints, each dumped by the schema given for it."""

    @bp.route("/costs")
    @bp.arguments(CostsQuery(), location="query", as_kwargs=True)
    @bp.alt_response(404)
    @bp.cached
    @bp.response(200, costs_schema)
    @bp.alt_response(200, content_type="text/csv", schema={"type": "string"}, example=_CSV_EXAMPLE, headers=_CSV_FILE,
                     success=True)
    def costs(catalog: Catalog, corridor: str, format: str, start: str | None = None,
              end: str | None = None) -> CorridorCosts | Response:
        """A corridor's survey averages by period, the World Bank's method: JSON, or CSV with format=csv."""
        found = catalog.corridor_costs(corridor, start, end)
        return periods_csv(found) if format == "csv" else found

    # the same as format=csv, as an operation of its own: a generated client decodes each operation's 200 one way
    @bp.route("/costs.csv")
    @bp.arguments(CostsQuery(exclude=("format",)), location="query", as_kwargs=True)
    @bp.alt_response(404)
    @bp.doc(responses=_CSV_ONLY)
    @bp.cached
    def costs_csv(catalog: Catalog, corridor: str, start: str | None = None, end: str | None = None) -> Response:
        """A corridor's survey averages by period as a CSV file, as /costs with format=csv."""
        return periods_csv(catalog.corridor_costs(corridor, start, end))

    @bp.route("/costs/global")
    @bp.arguments(PeriodRange(), location="query", as_kwargs=True)
    @bp.alt_response(404)
    @bp.cached
    @bp.response(200, global_schema)
    def global_costs(catalog: Catalog, start: str | None = None, end: str | None = None) -> tuple[GlobalCosts, ...]:
        """The survey's pooled figures by period: the global average, SmaRT, corridors at or under 5 % and 3 %."""
        return list(catalog.global_costs(start, end))  # a list: flask-smorest reads a tuple as (body, status, headers)


def periods_csv(costs: CorridorCosts) -> Response:
    """The periods as `SRC-DST_costs.csv`, one line each, figures as JSON writes them (empty for null)."""

    def figure(value: float | None) -> str:
        return "" if value is None else repr(round_half_up(value, 2) + 0.0)

    lines = [",".join(CSV_COLUMNS)] + [
        f"{p.period},{figure(p.average)},{figure(p.average_500)},{figure(p.smart)},{figure(p.lowest)},"
        f"{p.observations},{p.transparent_observations}" for p in costs.periods
    ]
    return current_app.response_class("\r\n".join(lines) + "\r\n", mimetype="text/csv",
                                      headers={"Content-Disposition": f'attachment; filename="{costs.key}_costs.csv"'})
