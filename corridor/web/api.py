"""Group A blueprint, `/api/`: snake_case figures, bearer key required."""

from corridor.domain.pricing import CorridorFigures, MidRate, Quote
from corridor.web.auth import require_api_key
from corridor.web.caching import cached
from corridor.web.queries import Blueprint
from corridor.web.service import current_catalog
from corridor.web.shared import register_shared_views
from schemas.api import (
    BenchmarkSchema,
    CorridorSummarySchema,
    CurrencySchema,
    HistorySchema,
    MidRateSchema,
    RankedProviderSchema,
)
from schemas.query import CorridorQuery, CurrencyPairQuery, NoQuery

bp = Blueprint("api", __name__, url_prefix="/api")


bp.before_request(require_api_key)  # before any parameter is looked at; then the key's budget


@bp.route("/corridors")
@bp.arguments(NoQuery(), location="query", as_kwargs=True)
@cached
@bp.response(200, CorridorSummarySchema(many=True))
def corridors() -> list[CorridorFigures]:
    """Active corridors by id, each with its best offer."""
    return list(current_catalog().corridors)  # a list: flask-smorest reads a tuple as (body, status, headers)


@bp.route("/providers")
@bp.arguments(CorridorQuery(), location="query", as_kwargs=True)
@bp.alt_response(404)
@cached
@bp.response(200, RankedProviderSchema(many=True))
def providers(**query) -> list[Quote]:
    """A corridor's providers ranked by true cost, or as `sort` says, at `amount`, with `payout`."""
    return list(current_catalog().quotes(**query).quotes)


@bp.route("/midrate")
@bp.arguments(CurrencyPairQuery(), location="query", as_kwargs=True)
@bp.alt_response(404)
@cached
@bp.response(200, MidRateSchema)
def midrate(from_currency: str, to_currency: str) -> MidRate:
    """Consumer and interbank reference rates for any pair of known currencies."""
    return current_catalog().mid_rate(from_currency, to_currency)


register_shared_views(bp, currencies_schema=CurrencySchema(many=True), benchmark_schema=BenchmarkSchema,
                      history_schema=HistorySchema)
