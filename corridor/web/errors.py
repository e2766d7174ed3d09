"""One error path: every failure, expected or not, becomes RFC 9457 problem details."""

from __future__ import annotations

from http import HTTPStatus
from typing import Mapping

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from corridor.domain.catalog import NotServed, UnknownCorridor, UnknownCorridorId, UnknownCurrency
from corridor.web.http import json_bytes
from schemas.problem import ProblemSchema

PROBLEM_MEDIA_TYPE = "application/problem+json"
_problem_schema = ProblemSchema()
_NOT_SERVED = {UnknownCorridor: "unknown_corridor", UnknownCurrency: "unknown_currency", UnknownCorridorId: "not_found"}
_HTTP_ERRORS = {
    404: ("not_found", "Nothing is served at this path; /api/docs lists the endpoints."),
    405: ("method_not_allowed", "This endpoint answers only {allowed}."),
}


class ApiError(Exception):
    """A client-facing failure with its HTTP status, machine code and a sentence to act on."""

    def __init__(self, status: int, code: str, detail: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = dict(headers or {})


def allow_header(methods: list[str]) -> str:
    """An Allow value in a fixed, readable order: GET, HEAD, OPTIONS, then any others."""
    order = {"GET": 0, "HEAD": 1, "OPTIONS": 2}
    return ", ".join(sorted(set(methods), key=lambda m: (order.get(m, 3), m)))


def problem(status: int, code: str, detail: str, headers: Mapping[str, str] | None = None) -> Response:
    """The one way an error response is built."""
    body = _problem_schema.dump({"title": HTTPStatus(status).phrase, "status": status, "detail": detail, "code": code})
    response = Response(json_bytes(body), status=status, mimetype=PROBLEM_MEDIA_TYPE, headers=headers)
    response.headers["Cache-Control"] = "no-store"
    return response


def _api_error(error: ApiError) -> Response:
    return problem(error.status, error.code, error.detail, error.headers)


def _not_served(error: NotServed) -> Response:
    return problem(404, _NOT_SERVED[type(error)], str(error))


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


def _unexpected(error: Exception) -> Response:
    current_app.logger.error("Unhandled error on %s %s", request.method, request.path, exc_info=error)
    return problem(500, "internal_error", "Something went wrong on our side; please try again later.")


def register_error_handlers(app: Flask) -> None:
    """Route every exception to `problem`."""
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(NotServed, _not_served)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
