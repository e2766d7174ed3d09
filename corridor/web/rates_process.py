"""The rates refresher under gunicorn: a child process of the master, and the master's side of it.

A thread in the master could be forked into a worker holding a lock, and the master's loop must
stay free to replace workers and to stop. An operator's HUP only wakes the refresher; HUPs that
come while it works wake it once more, not once each. It re-reads the keys file and the data file,
asks the feeds, and, when it has something new, writes a snapshot and sends the master WINCH: the
master prices the snapshot and swaps its workers for ones forked with it.
"""

from __future__ import annotations

import logging
import os
import pickle
import select
import shutil
import signal
import tempfile
import time
from typing import Any, Callable

from flask import Flask

from corridor.data.live import report_json
from corridor.web.refresher import Refresher, Snapshot, refresh_minutes, serve_snapshot

SNAPSHOT, REPORT = "snapshot.pickle", "feeds.json"
PROCESS_NAME = "corridor-rates"  # what `ps -o comm` shows for the refresher, beside gunicorn's workers
RESTART_AFTER_S = 60  # a refresher that dies is started again at once, then at most this often
# the signals gunicorn's master handles: its handlers must not run in the refresher
_MASTER_SIGNALS = ("SIGHUP", "SIGQUIT", "SIGINT", "SIGTERM", "SIGTTIN", "SIGTTOU", "SIGUSR2", "SIGWINCH", "SIGCHLD")


class RatesProcess:
    """The refresher as a child of gunicorn's master, and the master's side of it."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.master = os.getpid()
        self.folder = tempfile.mkdtemp(prefix="corridor-rates-")  # mode 0700: only this user reads or writes it
        self.pid = 0
        self.restarted = -float(RESTART_AFTER_S)  # when it was last started again after it died
        self._alive = -1  # the read end of a pipe whose write end only the refresher holds

    def start(self, server: Any, reread: bool = False) -> None:
        """Fork the refresher: it asks the feeds at once (re-reading the files first if `reread`)."""
        alive, holder = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(alive)
            self._run_child(server, reread)
        os.close(holder)
        if self._alive >= 0:
            os.close(self._alive)
        self.pid, self._alive = pid, alive

    def running(self) -> bool:
        """Whether the refresher still runs (its end of the pipe is open)."""
        return self._alive >= 0 and not select.select([self._alive], [], [], 0)[0]

    def poke(self, server: Any) -> None:
        """Ask for a refresh now: pokes that come during one are merged into one next refresh."""
        if self.running():
            os.kill(self.pid, signal.SIGUSR1)
        else:
            self.app.logger.warning("The rates refresher is gone; starting another.")
            self.start(server, reread=True)

    def take(self) -> Snapshot | None:
        """The refresher's newest snapshot, once: None if there is none new."""
        path = os.path.join(self.folder, SNAPSHOT)
        try:
            with open(path, "rb") as handle:
                # written by our own child into a folder only this user can write to
                snapshot: Snapshot = pickle.load(handle)
        except FileNotFoundError:
            return None
        os.unlink(path)
        return snapshot

    def stop(self) -> None:
        """Stop the refresher (mid-fetch, if it is) and remove its folder."""
        if self.running():
            os.kill(self.pid, signal.SIGTERM)
            deadline = time.monotonic() + 1
            while self.running() and time.monotonic() < deadline:
                time.sleep(0.01)  # so that it writes nothing into the folder after it is gone
        shutil.rmtree(self.folder, ignore_errors=True)

    def _run_child(self, server: Any, reread: bool) -> None:
        code = 0
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})  # pokes wait, merged, for sigtimedwait
            for name in _MASTER_SIGNALS:
                signal.signal(getattr(signal, name), signal.SIG_DFL)  # TERM and INT end it at once, mid-fetch too
            for listener in server.LISTENERS:
                listener.sock.close()  # this process serves nothing
            try:
                with open("/proc/self/comm", "w") as comm:
                    comm.write(PROCESS_NAME)
            except OSError:
                pass  # not Linux: only its name in `ps` is lost
            self._loop(Refresher(self.app), refresh_minutes(self.app) * 60, reread)
        except BaseException:  # noqa: B036 - whatever happens, never return into the master's code
            code = 1
            logging.getLogger(__name__).exception("The rates refresher stopped.")
        finally:
            os._exit(code)

    def _loop(self, refresher: Refresher, interval: int, reread: bool) -> None:
        served = refresher.live.figures
        while True:
            try:
                if reread:
                    refresher.reread()
                refresher.fetch()
                # health reads each try from the report; only something new is worth swapping the workers for
                self._write(REPORT, report_json(refresher.live.report(refresher.sources.dataset)))
                if reread or refresher.live.figures != served:
                    self._write(SNAPSHOT, pickle.dumps(refresher.snapshot, pickle.HIGHEST_PROTOCOL))
                    served = refresher.live.figures
                    os.kill(self.master, signal.SIGWINCH)
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
    """gunicorn's when_ready: start this instance's refresher, and take over HUP, WINCH and CHLD for it.

    The arbiter calls its `handle_<signal>` methods by name, so these replace them on this one
    arbiter: HUP wakes the refresher; WINCH, the refresher's, serves its snapshot and swaps the
    workers (gunicorn's own WINCH only acts on a daemonized master, which this is not); CHLD also
    starts the refresher again if it died.
    """
    app = server.app.wsgi()
    if "corridor" not in getattr(app, "extensions", {}):
        return  # another app under this configuration (the benchmark's floor)
    process = server.corridor_rates = RatesProcess(app)
    app.config["RATES_REPORT"] = os.path.join(process.folder, REPORT)  # before any worker forks
    process.start(server)
    handle_chld = server.handle_chld

    def handle_hup() -> None:
        server.log.info("Hang up: the rates refresher re-reads the keys and the data and asks the feeds.")
        _guarded(app, "Asking the rates refresher", lambda: process.poke(server))

    def handle_winch() -> None:
        _guarded(app, "Serving the refreshed keys, data and rates", lambda: _swap(server, process))

    def handle_chld_and_refresher() -> None:
        handle_chld()
        if not process.running() and time.monotonic() - process.restarted > RESTART_AFTER_S:
            app.logger.warning("The rates refresher is gone; starting another.")
            process.restarted = time.monotonic()
            _guarded(app, "Starting the rates refresher", lambda: process.start(server, reread=True))

    server.handle_hup, server.handle_winch = handle_hup, handle_winch
    server.handle_chld = server.handle_cld = handle_chld_and_refresher


def _swap(server: Any, process: RatesProcess) -> None:
    """Serve the snapshot in the master, fork a full set of workers with it, and retire the old ones gracefully."""
    snapshot = process.take()
    if snapshot is None:
        return
    serve_snapshot(process.app, snapshot)
    # as gunicorn's HUP does, without reading its configuration again or waiting for the old workers
    for _ in range(server.num_workers):
        server.spawn_worker()
    server.manage_workers()


def _guarded(app: Flask, what: str, action: Callable[[], None]) -> None:
    try:
        action()
    except Exception as err:  # the master's loop must go on, whatever a refresh brings
        app.logger.error("%s failed; serving on as before. %s: %s", what, type(err).__name__, err)


def stop_rates_process(server: Any) -> None:
    """gunicorn's on_exit."""
    process: RatesProcess | None = getattr(server, "corridor_rates", None)
    if process is not None:
        process.stop()
