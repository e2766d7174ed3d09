"""The rates refresher under gunicorn: a child process of the master that asks the feeds, and the master's side of it.

The master forks it when gunicorn is ready (`when_ready`), so that it starts at once with everything the master loaded
and shares its memory; it serves nothing (it holds the listening sockets it was born with, and never accepts on them).
It asks the feeds at start, every RATES_REFRESH_MINUTES, and whenever the master pokes it (SIGUSR1); pokes that come
while it works are merged into one, and so are the HUPs of a burst, which gunicorn reloads for one after another (see
`RatesProcess.poke`). When the feeds bring new rates, it writes them into a folder only this user can read and sends
the master HUP: gunicorn's own reload, whose `on_reload` hook serves them (with the keys and the data file read anew)
before gunicorn forks a new set of workers and retires the old ones gracefully. If the refresher dies, a thread of the
master that waits for it asks for a reload too, and `on_reload` forks another.
"""

from __future__ import annotations

import logging
import os
import pickle
import shutil
import signal
import tempfile
import threading
import time
from typing import TYPE_CHECKING

from corridor.rates.live import report_json
from corridor.serving.refresher import Refresher, refresh_minutes
from corridor.state import current_service

if TYPE_CHECKING:
    from flask import Flask

    from corridor.rates.live import LiveRates

SNAPSHOT, REPORT = "rates.pickle", "feeds.json"
PROCESS_NAME = "corridor-rates"  # what `ps -o comm` shows for the refresher, beside gunicorn's workers
RESTART_AFTER_S = 60  # a refresher that dies is started again at once, then at most this often
# the signals gunicorn's master handles: its handlers must not run in the refresher
_MASTER_SIGNALS = (
    "SIGHUP",
    "SIGQUIT",
    "SIGINT",
    "SIGTERM",
    "SIGTTIN",
    "SIGTTOU",
    "SIGUSR1",
    "SIGUSR2",
    "SIGWINCH",
    "SIGCHLD",
)


class RatesProcess:
    """The master's side: the refresher forked, poked, read from, started again and stopped."""

    def __init__(self, app: Flask, burst_s: float = 0.0) -> None:
        self.app, self.burst_s = app, burst_s
        self.master = os.getpid()
        self.folder = tempfile.mkdtemp(prefix="corridor-rates-")  # mode 0700: only this user reads or writes it
        self.report = os.path.join(self.folder, REPORT)
        self.pid = 0
        self.gone = threading.Event()  # set by the watching thread once the refresher has died
        self.stopping = threading.Event()
        self.restarted = -float(RESTART_AFTER_S)
        self._watcher: threading.Thread | None = None
        self._burst_until = 0.0  # a HUP reloaded for before then came while gunicorn reloaded for the one before
        self._pending = False  # such a HUP is waiting for its refresh
        self._hup = False  # the reload under way is for an operator's HUP
        self._merged: threading.Timer | None = None  # asks for it once the burst is over

    def start(self) -> None:
        """Fork the refresher (from the master's own thread, in a gunicorn hook): it asks the feeds at once."""
        pid = os.fork()
        if pid == 0:
            _run_child(self.app, self.folder, self.master)
        self.pid = pid
        self.gone.clear()
        if self._watcher is None:  # the first start: watched from now on
            self._watcher = threading.Thread(target=self._watch, name="rates-refresher-watch", daemon=True)
            self._watcher.start()

    def restart_if_gone(self) -> bool:
        """Fork another refresher if the last one died (and the last restart is RESTART_AFTER_S old); whether it did."""
        if not self.gone.is_set() or time.monotonic() - self.restarted < RESTART_AFTER_S:
            return False
        self.app.logger.warning("The rates refresher is gone; starting another.")
        self.restarted = time.monotonic()
        self.start()
        return True

    def poke(self) -> None:
        """Ask for a refresh for an operator's HUP: now, unless the HUP came while gunicorn reloaded for another; then
        it is merged into one more refresh, asked once the burst is over (`reloaded`). Pokes that come during a refresh
        are merged into one next refresh by the refresher itself."""
        self._hup = True
        if time.monotonic() < self._burst_until:
            self._pending = True
        else:
            self._ask()

    def reloaded(self) -> None:
        """`on_reload` is done: after an operator's HUP, gunicorn forks the new workers and waits for the old ones (up
        to its graceful timeout, which `burst_s` covers) before it reloads for a HUP that came meanwhile."""
        # gunicorn queues the HUPs of a burst and reloads for each in turn, a reload apart: poked for each, the
        # refresher would ask the feeds once per HUP
        if not self._hup:
            return  # the refresher's own HUP, or a restart: no burst of an operator's
        self._hup = False
        self._burst_until = time.monotonic() + self.burst_s
        if self._pending:
            if self._merged is not None:
                self._merged.cancel()  # the burst goes on: its one more refresh waits for its last reload
            self._merged = threading.Timer(self.burst_s, self._ask_pending)
            self._merged.daemon = True
            self._merged.start()

    def _ask_pending(self) -> None:
        # a timer's thread, like the watcher's: it takes no lock and logs nothing
        self._pending = False
        self._ask()

    def _ask(self) -> None:
        if not self.gone.is_set():
            os.kill(self.pid, signal.SIGUSR1)

    def take(self) -> LiveRates | None:
        """The rates the refresher brought since the last take, once; None if there are none new."""
        path = os.path.join(self.folder, SNAPSHOT)
        try:
            with open(path, "rb") as handle:
                live: LiveRates = pickle.load(handle)  # written by our own child into a folder only this user writes to
        except FileNotFoundError:
            return None
        os.unlink(path)
        return live

    def stop(self) -> None:
        """Stop the refresher (mid-fetch, if it is) and remove its folder."""
        self.stopping.set()
        if not self.gone.is_set():
            os.kill(self.pid, signal.SIGTERM)
            self.gone.wait(1)  # so that it writes nothing into the folder after it is gone
        shutil.rmtree(self.folder, ignore_errors=True)

    def _watch(self) -> None:
        # blocked in waitpid, this thread holds no lock a worker forked meanwhile could inherit; it forks nothing and
        # logs nothing: it only asks the master, by gunicorn's documented HUP, to run `on_reload`
        while not self.stopping.is_set():
            pid = self.pid
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass  # gunicorn's own reaping took it first: gone all the same
            self.gone.set()
            drain = current_service(self.app).drain
            if self.stopping.is_set() or (drain is not None and drain.draining):
                return  # a platform that stops an instance signals every process of it, this one too
            due = self.restarted + RESTART_AFTER_S - time.monotonic()
            if self.stopping.wait(max(0.0, due)):
                return
            os.kill(self.master, signal.SIGHUP)
            while self.pid == pid and not self.stopping.wait(0.1):
                pass  # until on_reload has forked another


