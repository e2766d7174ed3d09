"""The app's state, one typed object every package reads through `current_service()`."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask import Flask, current_app

from corridor.data.keys import SHORT_KEY, Keys, parse_api_keys, with_keys_file
from corridor.settings import current_settings
from corridor.state.versions import DataVersion, load_data

if TYPE_CHECKING:
    from corridor.accounts.keys import AccountKeys
    from corridor.limits.counts import RateLimits
    from corridor.serving.drain import Drain
    from corridor.serving.prometheus import Metrics


@dataclass(eq=False)
class Service:
    env_keys: Keys  # API_KEYS's: a HUP re-reads only API_KEYS_FILE, the environment is the master's
    keys: tuple[bytes, ...]  # digests of the operator's live keys
    data: DataVersion
    started: float = field(default_factory=time.monotonic)  # under gunicorn, the master's: workers inherit it
    limits: RateLimits | None = None  # None: RATE_LIMITS is off
    account_keys: AccountKeys | None = None  # what this process learnt of account keys, once accounts are registered
    refreshing: bool = False  # this serving process's refresher is started (corridor/serving/refresher.py)
    metrics: Metrics | None = None  # None: metrics are off (neither METRICS_TOKEN nor METRICS_PORT)
    metrics_token: bytes | None = None  # METRICS_TOKEN's digest: /metrics is served to it
    drain: Drain | None = None  # under gunicorn with DRAIN_SECONDS: whether the instance is draining

    def serve(self, version: DataVersion, keys: tuple[bytes, ...] | None = None) -> None:
        """Serve `version` (and `keys`) from now on; the version it replaces holds no cycles, so it is freed as it
        goes."""
        self.data = version
        if keys is not None:
            self.keys = keys


EXTENSION = "corridor"  # the state's key in `app.extensions`: read only here


def current_service(app: Flask | None = None) -> Service:
    return (current_app if app is None else app).extensions[EXTENSION]


def has_service(app: object) -> bool:
    """Whether `app` is this service's (not the benchmark's bare floor under the same gunicorn config)."""
    return EXTENSION in getattr(app, "extensions", {})


def live_keys(app: Flask, env_keys: Keys) -> Keys:
    """API_KEYS's keys with those of API_KEYS_FILE, read now; ConfigError if the file cannot be used."""
    keys = with_keys_file(env_keys, current_settings(app).api_keys_file)
    for where in keys.short:
        app.logger.warning(
            "%s is a raw key shorter than %d characters: easy to guess; replace it with "
            "one from `.venv/bin/flask --app app keys generate`.",
            where,
            SHORT_KEY,
        )
    return keys


def init_service(app: Flask) -> Service:
    """The app's state: the keys and the data loaded, or start-up refused without either."""
    env_keys = parse_api_keys(app.config.pop("API_KEYS"))  # API_KEYS leaves the config here, only its digests stay
    service = app.extensions[EXTENSION] = Service(env_keys, live_keys(app, env_keys).digests, load_data(app))
    app.logger.info("Loaded %s; %d operator API key(s) live.", service.data.sources.summary, len(service.keys))
    for note in service.data.sources.survey_notes:
        app.logger.warning("Survey: %s", note)
    if not service.keys:
        app.logger.warning("API_KEYS and API_KEYS_FILE give no key: Group A answers only keys made in accounts.")
    app.logger.info("Loaded the rate history %s.", service.data.sources.history_summary)
    if service.data.sources.pending:
        app.logger.warning("%s Until then no import is served, and readiness fails.", service.data.sources.pending)
    return service
