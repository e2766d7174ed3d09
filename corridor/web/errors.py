"""One error path: every failure, expected or not, is answered as RFC 9457 problem details."""

from __future__ import annotations

from http import HTTPStatus
from typing import Mapping

from flask import Flask, Response, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from corridor.domain.catalog import NotServed, UnknownCorridor, UnknownCorridorId, UnknownCurrency
from corridor.domain.history import NoHistory
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


def not_served_detail(error: NotServed) -> str:
    """The sentence a 404 for `error` says."""
    return _NOT_SERVED[type(error)][1](error.value)


def problem(status: int, code: str, detail: str, headers: Mapping[str, str] | None = None) -> Response:
    """The one way an error response is built: problem+json, or the same as a page for the account pages' browsers."""
    body = _problem_schema.dump({"title": HTTPStatus(status).phrase, "status": status, "detail": detail, "code": code})
    if request.blueprint == "account":
        response = current_app.response_class(render_template("account/error.html", **body), mimetype="text/html")
    else:
        response = jsonify(body)
        response.mimetype = PROBLEM_MEDIA_TYPE
    response.status_code = status
    response.headers.update(headers or {})
    response.headers["Cache-Control"] = "no-store"
    return response


def problem_for(error: Exception) -> Response:
    """The problem details answering `error`: the API's own, a lookup of what is not served, HTTP's, or a fault."""
    if isinstance(error, ApiError):
        return problem(error.status, error.code, error.detail, error.headers)
    if isinstance(error, CSRFError):
        return problem(400, "invalid_form", "The form expired or came from another site: reload the page and send it again.")
    if isinstance(error, (OperationalError, InterfaceError, PoolTimeout)):  # the accounts database is down or busy
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        current_app.logger.error("The accounts database failed on %s %s: %s", request.method, request.path, reason)
        return problem(503, "unavailable", "Accounts cannot be reached right now; try again in a minute.",
                       {"Retry-After": "60"})
    if isinstance(error, NotServed):
        return problem(404, _NOT_SERVED[type(error)][0], not_served_detail(error))
    if isinstance(error, NoHistory):
        return problem(404, "no_history", error.reason)
    if isinstance(error, HTTPException) and (error.code or 500) < 500:
        code, detail = _HTTP_ERRORS.get(error.code, ("invalid_parameter", "The request could not be understood."))
        headers = {}
        if isinstance(error, MethodNotAllowed):
            headers["Allow"] = ", ".join(sorted(error.valid_methods or ["GET", "HEAD", "OPTIONS"]))
            detail = detail.format(allowed=headers["Allow"])
        return problem(error.code, code, detail, headers)
    if isinstance(error, UnicodeDecodeError) and not _utf8(request.query_string):
        # gunicorn refuses such request lines itself; a server that passes raw bytes on reaches here
        return problem(400, "invalid_parameter", "The query string is not UTF-8: percent-encode other bytes.")
    fault = getattr(error, "original_exception", None) or error
    current_app.logger.error("Unhandled error on %s %s", request.method, request.path, exc_info=fault)
    return problem(500, "internal_error", "Something went wrong on our side; please try again later.")


def _utf8(data: bytes) -> bool:
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return True


def register_error_handlers(app: Flask) -> None:
    """Answer every exception with `problem_for`, in place of flask-smorest's handler for HTTP errors."""
    app.register_error_handler(HTTPException, problem_for)
    app.register_error_handler(Exception, problem_for)
