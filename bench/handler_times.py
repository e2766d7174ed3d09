"""In-process handler time per URL: the service and the bare Flask floor through their WSGI callables."""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.load import FEEDS_OFF
from bench.urls import URLS, concrete

ROOT = Path(__file__).resolve().parent.parent


def in_process(key: str, iterations: int) -> list[tuple[str, float, float]]:
    """Median handler time per URL, service and bare Flask, in µs."""
    os.environ["API_KEYS"] = key
    os.environ["RATE_LIMITS"] = "off"  # thousands of calls from one address: what is timed is the handler
    os.environ.update(FEEDS_OFF)  # else the first request would ask the ECB and Frankfurter
    sys.path.insert(0, str(ROOT))
    from werkzeug.test import EnvironBuilder

    from app import create_app
    from bench.baseline import create_baseline

    service = create_app()
    client = service.test_client()
    bodies = {url: client.get(concrete(url), headers={"Authorization": f"Bearer {key}"}).data.decode() for url in URLS}
    with tempfile.NamedTemporaryFile("w", suffix=".json") as handle:
        json.dump(bodies, handle)
        handle.flush()
        os.environ["BENCH_BODIES"] = handle.name
        baseline = create_baseline()  # reads the bodies now
    rows = []
    for url in URLS:
        path, _, query = concrete(url).partition("?")
        environ = EnvironBuilder(
            path=path, query_string=query, headers={"Authorization": f"Bearer {key}"}
        ).get_environ()
        times = {service: [], baseline: []}
        for _ in range(10):  # alternate in blocks, so drift in machine load hits both sides alike
            for app in (service, baseline):
                times[app].extend(_call_times(app, environ, iterations // 10))
        rows.append((url, statistics.median(times[service]) * 1e6, statistics.median(times[baseline]) * 1e6))
    return rows


def _call_times(app, environ: dict, iterations: int) -> list[float]:
    def start_response(status, headers, exc_info=None):
        return None

    times = []
    for _ in range(iterations):
        started = time.perf_counter()
        b"".join(app(dict(environ), start_response))
        times.append(time.perf_counter() - started)
    return times
