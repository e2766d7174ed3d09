"""One error path: every failure, expected or not, is answered as RFC 9457 problem details (or, on a blueprint that
declares an error page, as that page with the same status and sentence). Flask picks each handler by the error's
class."""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus
from typing import cast

from flask import Flask, Response, current_app, render_template, request
from flask_wtf.csrf import CSRFError
from gunicorn.http.errors import NoMoreData, ParseException
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from corridor.data.database import error_reason
from corridor.domain.catalog import (
    AmbiguousCorridor,
    NoOffers,
    NoSurveyData,
    NotServed,
    UnknownCorridor,
    UnknownCorridorId,
    UnknownCurrency,
)
from corridor.domain.history import NoHistory
from corridor.errors import ApiError, quoted
from corridor.state.policy import policy_of, request_policy
from schemas.problem import ProblemSchema

PROBLEM_MEDIA_TYPE = "application/problem+json"
_problem_schema = ProblemSchema()
_NOT_SERVED = {  # the code, and the detail of a value a query or a path gave
    UnknownCorridor: ("unknown_corridor", lambda key: f"No active corridor {key}."),
    UnknownCurrency: ("unknown_currency", lambda code: f"No rates for currency {code} in this service."),
    UnknownCorridorId: ("not_found", lambda corridor_id: f"No active corridor has the id {quoted(corridor_id)}."),
}
_HTTP_ERRORS = {
    404: ("not_found", "Nothing is served at this path; / compares providers, /api/docs lists the endpoints."),
    405: ("method_not_allowed", "This endpoint answers only {allowed}."),
}


def register_error_handlers(app: Flask) -> None:
    """Answer every exception with problem details; HTTP's own errors come to `http_error` through flask-smorest's
    handler for them (corridor/api/openapi.py's Api)."""
    app.register_error_handler(ApiError, api_error)
    app.register_error_handler(NotServed, not_served)
    app.register_error_handler(AmbiguousCorridor, ambiguous_corridor)
    app.register_error_handler(NoSurveyData, no_survey_data)
    app.register_error_handler(NoHistory, no_history)
    app.register_error_handler(CSRFError, expired_form)
    for error in (OperationalError, InterfaceError, PoolTimeout):  # the database is down, stalled or busy
        app.register_error_handler(error, database_unavailable)
    app.register_error_handler(Exception, fault)


def problem(status: int, code: str, detail: str, headers: Mapping[str, str] | None = None) -> Response:
    """The one way an error response is built: problem+json, or the page the blueprint declares for errors."""
    body = _problem_schema.dump({"title": HTTPStatus(status).phrase, "status": status, "detail": detail, "code": code})
    page = _error_page()
    if page:
        response = current_app.response_class(render_template(page, **body), mimetype="text/html")
    else:
        response = cast(Response, current_app.json.response(body))
        response.mimetype = PROBLEM_MEDIA_TYPE
    response.status_code = status
    response.headers.update(headers or {})
    response.headers["Cache-Control"] = "no-store"
    return response


def _error_page() -> str | None:
    """The error page of the request's blueprint; for a path no route matched (a 404 or 405 of routing), that of the
    blueprint whose prefix holds it, so that a mistyped account page is answered as a page."""
    if request.url_rule is not None:
        return request_policy().error_page
    path = request.path.rstrip("/")
    prefixes = [(bp.url_prefix.rstrip("/"), bp) for bp in current_app.blueprints.values() if bp.url_prefix]
    holding = [(prefix, bp) for prefix, bp in prefixes if path == prefix or path.startswith(f"{prefix}/")]
    return policy_of(max(holding, key=lambda held: len(held[0]))[1]).error_page if holding else None


def api_error(error: ApiError) -> Response:
    return problem(error.status, error.code, error.detail, error.headers)


def not_served(error: NotServed) -> Response:
    if isinstance(error, NoOffers):
        return problem(404, "no_offers", no_offers_detail(error))
    code, detail = _NOT_SERVED[type(error)]
    return problem(404, code, detail(error.value))


def ambiguous_corridor(error: AmbiguousCorridor) -> Response:
    """A currency pair several corridors share: 400, saying which to ask for instead."""
    first = error.corridors[0]
    named = ", ".join(f"{c.countries} ({c.source} → {c.destination}, id {c.id})" for c in error.corridors)
    return problem(
        400,
        "ambiguous_corridor",
        f"{len(error.corridors)} active corridors have the currencies {first.from_currency}→{first.to_currency}: "
        f"{named}; name one by its countries, such as corridor={first.countries}, or by its id.",
    )


def no_survey_data(error: NoSurveyData) -> Response:
    corridor = error.corridor
    if corridor is None:
        return problem(404, "no_survey_data", "This service holds no World Bank survey data yet.")
    return problem(
        404,
        "no_survey_data",
        f"The World Bank's survey has no observation of {corridor.countries} "
        f"({corridor.source} → {corridor.destination}) in this service.",
    )


def no_offers_detail(error: NoOffers) -> str:
    """What a country pair without offers has instead."""
    costs = error.costs
    kinds = [
        f"{name}, {periods[0].period} to {periods[-1].period}"
        for name, periods in (
            ("the World Bank's published average cost", [p for p in costs.periods if p.published]),
            ("average costs computed from its survey rows", [p for p in costs.periods if p.computed]),
        )
        if periods
    ]
    return (
        f"{costs.key} ({costs.source_name} → {costs.destination_name}) has no offers in this service: only "
        f"{' and '.join(kinds)}; ask /api/costs?corridor={costs.key}."
    )


def no_history(error: NoHistory) -> Response:
    return problem(404, "no_history", str(error))


def http_error(error: HTTPException) -> Response:
    """HTTP's own errors (Werkzeug's, from routing), as problem details; a 5xx is a fault."""
    status = error.code or 500
    if status >= 500:
        return fault(error)
    code, detail = _HTTP_ERRORS.get(status, ("invalid_parameter", "The request could not be understood."))
    headers = {}
    if isinstance(error, MethodNotAllowed):
        headers["Allow"] = ", ".join(sorted(error.valid_methods or ["GET", "HEAD", "OPTIONS"]))
        detail = detail.format(allowed=headers["Allow"])
    return problem(status, code, detail, headers)


def expired_form(error: CSRFError) -> Response:
    return problem(
        400, "invalid_form", "The form expired or came from another site: reload the page and send it again."
    )


def database_unavailable(error: OperationalError | InterfaceError | PoolTimeout) -> Response:
    """503, and one log line with the reason (never the parameters: SQLAlchemy hides them)."""
    current_app.logger.error(
        "The accounts database failed on %s %s: %s", request.method, request.path, error_reason(error)
    )
    return problem(
        503, "unavailable", "Accounts cannot be reached right now; try again in a minute.", {"Retry-After": "60"}
    )


def fault(error: Exception) -> Response:
    """Anything else: logged with its traceback, answered with a 500 that says nothing of it."""
    if isinstance(error, ParseException | NoMoreData):  # gunicorn's, reading a chunked body as the form is read
        return problem(400, "invalid_parameter", "The request's body is malformed or cut short.")
    if isinstance(error, UnicodeDecodeError):
        try:
            request.query_string.decode()
        except UnicodeDecodeError:  # gunicorn refuses such request lines; a server that passes raw bytes on does not
            return problem(400, "invalid_parameter", "The query string is not UTF-8: percent-encode other bytes.")
    cause = getattr(error, "original_exception", None) or error
    current_app.logger.error("Unhandled error on %s %s", request.method, request.path, exc_info=cause)
    return problem(500, "internal_error", "Something went wrong on our side; please try again later.")
