"""Per-app state built at start-up (data, keys) and the lookups views share."""

from __future__ import annotations

import time

import click
from flask import Flask, current_app

from corridor.auth import parse_api_keys
from corridor.catalog import Catalog
from corridor.config import ConfigError
from corridor.errors import ApiError
from corridor.params import shown
from corridor.pricing import CorridorFigures
from corridor.seed import load_dataset, summary

_KEY = "corridor"


def _serving() -> bool:
    # `flask <command>` loads the app too; of those commands only `run` serves requests.
    context = click.get_current_context(silent=True)
    return context is None or context.info_name == "run"


def init_state(app: Flask) -> None:
    """Load and price the data, read the keys; refuse to serve without either."""
    catalog = Catalog.build(load_dataset(app.config["SEED_DATA"]))
    keys = parse_api_keys(app.config["API_KEYS"])
    serving = _serving()
    if serving and not keys:
        raise ConfigError(
            "API_KEYS is empty: set it to one or more comma-separated keys "
            "(`flask --app app keys generate` makes one) before serving."
        )
    app.extensions[_KEY] = {"catalog": catalog, "keys": keys, "started": time.monotonic()}
    if serving:
        app.logger.info("Loaded %s: %s; %d API key(s) live.", app.config["SEED_DATA"], summary(catalog.dataset), len(keys))


def catalog() -> Catalog:
    """The current app's catalog."""
    return current_app.extensions[_KEY]["catalog"]


def key_digests() -> tuple[bytes, ...]:
    """SHA-256 digests of the live API keys."""
    return current_app.extensions[_KEY]["keys"]


def uptime_seconds() -> float:
    """Seconds since this worker built its state."""
    return time.monotonic() - current_app.extensions[_KEY]["started"]


def find_corridor(key: str) -> CorridorFigures:
    """An active corridor by `FROM_TO` key, or 404 unknown_corridor."""
    try:
        return catalog().by_key[key]
    except KeyError:
        raise ApiError(404, "unknown_corridor", f"No active corridor {key}.") from None


def require_currency(code: str) -> str:
    """`code` if it is in the rate tables, else 404 unknown_currency."""
    if not catalog().has_currency(code):
        raise ApiError(404, "unknown_currency", f"No rates for currency {code}; see the README for the list.")
    return code


def find_corridor_by_id(corridor_id: str) -> CorridorFigures:
    """An active corridor by its id as written in a path, or 404 not_found."""
    # ids are keyed by their canonical decimal text, so `01`, `+1` or non-ASCII digits never match
    try:
        return catalog().by_id[corridor_id]
    except KeyError:
        raise ApiError(404, "not_found", f"No active corridor has the id {shown(corridor_id)}.") from None
