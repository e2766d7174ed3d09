"""Group A blueprint, `/api/`: snake_case, bearer key required (SPEC §3, §7)."""

from flask import Blueprint, Response, request

from corridor.auth import authenticate
from corridor.http import json_response
from corridor.endpoint import endpoint
from corridor.state import catalog, find_corridor, key_digests, require_currency
from schemas.api import (
    CorridorSummarySchema,
    MidRateQuery,
    MidRateSchema,
    ProvidersQuery,
    RankedProviderSchema,
)

bp = Blueprint("api", __name__, url_prefix="/api")

PRIVATE = "private, max-age=60"
_corridor_summaries = CorridorSummarySchema(many=True)
_ranked_providers = RankedProviderSchema(many=True)
_mid_rate = MidRateSchema()


@bp.before_request
def require_api_key() -> None:
    """Every Group A request but OPTIONS (SPEC §8) needs a live key, before any parameter."""
    if request.method != "OPTIONS":
        authenticate(request.headers.get("Authorization"), key_digests())


@bp.get("/corridors")
@endpoint(_corridor_summaries, errors=(401,))
def corridors(query: dict) -> Response:
    """Active corridors by id, each with its best offer."""
    return json_response(_corridor_summaries.dump(catalog().corridors), PRIVATE)


@bp.get("/providers")
@endpoint(_ranked_providers, query=ProvidersQuery(), errors=(401, 404))
def providers(query: dict) -> Response:
    """A corridor's providers ranked by true cost."""
    return json_response(_ranked_providers.dump(find_corridor(query["corridor"]).quotes), PRIVATE)


@bp.get("/midrate")
@endpoint(_mid_rate, query=MidRateQuery(), errors=(401, 404))
def midrate(query: dict) -> Response:
    """Consumer and interbank reference rates for any pair of known currencies."""
    pair = [require_currency(query[name]) for name in ("from_currency", "to_currency")]
    return json_response(_mid_rate.dump(catalog().mid_rate(*pair)), PRIVATE)
