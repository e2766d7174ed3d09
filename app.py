"""Corridor API application factory."""

from __future__ import annotations

import logging
from typing import Any, Mapping

import click
from flask import Flask

from corridor.cli import register_commands
from corridor.data.database import init_database
from corridor.settings import ConfigError, settings_from_env
from corridor.web import api, poc
from corridor.web.account import register_accounts
from corridor.web.docs import register_docs
from corridor.web.errors import register_error_handlers
from corridor.web.http import configure_http
from corridor.web.logs import EscapeControl
from corridor.web.openapi import register_api
from corridor.web.page import register_page
from corridor.web.rate_limits import register_rate_limits
from corridor.web.reference import register_reference
from corridor.web.refresher import register_rates_refresh
from corridor.web.service import init_service, serving


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app from the environment (or `test_config`); refuse bad data or a database behind its migrations."""
    # templates beside the web package: found alike in a checkout and in an installed copy
    app = Flask(__name__, template_folder="corridor/web/templates")
    app.jinja_options = {"trim_blocks": True, "lstrip_blocks": True}  # tags on lines of their own leave no blank lines
    app.config.from_mapping(settings_from_env())
    if test_config is not None:
        app.config.from_mapping(test_config)
    configure_logging(app)
    refuse_debugger(app)
    configure_http(app)
    register_rate_limits(app)
    documented = register_api(app, api.bp, poc.bp)
    register_error_handlers(app)
    register_docs(app, documented)
    register_reference(app)
    register_page(app)
    init_database(app, check=serving())
    register_accounts(app)
    register_commands(app)
    init_service(app)
    register_rates_refresh(app)
    return app


def configure_logging(app: Flask) -> None:
    """Log at LOG_LEVEL through Flask's handler (stderr, gunicorn's error log), control characters escaped."""
    level = app.config["LOG_LEVEL"]
    if not isinstance(logging.getLevelName(level), int):
        raise ConfigError(f"LOG_LEVEL {level!r} is not one of debug, info, warning, error, critical.")
    app.logger.setLevel(level)
    app.logger.addFilter(EscapeControl())


def refuse_debugger(app: Flask) -> None:
    """Debug mode (FLASK_DEBUG) is for `flask run` alone, never under gunicorn or another server."""
    if app.debug and click.get_current_context(silent=True) is None:
        raise ConfigError("FLASK_DEBUG is set: debug mode is for `flask --app app run --debug` only; unset it.")
