"""One error path: every failure becomes RFC 9457 problem details (SPEC §6)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Mapping

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from corridor.encoding import json_bytes
from corridor.http import allow_header
from schemas.problem import ProblemSchema

PROBLEM_MEDIA_TYPE = "application/problem+json"
_problem_schema = ProblemSchema()


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
    body = _problem_schema.dump(
        {"title": HTTPStatus(status).phrase, "status": status, "detail": detail, "code": code}
    )
    response = current_app.response_class(json_bytes(body), status=status, mimetype=PROBLEM_MEDIA_TYPE)
    response.headers.update(headers or {})
    response.headers["Cache-Control"] = "no-store"
    return response


def _handle_api_error(error: ApiError) -> Response:
    return problem(error.status, error.code, error.detail, error.headers)


_HTTP_ERRORS = {
    404: ("not_found", "Nothing is served at this path; see the README for the endpoints."),
    405: ("method_not_allowed", "This endpoint answers only {allowed}."),
}


def _handle_http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    if status >= 500:
        return _handle_unexpected(error)
    code, detail = _HTTP_ERRORS.get(status, ("invalid_parameter", "The request could not be understood."))
    headers = {}
    if isinstance(error, MethodNotAllowed):
        headers["Allow"] = allow_header(error.valid_methods or ["GET", "HEAD", "OPTIONS"])
        detail = detail.format(allowed=headers["Allow"])
    return problem(status, code, detail, headers)


def _handle_unexpected(error: Exception) -> Response:
    current_app.logger.error("Unhandled error on %s %s", request.method, request.path, exc_info=error)
    return problem(500, "internal_error", "Something went wrong on our side; please try again later.")


def register_error_handlers(app: Flask) -> None:
    """Route every exception, expected or not, to `problem`."""
    app.register_error_handler(ApiError, _handle_api_error)
    app.register_error_handler(HTTPException, _handle_http_exception)
    app.register_error_handler(Exception, _handle_unexpected)
