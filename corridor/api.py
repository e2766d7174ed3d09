"""Group A blueprint, `/api/`: snake_case, bearer key required (SPEC §3, §7)."""

from flask import Blueprint, request

from corridor.auth import authenticate
from corridor.encoding import RawJSON
from corridor.endpoint import endpoint
from corridor.state import catalog, key_digests, ranking_for, reusable_quote, require_currency
from schemas.api import RANKED_PRICED, CorridorSummarySchema, CurrencySchema, MidRateSchema, RankedProviderSchema
from schemas.query import CorridorQuery, CurrencyPairQuery
from schemas.quotes import RankingWriter

bp = Blueprint("api", __name__, url_prefix="/api")

PRIVATE = "private, max-age=60"
_corridor_summaries = CorridorSummarySchema(many=True)
_ranked_providers = RankedProviderSchema(many=True)
_ranked_entries = RankingWriter(RankedProviderSchema, RANKED_PRICED)
_mid_rate = MidRateSchema()
_currencies = CurrencySchema(many=True)


@bp.before_request
def require_api_key() -> None:
    """Every Group A request but OPTIONS (SPEC §8) needs a live key, before any parameter."""
    req = request._get_current_object()  # one proxy lookup, not one per attribute (corridor.state)
    if req.method != "OPTIONS":
        authenticate(req.environ.get("HTTP_AUTHORIZATION"), key_digests())  # the raw header: no header map built


@bp.get("/corridors")
@endpoint(_corridor_summaries, cache_control=PRIVATE, errors=(401,))
def corridors(query: dict) -> list:
    """Active corridors by id, each with its best offer."""
    return _corridor_summaries.dump(catalog().corridors)


@bp.get("/providers")
@endpoint(_ranked_providers, cache_control=PRIVATE, query=CorridorQuery(), errors=(401, 404),
          variants=lambda data: [{"corridor": key} for key in data.by_key], reuse=reusable_quote)
def providers(query: dict) -> RawJSON:
    """A corridor's providers ranked by true cost, or as `sort` says, at `amount`, with `payout`."""
    return _ranked_entries.encode(ranking_for(query))  # from a layout of the sheet and order


@bp.get("/currencies")
@endpoint(_currencies, cache_control=PRIVATE, errors=(401,))
def currencies(query: dict) -> list:
    """Every currency in the rate tables with its English name, by code."""
    return _currencies.dump(catalog().currencies)


@bp.get("/midrate")
@endpoint(_mid_rate, cache_control=PRIVATE, query=CurrencyPairQuery(), errors=(401, 404), variants=lambda data: [])
def midrate(query: dict) -> dict:
    """Consumer and interbank reference rates for any pair of known currencies."""
    pair = [require_currency(query[name]) for name in ("from_currency", "to_currency")]
    return _mid_rate.dump(catalog().mid_rate(*pair))
