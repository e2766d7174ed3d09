"""What gunicorn.conf.py's server hooks do for this service: documented hooks only (gunicorn's settings reference)."""

from __future__ import annotations

import sys
from typing import Any

from flask import Flask

from corridor.api.caching import build_whole_lists
from corridor.serving.drain import Drain
from corridor.serving.logs import EscapeControl, RedactClientText
from corridor.serving.metrics import serve_metrics_port
from corridor.serving.multiprocess import forget_process, remove_own_directory
from corridor.serving.refresher import Refresher, start_thread
from corridor.settings import current_settings
from corridor.state import current_service, has_service


def _ours(server: Any) -> Flask | None:
    """The app the master loaded, if it is this service (not the benchmark's bare floor under the same config)."""
    app = server.app.wsgi()
    return app if has_service(app) else None


def on_starting(server: Any) -> None:
    """gunicorn's own messages about requests it cannot parse quote them: keep what the client sent out; and escape
    control characters in the access line, whose path a client chose."""
    server.log.error_log.addFilter(RedactClientText())
    server.log.access_log.addFilter(EscapeControl())


def when_ready(server: Any) -> None:
    """Before the first workers fork: build the whole lists, the drain a TERM starts, and the metrics' own port."""
    app = _ours(server)
    if app is None:
        return
    service = current_service(app)
    seconds = current_settings(app).drain_seconds
    if seconds:
        service.drain = Drain(seconds)
        service.drain.watch_master(server.log)
    build_whole_lists(app, service.data)
    address = current_settings(app).metrics_port
    if address is not None:
        serve_metrics_port(service, address)
        server.log.info("Serving the metrics at http://%s:%d/metrics", *address)


def post_worker_init(worker: Any) -> None:
    """A worker that gets a TERM while its instance drains serves on until the drain is over; each worker keeps its
    data as new as the database (corridor/serving/refresher.py)."""
    app = _ours(worker)
    if app is None:
        return
    service = current_service(app)
    if service.drain is not None:
        service.drain.watch_worker()
    quiet_s = burst_quiet_s(worker.cfg)
    if type(worker).__module__.endswith("ggevent"):
        import gevent

        # a build is CPU-bound: in a thread of its own, the worker's greenlets serve on meanwhile; each of their
        # system calls gives that thread the GIL, taken back after the switch interval: 5 ms by default would add tens
        # of ms to each request during a build
        sys.setswitchinterval(0.0005)
        gevent.spawn(Refresher(app, quiet_s, gevent.get_hub().threadpool.apply).run)
        service.refreshing = True
    else:
        start_thread(Refresher(app, quiet_s))


def pre_request(worker: Any, req: Any) -> None:
    """While the instance drains, each answer closes its connection (gunicorn writes `Connection: close`): a kept-alive
    client's next request opens a new one, which the router sends to an instance still ready, and no connection is
    left open for the stop to reset."""
    app = _ours(worker)
    drain = current_service(app).drain if app else None
    if drain is not None and drain.draining:
        req.force_close()


def child_exit(server: Any, worker: Any) -> None:
    """A worker has exited: the metrics forget what only a live process holds (its counts stay)."""
    forget_process(worker.pid)


def on_reload(server: Any) -> None:
    """A HUP (gunicorn's reload, before it forks the new workers): serve the keys and the data file read anew, with the
    imports and the rates the database holds, its whole lists built; and ask for the feeds at once."""
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
    """How long a burst of HUPs is quiet before its one more fetch: gunicorn reloads for queued HUPs one after another,
    each reload building the new version, then waiting up to the graceful timeout for the old workers."""
    return cfg.graceful_timeout + 3


def on_exit(server: Any) -> None:
    """Remove the metrics' folder if the master made it."""
    remove_own_directory()
