"""Group B blueprint, `/api/poc/`: camelCase, display strings, public (SPEC §4)."""

from functools import cache

from flask import Blueprint, Response, current_app, request

from corridor import __version__
from corridor.http import json_bytes, json_response
from corridor.endpoint import endpoint
from corridor.state import catalog, find_corridor, find_corridor_by_id, uptime_seconds
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
@endpoint((_corridor_list, _corridor), query=CorridorsQuery(), errors=(404,))
def corridors(query: dict) -> Response:
    """Every active corridor by id, or the one `from` and `to` name."""
    if query:
        figures = find_corridor(f"{query['from_currency']}_{query['to_currency']}")
        return json_response(_corridor.dump({"corridor": figures}), PUBLIC)
    items = catalog().corridors
    return json_response(_corridor_list.dump({"count": len(items), "corridors": items}), PUBLIC)


@bp.get("/corridors/<corridor_id>")
@endpoint(_corridor, errors=(404,))
def corridor(query: dict, corridor_id: str) -> Response:
    """One active corridor by id."""
    return json_response(_corridor.dump({"corridor": find_corridor_by_id(corridor_id)}), PUBLIC)


@bp.get("/providers")
@endpoint((_provider_groups, _providers), query=ProvidersQuery(), errors=(404,))
def providers(query: dict) -> Response:
    """One corridor's ranked providers, or every active corridor's, grouped."""
    if query:
        return json_response(_providers.dump(find_corridor(query["corridor"])), PUBLIC)
    groups = catalog().corridors
    return json_response(_provider_groups.dump({"count": len(groups), "corridors": groups}), PUBLIC)


@bp.get("/full")
@endpoint(_full)
def full(query: dict) -> Response:
    """Every active corridor with its key, compliance notes and ranked providers."""
    items = catalog().corridors
    body = {"updated": catalog().dataset.as_of, "count": len(items), "corridors": items}
    return json_response(_full.dump(body), PUBLIC)


@cache
def _guide_fields() -> tuple[dict, ...]:
    schemas = (_corridor_list, _corridor, _providers, _provider_groups, _full, _guide, _health, ProblemSchema())
    return tuple(guide_entries(*schemas))


@bp.get("/guide")
@endpoint(_guide)
def guide(query: dict) -> Response:
    """Every field name of every Group B payload, generated from the schemas."""
    entries = _guide_fields()
    return json_response(_guide.dump({"count": len(entries), "fields": entries}), PUBLIC)


@bp.get("/health")
@endpoint(_health)
def health(query: dict) -> Response:
    """Cheap liveness and data facts; never cached."""
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
