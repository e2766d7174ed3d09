"""Group B blueprint, `/api/poc/`: camelCase, display strings, public (CORS: corridor.web.http)."""

import time

from flask import current_app

from corridor import __version__
from corridor.domain.catalog import Catalog
from corridor.domain.pricing import CorridorFigures
from corridor.web.caching import cached
from corridor.web.queries import Blueprint
from corridor.web.service import current_catalog, current_service, feed_report
from corridor.web.shared import register_shared_views
from schemas.guide import guide_entries
from schemas.poc import (
    BenchmarkResponse,
    CorridorListResponse,
    CorridorResponse,
    CurrenciesResponse,
    FullResponse,
    GuideResponse,
    HealthResponse,
    HistoryResponse,
    OneOrEvery,
    ProviderGroupsResponse,
    ProvidersResponse,
)
from schemas.problem import ProblemSchema
from schemas.query import NoQuery, OptionalCorridorQuery, OptionalCurrencyPairQuery

bp = Blueprint("poc", __name__, url_prefix="/api/poc")

NO_STORE = "no-store"
_CORRIDOR_ID = {"in": "path", "name": "corridor_id", "description": "Corridor id: digits, no leading zero."}


def one_of(every: type, one: type) -> dict:
    """The document's 200 for an endpoint answering every corridor, or one."""
    return {200: {"content": {"application/json": {"schema": {"oneOf": [every, one]}}}}}


@bp.route("/corridors")
@bp.arguments(OptionalCurrencyPairQuery(), location="query", as_kwargs=True)
@bp.alt_response(404)
@bp.doc(responses=one_of(CorridorListResponse, CorridorResponse))
@cached
@bp.response(200, OneOrEvery(CorridorResponse(), CorridorListResponse()))
def corridors(from_currency: str | None = None, to_currency: str | None = None) -> CorridorFigures | list:
    """Every active corridor by id, or the one `from` and `to` name."""
    catalog = current_catalog()
    # a list: flask-smorest reads a tuple as (body, status, headers)
    return catalog.corridor(f"{from_currency}_{to_currency}") if from_currency else list(catalog.corridors)


@bp.route("/corridors/<corridor_id:corridor_id>", parameters=[_CORRIDOR_ID])
@bp.arguments(NoQuery(), location="query", as_kwargs=True)
@bp.alt_response(404)
@cached
@bp.response(200, CorridorResponse)
def corridor(corridor_id: str) -> CorridorFigures:
    """One active corridor by id."""
    return current_catalog().corridor_by_id(corridor_id)


@bp.route("/providers")
@bp.arguments(OptionalCorridorQuery(), location="query", as_kwargs=True)
@bp.alt_response(404)
@bp.doc(responses=one_of(ProviderGroupsResponse, ProvidersResponse))
@cached
@bp.response(200, OneOrEvery(ProvidersResponse(), ProviderGroupsResponse()))
def providers(**query) -> CorridorFigures | list:
    """One corridor's ranked providers (with amount, payout, sort), or every corridor's, grouped."""
    catalog = current_catalog()
    return catalog.quotes(**query) if "corridor" in query else list(catalog.corridors)


@bp.route("/full")
@bp.arguments(NoQuery(), location="query", as_kwargs=True)
@cached
@bp.response(200, FullResponse)
def full() -> Catalog:
    """Every active corridor with its key, compliance notes and ranked providers."""
    return current_catalog()


@bp.route("/guide")
@bp.arguments(NoQuery(), location="query", as_kwargs=True)
@cached
@bp.response(200, GuideResponse)
def guide() -> list[dict]:
    """Every field name of every Group B payload, generated from the schemas."""
    return guide_entries(CorridorListResponse(), CorridorResponse(), ProvidersResponse(), ProviderGroupsResponse(),
                         CurrenciesResponse(), FullResponse(), GuideResponse(), HealthResponse(), HistoryResponse(),
                         BenchmarkResponse(), ProblemSchema())


@bp.route("/health")
@bp.arguments(NoQuery(), location="query", as_kwargs=True)
@bp.response(200, HealthResponse, headers={"Cache-Control": {"schema": {"type": "string", "enum": [NO_STORE]},
                                                              "required": True}})
def health() -> tuple[dict, dict]:
    """Liveness and data facts; never cached."""
    service = current_service()
    catalog = service.data.catalog
    return {
        "status": "ok",
        "version": __version__,
        "data_as_of": catalog.dataset.as_of,
        "corridors": len(catalog.corridors),
        "uptime_seconds": int(time.monotonic() - service.started),
        "history_start": catalog.history.first,
        "history_end": catalog.history.last,
        "rates": feed_report(current_app),
    }, {"Cache-Control": NO_STORE}


register_shared_views(bp, currencies_schema=CurrenciesResponse, benchmark_schema=BenchmarkResponse,
                      history_schema=HistoryResponse)
