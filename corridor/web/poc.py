"""Group B blueprint, `/api/poc/`: camelCase, display strings, public (CORS: corridor.web.http)."""

import time

from flask import Blueprint

from corridor import __version__
from corridor.domain.catalog import Catalog
from corridor.web.endpoint import endpoint
from corridor.web.quotes import QuoteEntries, at_an_amount, quotes_for
from corridor.web.service import current_service
from corridor.web.tables import series_csv, series_for
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
    ProviderEntrySchema,
    ProviderGroupsResponse,
    ProvidersResponse,
)
from schemas.problem import ProblemSchema
from schemas.query import HistoryQuery, OptionalCorridorQuery, OptionalCurrencyPairQuery

bp = Blueprint("poc", __name__, url_prefix="/api/poc")

PUBLIC = "public, max-age=60"
_corridor_list = CorridorListResponse()
_corridor = CorridorResponse()
_providers = ProvidersResponse()
_providers_head = ProvidersResponse(exclude=("providers",))  # `providers` is its last field
_provider_entries = QuoteEntries(ProviderEntrySchema)
_provider_groups = ProviderGroupsResponse()
_full = FullResponse()
_guide = GuideResponse()
_health = HealthResponse()
_history = HistoryResponse()
_benchmark = BenchmarkResponse()
_currencies = CurrenciesResponse()
_problem = ProblemSchema()


def _pairs(catalog: Catalog) -> list[dict]:
    return [{}] + [{"from": f.corridor.from_currency, "to": f.corridor.to_currency} for f in catalog.corridors]


@bp.get("/corridors")
@endpoint((_corridor_list, _corridor), cache_control=PUBLIC, query=OptionalCurrencyPairQuery(), errors=(404,),
          variants=_pairs)
def corridors(catalog: Catalog, query: dict) -> dict:
    """Every active corridor by id, or the one `from` and `to` name."""
    if query:
        return _corridor.dump({"corridor": catalog.corridor(f"{query['from_currency']}_{query['to_currency']}")})
    return _corridor_list.dump({"count": len(catalog.corridors), "corridors": catalog.corridors})


@bp.get("/corridors/<corridor_id:corridor_id>")
@endpoint(_corridor, cache_control=PUBLIC, errors=(404,),
          variants=lambda catalog: [{"corridor_id": corridor_id} for corridor_id in catalog.by_id])
def corridor(catalog: Catalog, query: dict, corridor_id: str) -> dict:
    """One active corridor by id."""
    return _corridor.dump({"corridor": catalog.corridor_by_id(corridor_id)})


@bp.get("/providers")
@endpoint((_provider_groups, _providers), cache_control=PUBLIC, query=OptionalCorridorQuery(), errors=(404,),
          variants=lambda catalog: [{}] + [{"corridor": key} for key in catalog.by_key],
          one_off=at_an_amount)
def providers(catalog: Catalog, query: dict) -> dict:
    """One corridor's ranked providers (with amount, payout, sort), or every corridor's, grouped."""
    if "corridor" not in query:
        return _provider_groups.dump({"count": len(catalog.corridors), "corridors": catalog.corridors})
    figures = quotes_for(catalog, query)
    return {**_providers_head.dump(figures), "providers": _provider_entries.dump(catalog, figures)}


@bp.get("/benchmark")
@endpoint(_benchmark, cache_control=PUBLIC)
def benchmark(catalog: Catalog, query: dict) -> dict:
    """UN SDG 10.c figures over the active corridors at the reference amount."""
    return _benchmark.dump(catalog.benchmark)


@bp.get("/currencies")
@endpoint(_currencies, cache_control=PUBLIC)
def currencies(catalog: Catalog, query: dict) -> dict:
    """Every currency in the rate tables with its English name, by code."""
    return _currencies.dump({"count": len(catalog.currencies), "currencies": catalog.currencies})


@bp.get("/full")
@endpoint(_full, cache_control=PUBLIC)
def full(catalog: Catalog, query: dict) -> dict:
    """Every active corridor with its key, compliance notes and ranked providers."""
    corridors = catalog.corridors
    return _full.dump({"updated": catalog.dataset.as_of, "count": len(corridors), "corridors": corridors})


@bp.get("/guide")
@endpoint(_guide, cache_control=PUBLIC)
def guide(catalog: Catalog, query: dict) -> dict:
    """Every field name of every Group B payload, generated from the schemas."""
    entries = guide_entries(_corridor_list, _corridor, _providers, _provider_groups, _currencies, _full, _guide,
                            _health, _history, _benchmark, _problem)
    return _guide.dump({"count": len(entries), "fields": entries})


@bp.get("/health")
@endpoint(_health, cache_control="no-store", cached=False)
def health(catalog: Catalog, query: dict) -> dict:
    """Liveness and data facts; never cached."""
    return _health.dump({
        "status": "ok",
        "version": __version__,
        "data_as_of": catalog.dataset.as_of,
        "corridors": len(catalog.corridors),
        "uptime_seconds": int(time.monotonic() - current_service().started),
        "history_start": catalog.history.first,
        "history_end": catalog.history.last,
    })


@bp.get("/history")
@endpoint(_history, cache_control=PUBLIC, query=HistoryQuery(), errors=(404,), variants=lambda catalog: [],
          modified=lambda data: data.history_modified, csv=series_csv)
def history(catalog: Catalog, query: dict) -> dict:
    """A pair's ECB reference rates by day, week or month, or the one in force on a date; JSON or CSV."""
    return _history.dump(series_for(catalog, query))
