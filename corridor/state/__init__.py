"""The app's state, one typed object every package reads through `current_service()`.

It holds the operator's live keys, the data version served (swapped whole on refresh), what each blueprint declared it
needs (corridor/state/policy.py), and the features that are on, as attributes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import click
from flask import Blueprint, Flask, current_app
from flask.cli import run_command

from corridor.data.keys import SHORT_KEY, Keys, parse_api_keys, with_keys_file
from corridor.state.policy import PUBLIC, Policy
from corridor.state.versions import DataVersion, load_data

if TYPE_CHECKING:
    from corridor.accounts.keys import AccountKeys
    from corridor.limits.counts import RateLimits
    from corridor.serving.drain import Drain
    from corridor.serving.prometheus import Metrics
    from corridor.serving.refresher import Refresher


@dataclass(eq=False)
class Service:
    """One app's state."""

    env_keys: Keys  # API_KEYS's: a HUP re-reads only API_KEYS_FILE, the environment is the master's
    keys: tuple[bytes, ...] = ()  # digests of the operator's live keys
    data: DataVersion | None = None  # None while a `flask` command other than `run` loads the app
    started: float = field(default_factory=time.monotonic)
    policies: dict[str, Policy] = field(default_factory=dict)
    limits: RateLimits | None = None  # None: RATE_LIMITS is off
    account_keys: AccountKeys | None = None  # what this process learnt of account keys, once accounts are registered
    refresher: Refresher | None = None  # this serving process's, once started (corridor/serving/refresher.py)
    metrics: Metrics | None = None  # None: metrics are off (neither METRICS_TOKEN nor METRICS_PORT)
    metrics_token: bytes | None = None  # METRICS_TOKEN's digest: /metrics is served to it
    drain: Drain | None = None  # under gunicorn with DRAIN_SECONDS: whether the instance is draining

    def declare(self, blueprint: Blueprint, policy: Policy) -> None:
        """Record what `blueprint` needs of every request."""
        self.policies[blueprint.name] = policy

    def policy(self, blueprint: str | None) -> Policy:
        """What a request of `blueprint` needs (a path outside every blueprint: PUBLIC)."""
        return self.policies.get(blueprint, PUBLIC) if blueprint else PUBLIC

    def serve(self, version: DataVersion, keys: tuple[bytes, ...] | None = None) -> None:
        """Serve `version` (and `keys`) from now on; the version it replaces holds no cycles, so it is freed as it
        goes."""
        self.data = version
        if keys is not None:
            self.keys = keys

    def feed_report(self) -> list[dict]:
        """Each feed's last try, as the database held it at most a poll ago."""
        return self.data.live.report(self.data.sources.dataset)


EXTENSION = "corridor"  # the state's key in `app.extensions`: read only here


def current_service(app: Flask | None = None) -> Service:
    """The app's state: the current app's, or `app`'s."""
    return (current_app if app is None else app).extensions[EXTENSION]


def has_service(app: object) -> bool:
    """Whether `app` is this service's (not the benchmark's bare floor under the same gunicorn config)."""
    return EXTENSION in getattr(app, "extensions", {})


def serving() -> bool:
    """False while `flask` loads the app for a command other than `run`."""
    context = click.get_current_context(silent=True)
    return context is None or context.command is run_command


def live_keys(app: Flask, env_keys: Keys) -> Keys:
    """API_KEYS's keys with those of API_KEYS_FILE, read now; ConfigError if the file cannot be used."""
    keys = with_keys_file(env_keys, app.config["API_KEYS_FILE"])
    for where in keys.short:
        app.logger.warning(
            "%s is a raw key shorter than %d characters: easy to guess; replace it with "
            "one from `.venv/bin/flask --app app keys generate`.",
            where,
            SHORT_KEY,
        )
    return keys


def init_service(app: Flask) -> Service:
    """The app's state; when serving, the keys and the data loaded, or start-up refused without either."""
    # API_KEYS leaves the config here, only its digests stay; `flask` commands other than `run` load neither keys
    # nor data, so they work whatever those are
    entries = app.config.pop("API_KEYS")
    service = app.extensions[EXTENSION] = Service(parse_api_keys(entries) if serving() else Keys((), ()))
    if not serving():
        return service
    service.keys = live_keys(app, service.env_keys).digests
    service.data = load_data(app)
    app.logger.info("Loaded %s; %d operator API key(s) live.", service.data.summary, len(service.keys))
    for note in service.data.sources.survey_notes:
        app.logger.warning("Survey: %s", note)
    if not service.keys:
        app.logger.warning("API_KEYS and API_KEYS_FILE give no key: Group A answers only keys made in accounts.")
    app.logger.info("Loaded the rate history %s.", service.data.history_summary)
    return service
