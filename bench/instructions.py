"""Instructions per request, counted by valgrind's callgrind: unlike time, no other load moves them.

Each URL is served through the WSGI callable n and 4n times in two callgrind runs; the difference,
divided by 3n, leaves out start-up. `amount=*` gets a fresh random amount per request.
Usage: python -m bench.instructions [--floor] [-n N] URL...   (valgrind from Debian)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEY = "bench-instructions-key"


def serve(url: str, requests: int, floor: bool) -> None:
    """The counted part: build the app, then answer `requests` requests for `url`."""
    import logging

    from werkzeug.test import EnvironBuilder

    logging.disable(logging.INFO)
    os.environ["API_KEYS"] = KEY
    if floor:
        from bench.baseline import create_baseline

        with tempfile.NamedTemporaryFile("w", suffix=".json") as handle:
            json.dump({url: "x" * 1700}, handle)
            handle.flush()
            os.environ["BENCH_BODIES"] = handle.name
            app = create_baseline()
    else:
        from app import create_app

        app = create_app()
    rng = random.Random(1)
    path, _, query = url.partition("?")
    base = EnvironBuilder(path=path, query_string=query, headers={"Authorization": f"Bearer {KEY}"}).get_environ()
    for _ in range(requests + 50):  # the first 50 warm caches and templates, in both runs alike
        # a copy of one built environ with its own query: building one per request would be counted
        concrete = re.sub(r"\*", lambda _: f"{rng.randint(1, 999999)}.{rng.randint(0, 99):02d}", query)
        environ = {**base, "QUERY_STRING": concrete, "REQUEST_URI": f"{path}?{concrete}", "RAW_URI": f"{path}?{concrete}"}
        b"".join(app(environ, lambda status, headers, exc_info=None: None))


def count(url: str, requests: int, floor: bool) -> int:
    """Instructions callgrind collected for a run of `requests` requests, start-up included."""
    args = [sys.executable, "-m", "bench.instructions", "--serve", str(requests), *(["--floor"] if floor else []), url]
    # a fixed hash seed: with a random one, dict and set probing, and so the count, moves by up to 7 %
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *args], cwd=ROOT,
                         env={**os.environ, "PYTHONHASHSEED": "0"}, capture_output=True, text=True, check=True).stderr
    return int(re.search(r"Collected : (\d+)", out).group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("urls", nargs="+")
    parser.add_argument("--floor", action="store_true", help="count the bare Flask baseline instead")
    parser.add_argument("-n", type=int, default=100, help="requests in the shorter run")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.urls[0], args.serve, args.floor)
        return
    print("| URL | instructions per request |\n|---|---:|")
    for url in args.urls:
        per_request = (count(url, 4 * args.n, args.floor) - count(url, args.n, args.floor)) // (3 * args.n)
        print(f"| `{url}`{' (floor)' if args.floor else ''} | {per_request:,} |", flush=True)


if __name__ == "__main__":
    main()
