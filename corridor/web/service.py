"""What a running app serves: the catalog of one data file, the live key digests, response bodies."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Hashable, Mapping

import click
from cachetools import LRUCache
from flask import Flask, current_app
from flask.cli import run_command
from werkzeug.datastructures import MultiDict

from corridor.data.load import load_dataset, summary
from corridor.domain.catalog import Catalog
from corridor.settings import ConfigError
from corridor.web.auth import parse_api_keys
from corridor.web.http import Body

Key = tuple[Hashable, ...]
CACHE_LIMIT = 32 * 2**20  # bytes of response bodies a worker keeps beyond those built with the data


def cache_key(endpoint: str, path: Mapping[str, Any], query: Mapping[str, Any]) -> Key:
    """What a body depends on besides the data: names in a fixed order, values as loaded."""
    return endpoint, tuple(sorted(path.items())), tuple(sorted(query.items()))


class ResponseCache:
    """Bodies built with the data, then up to `limit` bytes of others, least recently used out first."""

    def __init__(self, prebuilt: Mapping[Key, Body], limit: int) -> None:
        self.prebuilt = prebuilt
        self.recent: LRUCache[Key, Body] = LRUCache(maxsize=limit, getsizeof=lambda body: len(body.data))

    def get(self, key: Key) -> Body | None:
        """The body kept for `key`, if any."""
        body = self.prebuilt.get(key)
        return self.recent.get(key) if body is None else body

    def put(self, key: Key, body: Body) -> None:
        """Keep `body`, unless it alone is over the limit."""
        if len(body.data) <= self.recent.maxsize:
            self.recent[key] = body


@dataclass
class Service:
    """One app's live keys, catalog and response cache."""

    keys: tuple[bytes, ...]
    catalog: Catalog
    bodies: ResponseCache
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
            bodies[cache_key(rule.endpoint, path, query)] = operation.body(catalog, query, path)
    return bodies


def init_service(app: Flask) -> None:
    """Read the keys, load the data and build its responses; refuse to serve without either.

    `API_KEYS` leaves the config here: from now on only its digests exist. CLI commands other
    than `run` load neither, so they work whatever the data file or the keys are.
    """
    entries = app.config.pop("API_KEYS")
    if not serving():
        return
    keys = parse_api_keys(entries)
    if not keys:
        raise ConfigError("API_KEYS is empty: set it to one or more comma-separated keys "
                          "(`flask --app app keys generate` makes one) before serving.")
    dataset = load_dataset(app.config["SEED_DATA"])
    catalog = Catalog.build(dataset)
    bodies = ResponseCache(prebuild(app, catalog), CACHE_LIMIT)
    app.extensions["corridor"] = Service(keys, catalog, bodies, time.monotonic())
    app.logger.info("Loaded %s: %s; %d API key(s) live.", app.config["SEED_DATA"], summary(dataset), len(keys))
