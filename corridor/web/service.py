"""What a running app serves: the live key digests and one data version, swapped whole on refresh."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import click
from flask import Flask, current_app
from flask.cli import run_command
from werkzeug.http import http_date

from corridor.data.history import default_history_path, load_history
from corridor.data.load import DataError, load_dataset, summary
from corridor.domain.catalog import Catalog
from corridor.settings import ConfigError, whole_number
from corridor.web.auth import SHORT_KEY, Keys, parse_api_keys, with_keys_file
from corridor.web.caching import ResponseCache


@dataclass(frozen=True, eq=False)
class DataVersion:
    """One data file and rate history: the catalog they make, their date, and the responses kept from them."""

    catalog: Catalog
    last_modified: str  # midnight GMT of the later of the data's as_of and the history's last day, as HTTP writes it
    summary: str
    history_summary: str
    responses: ResponseCache = field(repr=False)


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


def current_catalog() -> Catalog:
    """The catalog of the data version being served."""
    return current_app.extensions["corridor"].data.catalog


def serving() -> bool:
    """False while `flask <command>` loads the app for a command other than `run`."""
    context = click.get_current_context(silent=True)
    return context is None or context.command is run_command


def load_data(app: Flask, path: str | None = None) -> DataVersion:
    """Read, validate and price a data file (SEED_DATA if None) and the rate history; or DataError."""
    path = path or app.config["SEED_DATA"]
    history_path = app.config["HISTORY_DATA"] or default_history_path()
    max_bytes = whole_number(app.config, "DATA_MAX_MB") * 2**20
    try:
        dataset = load_dataset(path, max_bytes)
        history = load_history(history_path, max_bytes)
        catalog = Catalog.build(dataset, history)
    except (DataError, ConfigError):
        raise
    except Exception as err:  # a refresh must never take the service down, whatever the file holds
        raise DataError(f"{path}: cannot be served: {type(err).__name__}: {err}") from err
    return DataVersion(
        catalog,
        http_date(max(dataset.as_of, history.last)),
        f"{path}: {summary(dataset)}",
        f"{history_path}: ECB rates of {len(history.currencies)} currencies, {len(history.days):,} "
        f"business days from {history.first} to {history.last}",
        ResponseCache(whole_number(app.config, "CACHE_MB") * 2**20),
    )


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
    """Read the keys and load the data; refuse to serve without either."""
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
