"""The service at 100× the data: start-up, memory per worker, p99 per endpoint, and HUP under load.

For the shipped file and a generated one (bench/generate.py, 2,000 corridors of 12 offers), the
shipped gunicorn config with 3 workers on loopback: seconds from start to the first answer; each
worker's proportional (PSS) and unique (USS) memory after load; p99 at 32 connections per URL
(each URL asked once first: a response is built on first request, then kept); then, under load, HUP
from the shipped file to the large one and back: failed requests and the slowest answer.
Usage: python -m bench.scale [--corridors 2000] [--duration 3] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.generate import generate
from bench.load import ROOT, serving, workers_of, wrk

GZIP = "Accept-Encoding: gzip"
URLS = [  # (URL, p99 target in ms or None, the request's headers beside the key)
    ("/api/corridors", 50, ()),
    ("/api/providers?corridor=USD_MXN", 50, ()),
    ("/api/poc/corridors", 50, ()),
    ("/api/poc/corridors/1", 50, ()),
    ("/api/poc/providers?corridor=USD_MXN", 50, ()),
    # the long lists whole and plain: no target (10 MB a body at 2,000 corridors: loopback's copying, queued)
    ("/api/poc/full", None, ()),
    ("/api/poc/providers", None, ()),
    # the long lists whole to a client that accepts gzip, and by pages
    ("/api/poc/full", 100, (GZIP,)),
    ("/api/poc/providers", 100, (GZIP,)),
    ("/api/poc/full?limit=100", 50, ()),
    ("/api/poc/providers?limit=100", 50, ()),
    ("/api/corridors?limit=100", 50, ()),
]


def memory_mib(pid: int) -> tuple[float, float]:
    """A process's PSS and USS in MiB."""
    fields = dict(re.findall(r"^(\w+):\s+(\d+) kB", Path(f"/proc/{pid}/smaps_rollup").read_text(), re.M))
    uss = int(fields["Private_Clean"]) + int(fields["Private_Dirty"])
    return int(fields["Pss"]) / 1024, uss / 1024


def measure(data: Path, key: str, args: argparse.Namespace, database: str) -> dict:
    """Start-up, memory and p99 of the service on `data`."""
    env = {"API_KEYS": key, "SEED_DATA": str(data), "WEB_CONCURRENCY": "3", "DATABASE_URL": database}
    started = time.monotonic()
    with serving("wsgi:app", env) as (base, master):
        ready = time.monotonic() - started
        p99 = {}
        for url, _, headers in URLS:
            wrk(base + url, key, 2, 8, *headers)  # each worker builds it on its first request, then keeps it
            runs = [wrk(base + url, key, args.duration, 32, *headers) for _ in range(args.rounds)]
            p99[url, headers] = (statistics.median(r["p99"] for r in runs), sum(r["errors"] for r in runs))
        memory = [memory_mib(pid) for pid in workers_of(master.pid)]
    return {"ready": ready, "p99": p99, "pss": max(m[0] for m in memory), "uss": max(m[1] for m in memory)}


def hup_under_load(shipped: Path, large: Path, key: str, database: str) -> dict:
    """HUP from the shipped file to the large one and back while wrk drives both groups."""
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "seed.json"
        shutil.copy(shipped, data)
        env = {"API_KEYS": key, "SEED_DATA": str(data), "WEB_CONCURRENCY": "3", "DATABASE_URL": database}
        with serving("wsgi:app", env) as (base, master):
            results: list[dict] = []
            load = [
                threading.Thread(target=lambda url=url: results.append(wrk(base + url, key, 30, 16)))
                for url in ("/api/providers?corridor=USD_MXN", "/api/poc/corridors/1")
            ]
            for thread in load:
                thread.start()
            time.sleep(2)
            for source in (large, shipped):
                shutil.copy(source, data.with_suffix(".new"))
                os.replace(data.with_suffix(".new"), data)
                master.send_signal(signal.SIGHUP)
                time.sleep(12)
            for thread in load:
                thread.join()
    return {
        "requests": sum(r["requests"] for r in results),
        "errors": sum(r["errors"] for r in results),
        "slowest": max(r["max"] for r in results),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corridors", type=int, default=2000)
    parser.add_argument("--duration", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    key = secrets.token_urlsafe(24)
    shipped = ROOT / "seed_data.json"
    with tempfile.TemporaryDirectory() as folder:
        large = Path(folder) / "large.json"
        large.write_text(json.dumps(generate(args.corridors)), encoding="utf-8")
        sizes = {"shipped": shipped.stat().st_size, "large": large.stat().st_size}
        # a database of its own, with no survey imported: the data files alone, whose generated ids would meet the
        # survey's
        database = f"sqlite:///{folder}/scale.sqlite3"
        subprocess.run(
            [sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"],
            cwd=ROOT,
            check=True,
            env={**os.environ, "DATABASE_URL": database},
            capture_output=True,
        )
        figures = {"shipped": measure(shipped, key, args, database), "large": measure(large, key, args, database)}
        hup = hup_under_load(shipped, large, key, database)
    print(f"# Corridor API at scale: shipped file against {args.corridors} corridors, 3 workers\n")
    print(
        f"| figure | shipped ({sizes['shipped']:,} bytes) | {args.corridors} corridors ({sizes['large']:,} bytes) "
        "| target |"
    )
    print("|---|---:|---:|---|")
    print(
        f"| ready to answer after start, s | {figures['shipped']['ready']:.1f} | {figures['large']['ready']:.1f} "
        "| < 5 |"
    )
    for name, label in (("pss", "largest worker PSS, MiB"), ("uss", "largest worker USS, MiB")):
        print(
            f"| {label} | {figures['shipped'][name]:.0f} | {figures['large'][name]:.0f} | "
            f"{'< 100' if name == 'pss' else ''} |"
        )
    for url, target, headers in URLS:
        cells = [
            f"{figures[size]['p99'][url, headers][0]:.1f}"
            + (f" ({figures[size]['p99'][url, headers][1]} errors)" if figures[size]["p99"][url, headers][1] else "")
            for size in ("shipped", "large")
        ]
        target_text = "none (gzip: < 100)" if target is None else f"< {target}"
        print(f"| p99 ms, `{url}`{' (gzip)' if headers else ''} | {cells[0]} | {cells[1]} | {target_text} |")
    print(
        f"\nHUP shipped → {args.corridors} corridors → shipped under load (wrk, 2 × 16 connections, 30 s): "
        f"{hup['requests']:,} requests, {hup['errors']} failed, slowest answer {hup['slowest']:.0f} ms "
        "(target: 0, < 1000)."
    )


if __name__ == "__main__":
    main()