def _run_child(app: Flask, folder: str, master: int) -> None:
    code = 0
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})  # pokes wait, merged, for sigtimedwait
        for name in _MASTER_SIGNALS:
            signal.signal(getattr(signal, name), signal.SIG_DFL)  # TERM ends it at once, mid-fetch too
        # a terminal's Ctrl-C reaches the whole group: the master answers it and stops this process (on_exit); dying of
        # it first would have the master's watcher ask for a reload in the middle of the stop
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        os.nice(10)  # background work: the workers come first for the CPU
        try:
            with open("/proc/self/comm", "w") as comm:
                comm.write(PROCESS_NAME)
        except OSError:
            pass  # not Linux: only its name in `ps` is lost
        _loop(Refresher(app), refresh_minutes(app) * 60, folder, master)
    except BaseException:  # whatever happens, never return into the master's code
        code = 1
        logging.getLogger(__name__).exception("The rates refresher stopped.")
    finally:
        os._exit(code)


def _loop(refresher: Refresher, interval: int, folder: str, master: int) -> None:
    served = refresher.live.figures, refresher.sources.import_versions
    while True:
        try:
            # what the feeds are asked for, and held against: the master's own files; and any import since
            refresher.reread(keys=False)
            refresher.fetch()
            # health reads each try from the report; only new rates, or a new import, are worth new workers
            _write(folder, REPORT, report_json(refresher.live.report(refresher.sources.dataset)))
            if (refresher.live.figures, refresher.sources.import_versions) != served:
                _write(folder, SNAPSHOT, pickle.dumps(refresher.live, pickle.HIGHEST_PROTOCOL))
                served = refresher.live.figures, refresher.sources.import_versions
                os.kill(master, signal.SIGHUP)
        except Exception:  # a full disk, say: the next refresh tries again
            refresher.log.exception("Rates refresh failed; the rates in force stay.")
        _wait(master, time.monotonic() + interval if interval else float("inf"))


def _write(folder: str, name: str, data: bytes) -> None:
    os.makedirs(folder, mode=0o700, exist_ok=True)  # a temporary-file cleaner may have removed it
    path = os.path.join(folder, name)
    with open(path + ".tmp", "wb") as handle:
        handle.write(data)
    os.replace(path + ".tmp", path)  # whole or not at all, for a reader at any moment


def _wait(master: int, due: float) -> None:
    """Until `due` or a poke; ends the process once the master is gone."""
    while True:
        if os.getppid() != master:
            os._exit(0)
        left = due - time.monotonic()
        if left <= 0 or signal.sigtimedwait({signal.SIGUSR1}, min(left, 1.0)) is not None:
            return
