"""Group B, `/api/poc/`: camelCase, display strings, public and readable from any origin."""

import time

from corridor import __version__
from corridor.api import paging
from corridor.api.blueprint import Blueprint
from corridor.api.costs import register_cost_views
from corridor.api.shared import register_shared_views
from corridor.domain.catalog import Catalog
from corridor.domain.pricing import CorridorFigures
from corridor.state import current_service
from corridor.state.policy import Policy, exempt
from schemas.costs import CostsResponse, GlobalCostsResponse
from schemas.guide import guide_entries
from schemas.poc import (
    BenchmarkResponse,
    CorridorListResponse,
    CorridorResponse,
    CostCorridorListResponse,
    CurrenciesResponse,
    FullResponse,
    GuideResponse,
    HealthResponse,
    HistoryResponse,
    ProviderGroupsResponse,
    ProvidersResponse,
)
from schemas.problem import ProblemSchema
from schemas.query import (
    AMOUNTS,
    LINK_HEADER,
    NoQuery,
    OptionalCorridorQuery,
    OptionalCurrencyPairQuery,
    PageQuery,
)

POLICY = Policy(cache_control="public, max-age=60", cors=True)
bp = Blueprint(
    "poc",
    __name__,
    url_prefix="/api/poc",
    policy=POLICY,
    tag="Group B",
    tag_description="camelCase display strings in an `ok` envelope; public.",
)

NO_STORE = "no-store"
_NO_STORE_HEADER = {"Cache-Control": {"schema": {"type": "string", "enum": [NO_STORE]}, "required": True}}
_CORRIDOR_ID = {"in": "path", "name": "corridor_id", "description": "Corridor id: digits, no leading zero."}


@bp.route("/corridors")
@bp.arguments(OptionalCurrencyPairQuery(), location="query", as_kwargs=True)
@bp.alt_response(404)
@bp.cached(either=(CorridorListResponse, CorridorResponse), headers=LINK_HEADER)
def corridors(
    catalog: Catalog,
    from_currency: str | None = None,
    to_currency: str | None = None,
    limit: int | None = None,
    cursor: int | None = None,
) -> tuple:
    """Every active corridor by id, whole or `limit` of them after `cursor`; or the one `from` and `to` name."""
    if from_currency:
        return CorridorResponse, {"corridor": catalog.corridor(f"{from_currency}_{to_currency}")}
    return CorridorListResponse, *paging.listing(catalog.corridors, limit, cursor, catalog.dataset.as_of)


@bp.route("/corridors/<corridor_id:corridor_id>", parameters=[_CORRIDOR_ID])
@bp.arguments(NoQuery(), location="query", as_kwargs=True)
@bp.alt_response(404)
@bp.cached
@bp.response(200, CorridorResponse)
def corridor(catalog: Catalog, corridor_id: str) -> dict[str, CorridorFigures]:
    """One active corridor by id."""
    return {"corridor": catalog.corridor_by_id(corridor_id)}


@bp.route("/providers")
@bp.arguments(OptionalCorridorQuery(), location="query", as_kwargs=True)
@bp.alt_response(404)
@bp.cached(unless_given=AMOUNTS, either=(ProviderGroupsResponse, ProvidersResponse), headers=LINK_HEADER)
def providers(catalog: Catalog, limit: int | None = None, cursor: int | None = None, **query) -> tuple:
    """One corridor's ranked providers (with amount, payout, sort), or every corridor's, grouped, whole or by pages."""
    if "corridor" in query:
        return ProvidersResponse, catalog.quotes(**query)
    return ProviderGroupsResponse, *paging.listing(catalog.corridors, limit, cursor, catalog.dataset.as_of)


@bp.route("/full")
@bp.arguments(PageQuery(), location="query", as_kwargs=True)
@bp.cached
@bp.response(200, FullResponse, headers=LINK_HEADER)
def full(catalog: Catalog, limit: int | None = None, cursor: int | None = None) -> tuple:
    """Every active corridor with its key, compliance notes and ranked providers, whole or by pages."""
    return paging.listing(catalog.corridors, limit, cursor, catalog.dataset.as_of)


@bp.route("/guide")
@bp.arguments(NoQuery(), location="query", as_kwargs=True)
@bp.cached
@bp.response(200, GuideResponse)
def guide(catalog: Catalog) -> list[dict]:
    """Every field name of every Group B payload, generated from the schemas."""
    return guide_entries(
        CorridorListResponse(),
        CorridorResponse(),
        ProvidersResponse(),
        ProviderGroupsResponse(),
        CurrenciesResponse(),
        FullResponse(),
        GuideResponse(),
        HealthResponse(),
        HistoryResponse(),
        BenchmarkResponse(),
        CostsResponse(),
        GlobalCostsResponse(),
        ProblemSchema(),
    )


@bp.route("/health")
@bp.arguments(NoQuery(), location="query", as_kwargs=True)
@bp.response(200, HealthResponse, headers=_NO_STORE_HEADER)
@bp.alt_response(
    503,
    schema=HealthResponse,
    headers=_NO_STORE_HEADER,
    description="The instance is draining before it stops, or its database is behind the migrations: take it out of "
    "rotation; it still serves every other request.",
)
@exempt  # probes must always get through
def health() -> tuple[dict, int, dict]:
    """Liveness, readiness and data facts; never cached."""
    service = current_service()
    catalog = service.data.catalog
    draining = service.drain is not None and service.drain.draining
    status = "draining" if draining else "migrations_pending" if service.data.sources.pending else "ok"
    return (
        {
            "ok": status == "ok",
            "status": status,
            "version": __version__,
            "data_as_of": catalog.dataset.as_of,
            "corridors": len(catalog.corridors),
            "uptime_seconds": int(time.monotonic() - service.started),
            "history_start": catalog.history.ecb.first,
            "history_end": catalog.history.ecb.last,
            "rates": service.data.live.report(service.data.sources.dataset),  # as stored at most a poll ago
        },
        200 if status == "ok" else 503,
        {"Cache-Control": NO_STORE},
    )


register_shared_views(
    bp, currencies_schema=CurrenciesResponse, benchmark_schema=BenchmarkResponse, history_schema=HistoryResponse
)
register_cost_views(
    bp,
    costs_schema=CostsResponse,
    global_schema=GlobalCostsResponse,
    corridors_schema=CostCorridorListResponse(),
    enveloped=True,
)
