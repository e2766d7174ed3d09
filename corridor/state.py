"""Per-app state built at start-up (data, keys, response cache) and the lookups views share."""

from __future__ import annotations

import time

import click
from flask import Flask, current_app
from flask.cli import run_command

from corridor.auth import parse_api_keys
from corridor.catalog import Catalog
from corridor.config import ConfigError
from corridor.errors import ApiError
from corridor.http import Body
from corridor.params import shown
from corridor.pricing import CorridorFigures
from corridor.quoting import Ranking
from corridor.seed import load_dataset, summary
from schemas.seed import PAYOUT_METHODS

_KEY = "corridor"


def serving() -> bool:
    """False while `flask <command>` loads the app for a command other than `run`."""
    context = click.get_current_context(silent=True)
    return context is None or context.command is run_command


def init_state(app: Flask) -> None:
    """Load and price the data, read the keys; refuse to serve without either.

    `API_KEYS` leaves the config here: from now on only its digests exist in the app. CLI
    commands other than `run` (`data check`, `keys generate`, `routes`) load neither, so they
    work whatever the data file or the keys are.
    """
    entries = app.config.pop("API_KEYS")
    if not serving():
        return
    keys = parse_api_keys(entries)
    if not keys:
        raise ConfigError(
            "API_KEYS is empty: set it to one or more comma-separated keys "
            "(`flask --app app keys generate` makes one) before serving."
        )
    catalog = Catalog.build(load_dataset(app.config["SEED_DATA"]), PAYOUT_METHODS)
    app.extensions[_KEY] = {"catalog": catalog, "keys": keys, "started": time.monotonic(), "responses": {}}
    app.logger.info("Loaded %s: %s; %d API key(s) live.", app.config["SEED_DATA"], summary(catalog.dataset), len(keys))


def _state() -> dict:
    # the proxy's object, then plain attributes: each attribute read through a Flask proxy
    # (current_app, request) looks the object up again, at four times the cost of this call
    return current_app._get_current_object().extensions[_KEY]


def catalog() -> Catalog:
    """The current app's catalog."""
    return _state()["catalog"]


def key_digests() -> tuple[bytes, ...]:
    """SHA-256 digests of the live API keys."""
    return _state()["keys"]


def response_cache() -> dict[tuple[str, bytes], Body]:
    """Serialised responses by (path, raw query string), for views that depend on nothing else."""
    return _state()["responses"]


def uptime_seconds() -> float:
    """Seconds since this worker built its state."""
    return time.monotonic() - _state()["started"]


def find_corridor(key: str) -> CorridorFigures:
    """An active corridor by `FROM_TO` key, or 404 unknown_corridor."""
    try:
        return catalog().by_key[key]
    except KeyError:
        raise _unknown_corridor(key) from None


def _unknown_corridor(key: str) -> ApiError:
    return ApiError(404, "unknown_corridor", f"No active corridor {key}.")


def ranking_for(query: dict) -> Ranking:
    """The ranking a providers query asks for: its corridor's offers having `payout` (all if not
    given), in `sort` order (cost if not given), priced at `amount` (the reference amount if not
    given); 404 unknown_corridor for a corridor not served."""
    data, key = catalog(), query["corridor"]
    if key not in data.by_key:
        raise _unknown_corridor(key)
    return data.quote_sheet(key, query.get("payout"), query.get("sort", "cost")).rank(query.get("amount"))


def reusable_quote(query: dict) -> bool:
    """Whether a providers response is worth keeping: one for an arbitrary amount is a one-off."""
    return "amount" not in query


def find_corridor_by_id(corridor_id: str) -> CorridorFigures:
    """An active corridor by its id as written in a path, or 404 not_found."""
    try:
        return catalog().by_id[corridor_id]
    except KeyError:
        raise ApiError(404, "not_found", f"No active corridor has the id {shown(corridor_id)}.") from None


def require_currency(code: str) -> str:
    """`code` if it is in the rate tables, else 404 unknown_currency."""
    if not catalog().has_currency(code):
        raise ApiError(404, "unknown_currency", f"No rates for currency {code} in this service.")
    return code
