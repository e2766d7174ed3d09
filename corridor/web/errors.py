"""One error path: every failure, expected or not, becomes RFC 9457 problem details."""

from __future__ import annotations

from http import HTTPStatus
from typing import Mapping

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from corridor.domain.catalog import NotServed, UnknownCorridor, UnknownCorridorId, UnknownCurrency
from corridor.domain.history import NoHistory
from corridor.web.http import allow_header, json_bytes
from schemas.problem import ProblemSchema

PROBLEM_MEDIA_TYPE = "application/problem+json"
_problem_schema = ProblemSchema()
_NOT_SERVED = {  # the code, and the detail of a value a query or a path gave
    UnknownCorridor: ("unknown_corridor", lambda key: f"No active corridor {key}."),
    UnknownCurrency: ("unknown_currency", lambda code: f"No rates for currency {code} in this service."),
    UnknownCorridorId: ("not_found", lambda corridor_id: f"No active corridor has the id {shown(corridor_id)}."),
}
_HTTP_ERRORS = {
    404: ("not_found", "Nothing is served at this path; / compares providers, /api/docs lists the endpoints."),
    405: ("method_not_allowed", "This endpoint answers only {allowed}."),
}


def shown(name: str, limit: int = 40) -> str:
    """A client-sent name made safe to quote back: printable and short."""
    clean = "".join(c if c.isprintable() else "?" for c in name[:limit])
    return f"'{clean}…'" if len(name) > limit else f"'{clean}'"


class ApiError(Exception):
    """A client-facing failure with its HTTP status, machine code and a sentence to act on."""

    def __init__(self, status: int, code: str, detail: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = dict(headers or {})


def problem(status: int, code: str, detail: str, headers: Mapping[str, str] | None = None) -> Response:
    """The one way an error response is built."""
    body = _problem_schema.dump({"title": HTTPStatus(status).phrase, "status": status, "detail": detail, "code": code})
    response = Response(json_bytes(body), status=status, mimetype=PROBLEM_MEDIA_TYPE, headers=headers)
    response.headers["Cache-Control"] = "no-store"
    return response


def _api_error(error: ApiError) -> Response:
    return problem(error.status, error.code, error.detail, error.headers)


def not_served_detail(error: NotServed) -> str:
    """The sentence a 404 for `error` says."""
    return _NOT_SERVED[type(error)][1](error.value)


def _not_served(error: NotServed) -> Response:
    return problem(404, _NOT_SERVED[type(error)][0], not_served_detail(error))


def _no_history(error: NoHistory) -> Response:
    return problem(404, "no_history", error.reason)


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    if status >= 500:
        return _unexpected(error)
    code, detail = _HTTP_ERRORS.get(status, ("invalid_parameter", "The request could not be understood."))
    headers = {}
    if isinstance(error, MethodNotAllowed):
        headers["Allow"] = allow_header(error.valid_methods or ["GET", "HEAD", "OPTIONS"])
        detail = detail.format(allowed=headers["Allow"])
    return problem(status, code, detail, headers)


def _undecodable(error: UnicodeDecodeError) -> Response:
    # gunicorn refuses such request lines itself; a server that passes raw bytes on reaches here
    try:
        request.query_string.decode()
    except UnicodeDecodeError:
        return problem(400, "invalid_parameter", "The query string is not UTF-8: percent-encode other bytes.")
    return _unexpected(error)


def _unexpected(error: Exception) -> Response:
    current_app.logger.error("Unhandled error on %s %s", request.method, request.path, exc_info=error)
    return problem(500, "internal_error", "Something went wrong on our side; please try again later.")


def register_error_handlers(app: Flask) -> None:
    """Route every exception to `problem`."""
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(NotServed, _not_served)
    app.register_error_handler(NoHistory, _no_history)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(UnicodeDecodeError, _undecodable)
    app.register_error_handler(Exception, _unexpected)
