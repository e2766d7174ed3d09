"""Refreshes that never hold up serving: one refresher per instance re-reads the files and asks the feeds.

Under gunicorn it runs in a process of its own (corridor/web/rates_process.py); under `flask run`,
in a thread that swaps the data version itself.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from dataclasses import dataclass

import click
from flask import Flask
from flask.cli import run_command
from werkzeug.serving import is_running_from_reloader

from corridor.data.live import LiveRates, refresh_live
from corridor.settings import whole_number
from corridor.web.service import Sources, data_version, live_keys, read_sources, serve, serving


@dataclass(frozen=True)
class Snapshot:
    """What the refresher serves: the keys, the data file and history, and the rates in force."""

    keys: tuple[bytes, ...]
    sources: Sources
    live: LiveRates


class Refresher:
    """One instance's keys, data file and feeds, refreshed on demand."""

    def __init__(self, app: Flask) -> None:
        service = app.extensions["corridor"]
        self.app, self.log = app, app.logger
        self.keys, self.sources, self.live = service.keys, service.data.sources, service.data.live

    @property
    def snapshot(self) -> Snapshot:
        """What is in force here."""
        return Snapshot(self.keys, self.sources, self.live)

    def reread(self) -> None:
        """Read the keys file and the data file anew; a file that cannot be used is logged, and the last good kept."""
        try:
            self.keys = live_keys(self.app, self.app.extensions["corridor"].env_keys).digests
            self.log.info("Keys refresh: %d API key(s) live.", len(self.keys))
        except Exception as err:  # nothing in a keys file may stop the refresher
            self.log.error("Keys refresh refused; the live keys stay. %s", err)
        try:
            self.sources = read_sources(self.app)
            self.log.info("Data refresh: %s; rate history %s", self.sources.summary, self.sources.history_summary)
        except Exception as err:  # nothing in a data file may stop the refresher
            self.log.error("Data refresh refused; still serving %s. %s", self.sources.summary, err)

    def fetch(self, now: dt.datetime | None = None) -> None:
        """Ask both feeds once (`now`: the time to record, the clock's by default)."""
        now = now or dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
        self.live = refresh_live(self.live, self.sources.dataset, set(self.sources.history.currencies), now, self.log)


def refresh_minutes(app: Flask) -> int:
    """RATES_REFRESH_MINUTES: 0 fetches only at start and on HUP."""
    return whole_number(app.config, "RATES_REFRESH_MINUTES")


def serve_snapshot(app: Flask, snapshot: Snapshot) -> None:
    """Serve a snapshot's keys, data and rates in this process."""
    service = app.extensions["corridor"]
    serve(app, data_version(app, snapshot.sources, snapshot.live))
    service.keys = snapshot.keys


def start_rates_thread(app: Flask) -> threading.Thread:
    """Under `flask run`: fetch at start and every RATES_REFRESH_MINUTES in a thread that swaps the data itself."""
    refresher = Refresher(app)
    interval = refresh_minutes(app) * 60

    def run() -> None:
        while True:
            try:
                refresher.fetch()
                serve_snapshot(app, refresher.snapshot)
            except Exception:  # the next refresh tries again
                app.logger.exception("Rates refresh failed; the rates in force stay.")
            if not interval:
                return
            time.sleep(interval)

    thread = threading.Thread(target=run, name="rates-refresher", daemon=True)
    thread.start()
    return thread


def register_rates_refresh(app: Flask) -> None:
    """Check the feed settings; under `flask run`, start the thread (gunicorn.conf.py starts the process)."""
    if not serving():
        return  # `flask <command>`: the feeds are no concern of other commands
    refresh_minutes(app)  # a bad value refuses start-up
    LiveRates.configured(app.config)  # and so does a feed URL that is not one
    context = click.get_current_context(silent=True)
    if context is None or context.command is not run_command or "corridor" not in app.extensions:
        return
    reloading = context.params.get("reload")
    if (app.debug if reloading is None else reloading) and not is_running_from_reloader():
        return  # the reloader's watcher: the server runs in its child
    start_rates_thread(app)
