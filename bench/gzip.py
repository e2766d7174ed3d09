"""Should the service gzip? The service as shipped against the same app with Flask-Compress, clients accepting gzip.

Both under the shipped gunicorn config on loopback, each URL driven by wrk alternately, 3 rounds of
3 s: requests/s, p99 and the bytes of one response. Needs Flask-Compress in the venv
(`.venv/bin/pip install flask-compress`); the service itself does not depend on it.
Usage: python -m bench.gzip
"""

from __future__ import annotations

import argparse
import secrets
import subprocess

from bench.load import gunicorn
from bench.run import print_table, side_by_side

URLS = [
    "/api/poc/corridors/1",
    "/api/corridors",
    "/api/poc/full",
    "/api/poc/providers",
    "/api/poc/history?from=USD&to=JPY&start=1999-01-01&end=2026-12-31",
]
GZIP = "Accept-Encoding: gzip"


def compressed_app():
    """The shipped app with Flask-Compress's defaults (gunicorn: bench.gzip:compressed_app())."""
    from flask_compress import Compress

    from app import create_app

    app = create_app()
    Compress(app)
    return app


def size(base: str, url: str, key: str) -> int:
    """Bytes of one response's body as a client accepting gzip receives it."""
    out = subprocess.run(
        [
            "curl",
            "-s",
            "-o",
            "/dev/null",
            "-w",
            "%{size_download}",
            "-H",
            GZIP,
            "-H",
            f"Authorization: Bearer {key}",
            base + url,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(out.stdout)


def main() -> None:
    args = argparse.Namespace(rounds=3, duration=3, connections=32)
    key = secrets.token_urlsafe(24)
    with (
        gunicorn("wsgi:app", {"API_KEYS": key}) as plain,
        gunicorn("bench.gzip:compressed_app()", {"API_KEYS": key}) as packed,
    ):
        rows = side_by_side(plain, packed, key, args, URLS, (GZIP,))
        sizes = {url: (size(plain, url, key), size(packed, url, key)) for url in URLS}
    print("Clients sending `Accept-Encoding: gzip`; ratio: median of the rounds' shipped ÷ Flask-Compress.\n")
    print_table(rows, "shipped", "Flask-Compress")
    print("\n| endpoint | bytes sent, shipped | bytes sent, Flask-Compress |\n|---|---:|---:|")
    for url, (plain_bytes, packed_bytes) in sizes.items():
        print(f"| `{url}` | {plain_bytes:,} | {packed_bytes:,} |")


if __name__ == "__main__":
    main()
