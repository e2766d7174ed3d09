"""gunicorn.conf.py's server hooks: documented hooks only (gunicorn's settings reference)."""

from __future__ import annotations

import gc
import signal
import sys
from types import FrameType
from typing import Any

from flask import Flask

from corridor.api.caching import build_whole_lists
from corridor.serving.drain import Drain
from corridor.serving.logs import EscapeControl, RedactClientText
from corridor.serving.metrics import forget_process, remove_own_directory, serve_metrics_port
from corridor.serving.refresher import Refresher, start_thread
from corridor.settings import current_settings
from corridor.state import current_service, has_service


def _ours(server: Any) -> Flask | None:
    app = server.app.wsgi()
    return app if has_service(app) else None


def _gevent(worker: Any) -> bool:
    return type(worker).__module__.endswith("ggevent")  # not when a command line picks another worker class


def on_starting(server: Any) -> None:
    """Keep what a client sent out of gunicorn's messages on requests it cannot parse, and escape the access line."""
    server.log.error_log.addFilter(RedactClientText())
    server.log.access_log.addFilter(EscapeControl())


def pre_fork(server: Any, worker: Any) -> None:
    """Keep what the master loaded out of the workers' full collections, which would walk and copy all of it."""
    gc.freeze()


def post_fork(server: Any, worker: Any) -> None:
    """Keep a stop that comes while the worker boots (the master's handlers would queue it unseen); hold back a
    terminal's Ctrl-C until post_worker_init ignores it (gunicorn's handler would answer it as a second quit)."""

    def stop_once_booted(signum: int, frame: FrameType | None) -> None:
        worker.alive = False  # its serving loop then ends at once, as on a TERM after boot

    for signum in (signal.SIGTERM, signal.SIGQUIT):
        signal.signal(signum, stop_once_booted)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def when_ready(server: Any) -> None:
    app = _ours(server)
    if app is None:
        return
    service, settings = current_service(app), current_settings(app)
    if settings.drain_seconds:
        service.drain = Drain(settings.drain_seconds)
        service.drain.watch_master(server.log)
    build_whole_lists(app, service.data)
    if settings.metrics_port is not None:
        serve_metrics_port(service, settings.metrics_port)
        server.log.info("Serving the metrics at http://%s:%d/metrics", *settings.metrics_port)


def post_worker_init(worker: Any) -> None:
    """Leave Ctrl-C to the master, serve on through the drain, keep the data as new as the database (OPERATIONS.md)."""
    # a worker that answered the terminal's INT too would run gunicorn's quit twice: a SystemExit traceback
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # one held back since post_fork is dropped, ignored
    app = _ours(worker)
    if app is None:
        return
    service = current_service(app)
    if service.drain is not None:
        service.drain.watch_worker()
    quiet_s = burst_quiet_s(worker.cfg)
    if _gevent(worker):
        import gevent

        # a build is CPU-bound, in a thread of its own; each greenlet's system call hands it the GIL until the switch
        # interval: 5 ms by default would add tens of ms to each request during a build
        sys.setswitchinterval(0.0005)
        gevent.spawn(Refresher(app, quiet_s, gevent.get_hub().threadpool.apply).run)
        service.refreshing = True
    else:
        start_thread(Refresher(app, quiet_s))


def pre_request(worker: Any, req: Any) -> None:
    """While draining, each answer closes its connection: the client's next goes to a ready instance, none is reset."""
    app = _ours(worker)
    drain = current_service(app).drain if app else None
    if drain is not None and drain.draining:
        req.force_close()


def post_request(worker: Any, req: Any, environ: dict, resp: Any) -> None:
    """Yield after each response so a gevent worker shares itself fairly among kept-alive clients."""
    if _gevent(worker):
        import gevent

        # a timer due at once, not sleep(0): sleep(0) resumes before gevent polls the sockets again,
        # so clients whose next request had already arrived would take turns while others wait
        gevent.sleep(1e-6)


def child_exit(server: Any, worker: Any) -> None:
    forget_process(worker.pid)


def on_reload(server: Any) -> None:
    """A HUP, before the new workers fork: serve the keys and the data file read anew, and ask for the feeds."""
    app = _ours(server)
    if app is None:
        return
    server.log.info("Hang up: the keys and the data are read anew, and the feeds are asked.")
    try:
        refresher = Refresher(app, quiet_s=burst_quiet_s(server.cfg))
        refresher.ask()
        refresher.reread()
        refresher.serve()
    except Exception as err:  # the master's loop must go on, whatever a refresh brings
        app.logger.error("Refresh failed; serving on as before. %s: %s", type(err).__name__, err)


def burst_quiet_s(cfg: Any) -> float:
    """How long a burst of HUPs is quiet before its one more fetch: each reload waits up to the graceful timeout."""
    return cfg.graceful_timeout + 3


def on_exit(server: Any) -> None:
    remove_own_directory()
