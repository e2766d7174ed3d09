"""The cost over time, served by both groups with one function each: a corridor's averages by period, computed from
the survey's rows and as the World Bank published them (JSON or CSV), and the global ones. Computed once per data
version (corridor/domain/costs.py), answered from memory."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

from flask import Response
from marshmallow import Schema

from corridor.api import paging
from corridor.api.shared import csv_file, csv_file_header, csv_only, csv_or_json
from corridor.domain.catalog import Catalog
from corridor.domain.costs import CorridorCosts, CostCorridor, GlobalPeriod, PeriodCosts
from corridor.domain.rounding import round_half_up
from schemas.query import LINK_HEADER, CostCorridorsQuery, CostsQuery, PeriodRange

if TYPE_CHECKING:
    from corridor.api.blueprint import Blueprint

CSV_COLUMNS = (
    "period",
    "published_average_total_cost_pct",
    "average_total_cost_pct",
    "average_total_cost_pct_500",
    "smart_pct",
    "lowest_total_cost_pct",
    "observations",
    "transparent_observations",
)
_CSV_EXAMPLE = ",".join(CSV_COLUMNS) + "\r\n2020Q3,5.46,,,,,,\r\n2025Q3,,4.12,3.05,1.28,0.46,44,44\r\n"
CORRIDORS_CSV_COLUMNS = (
    "corridor",
    "source_country_name",
    "destination_country_name",
    "from_currency",
    "to_currency",
    "latest_period",
    "latest_published_period",
    "latest_published_average_total_cost_pct",
    "latest_computed_period",
    "latest_computed_average_total_cost_pct",
    "annual_flow_bn",
    "flow_year",
)
_CORRIDORS_CSV_EXAMPLE = (
    ",".join(CORRIDORS_CSV_COLUMNS) + "\r\nUSA-MEX,United States,Mexico,USD,MXN,2025Q3,2020Q3,"
    "5.46,2025Q3,3.82,52.6,2021\r\n"
)
_CSV_FILE = csv_file_header("SRC-DST_costs.csv")
_CSV_ONLY = csv_only(
    "The periods as a CSV file, one line each (the averages by kind of firm are left out); an empty figure is null.",
    _CSV_EXAMPLE,
    _CSV_FILE,
)


def register_cost_views(
    bp: Blueprint, *, costs_schema: type[Schema], global_schema: type[Schema], corridors_schema: Schema, enveloped: bool
) -> None:
    """Declare on `bp` the cost endpoints, each dumped by the schema given for it; `enveloped`: the list of corridors
    is dumped from its page (Group B's `count`, `next`), not as a bare list."""

    @bp.route("/costs/corridors")
    @bp.arguments(CostCorridorsQuery(), location="query", as_kwargs=True)
    @bp.cached
    @bp.response(200, corridors_schema, headers=LINK_HEADER)
    @csv_or_json(bp, _CORRIDORS_CSV_EXAMPLE, csv_file_header("cost_corridors.csv"))
    def cost_corridors(
        catalog: Catalog,
        format: str,
        from_country: str | None = None,
        to_country: str | None = None,
        limit: int | None = None,
        cursor: int | None = None,
    ) -> Any:
        """Every corridor with a published or a computed cost figure, by country pair, with its latest figures and the
        money sent in it; those from or to a country; whole, or `limit` of them after `cursor`."""
        listed, headers = paging.listing(
            catalog.cost_corridors_of(from_country, to_country),
            limit,
            cursor,
            catalog.dataset.as_of,
            lambda c: c.position,
            # the next page in the same format: json, the default, goes without saying
            {"from_country": from_country, "to_country": to_country, "format": None if format == "json" else format},
        )
        if format == "csv":
            response = corridors_csv(listed.items)
            response.headers.update(headers)
            return response
        return (listed if enveloped else list(listed.items)), headers

    @bp.route("/costs")
    @bp.arguments(CostsQuery(), location="query", as_kwargs=True)
    @bp.alt_response(404)
    @bp.cached
    @bp.response(200, costs_schema)
    @csv_or_json(bp, _CSV_EXAMPLE, _CSV_FILE)
    def costs(catalog: Catalog, format: str, **query: Any) -> CorridorCosts | Response:
        """A corridor's survey averages by period, the World Bank's method: JSON, or CSV with format=csv."""
        found = catalog.corridor_costs(**query)
        return periods_csv(found) if format == "csv" else found

    # the same as format=csv, as an operation of its own: a generated client decodes each operation's 200 one way
    @bp.route("/costs.csv")
    @bp.arguments(CostsQuery(exclude=("format",)), location="query", as_kwargs=True)
    @bp.alt_response(404)
    @bp.doc(responses=_CSV_ONLY)
    @bp.cached
    def costs_csv(catalog: Catalog, **query: Any) -> Response:
        """A corridor's survey averages by period as a CSV file, as /costs with format=csv."""
        return periods_csv(catalog.corridor_costs(**query))

    @bp.route("/costs/global")
    @bp.arguments(PeriodRange(), location="query", as_kwargs=True)
    @bp.alt_response(404)
    @bp.cached
    @bp.response(200, global_schema)
    def global_costs(catalog: Catalog, start: str | None = None, end: str | None = None) -> list[GlobalPeriod]:
        """The survey's pooled figures by period: the global average, SmaRT, corridors at or under 5 % and 3 %."""
        return list(catalog.global_costs(start, end))  # a list: flask-smorest reads a tuple as (body, status, headers)


def csv_figure(value: float | None, places: int = 2) -> str:
    """A figure in a CSV file as JSON writes it, empty for null."""
    return "" if value is None else repr(round_half_up(value, places) + 0.0)


def periods_csv(costs: CorridorCosts) -> Response:
    """The periods as `SRC-DST_costs.csv`, one line each, figures as JSON writes them (empty for null)."""

    def computed(p: PeriodCosts | None) -> str:
        if p is None:
            return ",,,,,"
        return (
            f"{csv_figure(p.average)},{csv_figure(p.average_500)},{csv_figure(p.smart)},{csv_figure(p.lowest)},"
            f"{p.observations},{p.transparent_observations}"
        )

    lines = [",".join(CSV_COLUMNS)] + [
        f"{p.period},{csv_figure(p.published_average)},{computed(p.computed)}" for p in costs.periods
    ]
    return csv_file("\r\n".join(lines) + "\r\n", f"{costs.key}_costs.csv")


def corridors_csv(corridors: tuple[CostCorridor, ...]) -> Response:
    """The corridors as `cost_corridors.csv`, one line each, as JSON writes them (empty for null)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CORRIDORS_CSV_COLUMNS)
    for c in corridors:
        costs = c.costs
        writer.writerow(
            [
                costs.key,
                costs.source_name,
                costs.destination_name,
                costs.from_currency or "",
                costs.to_currency or "",
                c.latest_period,
                c.latest_published_period or "",
                csv_figure(c.latest_published_average),
                c.latest_computed_period or "",
                csv_figure(c.latest_computed_average),
                csv_figure(c.annual_flow_bn, 1),
                "" if c.flow_year is None else c.flow_year,
            ]
        )
    return csv_file(buffer.getvalue(), "cost_corridors.csv")
