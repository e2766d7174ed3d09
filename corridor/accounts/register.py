"""Accounts on the app: signed-cookie sessions, CSRF, the account pages, and the answers when the database is away."""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
from pathlib import Path

from flask import Flask
from flask.sessions import SecureCookieSessionInterface

from corridor.accounts.keys import AccountKeys
from corridor.accounts.pages import bp, csrf
from corridor.settings import ConfigError, current_settings
from corridor.state import current_service

MIN_SECRET_KEY = 32


def register_accounts(app: Flask) -> None:
    """Sessions in a signed cookie, Secure behind the proxies PROXY_HOPS trusts (a platform's router speaks HTTPS to
    browsers); CSRF checked on the account pages' POSTs only (pages.py)."""
    app.secret_key = secret_key(app)
    app.config.update(
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_NAME="corridor_session",
        SESSION_COOKIE_SECURE=current_settings(app).proxy_hops > 0,
        WTF_CSRF_CHECK_DEFAULT=False,
    )
    app.session_interface = OneSignerSessions()
    csrf.init_app(app)
    service = current_service(app)
    counted = service.metrics.key_error.inc if service.metrics is not None else int
    service.account_keys = AccountKeys(current_settings(app).key_trust_seconds, on_unavailable=counted)
    app.register_blueprint(bp)


class OneSignerSessions(SecureCookieSessionInterface):
    """Flask's signed cookie, by one signer: Flask builds one for every request's session, one without a cookie too (a
    tenth of a kept answer's time: docs/PERFORMANCE.md), though an app's key never changes once it is made."""

    # the last app's: a process serves one; a cache of C's, so that no function of the project's runs per request
    get_signing_serializer = functools.lru_cache(maxsize=1)(SecureCookieSessionInterface.get_signing_serializer)


def secret_key(app: Flask) -> str:
    """SECRET_KEY, or the instance folder's `secret_key` file, made once (one machine's instances share it)."""
    if app.config["SECRET_KEY"]:
        if len(app.config["SECRET_KEY"]) < MIN_SECRET_KEY:
            raise ConfigError(
                f"SECRET_KEY must be at least {MIN_SECRET_KEY} characters; "
                "python3 -c 'import secrets; print(secrets.token_urlsafe(32))' makes one."
            )
        return app.config["SECRET_KEY"]
    path = Path(app.instance_path) / "secret_key"
    if not app.config["DATABASE_URL"].startswith("sqlite"):  # a shared database suggests several instances
        app.logger.warning(
            "SECRET_KEY is not set: this instance signs sessions with its own key (%s); set one "
            "SECRET_KEY on every instance that shares the accounts database.",
            path,
        )
    try:
        os.makedirs(app.instance_path, exist_ok=True)
        with contextlib.suppress(FileExistsError):  # made before, perhaps by another instance a moment ago
            with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
                handle.write(secrets.token_urlsafe(32))
        key = path.read_text().strip()
    except OSError as err:
        raise ConfigError(
            f"SECRET_KEY is not set and {path} cannot be made or read ({err.strerror}): set SECRET_KEY."
        ) from None
    if len(key) < MIN_SECRET_KEY:
        raise ConfigError(f"{path} holds fewer than {MIN_SECRET_KEY} characters: delete it or set SECRET_KEY.")
    return key
