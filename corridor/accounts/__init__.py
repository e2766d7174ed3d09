"""Accounts: holders sign up and make their own API keys."""

from __future__ import annotations

from flask import Flask, Response, current_app, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from corridor.accounts.keys import AccountKeys
from corridor.accounts.pages import bp, csrf
from corridor.accounts.sessions import configure_sessions
from corridor.api.errors import problem
from corridor.settings import current_settings
from corridor.state import current_service


def register_accounts(app: Flask) -> None:
    configure_sessions(app)
    app.config["WTF_CSRF_CHECK_DEFAULT"] = False  # checked on the account pages' POSTs only (pages.check_csrf)
    csrf.init_app(app)
    service = current_service(app)
    counted = service.metrics.key_error.inc if service.metrics is not None else int
    service.account_keys = AccountKeys(current_settings(app).key_trust_seconds, on_unavailable=counted)
    app.register_error_handler(CSRFError, expired_form)
    for error in (OperationalError, InterfaceError, PoolTimeout):  # the database is down, stalled or busy
        app.register_error_handler(error, database_unavailable)
    app.register_blueprint(bp)


def expired_form(error: CSRFError) -> Response:
    return problem(
        400, "invalid_form", "The form expired or came from another site: reload the page and send it again."
    )


def database_unavailable(error: OperationalError | InterfaceError | PoolTimeout) -> Response:
    """503, and one log line with the reason (never the parameters: SQLAlchemy hides them)."""
    reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
    current_app.logger.error("The accounts database failed on %s %s: %s", request.method, request.path, reason)
    return problem(
        503, "unavailable", "Accounts cannot be reached right now; try again in a minute.", {"Retry-After": "60"}
    )
