"""Prometheus metrics (docs/OPERATIONS.md#metrics) when METRICS_TOKEN or METRICS_PORT is set, and only then
prometheus_client imported (corridor/serving/prometheus.py)."""

from __future__ import annotations

import hashlib
import hmac
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, Response, request

from corridor.errors import ApiError
from corridor.limits.budgets import limit_refused_key
from corridor.serving.http import ROUTE
from corridor.settings import current_settings
from corridor.state import Service, current_service
from corridor.state.policy import Policy, PolicyBlueprint
from corridor.state.responses import CACHE_LOOKUP

MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"  # prometheus_client's own setting, read when it is first imported
_OWN_DIR = "CORRIDOR_OWN_METRICS_DIR"  # a folder the master made, to be removed when it exits
_PREPARED = "CORRIDOR_METRICS_PREPARED_BY"  # the master that emptied the folder

# the scraper is never refused for a budget, it is the operator's own; a wrong token is counted by the view
bp = PolicyBlueprint("metrics", __name__, policy=Policy(budget=None))


def register_metrics(app: Flask) -> None:
    settings = current_settings(app)
    token = settings.metrics_token
    if not token and settings.metrics_port is None:
        return  # /metrics is an unknown path, and nothing is counted
    from corridor.serving.prometheus import Metrics

    service: Service = current_service(app)
    service.metrics = Metrics(lambda: service.data)
    service.metrics_token = hashlib.sha256(token.encode()).digest() if token else None
    app.wsgi_app = counted(app.wsgi_app, service.metrics.request)  # type: ignore[method-assign]
    if token:
        app.register_blueprint(bp)


def counted(app: Callable, record: Callable[[str, str | None, str, str, float], None]) -> Callable:
    """Outermost: times each request through the whole app, by the route corridor/serving/http.py leaves in environ."""

    def counted_app(environ: dict, start_response: Callable) -> Iterable[bytes]:
        started = time.perf_counter()
        status = "500"

        def start(status_line: str, headers: list, exc_info: Any = None) -> Callable:
            nonlocal status
            status = status_line[:3]
            return start_response(status_line, headers, exc_info)

        body = app(environ, start)
        method, route, cache = environ.get("REQUEST_METHOD", ""), environ.get(ROUTE), environ.get(CACHE_LOOKUP, "")
        record(method, route, status, cache, time.perf_counter() - started)
        return body

    return counted_app


def scrape_registry(service: Service) -> Any:
    assert service.metrics is not None, "the view is registered with metrics on"
    return service.metrics.scraped(MULTIPROC_DIR in os.environ)


@bp.get("/metrics")
def metrics() -> Response:
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    service: Service = current_service()
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    digest = hashlib.sha256(token.strip().encode("utf-8", "surrogatepass")).digest()
    if scheme.lower() != "bearer" or not hmac.compare_digest(digest, service.metrics_token or b""):
        limit_refused_key()  # guessing the token costs the guesser's address, and 429 once its budget is spent
        raise ApiError(
            401,
            "invalid_metrics_token",
            "Send the metrics token in 'Authorization: Bearer <token>'.",
            {"WWW-Authenticate": 'Bearer realm="corridor-metrics"'},
        )
    body = generate_latest(scrape_registry(service))
    return Response(body, headers={"Content-Type": CONTENT_TYPE_LATEST, "Cache-Control": "no-store"})


def serve_metrics_port(service: Service, address: tuple[str, int]) -> None:
    from prometheus_client import start_http_server

    start_http_server(address[1], addr=address[0], registry=scrape_registry(service))


def prepare_multiprocess_directory() -> None:
    """Before gunicorn loads the app: PROMETHEUS_MULTIPROC_DIR (or a folder of its own), emptied of a previous run's."""
    environ = os.environ
    if not (environ.get("METRICS_TOKEN", "").strip() or environ.get("METRICS_PORT", "").strip()):
        return
    if environ.get(_PREPARED) == str(os.getpid()):
        return  # gunicorn reads its settings again on HUP: the counts so far stay
    folder = environ.get(MULTIPROC_DIR, "").strip()
    if folder:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        for name in os.listdir(folder):
            if name.endswith(".db"):
                os.unlink(os.path.join(folder, name))
    else:
        folder = environ[_OWN_DIR] = tempfile.mkdtemp(prefix="corridor-metrics-")  # removed again on exit
    environ[MULTIPROC_DIR] = folder
    environ[_PREPARED] = str(os.getpid())


def remove_own_directory() -> None:
    if _OWN_DIR in os.environ:
        shutil.rmtree(os.environ[_OWN_DIR], ignore_errors=True)


def forget_process(pid: int) -> None:
    """A worker has exited: its live gauges go (its counters stay, added in at every scrape)."""
    if MULTIPROC_DIR in os.environ:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)
