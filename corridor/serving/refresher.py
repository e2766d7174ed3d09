"""Refreshes that never hold up serving: the keys and the data file read anew, the feeds asked, the result served.

Under gunicorn the feeds are asked by a process of their own (corridor/serving/rates_process.py) and the master serves
what it brings when it reloads; under `flask run`, by a thread that serves what it brings itself.
"""

from __future__ import annotations

import datetime as dt
import threading
import time

import click
from flask import Flask
from flask.cli import run_command
from werkzeug.serving import is_running_from_reloader

from corridor.rates.live import LiveRates, refresh_live
from corridor.settings import whole_number
from corridor.state import current_service, live_keys, serving
from corridor.state.versions import data_version, read_sources


class Refresher:
    """One app's keys, data file and feeds, as last read: starting from what it serves."""

    def __init__(self, app: Flask) -> None:
        service = current_service(app)
        self.app, self.log = app, app.logger
        self.keys, self.sources, self.live = service.keys, service.data.sources, service.data.live

    def reread(self, keys: bool = True) -> None:
        """Read the keys file (unless not `keys`) and the data file anew, and say so; a file that cannot be used is
        logged, and the last good kept. The rates refresher reads the data file alone, quietly: the master says it."""
        if keys:
            try:
                self.keys = live_keys(self.app, current_service(self.app).env_keys).digests
                self.log.info("Keys refresh: %d API key(s) live.", len(self.keys))
            except Exception as err:  # nothing in a keys file may stop a refresh
                self.log.error("Keys refresh refused; the live keys stay. %s", err)
        try:
            self.sources = read_sources(self.app)
            if keys:
                self.log.info("Data refresh: %s; rate history %s", self.sources.summary, self.sources.history_summary)
                for note in self.sources.survey_notes:
                    self.log.warning("Survey: %s", note)
        except Exception as err:  # nothing in a data file may stop a refresh
            if keys:
                self.log.error("Data refresh refused; still serving %s. %s", self.sources.summary, err)

    def fetch(self, now: dt.datetime | None = None) -> None:
        """Ask both feeds once (`now`: the time to record, the clock's by default)."""
        now = now or dt.datetime.now(dt.UTC).replace(microsecond=0)
        self.live = refresh_live(self.live, self.sources.dataset, set(self.sources.history.currencies), now, self.log)
        metrics = current_service(self.app).metrics
        if metrics is not None:
            for feed in self.live.report(self.sources.dataset):
                if feed["status"] != "off":
                    metrics.fetches.labels(feed["source"], feed["status"]).inc()

    def serve(self) -> None:
        """Serve the keys, the data and the rates as last read in this process; if they cannot be priced, say why and
        serve on as before."""
        service = current_service(self.app)
        try:
            service.serve(data_version(self.app, self.sources, self.live), self.keys)
        except Exception as err:  # a refresh must never take the service down, whatever the file holds
            self.log.error("Data refresh refused; still serving %s. %s", service.data.summary, err)


def refresh_minutes(app: Flask) -> int:
    """RATES_REFRESH_MINUTES: 0 fetches only at start and on HUP."""
    return whole_number(app.config, "RATES_REFRESH_MINUTES")


def start_rates_thread(app: Flask) -> threading.Thread:
    """Under `flask run`: fetch at start and every RATES_REFRESH_MINUTES in a thread that serves what it brings."""
    refresher = Refresher(app)
    interval = refresh_minutes(app) * 60

    def run() -> None:
        while True:
            try:
                refresher.reread(keys=False)  # the data file, and a survey imported since
                refresher.fetch()
                refresher.serve()
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
    if context is None or context.command is not run_command:
        return
    reloading = context.params.get("reload")
    if (app.debug if reloading is None else reloading) and not is_running_from_reloader():
        return  # the reloader's watcher: the server runs in its child
    start_rates_thread(app)
