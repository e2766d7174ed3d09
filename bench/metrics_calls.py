"""What counting a request costs, call by call, in-process, under prometheus_client's multiprocess mode (each value
written to a file of its own in a fresh folder, as under gunicorn): the middleware around a trivial WSGI app, and the
request's histogram, which also counts its response-cache lookup. Printed: µs a call, best of the rounds.
Usage: python -m bench.metrics_calls [--calls N] [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import timeit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder  # read when prometheus_client is first imported, just below
        from corridor.serving.http import ROUTE
        from corridor.serving.metrics import counted
        from corridor.serving.prometheus import Metrics
        from corridor.state.responses import CACHE_LOOKUP

        def app(environ, start_response):
            start_response("200 OK", [])
            return [b"{}"]

        metrics = Metrics(lambda: None)
        environ = {"REQUEST_METHOD": "GET", ROUTE: "/api/corridors", CACHE_LOOKUP: "hit"}
        counted_app = counted(app, metrics.request)
        calls = {
            "a trivial WSGI app alone": lambda: app(environ, lambda *_: None),
            "the same, counted (middleware and histogram)": lambda: counted_app(environ, lambda *_: None),
            "the histogram alone (Metrics.request)": lambda: metrics.request(
                "GET", "/api/corridors", "200", "hit", 3e-4
            ),
        }
        print("| call | µs |\n|---|---:|")
        for name, call in calls.items():
            call()
            best = min(timeit.repeat(call, number=args.calls, repeat=args.rounds))
            print(f"| {name} | {best / args.calls * 1e6:.2f} |")


if __name__ == "__main__":
    main()
