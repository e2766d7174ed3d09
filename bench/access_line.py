"""In-process cost of one access line: gunicorn's stock Logger against the shipped AccessLogger.

Both format the shipped `access_log_format` for the same request to /dev/null, as a bench
worker does, with the service's own response headers for a Group A one-off quote.
"""

from __future__ import annotations

import datetime
import runpy
import statistics
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from gunicorn.config import Config
from gunicorn.glogging import Logger

from corridor.access_log import AccessLogger

ROOT = Path(__file__).resolve().parent.parent
_URL = "/api/providers?corridor=USD_MXN&amount=1234.56&payout=cash_pickup"


def _line_inputs(key: str) -> tuple[Any, ...]:
    """A gunicorn worker's (resp, req, environ, request_time) for one Group A request, as wrk sends it."""
    from werkzeug.test import EnvironBuilder

    from app import create_app

    path, _, query = _URL.partition("?")
    response = create_app().test_client().get(_URL, headers={"Authorization": f"Bearer {key}"})
    environ = EnvironBuilder(path=path, query_string=query, headers={"Authorization": f"Bearer {key}"}).get_environ()
    environ.update(RAW_URI=_URL, SERVER_SOFTWARE="gunicorn/27.0.1", REMOTE_PORT="50412",
                   **{"gunicorn.socket": object(), "wsgi.file_wrapper": object(), "wsgi.input_terminated": True,
                      "werkzeug.request": object(), "corridor.request_id": response.headers["X-Request-ID"]})
    resp = SimpleNamespace(status="200 OK", sent=len(response.data), headers=list(response.headers.items()))
    req = SimpleNamespace(headers=[("HOST", "127.0.0.1:8000"), ("AUTHORIZATION", f"Bearer {key}")])
    return resp, req, environ, datetime.timedelta(microseconds=1234)


def access_line_times(key: str, iterations: int) -> dict[str, float]:
    """Median µs per access line of each logger, over alternating blocks of `iterations // 10`."""
    config = Config()
    config.set("accesslog", "/dev/null")
    config.set("access_log_format", runpy.run_path(str(ROOT / "gunicorn.conf.py"))["access_log_format"])
    loggers = {"gunicorn's Logger": Logger(config), "AccessLogger (shipped)": AccessLogger(config)}
    inputs = _line_inputs(key)
    times: dict[str, list[float]] = {name: [] for name in loggers}
    for _ in range(10):  # alternate in blocks, so drift in machine load hits both alike
        for name, logger in loggers.items():
            for _ in range(iterations // 10):
                started = time.perf_counter()
                logger.access(*inputs)
                times[name].append(time.perf_counter() - started)
    return {name: statistics.median(values) * 1e6 for name, values in times.items()}
