"""Flask-Limiter's request hooks against the service's own two (corridor/web/rate_limits.py), in-process.

The same app four or six ways: limits off; the service's hooks on `limits` in memory (and in Redis); Flask-Limiter
with the same budget, fixed window and headers in memory (and in Redis). Each serves a cached Group B URL through
Flask's test client, in alternating rounds; printed: µs per request, and what the limiting adds to `off`.
Needs Flask-Limiter in the venv (`.venv/bin/pip install flask-limiter`); the service does not depend on it.
Usage: python -m bench.limiter_hooks [--requests N] [--rounds N]
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import time

from bench.load import FEEDS_OFF
from bench.rate_limits import LIFTED, REDIS, redis_answers

URL = "/api/poc/corridors/1"


def build(limits: str, storage: str | None = None):
    from app import create_app

    return create_app(
        {
            "RATE_LIMITS": limits,
            "RATE_LIMIT_PUBLIC": LIFTED,
            "RATE_LIMIT_API": LIFTED,
            "RATE_LIMIT_STORAGE": storage or "memory://",
        }
    )


def with_flask_limiter(storage: str):
    from flask_limiter import Limiter
    from flask_limiter.util import get_remote_address

    app = build("off")
    Limiter(
        get_remote_address,
        app=app,
        default_limits=[LIFTED],
        headers_enabled=True,
        storage_uri=storage,
        strategy="fixed-window",
    )
    return app


def per_request_us(client, requests: int) -> float:
    started = time.perf_counter()
    for _ in range(requests):
        client.get(URL)
    return (time.perf_counter() - started) / requests * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    os.environ.update(FEEDS_OFF)
    logging.disable(logging.WARNING)
    apps = {
        "off": build("off"),
        "service, memory": build("on"),
        "Flask-Limiter, memory": with_flask_limiter("memory://"),
    }
    if redis_answers():
        apps |= {"service, redis": build("on", REDIS), "Flask-Limiter, redis": with_flask_limiter(REDIS)}
    clients = {name: app.test_client() for name, app in apps.items()}
    for client in clients.values():
        per_request_us(client, 200)
    times: dict[str, list[float]] = {name: [] for name in clients}
    for _ in range(args.rounds):
        for name, client in clients.items():
            times[name].append(per_request_us(client, args.requests))
    off = statistics.median(times["off"])
    print(f"| {URL}, in-process | µs a request (median of {args.rounds} × {args.requests}) | limiting adds µs |")
    print("|---|---:|---:|")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"| {name} | {median:.0f} | {median - off:.0f} |")


if __name__ == "__main__":
    main()
