"""Loopback load for the benchmark: gunicorn on a free port with the shipped config (the service and
its bare Flask floor side by side), and wrk against it."""

from __future__ import annotations

import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from bench.urls import URLS, concrete

ROOT = Path(__file__).resolve().parent.parent
# every app a benchmark starts, in process or under gunicorn: the figures measured are the data file's rates, and no
# run reaches the internet
FEEDS_OFF = {"ECB_RATES_URL": "off", "FRANKFURTER_URL": "off"}
_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3}


def free_port() -> int:
    """A loopback port nobody listens on right now, below the range the kernel takes its outgoing connections' own
    ports from: a server started seconds later (`make run` migrates first) would otherwise find one of them on it,
    as the other test processes open thousands of connections (gunicorn: "Address already in use")."""
    ceiling = _first_outgoing_port()
    while True:
        port = random.randrange(10000, ceiling) if ceiling > 11000 else 0  # no room below it: any free port
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:  # taken: another
                continue
            return sock.getsockname()[1]


def _first_outgoing_port() -> int:
    """The lowest local port the kernel gives an outgoing connection (Linux's default where it cannot be read)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


@contextmanager
def gunicorn(app: str, env: dict[str, str], *flags: str):
    """gunicorn serving `app` on a free loopback port with the shipped config plus `flags`; its base URL."""
    with serving(app, env, *flags) as (base, _):
        yield base


def children_of(master: int) -> list[int]:
    """A process's children: every thread's (a child started by one of its threads is listed under it)."""
    pids = [pid for task in Path(f"/proc/{master}/task").iterdir() for pid in _read(task / "children").split()]
    # a thread or a child that ends while it is listed is gone: not a child any more
    return [int(pid) for pid in pids if _read(Path(f"/proc/{pid}/comm"))]


def _read(path: Path) -> str:
    """The file's text, or "" if its process or thread has ended."""
    try:
        return path.read_text()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def workers_of(master: int) -> list[int]:
    """The gunicorn master's workers: all its children."""
    return children_of(master)


@contextmanager
def serving(app: str, env: dict[str, str], *flags: str):
    """gunicorn as `gunicorn()` starts it, until it answers; yields its base URL and process."""
    port = free_port()
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "gunicorn.conf.py",
            "--bind",
            f"127.0.0.1:{port}",
            "--access-logfile",
            "/dev/null",
            *flags,
            app,
        ],
        # the feeds off; rate limits off unless a run measures them, as wrk sends thousands of requests a second from
        # one address; no drain on the TERM that stops it
        cwd=ROOT,
        env={
            **os.environ,
            **FEEDS_OFF,
            "RATE_LIMITS": "off",
            "DRAIN_SECONDS": "0",
            **env,
        },
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    try:
        while subprocess.run(["curl", "-s", "-o", "/dev/null", f"{base}/api/poc/health"]).returncode != 0:
            if process.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise SystemExit(f"gunicorn {app} did not start:\n{log.read().decode()}")
            time.sleep(0.05)
        yield base, process
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def capture_bodies(base: str, key: str) -> dict[str, str]:
    """The service's exact bodies, for the baseline to return."""
    bodies = {}
    for url in URLS:
        out = subprocess.run(
            ["curl", "-sf", "-H", f"Authorization: Bearer {key}", base + concrete(url)], capture_output=True, check=True
        ).stdout
        bodies[url] = out.decode()
    return bodies


@contextmanager
def service_and_floor(key: str):
    """The service, then the bare Flask floor (bench/baseline.py) answering with the service's
    exact bodies; yields (service, floor), both warmed up."""
    with gunicorn("wsgi:app", {"API_KEYS": key}) as service:
        bodies = capture_bodies(service, key)
        with tempfile.NamedTemporaryFile("w", suffix=".json") as handle:
            json.dump(bodies, handle)
            handle.flush()
            with gunicorn("bench.baseline:app", {"API_KEYS": key, "BENCH_BODIES": handle.name}) as floor:
                for base in (service, floor):
                    wrk(base + URLS[0], key, 2, 32)
                yield service, floor


def wrk(url: str, key: str, duration: int, connections: int, *headers: str) -> dict[str, float]:
    """One wrk run: requests/s, p50/p99/max in ms, and errors (non-2xx/3xx plus socket errors)."""
    return parse_wrk(
        subprocess.run(
            wrk_command(url, key, duration, connections, *headers), capture_output=True, text=True, check=True
        ).stdout
    )


def wrk_command(url: str, key: str, duration: int, connections: int, *headers: str) -> list[str]:
    """wrk's command line for a run of `duration` seconds at `connections`, with a key and `headers`."""
    script = ["-s", str(ROOT / "bench/random_amount.lua")] if "amount=*" in url else []
    extra = [arg for header in headers for arg in ("-H", header)]
    return [
        "wrk",
        "-t2",
        f"-c{connections}",
        f"-d{duration}s",
        "--latency",
        "--timeout",
        "10s",
        *script,
        "-H",
        f"Authorization: Bearer {key}",
        *extra,
        url,
    ]


def parse_wrk(out: str) -> dict[str, float]:
    """What wrk printed: requests/s, requests, p50/p99/max in ms, non-2xx/3xx answers, socket errors, and both."""
    latency = {p: float(v) * _UNITS[u] for p, v, u in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)}
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    slowest, unit = re.search(r"Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)", out).groups()
    refused = int(non_2xx.group(1)) if non_2xx else 0
    failed = sum(map(int, sockets.groups())) if sockets else 0
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "requests": int(re.search(r"(\d+) requests in", out).group(1)),
        "p50": latency["50"],
        "p99": latency["99"],
        "max": float(slowest) * _UNITS[unit],
        "non_2xx": refused,
        "socket_errors": failed,
        "errors": refused + failed,
    }
