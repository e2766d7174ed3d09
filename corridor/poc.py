"""Group B blueprint, `/api/poc/`: camelCase, display strings, public (SPEC §4)."""

from functools import lru_cache

from flask import Blueprint, Response, request

from corridor import __version__
from corridor.catalog import Catalog
from corridor.encoding import RawJSON, json_text
from corridor.endpoint import endpoint
from corridor.quoting import Ranking
from corridor.state import catalog, find_corridor, find_corridor_by_id, ranking_for, reusable_quote, uptime_seconds
from schemas.guide import guide_entries
from schemas.poc import (
    PRICED,
    CorridorListResponse,
    CorridorResponse,
    CurrenciesResponse,
    FullResponse,
    GuideResponse,
    HealthResponse,
    ProviderGroupsResponse,
    ProviderEntrySchema,
    ProvidersResponse,
)
from schemas.problem import ProblemSchema
from schemas.query import OptionalCorridorQuery, OptionalCurrencyPairQuery
from schemas.quotes import RankingWriter

bp = Blueprint("poc", __name__, url_prefix="/api/poc")

PUBLIC = "public, max-age=60"
_PREFIX = f"{bp.url_prefix}/"
_CORS = (("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", "ETag, X-Request-ID"))
_CORS_PREFLIGHT = _CORS + (
    ("Access-Control-Allow-Methods", "GET, HEAD"),
    ("Access-Control-Allow-Headers", "If-None-Match, X-Request-ID"),
    ("Access-Control-Max-Age", "600"),
)
_corridor_list = CorridorListResponse()
_corridor = CorridorResponse()
_providers = ProvidersResponse()
_providers_head = ProvidersResponse(exclude=("providers",))  # `providers` is the schema's last field
_provider_groups = ProviderGroupsResponse()
_full = FullResponse()
_guide = GuideResponse()
_health = HealthResponse()
_currencies = CurrenciesResponse()


@bp.after_app_request
def allow_any_origin(response: Response) -> Response:
    """CORS for every Group B response, errors and unknown paths under it included."""
    req = request._get_current_object()  # one proxy lookup, not one per attribute (corridor.state)
    if req.path.startswith(_PREFIX):
        response.headers.extend(_CORS_PREFLIGHT if req.method == "OPTIONS" else _CORS)
    return response


def _pairs(data):
    return [{}] + [{"from": f.corridor.from_currency, "to": f.corridor.to_currency} for f in data.corridors]


@bp.get("/corridors")
@endpoint((_corridor_list, _corridor), cache_control=PUBLIC, query=OptionalCurrencyPairQuery(), errors=(404,),
          variants=_pairs)
def corridors(query: dict) -> dict:
    """Every active corridor by id, or the one `from` and `to` name."""
    if query:
        return _corridor.dump({"corridor": find_corridor(f"{query['from_currency']}_{query['to_currency']}")})
    items = catalog().corridors
    return _corridor_list.dump({"count": len(items), "corridors": items})


@bp.get("/corridors/<corridor_id:corridor_id>")
@endpoint(_corridor, cache_control=PUBLIC, errors=(404,),
          variants=lambda data: [{"corridor_id": key} for key in data.by_id])
def corridor(query: dict, corridor_id: str) -> dict:
    """One active corridor by id."""
    return _corridor.dump({"corridor": find_corridor_by_id(corridor_id)})


@bp.get("/providers")
@endpoint((_provider_groups, _providers), cache_control=PUBLIC, query=OptionalCorridorQuery(), errors=(404,),
          variants=lambda data: [{}] + [{"corridor": key} for key in data.by_key],
          reuse=reusable_quote)
def providers(query: dict) -> dict | RawJSON:
    """One corridor's ranked providers (with amount, payout, sort), or every corridor's, grouped."""
    if not query:
        groups = catalog().corridors
        return _provider_groups.dump({"count": len(groups), "corridors": groups})
    return _provider_list.encode(ranking_for(query))


def _envelope(ranking: Ranking) -> tuple[str, str]:
    # one corridor's providers envelope (everything but `providers`, the schema's last field)
    # names the corridor and counts the entries, nothing more: laid out with the list
    return f"{json_text(_providers_head.dump(ranking.figures()))[:-1]},{json_text('providers')}:", "}"


# the view's own writer of one corridor's providers, envelope included (/full's lists go
# through the schema field)
_provider_list = RankingWriter(ProviderEntrySchema, PRICED, around=_envelope)


@bp.get("/currencies")
@endpoint(_currencies, cache_control=PUBLIC)
def currencies(query: dict) -> dict:
    """Every currency in the rate tables with its English name, by code."""
    items = catalog().currencies
    return _currencies.dump({"count": len(items), "currencies": items})


@bp.get("/full")
@endpoint(_full, cache_control=PUBLIC)
def full(query: dict) -> dict:
    """Every active corridor with its key, compliance notes and ranked providers."""
    items = catalog().corridors
    return _full.dump({"updated": catalog().dataset.as_of, "count": len(items), "corridors": items})


@bp.get("/guide")
@endpoint(_guide, cache_control=PUBLIC)
def guide(query: dict) -> dict:
    """Every field name of every Group B payload, generated from the schemas."""
    schemas = (_corridor_list, _corridor, _providers, _provider_groups, _currencies, _full, _guide, _health,
               ProblemSchema())
    entries = guide_entries(*schemas)
    return _guide.dump({"count": len(entries), "fields": entries})


@bp.get("/health")
@endpoint(_health, cache_control="no-store", static=False)
def health(query: dict) -> RawJSON:
    """Cheap liveness and data facts; never cached."""
    return _health_payload(catalog(), int(uptime_seconds()))


@lru_cache(maxsize=1)
def _health_payload(data: Catalog, uptime: int) -> RawJSON:
    # the payload changes once a second at most: dump and encode it once per second, not per request
    return RawJSON(json_text(_health.dump({
        "status": "ok",
        "version": __version__,
        "data_as_of": data.dataset.as_of,
        "corridors": len(data.corridors),
        "uptime_seconds": uptime,
    })))
