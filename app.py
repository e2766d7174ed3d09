"""Corridor API application factory."""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from typing import Any

import click
from flask import Flask

from corridor.accounts.register import register_accounts
from corridor.api import register_api
from corridor.cli import register_commands
from corridor.data.database import init_database
from corridor.limits.budgets import count_by_address, register_limits
from corridor.pages import comparison, docs
from corridor.serving.http import register_http, register_response_headers
from corridor.serving.logs import EscapeControl, JsonFormatter
from corridor.serving.metrics import register_metrics
from corridor.serving.refresher import register_rates_refresh
from corridor.settings import ConfigError, Settings, settings_from_env
from corridor.state import init_service


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app from the environment (or `test_config`), the same under every command: refuse bad settings, keys
    or data; while the database is behind its migrations, serve without the imports and not ready."""
    app = Flask(__name__)
    app.jinja_options = {"trim_blocks": True, "lstrip_blocks": True}  # tags on lines of their own leave no blank lines
    app.config.from_mapping(settings_from_env())
    if test_config is not None:
        app.config.from_mapping(test_config)
    settings = app.config["SETTINGS"] = Settings.parse(app.config)
    configure_logging(app, settings)
    refuse_debugger(app)
    init_database(app)
    init_service(app)
    register_http(app)
    register_metrics(app)
    register_limits(app)
    register_api(app)
    app.register_blueprint(comparison.bp)
    app.register_blueprint(docs.bp)
    register_accounts(app)
    count_by_address(app)  # once every blueprint is registered, as CORS
    register_response_headers(app)
    register_commands(app)
    register_rates_refresh(app)
    return app


def configure_logging(app: Flask, settings: Settings) -> None:
    """Through Flask's handler (stderr, gunicorn's error log), control characters escaped; or one JSON object a line."""
    app.logger.setLevel(settings.log_level)
    # the logger is the process's, not the app's: a second app in one process (tests, scripts) must not add to it
    if not any(isinstance(f, EscapeControl) for f in app.logger.filters):
        app.logger.addFilter(EscapeControl())
    if settings.log_format == "json":
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        app.logger.handlers = [handler]  # in place of Flask's default_handler, or of a previous app's
        app.logger.propagate = False
        # a library's warning too (apispec's, say): one JSON line rather than Python's plain ones
        logging.captureWarnings(True)
        logging.getLogger("py.warnings").handlers = [handler]
        logging.getLogger("py.warnings").propagate = False


def refuse_debugger(app: Flask) -> None:
    """Debug mode (FLASK_DEBUG) is for `flask run` alone, never under gunicorn or another server."""
    if app.debug and click.get_current_context(silent=True) is None:
        raise ConfigError(
            "FLASK_DEBUG is set: debug mode is for `.venv/bin/flask --app app run --debug` only; unset it."
        )
