"""Signed-cookie sessions for the account pages, and the key that signs them."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, Request, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface

from corridor.settings import ConfigError

MIN_SECRET_KEY = 32


def configure_sessions(app: Flask) -> None:
    """Sessions signed with `secret_key(app)`, in a cookie `corridor_session`: HttpOnly, SameSite=Lax, Secure over HTTPS."""
    app.secret_key = secret_key(app)
    app.config.update(SESSION_COOKIE_SAMESITE="Lax", SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_NAME="corridor_session")
    app.session_interface = SessionInterface()


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed session cookie (HttpOnly, SameSite=Lax), `Secure` when the request came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return request.scheme == "https"  # as the trusted proxies (PROXY_HOPS) saw it

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        # no cookie at all (API calls): an empty session, without parsing cookies or building a signer (20 µs)
        if "HTTP_COOKIE" not in request.environ and app.secret_key:
            return self.session_class()
        return super().open_session(app, request)


def secret_key(app: Flask) -> str:
    """SECRET_KEY, or the instance folder's `secret_key` file, made once with a random key (one machine's instances share it)."""
    if app.config["SECRET_KEY"]:
        if len(app.config["SECRET_KEY"]) < MIN_SECRET_KEY:
            raise ConfigError(f"SECRET_KEY must be at least {MIN_SECRET_KEY} characters; "
                              "python3 -c 'import secrets; print(secrets.token_urlsafe(32))' makes one.")
        return app.config["SECRET_KEY"]
    path = Path(app.instance_path) / "secret_key"
    if not app.config["DATABASE_URL"].startswith("sqlite"):  # a shared database suggests several instances
        app.logger.warning("SECRET_KEY is not set: this instance signs sessions with its own key (%s); set one "
                           "SECRET_KEY on every instance that shares the accounts database.", path)
    try:
        os.makedirs(app.instance_path, exist_ok=True)
        try:
            with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
                handle.write(secrets.token_urlsafe(32))
        except FileExistsError:
            pass  # made before, perhaps by another instance a moment ago
        key = path.read_text().strip()
    except OSError as err:
        raise ConfigError(f"SECRET_KEY is not set and {path} cannot be made or read ({err.strerror}): "
                          "set SECRET_KEY.") from None
    if len(key) < MIN_SECRET_KEY:
        raise ConfigError(f"{path} holds fewer than {MIN_SECRET_KEY} characters: delete it or set SECRET_KEY.")
    return key
