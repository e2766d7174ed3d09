"""Corridor API application factory."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any, Callable, Mapping

import click
from flask import Flask, Request, Response
from werkzeug.routing import MapAdapter

from corridor import api, poc
from corridor.cli import register_commands
from corridor.config import ConfigError, settings_from_env
from corridor.docs import register_docs
from corridor.endpoint import canonical_urls, prebuild_responses
from corridor.errors import register_error_handlers
from corridor.http import allow_header, configure_http
from corridor.routing import LazyAdapter, RouteTable
from corridor.state import init_state, serving


class CorridorFlask(Flask):
    """Flask, answering OPTIONS with 204 and only an Allow header (SPEC §8)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync_functions: dict[Callable, Callable] = {}
        self.route_table: RouteTable | None = None

    def create_url_adapter(self, request: Request | None) -> MapAdapter | LazyAdapter | None:
        """Flask's adapter, bound only for a request the route table does not settle (corridor.routing)."""
        if request is None or self.route_table is None or self.config["TRUSTED_HOSTS"] is not None:
            return super().create_url_adapter(request)
        return LazyAdapter(request.environ, self.route_table, partial(super().create_url_adapter, request))

    def ensure_sync(self, func: Callable) -> Callable:
        """Flask's answer, worked out once per function: Flask asks again for every view and hook
        on every request, and the inspection cost more than the rest of some hooks."""
        try:
            return self._sync_functions[func]
        except KeyError:
            sync = self._sync_functions[func] = super().ensure_sync(func)
            return sync

    def make_default_options_response(self) -> Response:
        allowed = super().make_default_options_response().headers["Allow"].split(", ")
        response = self.response_class(status=204, headers={"Allow": allow_header(allowed)})
        del response.headers["Content-Type"]
        return response


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app from the environment (or `test_config`); refuse bad data or no keys."""
    app = CorridorFlask(__name__)
    app.config.from_mapping(settings_from_env())
    if test_config is not None:
        app.config.from_mapping(test_config)
    configure_logging(app)
    refuse_debugger(app)
    init_state(app)
    register_error_handlers(app)
    configure_http(app)
    register_blueprints(app)
    register_docs(app)
    register_commands(app)
    if serving():
        urls = canonical_urls(app)
        prebuild_responses(app, urls)
        register_routes(app, urls)
    return app


def register_routes(app: CorridorFlask, canonical: list[str]) -> None:
    """Match once, at start-up, the paths served most: every path without arguments, and the
    canonical URLs' paths (corridor.routing)."""
    if app.url_map.host_matching or app.subdomain_matching:  # the table is matched for one host
        return
    paths = {rule.rule for rule in app.url_map.iter_rules() if not rule.arguments}
    paths.update(url.partition("?")[0] for url in canonical)
    app.route_table = RouteTable(app.url_map, sorted(paths))


def configure_logging(app: Flask) -> None:
    """Log at LOG_LEVEL through Flask's handler (stderr, gunicorn's error log)."""
    level = app.config["LOG_LEVEL"]
    if not isinstance(logging.getLevelName(level), int):
        raise ConfigError(f"LOG_LEVEL {level!r} is not one of debug, info, warning, error, critical.")
    app.logger.setLevel(level)


def refuse_debugger(app: Flask) -> None:
    """Debug mode (FLASK_DEBUG) is for `flask run` alone, never under gunicorn or another server."""
    if app.debug and click.get_current_context(silent=True) is None:
        raise ConfigError("FLASK_DEBUG is set: debug mode is for `flask --app app run --debug` only; unset it.")


def register_blueprints(app: Flask) -> None:
    """Group A and Group B side by side, so neither inherits the other's hooks."""
    app.register_blueprint(api.bp)
    app.register_blueprint(poc.bp)
