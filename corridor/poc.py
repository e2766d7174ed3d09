"""Group B blueprint, `/api/poc/`: camelCase, display strings, public (SPEC §4)."""

from functools import cache

from flask import Blueprint, Response, current_app, request

from corridor import __version__
from corridor.http import json_bytes, json_response
from corridor.params import parse_query
from corridor.state import catalog, find_corridor, find_corridor_by_id, uptime_seconds
from schemas.api import NoQuery
from schemas.guide import guide_entries
from schemas.poc import (
    CorridorListResponse,
    CorridorResponse,
    CorridorsQuery,
    FullResponse,
    GuideResponse,
    HealthResponse,
    ProviderGroupsResponse,
    ProvidersQuery,
    ProvidersResponse,
)
from schemas.problem import ProblemSchema

bp = Blueprint("poc", __name__, url_prefix="/api/poc")

PUBLIC = "public, max-age=60"
_no_query = NoQuery()
_corridors_query = CorridorsQuery()
_providers_query = ProvidersQuery()
_corridor_list = CorridorListResponse()
_corridor = CorridorResponse()
_providers = ProvidersResponse()
_provider_groups = ProviderGroupsResponse()
_full = FullResponse()
_guide = GuideResponse()
_health = HealthResponse()


@bp.after_app_request
def allow_any_origin(response: Response) -> Response:
    """CORS for every Group B response, errors and unknown paths under it included."""
    if request.path.startswith(f"{bp.url_prefix}/"):
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Expose-Headers"] = "ETag, X-Request-ID"
        if request.method == "OPTIONS":
            response.headers["Access-Control-Allow-Methods"] = "GET, HEAD"
            response.headers["Access-Control-Allow-Headers"] = "If-None-Match, X-Request-ID"
            response.headers["Access-Control-Max-Age"] = "600"
    return response


@bp.get("/corridors")
def corridors() -> Response:
    """Every active corridor by id, or the one `from` and `to` name."""
    query = parse_query(_corridors_query)
    if query:
        figures = find_corridor(f"{query['from_currency']}_{query['to_currency']}")
        return json_response(_corridor.dump({"corridor": figures}), PUBLIC)
    items = catalog().corridors
    return json_response(_corridor_list.dump({"count": len(items), "corridors": items}), PUBLIC)


@bp.get("/corridors/<corridor_id>")
def corridor(corridor_id: str) -> Response:
    """One active corridor by id."""
    parse_query(_no_query)
    return json_response(_corridor.dump({"corridor": find_corridor_by_id(corridor_id)}), PUBLIC)


@bp.get("/providers")
def providers() -> Response:
    """One corridor's ranked providers, or every active corridor's, grouped."""
    query = parse_query(_providers_query)
    if query:
        return json_response(_providers.dump(find_corridor(query["corridor"])), PUBLIC)
    groups = catalog().corridors
    return json_response(_provider_groups.dump({"count": len(groups), "corridors": groups}), PUBLIC)


@bp.get("/full")
def full() -> Response:
    """Every active corridor with its key, compliance notes and ranked providers."""
    parse_query(_no_query)
    items = catalog().corridors
    body = {"updated": catalog().dataset.as_of, "count": len(items), "corridors": items}
    return json_response(_full.dump(body), PUBLIC)


@cache
def _guide_fields() -> tuple[dict, ...]:
    schemas = (_corridor_list, _corridor, _providers, _provider_groups, _full, _guide, _health, ProblemSchema())
    return tuple(guide_entries(*schemas))


@bp.get("/guide")
def guide() -> Response:
    """Every field name of every Group B payload, generated from the schemas."""
    parse_query(_no_query)
    entries = _guide_fields()
    return json_response(_guide.dump({"count": len(entries), "fields": entries}), PUBLIC)


@bp.get("/health")
def health() -> Response:
    """Cheap liveness and data facts; never cached."""
    parse_query(_no_query)
    body = {
        "status": "ok",
        "version": __version__,
        "data_as_of": catalog().dataset.as_of,
        "corridors": len(catalog().corridors),
        "uptime_seconds": int(uptime_seconds()),
    }
    response = current_app.response_class(json_bytes(_health.dump(body)), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response
