"""What gunicorn.conf.py's server hooks do for this service: documented hooks only (gunicorn's settings reference)."""

from __future__ import annotations

from typing import Any

from flask import Flask

from corridor.api.caching import build_whole_lists
from corridor.serving.drain import Drain
from corridor.serving.logs import EscapeControl, RedactClientText
from corridor.serving.metrics import metrics_address, serve_metrics_port
from corridor.serving.multiprocess import forget_process, remove_own_directory
from corridor.serving.rates_process import RatesProcess
from corridor.serving.refresher import Refresher
from corridor.settings import whole_number
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
    """Before the first workers fork: start this instance's rates refresher (serving begins on the data file while it
    asks the feeds), build the whole lists, the drain a TERM starts, and the metrics' own port."""
    app = _ours(server)
    if app is None:
        return
    service = current_service(app)
    # after on_reload, a reload forks the new workers and waits up to the graceful timeout for the old ones
    service.rates_process = RatesProcess(app, burst_s=server.cfg.graceful_timeout + 1)
    service.rates_report = service.rates_process.report  # before any worker forks: health reads each feed's try
    service.rates_process.start()
    seconds = whole_number(app.config, "DRAIN_SECONDS")
    if seconds:
        service.drain = Drain(seconds)
        service.drain.watch_master(server.log)
    build_whole_lists(app)
    address = metrics_address(app.config)
    if address is not None:
        serve_metrics_port(service, address)
        server.log.info("Serving the metrics at http://%s:%d/metrics", *address)


def post_worker_init(worker: Any) -> None:
    """A worker that gets a TERM while its instance drains serves on until the drain is over."""
    app = _ours(worker)
    drain = app and current_service(app).drain
    if drain is not None:
        drain.watch_worker()


def pre_request(worker: Any, req: Any) -> None:
    """While the instance drains, each answer closes its connection (gunicorn writes `Connection: close`): a kept-alive
    client's next request opens a new one, which the router sends to an instance still ready, and no connection is
    left open for the stop to reset."""
    app = _ours(worker)
    drain = app and current_service(app).drain
    if drain is not None and drain.draining:
        req.force_close()


def child_exit(server: Any, worker: Any) -> None:
    """A worker has exited: the metrics forget what only a live process holds (its counts stay)."""
    forget_process(worker.pid)


def on_reload(server: Any) -> None:
    """A HUP (gunicorn's reload, before it forks the new workers): serve the keys and the data file read anew, with
    the rates the refresher brought if it sent the HUP (else it is an operator's, and the refresher is asked too), its
    whole lists built."""
    app = _ours(server)
    process = app and current_service(app).rates_process
    if process is None:
        return
    try:
        restarted = process.restart_if_gone()  # a new one asks the feeds at once
        refresher = Refresher(app)
        live = process.take()
        if live is None:
            server.log.info("Hang up: the keys and the data are read anew, and the rates refresher asks the feeds.")
            if not restarted:
                process.poke()
        else:
            server.log.info("Serving the rates the refresher brought, with the keys and the data read anew.")
            refresher.live = live
        refresher.reread()
        refresher.serve()
        build_whole_lists(app)  # before the new workers fork with the version
    except Exception as err:  # the master's loop must go on, whatever a refresh brings
        app.logger.error("Refresh failed; serving on as before. %s: %s", type(err).__name__, err)
    finally:
        process.reloaded()


def on_exit(server: Any) -> None:
    """Stop the rates refresher with the master, and remove the metrics' folder if the master made it."""
    app = _ours(server)
    process = app and current_service(app).rates_process
    if process is not None:
        process.stop()
    remove_own_directory()
