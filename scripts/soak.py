"""Soak: mixed traffic across every endpoint for a while; errors and worker memory, first vs last.

Usage: python scripts/soak.py [--seconds 60] [--connections 64]  (make soak)
Serves the shipped data with the Procfile's gunicorn on loopback, drives it with wrk and
scripts/mixed.lua, samples the workers' resident memory every second, and prints the figures.
Exit 1 on any error or non-2xx, or when memory grows by 10 % or more between the first and the
last 10 seconds.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rss_kib(master: int) -> int:
    """Resident memory of the master's children (the workers), in KiB."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    total = 0
    for pid in children:
        status = Path(f"/proc/{pid}/status").read_text()
        total += int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--connections", type=int, default=64)
    args = parser.parse_args()
    key = secrets.token_urlsafe(24)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    command = (ROOT / "Procfile").read_text().split("web:", 1)[1].split()
    # no run reaches the internet, one address sends every request, and the TERM at the end stops it at once
    env = {
        **os.environ,
        "API_KEYS": key,
        "ECB_RATES_URL": "off",
        "FRANKFURTER_URL": "off",
        "RATE_LIMITS": "off",
        "DRAIN_SECONDS": "0",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", *command, "--bind", f"127.0.0.1:{port}", "--access-logfile", "/dev/null"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            if subprocess.run(["curl", "-sf", "-o", "/dev/null", f"{base}/api/poc/health"]).returncode == 0:
                break
            time.sleep(0.1)
        time.sleep(1)
        load = subprocess.Popen(
            [
                "wrk",
                "-t2",
                f"-c{args.connections}",
                f"-d{args.seconds}s",
                "--latency",
                "-s",
                str(ROOT / "scripts/mixed.lua"),
                "-H",
                f"Authorization: Bearer {key}",
                base,
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        samples = []
        while load.poll() is None:
            samples.append(rss_kib(server.pid))
            time.sleep(1)
        out = load.stdout.read()
    finally:
        server.terminate()
        server.wait(timeout=60)
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    errors = (int(non_2xx.group(1)) if non_2xx else 0) + (sum(map(int, sockets.groups())) if sockets else 0)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    first, last = statistics.fmean(samples[:10]), statistics.fmean(samples[-10:])
    growth = 100 * (last - first) / first
    print(
        f"soak: {args.seconds} s, {args.connections} connections, {requests} requests ({rps:.0f}/s), "
        f"p99 {p99}, errors {errors}"
    )
    print(
        f"workers' resident memory: first 10 s {first / 1024:.1f} MiB, last 10 s {last / 1024:.1f} MiB, "
        f"growth {growth:+.1f} % (limit 10 %)"
    )
    return 0 if errors == 0 and growth < 10 else 1


if __name__ == "__main__":
    sys.exit(main())
