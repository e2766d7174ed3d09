"""Prometheus metrics for the operator: counted around every request when METRICS_TOKEN or METRICS_PORT is set, and
served in Prometheus' text format, added up over every process of the instance, either at /metrics to a scraper that
sends `Authorization: Bearer <METRICS_TOKEN>` or on METRICS_PORT, which gunicorn's master serves
(docs/OPERATIONS.md#metrics)."""

from __future__ import annotations

import hashlib
import hmac
import os
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, Response, request

from corridor.limits import limit_refused_key
from corridor.serving.http import ROUTE
from corridor.serving.logs import route_template
from corridor.serving.multiprocess import MULTIPROC_DIR
from corridor.settings import current_settings
from corridor.state import Service, current_service
from corridor.state.errors import ApiError
from corridor.state.policy import Policy, PolicyBlueprint
from corridor.state.responses import CACHE_LOOKUP

# the scraper is never refused for a budget, it is the operator's own; a wrong token is counted by the view
bp = PolicyBlueprint("metrics", __name__, policy=Policy(budget=None))


def register_metrics(app: Flask) -> None:
    """Count every request when metrics are on, and serve /metrics when METRICS_TOKEN is set."""
    settings = current_settings(app)
    token = settings.metrics_token
    if not token and settings.metrics_port is None:
        return  # /metrics is an unknown path, and nothing is counted
    from corridor.serving.prometheus import Metrics  # metrics off: prometheus_client is never imported

    service: Service = current_service(app)
    service.metrics = Metrics(lambda: service.data, route_template)
    service.metrics_token = hashlib.sha256(token.encode()).digest() if token else None
    app.wsgi_app = RequestMetrics(app.wsgi_app, service.metrics.request)  # type: ignore[method-assign]
    if token:
        app.register_blueprint(bp)


class RequestMetrics:
    """WSGI middleware, outermost: times each request through the whole app and counts it by method, the route the
    app matched (corridor/serving/http.py leaves it in the environ), status, and how the response cache was asked
    (corridor/api/caching.py leaves that)."""

    def __init__(self, app: Callable, record: Callable[[str, str | None, str, str, float], None]) -> None:
        self.app, self.record = app, record

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        started = time.perf_counter()
        status = "500"

        def start(status_line: str, headers: list, exc_info: Any = None) -> Callable:
            nonlocal status
            status = status_line[:3]
            return start_response(status_line, headers, exc_info)

        body = self.app(environ, start)
        self.record(
            environ.get("REQUEST_METHOD", ""),
            environ.get(ROUTE),
            status,
            environ.get(CACHE_LOOKUP, ""),
            time.perf_counter() - started,
        )
        return body


def scrape_registry(service: Service) -> Any:
    """What a scrape reads: under gunicorn every process's counts (those of workers gone since included), else this
    process's; with the gauges of the data this process serves."""
    metrics = service.metrics
    assert metrics is not None, "the view is registered with metrics on"
    if MULTIPROC_DIR not in os.environ:
        return metrics.scraped(metrics.registry)
    from prometheus_client.multiprocess import MultiProcessCollector

    return metrics.scraped(MultiProcessCollector(registry=None))


@bp.get("/metrics")
def metrics() -> Response:
    """Every process's counts, to a scraper that sends the token."""
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
    """In gunicorn's master, once it is ready: serve the scrape on METRICS_PORT from a thread of its own."""
    from prometheus_client import start_http_server

    start_http_server(address[1], addr=address[0], registry=scrape_registry(service))
