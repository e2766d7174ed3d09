"""Each serving process keeps its data as new as the database; one in all asks the feeds (CONTRIBUTING.md)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask

from corridor.api.caching import build_whole_lists
from corridor.data.database import db, unpooled_engine
from corridor.rates.live import LiveRates, refresh_live
from corridor.rates.store import ask_refresh, due, fetch_lock, mark_started, read_live, read_stamp, write_live
from corridor.settings import current_settings
from corridor.state import current_service, live_keys
from corridor.state.versions import DataVersion, data_version, import_versions, read_sources, stored_rates

POLL_S = 2.0  # how often a process reads the stamp: an import or new rates reach every instance within this


class Refresher:
    """One serving process's keys, data file and rates, as last read. `quiet_s`: how long a burst of HUPs must be quiet
    before its one more fetch; `off_request_path` runs a build where requests do not wait for it (gevent's threads)."""

    def __init__(self, app: Flask, quiet_s: float = POLL_S, off_request_path: Callable = lambda work: work()) -> None:
        service = current_service(app)
        self.app, self.log, self.quiet_s, self.off_request_path = app, app.logger, quiet_s, off_request_path
        self.keys, self.sources = service.keys, service.data.sources
        self.interval_s = current_settings(app).rates_refresh_minutes * 60  # 0: only when none stored, and on HUP
        self.feeds = LiveRates.configured(current_settings(app))  # neither fetched nor read yet
        self.born = time.time()
        self.engine = unpooled_engine(app)
        with app.app_context():
            self.polled = db.engine  # pooled: each poll reuses a connection (a worker's: the master never polls)
        # the last stamp taken up, or whose build failed (tried once: serve() says why); not one whose read failed
        self.seen = service.data.stamp
        self.reread_failing = False  # the sources' re-read for a new stamp: its failure is said once, then retried

    def run(self) -> None:
        failing = False
        while True:
            try:
                self.poll()
                failing = False
            except Exception:  # the database or a file a moment away: the next poll tries again, said once
                if not failing:
                    self.log.exception("Rates refresh failed; the data in force stays.")
                failing = True
            time.sleep(POLL_S)

    def ask(self) -> None:
        """Ask for the feeds at once (a HUP's): whichever process polls next asks them."""
        ask_refresh(self.engine, self.quiet_s, time.time())

    def poll(self) -> None:
        served = current_service(self.app).data
        with self.polled.connect() as connection:
            stamp = read_stamp(connection)
        if due(stamp, served.live, self.interval_s, self.quiet_s, time.time(), self.born) and self.fetch(always=False):
            with self.polled.connect() as connection:
                stamp = read_stamp(connection)
        # a read that fails raises, and one of the sources returns False: the next poll tries the version again
        if stamp.version != self.seen and self.take_up(served):
            self.seen = stamp.version

    def fetch(self, now: dt.datetime | None = None, always: bool = True) -> bool:
        """Whether it asked both feeds and stored what they gave: not while another process does, nor, unless
        `always`, when they are no longer due."""
        with fetch_lock(self.engine) as held:
            if not held:
                return False
            with self.engine.connect() as connection:
                stamp, live = read_stamp(connection), read_live(connection, self.feeds)
            started = time.time()
            if not always and not due(stamp, live, self.interval_s, self.quiet_s, started, self.born):
                return False
            with self.engine.begin() as connection:  # a fetch cut short (its worker retired by a HUP) counts too
                mark_started(connection, started)
            now = now or dt.datetime.now(dt.UTC).replace(microsecond=0)
            live = refresh_live(live, self.sources.dataset, set(self.sources.history.currencies), now, self.log)
            with self.engine.begin() as connection:
                write_live(connection, live, now)
        metrics = current_service(self.app).metrics
        if metrics is not None:
            for feed in live.report(self.sources.dataset):
                if feed["status"] != "off":
                    metrics.fetches.labels(feed["source"], feed["status"]).inc()
        return True

    def take_up(self, served: DataVersion) -> bool:
        """Serve the stored rates and imports: a new version if they change a figure, else each feed's last try. False
        if the sources could not be read again: the new rates are served with them as last read."""
        stamp, live = stored_rates(self.app)
        if (live.figures, import_versions(self.app)) == (served.live.figures, served.sources.import_versions):
            current_service(self.app).serve(dataclasses.replace(served, live=live, stamp=stamp))
            self.reread_failing = False
            return True
        try:
            self.sources = self.off_request_path(lambda: read_sources(self.app))
        except Exception as err:  # the data file, or the imports in the database: the rates need neither
            if not self.reread_failing:
                self.log.warning(
                    "Data re-read failed; the stored rates are served with %s as last read, and it is tried again at "
                    "each poll. %s",
                    self.sources.summary,
                    err,
                )
            self.reread_failing = True
            if live.figures != served.live.figures:
                self.serve(stamp, live)
            return False
        self.reread_failing = False
        self.serve(stamp, live)
        return True

    def reread(self) -> None:
        try:
            self.keys = live_keys(self.app, current_service(self.app).env_keys).digests
            self.log.info("Keys refresh: %d API key(s) live.", len(self.keys))
        except Exception as err:  # nothing in a keys file may stop a refresh
            self.log.error("Keys refresh refused; the live keys stay. %s", err)
        try:
            self.sources = read_sources(self.app)
            self.log.info("Data refresh: %s; rate history %s", self.sources.summary, self.sources.history_summary)
            for note in self.sources.survey_notes:
                self.log.warning("Survey: %s", note)
        except Exception as err:  # nothing in a data file may stop a refresh
            self.log.error("Data refresh refused; still serving %s. %s", self.sources.summary, err)

    def serve(self, stamp: int | None = None, live: LiveRates | None = None) -> None:
        """Build and serve the keys, data and rates as last read (the stored rates unless given), or say why not."""
        service = current_service(self.app)
        if live is None:
            stamp, live = stored_rates(self.app)

        def build() -> DataVersion:
            version = data_version(self.app, self.sources, live, stamp)
            build_whole_lists(self.app, version)
            return version

        try:
            service.serve(self.off_request_path(build), self.keys)
        except Exception as err:  # a refresh must never take the service down, whatever the file holds
            self.log.error("Data refresh refused; still serving %s. %s", service.data.sources.summary, err)


def register_rates_refresh(app: Flask) -> None:
    """Under `flask run`, the first request starts the refresher's thread (under gunicorn, each worker's hook), then
    hands `app.wsgi_app` back unless a middleware has wrapped it since."""
    if app.testing:
        return
    inner, starting = app.wsgi_app, threading.Lock()

    def start_on_first_request(environ: dict, start_response: Callable) -> Any:
        with starting:
            if not current_service(app).refreshing:
                start_thread(Refresher(app))
            if app.wsgi_app is start_on_first_request:  # else the middleware around it would be lost
                app.wsgi_app = inner  # type: ignore[method-assign]
        return inner(environ, start_response)

    app.wsgi_app = start_on_first_request  # type: ignore[method-assign]  # middleware, as Flask's docs set it


def start_thread(refresher: Refresher) -> None:
    threading.Thread(target=refresher.run, name="rates-refresher", daemon=True).start()
    current_service(refresher.app).refreshing = True
