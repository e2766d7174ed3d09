"""Refreshes that never hold up serving: one refresher per instance re-reads the data file and asks the feeds.

Under gunicorn it is a child process of the master (a thread there could be forked holding a lock,
and the master's loop must stay free to replace workers and to stop). An operator's HUP only wakes
it; it re-reads the keys file and the data file, asks the feeds, and sends the master a snapshot
and a HUP of its own; the master only prices the snapshot, and gunicorn swaps the workers as on any
HUP. HUPs that come while it works wake it once more, not once each. Under `flask run` it is a
thread that swaps the data version itself.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import pickle
import select
import shutil
import signal
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Any

import click
from flask import Flask
from flask.cli import run_command
from werkzeug.serving import is_running_from_reloader

from corridor.data.live import LiveRates, refresh_live, report_json
from corridor.settings import whole_number
from corridor.web.service import Sources, data_version, live_keys, read_sources, serve

SNAPSHOT, REPORT = "snapshot.pickle", "feeds.json"
PROCESS_NAME = "corridor-rates"  # what `ps -o comm` shows for the refresher, beside gunicorn's workers
# the signals gunicorn's master handles: its handlers must not run in the refresher
_MASTER_SIGNALS = ("SIGHUP", "SIGQUIT", "SIGINT", "SIGTERM", "SIGTTIN", "SIGTTOU", "SIGUSR1", "SIGUSR2", "SIGWINCH",
                   "SIGCHLD")


@dataclass(frozen=True)
class Snapshot:
    """What one refresh gave: the rates in force, and the keys and data file if they were read anew."""

    live: LiveRates
    sources: Sources | None
    keys: tuple[bytes, ...] | None


class Refresher:
    """One instance's data file and feeds, refreshed on demand."""

    def __init__(self, app: Flask, sources: Sources, live: LiveRates) -> None:
        self.app, self.sources, self.live = app, sources, live
        self.log = app.logger

    def reread_keys(self) -> tuple[bytes, ...] | None:
        """The keys of API_KEYS and API_KEYS_FILE read anew; None, logged, when the file cannot be used."""
        try:
            keys = live_keys(self.app, self.app.extensions["corridor"].env_keys).digests
        except Exception as err:  # nothing in a keys file may stop the refresher
            self.log.error("Keys refresh refused; the live keys stay. %s", err)
            return None
        self.log.info("Keys refresh: %d API key(s) live.", len(keys))
        return keys

    def reread(self) -> bool:
        """Read the data file anew; on a fault, log why and keep the last good one."""
        try:
            self.sources = read_sources(self.app)
        except Exception as err:  # nothing in a data file may stop the refresher
            self.log.error("Data refresh refused; still serving %s. %s", self.sources.summary, err)
            return False
        self.log.info("Data refresh: %s; rate history %s", self.sources.summary, self.sources.history_summary)
        return True

    def fetch(self) -> None:
        """Ask both feeds once."""
        self.live = refresh_live(self.live, self.sources.dataset, set(self.sources.history.rates),
                                 dt.datetime.now(dt.timezone.utc).replace(microsecond=0), self.log)


def refresh_minutes(app: Flask) -> int:
    """RATES_REFRESH_MINUTES: 0 fetches only at start and on HUP."""
    return whole_number(app.config, "RATES_REFRESH_MINUTES")


