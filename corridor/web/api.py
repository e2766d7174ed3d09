"""Group A blueprint, `/api/`: snake_case figures, bearer key required."""

from flask import Blueprint, request

from corridor.domain.catalog import Catalog
from corridor.web.auth import authenticate
from corridor.web.endpoint import endpoint
from corridor.web.quotes import QuoteEntries, at_an_amount, quotes_for
from corridor.web.service import current_service
from corridor.web.tables import series_csv, series_for
from schemas.api import (
    BenchmarkSchema,
    CorridorSummarySchema,
    CurrencySchema,
    HistorySchema,
    MidRateSchema,
    RankedProviderSchema,
)
from schemas.query import CorridorQuery, CurrencyPairQuery, HistoryQuery

bp = Blueprint("api", __name__, url_prefix="/api")

PRIVATE = "private, max-age=60"
_corridor_summaries = CorridorSummarySchema(many=True)
_ranked_providers = RankedProviderSchema(many=True)
_ranked_entries = QuoteEntries(RankedProviderSchema)
_mid_rate = MidRateSchema()
_currencies = CurrencySchema(many=True)
_history = HistorySchema()
_benchmark = BenchmarkSchema()


@bp.before_request
def require_api_key() -> None:
    """Every Group A request but OPTIONS needs a live key, before any parameter is looked at."""
    environ = request.environ
    if environ["REQUEST_METHOD"] != "OPTIONS":
        authenticate(environ.get("HTTP_AUTHORIZATION"), current_service().keys)


@bp.get("/corridors")
@endpoint(_corridor_summaries, cache_control=PRIVATE, errors=(401,))
def corridors(catalog: Catalog, query: dict) -> list:
    """Active corridors by id, each with its best offer."""
    return _corridor_summaries.dump(catalog.corridors)


@bp.get("/providers")
@endpoint(_ranked_providers, cache_control=PRIVATE, query=CorridorQuery(), errors=(401, 404),
          variants=lambda catalog: [{"corridor": key} for key in catalog.by_key],
          one_off=at_an_amount)
def providers(catalog: Catalog, query: dict) -> list:
    """A corridor's providers ranked by true cost, or as `sort` says, at `amount`, with `payout`."""
    figures = quotes_for(catalog, query)
    return _ranked_entries.dump(catalog, figures)


@bp.get("/benchmark")
@endpoint(_benchmark, cache_control=PRIVATE, errors=(401,))
def benchmark(catalog: Catalog, query: dict) -> dict:
    """UN SDG 10.c figures over the active corridors at the reference amount."""
    return _benchmark.dump(catalog.benchmark)


@bp.get("/currencies")
@endpoint(_currencies, cache_control=PRIVATE, errors=(401,))
def currencies(catalog: Catalog, query: dict) -> list:
    """Every currency in the rate tables with its English name, by code."""
    return _currencies.dump(catalog.currencies)


@bp.get("/midrate")
@endpoint(_mid_rate, cache_control=PRIVATE, query=CurrencyPairQuery(), errors=(401, 404), variants=lambda catalog: [])
def midrate(catalog: Catalog, query: dict) -> dict:
    """Consumer and interbank reference rates for any pair of known currencies."""
    return _mid_rate.dump(catalog.mid_rate(query["from_currency"], query["to_currency"]))


@bp.get("/history")
@endpoint(_history, cache_control=PRIVATE, query=HistoryQuery(), errors=(401, 404), variants=lambda catalog: [],
          modified=lambda data: data.history_modified, csv=series_csv)
def history(catalog: Catalog, query: dict) -> dict:
    """A pair's ECB reference rates by day, week or month, or the one in force on a date; JSON or CSV."""
    return _history.dump(series_for(catalog, query))
