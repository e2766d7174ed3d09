"""Hold N connections each with a half-sent request open, then time a normal request.

Usage: python scripts/slow_clients.py BASE_URL [--connections 400] [--hold 5] [--limit 1]
Prints the normal request's status and seconds; exit 1 if it took --limit s or more or failed.
"""

from __future__ import annotations

import argparse
import socket
import sys
import time
import urllib.request
from urllib.parse import urlsplit


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url")
    parser.add_argument("--connections", type=int, default=400)
    parser.add_argument("--hold", type=float, default=2.0, help="seconds to wait after opening them")
    parser.add_argument("--limit", type=float, default=1.0, help="seconds the normal request may take")
    args = parser.parse_args()
    parts = urlsplit(args.base_url)
    sockets = []
    try:
        for _ in range(args.connections):
            sock = socket.create_connection((parts.hostname, parts.port), timeout=5)
            # a request line and one header, never the blank line that ends the head
            sock.sendall(b"GET /api/poc/health HTTP/1.1\r\nHost: slow.example\r\nX-Slow: ")
            sockets.append(sock)
        time.sleep(args.hold)
        started = time.monotonic()
        try:
            with urllib.request.urlopen(f"{args.base_url}/api/poc/corridors/1", timeout=10) as response:
                status = response.status
        except Exception as err:  # the figure to report is the failure itself
            status = f"failed: {err}"
        elapsed = time.monotonic() - started
        print(f"{len(sockets)} half-sent requests held open; a normal request answered {status} in {elapsed:.3f} s")
        return 0 if status == 200 and elapsed < args.limit else 1
    finally:
        for sock in sockets:
            sock.close()


if __name__ == "__main__":
    sys.exit(main())
