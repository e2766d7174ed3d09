"""What a running app serves: the live key digests and one data version, swapped whole on refresh."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Hashable, Mapping

import click
from flask import Flask, current_app
from flask.cli import run_command
from werkzeug.datastructures import MultiDict

from corridor.data.history import default_history_path, load_history
from corridor.data.load import DataError, load_dataset, summary
from corridor.domain.catalog import Catalog
from corridor.settings import ConfigError, whole_number
from corridor.web.auth import SHORT_KEY, Keys, parse_api_keys, with_keys_file
from corridor.web.http import Body, LastModified
from corridor.web.memo import SharedLRU

Key = tuple[Hashable, ...]


def cache_key(view: str, path: Mapping[str, Any], query: Mapping[str, Any]) -> Key:
    """What a body depends on besides the data: names in a fixed order, values as loaded."""
    return view, tuple(sorted(path.items())), tuple(sorted(query.items()))


class ResponseCache:
    """Bodies built with the data, then up to `limit` bytes of others, least recently used out first."""

    def __init__(self, prebuilt: Mapping[Key, Body], limit: int) -> None:
        self.prebuilt = prebuilt
        self.recent: SharedLRU[Body] = SharedLRU(limit, size=lambda body: body.size)

    def get(self, key: Key) -> Body | None:
        """The body kept for `key`, if any."""
        body = self.prebuilt.get(key)
        return self.recent.get(key) if body is None else body

    def put(self, key: Key, body: Body) -> None:
        """Keep `body` among the recent ones."""
        self.recent.put(key, body)


@dataclass(frozen=True)
class DataVersion:
    """One data file's catalog and the response bodies built from it."""

    catalog: Catalog
    bodies: ResponseCache
    modified: LastModified  # the data's as_of
    history_modified: LastModified  # the history's last day
    summary: str
    history_summary: str


@dataclass
class Service:
    """One app's live keys and data."""

    keys: tuple[bytes, ...]
    env_keys: Keys  # API_KEYS's: a HUP re-reads only API_KEYS_FILE, the environment is the master's
    data: DataVersion
    started: float


def current_service() -> Service:
    """The current app's service."""
    return current_app.extensions["corridor"]


def serving() -> bool:
    """False while `flask <command>` loads the app for a command other than `run`."""
    context = click.get_current_context(silent=True)
    return context is None or context.command is run_command


def prebuild(app: Flask, catalog: Catalog) -> dict[Key, Body]:
    """The body of every variant of every cached endpoint of `app`, from `catalog`."""
    bodies = {}
    for rule in app.url_map.iter_rules():
        operation = getattr(app.view_functions[rule.endpoint], "operation", None)
        if operation is None or not operation.cached:
            continue
        for values in operation.variants(catalog):
            path = {name: value for name, value in values.items() if name in rule.arguments}
            query = operation.parse(MultiDict({k: v for k, v in values.items() if k not in rule.arguments}))
            bodies[cache_key(operation.name, path, query)] = operation.body(catalog, query, path)
    return bodies


def load_data(app: Flask, path: str | None = None) -> DataVersion:
    """Read, validate and price a data file (SEED_DATA if None) and the rate history, build their responses; or DataError."""
    path = path or app.config["SEED_DATA"]
    history_path = app.config["HISTORY_DATA"] or default_history_path()
    max_bytes = whole_number(app.config, "DATA_MAX_MB") * 2**20
    try:
        dataset = load_dataset(path, max_bytes)
        history = load_history(history_path, max_bytes)
        catalog = Catalog.build(dataset, history)
        bodies = ResponseCache(prebuild(app, catalog), whole_number(app.config, "CACHE_MB") * 2**20)
    except (DataError, ConfigError):
        raise
    except Exception as err:  # a refresh must never take the service down, whatever the file holds
        raise DataError(f"{path}: cannot be served: {type(err).__name__}: {err}") from err
    return DataVersion(catalog, bodies, LastModified.of(dataset.as_of), LastModified.of(history.last),
                       f"{path}: {summary(dataset)}",
                       f"{history_path}: ECB rates of {len(history.currencies)} currencies, {len(history.days):,} "
                       f"business days from {history.first} to {history.last}")


def refresh_data(app: Flask) -> DataVersion:
    """Serve the data file anew, or raise DataError and keep serving the current data."""
    service: Service = app.extensions["corridor"]
    service.data = load_data(app)
    return service.data


def refresh_keys(app: Flask) -> int:
    """Re-read API_KEYS_FILE (API_KEYS as inherited) and serve those keys, or raise ConfigError and keep the live ones."""
    service: Service = app.extensions["corridor"]
    service.keys = _live_keys(app, service.env_keys).digests
    return len(service.keys)


def _live_keys(app: Flask, env_keys: Keys) -> Keys:
    keys = with_keys_file(env_keys, app.config["API_KEYS_FILE"])
    for where in keys.short:
        app.logger.warning("%s is a raw key shorter than %d characters: easy to guess; replace it with "
                           "one from `flask --app app keys generate`.", where, SHORT_KEY)
    return keys


def init_service(app: Flask) -> None:
    """Read the keys, load the data and build its responses; refuse to serve without either."""
    # API_KEYS leaves the config here, only its digests stay; `flask` commands other than `run`
    # load neither keys nor data, so they work whatever those are
    entries = app.config.pop("API_KEYS")
    if not serving():
        return
    env_keys = parse_api_keys(entries)
    keys = _live_keys(app, env_keys).digests
    data = load_data(app)
    app.extensions["corridor"] = Service(keys, env_keys, data, time.monotonic())
    app.logger.info("Loaded %s; %d API key(s) live.", data.summary, len(keys))
    app.logger.info("Loaded the rate history %s.", data.history_summary)
