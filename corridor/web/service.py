"""What a running app serves: the live key digests and one data version, swapped whole on refresh."""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass, field

import click
from flask import Flask, current_app
from flask.cli import run_command
from werkzeug.http import http_date

from corridor.data.history import default_history_path, load_history
from corridor.data.live import LiveRates, report_from_json
from corridor.data.load import DataError, load_dataset, summary
from corridor.domain.catalog import Catalog
from corridor.domain.history import Histories, RateHistory
from corridor.domain.model import FRANKFURTER, Dataset
from corridor.domain.rates import recorded_ecb_days, with_live_rates
from corridor.settings import ConfigError, whole_number
from corridor.web.auth import SHORT_KEY, Keys, parse_api_keys, with_keys_file
from corridor.web.caching import ResponseCache


@dataclass(frozen=True, eq=False)
class Sources:
    """A data file and a rate history as read and validated: the slow part of a refresh."""

    dataset: Dataset
    history: RateHistory
    summary: str
    history_summary: str


@dataclass(frozen=True, eq=False)
class DataVersion:
    """What is served: the sources at the live rates, the catalog they make, and the responses kept from them."""

    catalog: Catalog
    last_modified: str  # when the figures last changed, as HTTP writes it
    sources: Sources
    live: LiveRates
    responses: ResponseCache = field(repr=False)

    @property
    def summary(self) -> str:
        """One line on the data file."""
        return self.sources.summary

    @property
    def history_summary(self) -> str:
        """One line on the rate history."""
        return self.sources.history_summary


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


def feed_report(app: Flask) -> list[dict]:
    """Each feed's last try: from the refresher's report under gunicorn (written at every try), else the data's."""
    data: DataVersion = app.extensions["corridor"].data
    path = app.config.get("RATES_REPORT")
    if path:
        try:
            with open(path, "rb") as handle:
                return report_from_json(handle.read())
        except (OSError, ValueError, KeyError, TypeError):
            pass  # not written yet: the data's is as new
    return data.live.report(data.sources.dataset)


def read_sources(app: Flask, path: str | None = None) -> Sources:
    """Read and validate a data file (SEED_DATA if None) and the rate history; or DataError."""
    path = path or app.config["SEED_DATA"]
    history_path = app.config["HISTORY_DATA"] or default_history_path()
    max_bytes = whole_number(app.config, "DATA_MAX_MB") * 2**20
    try:
        dataset = load_dataset(path, max_bytes)
        history = load_history(history_path, max_bytes)
        Catalog.build(dataset, Histories(history))  # priced once here, so that a file that cannot be is refused now
    except (DataError, ConfigError):
        raise
    except Exception as err:  # a refresh must never take the service down, whatever the file holds
        raise DataError(f"{path}: cannot be served: {type(err).__name__}: {err}") from err
    return Sources(
        dataset,
        history,
        f"{path}: {summary(dataset)}",
        f"{history_path}: ECB rates of {len(history.currencies)} currencies, {len(history.days):,} "
        f"business days from {history.first} to {history.last}",
    )


def data_version(app: Flask, sources: Sources, live: LiveRates) -> DataVersion:
    """The sources priced at the live rates, with the feeds' days added to the history."""
    # the file's own ECB rates come last: any live rate is newer
    feeds = live.feed_rates + recorded_ecb_days(sources.dataset.rates, sources.history)
    dataset = with_live_rates(sources.dataset, feeds)
    history = Histories(sources.history.with_days(live.ecb_days),
                        RateHistory.from_series(live.series, live.series_base, FRANKFURTER))
    changed = [dt.datetime.combine(day, dt.time(), dt.timezone.utc) for day in (dataset.as_of, history.last)]
    return DataVersion(
        Catalog.build(dataset, history),
        http_date(max(changed + [live.changed_at] if live.changed_at else changed)),
        sources,
        live,
        ResponseCache(whole_number(app.config, "CACHE_MB") * 2**20),
    )


def load_data(app: Flask, path: str | None = None) -> DataVersion:
    """Read, validate and price a data file (SEED_DATA if None) and the rate history, as no feed answered yet."""
    return data_version(app, read_sources(app, path), LiveRates.configured(app.config))


def serve(app: Flask, version: DataVersion) -> DataVersion:
    """Serve `version` from now on; the one it replaces holds no cycles, so it is freed as it goes."""
    app.extensions["corridor"].data = version
    return version


def live_keys(app: Flask, env_keys: Keys) -> Keys:
    """API_KEYS's keys with those of API_KEYS_FILE, read now; ConfigError if the file cannot be used."""
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
    keys = live_keys(app, env_keys).digests
    data = load_data(app)
    app.extensions["corridor"] = Service(keys, env_keys, data, time.monotonic())
    app.logger.info("Loaded %s; %d operator API key(s) live.", data.summary, len(keys))
    if not keys:
        app.logger.warning("API_KEYS and API_KEYS_FILE give no key: Group A answers only keys made in accounts.")
    app.logger.info("Loaded the rate history %s.", data.history_summary)