class RatesProcess:
    """The refresher as a child of gunicorn's master, and the master's side of it."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.master = os.getpid()
        self.folder = tempfile.mkdtemp(prefix="corridor-rates-")  # mode 0700: only this user reads or writes it
        self.applied: tuple[int, int] | None = None  # the snapshot file served last: its inode and time
        self.pid = 0
        self._alive = -1  # the read end of a pipe whose write end only the refresher holds

    def start(self, server: Any, reread: bool = False) -> None:
        """Fork the refresher: it asks the feeds at once (re-reading the files first if `reread`)."""
        data = self.app.extensions["corridor"].data
        alive, holder = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(alive)
            self._run_child(server, Refresher(self.app, data.sources, data.live), reread)
        os.close(holder)
        if self._alive >= 0:
            os.close(self._alive)
        self.pid, self._alive = pid, alive

    def running(self) -> bool:
        """Whether the refresher still runs (its end of the pipe is open)."""
        return self._alive >= 0 and not select.select([self._alive], [], [], 0)[0]

    def poke(self, server: Any) -> None:
        """Ask for a refresh now: pokes that come during one are merged into one next refresh."""
        if not self.running():
            self.app.logger.warning("The rates refresher is gone; starting another.")
            self.start(server, reread=True)
            return
        os.kill(self.pid, signal.SIGUSR1)

    def _version(self) -> tuple[int, int] | None:
        try:
            info = os.stat(os.path.join(self.folder, SNAPSHOT))
        except FileNotFoundError:
            return None
        return info.st_ino, info.st_mtime_ns  # each snapshot is a new file, renamed into place

    def has_news(self) -> bool:
        """Whether the refresher wrote a snapshot the master has not served."""
        version = self._version()
        return version is not None and version != self.applied

    def take(self) -> Snapshot | None:
        """The refresher's newest snapshot, if the master has not served it yet."""
        version = self._version()
        if version is None or version == self.applied:
            return None
        with open(os.path.join(self.folder, SNAPSHOT), "rb") as handle:
            # written by our own child into a folder only this user can write to
            snapshot: Snapshot = pickle.load(handle)
        self.applied = version
        return snapshot

    def stop(self) -> None:
        """Stop the refresher (mid-fetch, if it is) and remove its folder."""
        if self.running():
            os.kill(self.pid, signal.SIGTERM)
        shutil.rmtree(self.folder, ignore_errors=True)

    def _run_child(self, server: Any, refresher: Refresher, reread: bool) -> None:
        code = 0
        try:
            for name in _MASTER_SIGNALS:
                signal.signal(getattr(signal, name), signal.SIG_DFL)  # TERM and INT end it at once, mid-fetch too
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})  # pokes wait, merged, for sigtimedwait
            for listener in server.LISTENERS:
                listener.sock.close()  # this process serves nothing
            try:
                with open("/proc/self/comm", "w") as comm:
                    comm.write(PROCESS_NAME)
            except OSError:
                pass  # not Linux: only its name in `ps` is lost
            self._loop(refresher, refresh_minutes(self.app) * 60, reread)
        except BaseException:  # noqa: B036 - whatever happens, never return into the master's code
            code = 1
            logging.getLogger(__name__).exception("The rates refresher stopped.")
        finally:
            os._exit(code)

    def _loop(self, refresher: Refresher, interval: int, reread: bool) -> None:
        served = refresher.live.figures
        while True:
            try:
                keys = refresher.reread_keys() if reread else None
                sources = refresher.sources if reread and refresher.reread() else None
                refresher.fetch()
                # health reads each try from the report; only new figures are worth swapping the workers for
                self._write(REPORT, report_json(refresher.live.report(refresher.sources.dataset)))
                if reread or refresher.live.figures != served:
                    self._write(SNAPSHOT, pickle.dumps(Snapshot(refresher.live, sources, keys), pickle.HIGHEST_PROTOCOL))
                    served = refresher.live.figures
                    os.kill(self.master, signal.SIGHUP)
            except Exception:  # a full disk, say: the next refresh tries again
                self.app.logger.exception("Rates refresh failed; the rates in force stay.")
            reread = self._wait(time.monotonic() + interval if interval else float("inf"))

    def _write(self, name: str, data: bytes) -> None:
        os.makedirs(self.folder, mode=0o700, exist_ok=True)  # a temporary-file cleaner may have removed it
        path = os.path.join(self.folder, name)
        with open(path + ".tmp", "wb") as handle:
            handle.write(data)
        os.replace(path + ".tmp", path)  # whole or not at all, for a reader at any moment

    def _wait(self, due: float) -> bool:
        """Until `due` (False) or a poke (True); ends the process once the master is gone."""
        while True:
            if os.getppid() != self.master:
                os._exit(0)
            left = due - time.monotonic()
            if left <= 0:
                return False
            if signal.sigtimedwait({signal.SIGUSR1}, min(left, 1.0)) is not None:
                return True


def start_rates_process(server: Any) -> None:
    """gunicorn's when_ready: start this instance's refresher, and let an operator's HUP only wake it."""
    app = server.app.wsgi()
    if "corridor" not in getattr(app, "extensions", {}):
        return  # another app under this configuration (the benchmark's floor)
    process = server.corridor_rates = RatesProcess(app)
    app.config["RATES_REPORT"] = os.path.join(process.folder, REPORT)  # before any worker forks
    process.start(server)
    reload = server.handle_hup  # gunicorn's: the arbiter calls its handle_<signal> methods by name

    def handle_hup() -> None:
        if process.has_news():
            reload()  # on_reload serves the snapshot, and gunicorn swaps the workers for ones forked with it
        else:
            server.log.info("Hang up: the rates refresher re-reads the keys and the data and asks the feeds.")
            process.poke(server)

    server.handle_hup = handle_hup


def serve_snapshot(server: Any) -> None:
    """gunicorn's on_reload: serve the refresher's snapshot (keys, data, rates) before the workers are swapped."""
    process: RatesProcess | None = getattr(server, "corridor_rates", None)
    snapshot = process and process.take()
    if snapshot is None:
        return
    app = process.app
    service = app.extensions["corridor"]
    try:
        serve(app, data_version(app, snapshot.sources or service.data.sources, snapshot.live))
    except Exception as err:  # nothing a refresh brings may stop the master
        app.logger.error("Rates refresh refused; still serving the rates in force. %s", err)
    if snapshot.keys is not None:
        service.keys = snapshot.keys


def stop_rates_process(server: Any) -> None:
    """gunicorn's on_exit."""
    process: RatesProcess | None = getattr(server, "corridor_rates", None)
    if process is not None:
        process.stop()


def start_rates_thread(app: Flask) -> threading.Thread:
    """Under `flask run`: fetch at start and every RATES_REFRESH_MINUTES in a thread that swaps the data itself."""
    data = app.extensions["corridor"].data
    refresher = Refresher(app, data.sources, data.live)
    interval = refresh_minutes(app) * 60

    def run() -> None:
        while True:
            refresher.fetch()
            serve(app, data_version(app, refresher.sources, refresher.live))
            if not interval:
                return
            time.sleep(interval)

    thread = threading.Thread(target=run, name="rates-refresher", daemon=True)
    thread.start()
    return thread


def register_rates_refresh(app: Flask) -> None:
    """Check RATES_REFRESH_MINUTES; under `flask run`, start the thread (gunicorn.conf.py starts the process)."""
    refresh_minutes(app)  # a bad value refuses start-up
    context = click.get_current_context(silent=True)
    if context is None or context.command is not run_command or "corridor" not in app.extensions:
        return
    reloading = context.params.get("reload")
    if (app.debug if reloading is None else reloading) and not is_running_from_reloader():
        return  # the reloader's watcher: the server runs in its child
    start_rates_thread(app)
