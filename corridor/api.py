"""Group A blueprint, `/api/`: snake_case, bearer key required (SPEC §3, §7)."""

from flask import Blueprint, Response, request

from corridor.auth import authenticate
from corridor.http import json_response
from corridor.params import parse_query
from corridor.state import catalog, find_corridor, key_digests, require_currency
from schemas.api import (
    CorridorSummarySchema,
    MidRateQuery,
    MidRateSchema,
    NoQuery,
    ProvidersQuery,
    RankedProviderSchema,
)

bp = Blueprint("api", __name__, url_prefix="/api")

PRIVATE = "private, max-age=60"
_no_query = NoQuery()
_providers_query = ProvidersQuery()
_mid_rate_query = MidRateQuery()
_corridor_summaries = CorridorSummarySchema(many=True)
_ranked_providers = RankedProviderSchema(many=True)
_mid_rate = MidRateSchema()


@bp.before_request
def require_api_key() -> None:
    """Every Group A request but OPTIONS (SPEC §8) needs a live key, before any parameter."""
    if request.method != "OPTIONS":
        authenticate(request.headers.get("Authorization"), key_digests())


@bp.get("/corridors")
def corridors() -> Response:
    """Active corridors by id, each with its best offer."""
    parse_query(_no_query)
    return json_response(_corridor_summaries.dump(catalog().corridors), PRIVATE)


@bp.get("/providers")
def providers() -> Response:
    """A corridor's providers ranked by true cost."""
    query = parse_query(_providers_query)
    return json_response(_ranked_providers.dump(find_corridor(query["corridor"]).quotes), PRIVATE)


@bp.get("/midrate")
def midrate() -> Response:
    """Consumer and interbank reference rates for any pair of known currencies."""
    query = parse_query(_mid_rate_query)
    pair = [require_currency(query[name]) for name in ("from_currency", "to_currency")]
    return json_response(_mid_rate.dump(catalog().mid_rate(*pair)), PRIVATE)
