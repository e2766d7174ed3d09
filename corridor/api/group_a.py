"""Group A, `/api/`: snake_case figures, a bearer key required."""

from corridor.api import paging
from corridor.api.blueprint import Blueprint
from corridor.api.costs import register_cost_views
from corridor.api.shared import register_shared_views
from corridor.domain.catalog import Catalog
from corridor.domain.pricing import MidRate, Quote
from corridor.state.policy import Policy
from schemas.api import (
    BenchmarkSchema,
    CorridorSummarySchema,
    CurrencySchema,
    HistorySchema,
    MidRateSchema,
    RankedProviderSchema,
)
from schemas.costs import CostCorridorSchema, CostsSchema, GlobalCostsSchema
from schemas.query import AMOUNTS, LINK_HEADER, CorridorQuery, CurrencyPairQuery, PageQuery

# a key belongs on a server, so browsers get no CORS here; its answers are for the key holder alone
POLICY = Policy(bearer_key=True, budget="api", cache_control="private, max-age=60")
bp = Blueprint(
    "api",
    __name__,
    url_prefix="/api",
    policy=POLICY,
    tag="Group A",
    tag_description="snake_case figures; needs `Authorization: Bearer <key>`, a key made at /account or the "
    "operator's.",
)


@bp.route("/corridors")
@bp.arguments(PageQuery(), location="query", as_kwargs=True)
@bp.cached
@bp.response(200, CorridorSummarySchema(many=True), headers=LINK_HEADER)
def corridors(catalog: Catalog, limit: int | None = None, cursor: int | None = None) -> tuple:
    """Active corridors by id, each with its best offer; whole, or `limit` of them after `cursor`."""
    page, headers = paging.listing(catalog.corridors, limit, cursor, catalog.dataset.as_of)
    return list(page.items), headers  # a list: flask-smorest reads a tuple as (body, headers)


@bp.route("/providers")
@bp.arguments(CorridorQuery(), location="query", as_kwargs=True)
@bp.alt_response(404)
@bp.cached(unless_given=AMOUNTS)
@bp.response(200, RankedProviderSchema(many=True))
def providers(catalog: Catalog, **query) -> list[Quote]:
    """A corridor's providers ranked by true cost, or as `sort` says, at `amount`, with `payout`."""
    return list(catalog.quotes(**query).quotes)


@bp.route("/midrate")
@bp.arguments(CurrencyPairQuery(), location="query", as_kwargs=True)
@bp.alt_response(404)
@bp.cached
@bp.response(200, MidRateSchema)
def midrate(catalog: Catalog, from_currency: str, to_currency: str) -> MidRate:
    """Consumer and interbank reference rates for any pair of known currencies."""
    return catalog.mid_rate(from_currency, to_currency)


register_shared_views(
    bp, currencies_schema=CurrencySchema(many=True), benchmark_schema=BenchmarkSchema, history_schema=HistorySchema
)
register_cost_views(
    bp,
    costs_schema=CostsSchema,
    global_schema=GlobalCostsSchema,
    corridors_schema=CostCorridorSchema(many=True),
    enveloped=False,
)
