"""Throughput and latency of every endpoint against a bare Flask floor, measured side by side.

Starts the service and the floor (bench/baseline.py: the service's exact bytes from a dict) under
gunicorn with the same config on loopback, drives each URL with wrk alternately (service, floor,
service, floor…), and prints requests/s, the ratio, p50/p99 latency and errors; then the shipped
worker configuration against plain sync workers, what counting requests for /metrics costs, what
rate limits cost per CPU-second, a keyed client's share beside a flood (bench/fair_share.py), the
targets met or missed, and each handler's time in-process.
Usage: python -m bench.run [--duration S] [--rounds N] [--connections N]
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import statistics
import sys
from datetime import UTC, datetime

from bench import fair_share, rate_limits
from bench.accounts import account_key
from bench.handler_times import in_process
from bench.load import gunicorn, service_and_floor, wrk
from bench.urls import ONE_OFFS, UNCACHED, URLS

REPEATED_TARGET, ONE_OFF_TARGET, P99_TARGET_MS = 0.7, 0.4, 50.0
# what counting every request for /metrics may cost a repeated URL, on two of them, one of each group; measured over
# twice the rounds, as a 5 % target is finer than the ±3 % by which a ratio of 5 rounds moves between runs
METRICS_TARGET, METRICS_URLS, METRICS_ROUNDS = 0.95, ["/api/corridors", "/api/poc/corridors?from=USD&to=MXN"], 2
ACCOUNT_KEY_TARGET, ACCOUNT_KEY_URL = 0.8, "/api/corridors"


def summarise(runs: list[dict[str, float]]) -> dict[str, float]:
    """One side's rounds: median requests/s and p50, median and worst p99, errors summed."""
    return {
        "rps": statistics.median(r["rps"] for r in runs),
        "p50": statistics.median(r["p50"] for r in runs),
        "p99": statistics.median(r["p99"] for r in runs),
        "p99_worst": max(r["p99"] for r in runs),
        "errors": sum(r["errors"] for r in runs),
    }


def side_by_side(
    first: str,
    second: str,
    key: str,
    args: argparse.Namespace,
    urls: list[str],
    headers: tuple[str, ...] = (),
    second_key: str | None = None,
) -> list[dict]:
    """Each URL on both servers alternately, `args.rounds` times each, sending `headers` (and `second_key` to the
    second if given); the ratio is the median of the rounds' first/second, so a slow spell of a shared machine weighs
    on both sides of a pair."""
    rows = []
    for url in urls:
        runs: dict[str, list] = {"first": [], "second": []}
        for _ in range(args.rounds):
            runs["first"].append(wrk(first + url, key, args.duration, args.connections, *headers))
            runs["second"].append(wrk(second + url, second_key or key, args.duration, args.connections, *headers))
        ratio = statistics.median(a["rps"] / b["rps"] for a, b in zip(runs["first"], runs["second"], strict=True))
        rows.append(
            {"url": url, "service": summarise(runs["first"]), "floor": summarise(runs["second"]), "ratio": ratio}
        )
        print(f"  measured {url}: ratio {ratio:.2f}", file=sys.stderr)
    return rows


def worker_models(key: str, args: argparse.Namespace) -> list[dict]:
    """The shipped gunicorn.conf.py against plain sync workers (2 × cores + 1), a light and a heavy URL."""
    plain = ["--worker-class", "sync", "--threads", "1", "--workers", str((os.cpu_count() or 1) * 2 + 1)]
    with gunicorn("wsgi:app", {"API_KEYS": key}) as shipped, gunicorn("wsgi:app", {"API_KEYS": key}, *plain) as sync:
        return side_by_side(shipped, sync, key, args, ["/api/poc/corridors/1", "/api/poc/full"])


def metrics_cost(key: str, args: argparse.Namespace) -> list[dict]:
    """The service with metrics on (METRICS_TOKEN: every request counted and timed) against the same with them off."""
    counted = {"API_KEYS": key, "METRICS_TOKEN": secrets.token_urlsafe(24)}
    with gunicorn("wsgi:app", counted) as on, gunicorn("wsgi:app", {"API_KEYS": key}) as off:
        for base in (on, off):
            wrk(base + METRICS_URLS[0], key, 1, args.connections)
        return side_by_side(
            on, off, key, argparse.Namespace(**{**vars(args), "rounds": args.rounds * METRICS_ROUNDS}), METRICS_URLS
        )


def print_table(rows: list[dict], first: str, second: str) -> None:
    print(f"| endpoint | {first} req/s | {second} req/s | ratio | p50 ms | p99 ms | p99 worst ms | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        s, f = row["service"], row["floor"]
        print(
            f"| `{row['url']}` | {s['rps']:.0f} | {f['rps']:.0f} | {row['ratio']:.2f} | "
            f"{s['p50']:.1f} / {f['p50']:.1f} | {s['p99']:.1f} / {f['p99']:.1f} | "
            f"{s['p99_worst']:.1f} / {f['p99_worst']:.1f} | {s['errors']} / {f['errors']} |"
        )


def print_targets(rows: list[dict], workers: list[dict], keys: list[dict], metrics: list[dict]) -> None:
    """Each target, met or missed, to three decimals: a 0.85 in the table may be 0.846."""
    verdict = {True: "met", False: "**missed**"}
    repeated = [row for row in rows if row["url"] not in UNCACHED]
    print("\n| target | result |\n|---|---|")
    if repeated:
        low = min(repeated, key=lambda row: row["ratio"])
        print(
            f"| every repeated URL ≥ {REPEATED_TARGET} × the floor | {verdict[low['ratio'] >= REPEATED_TARGET]}: "
            f"lowest {low['ratio']:.3f} at `{low['url']}` |"
        )
    for row in rows:
        if row["url"] in ONE_OFFS:
            print(
                f"| `{row['url']}` ≥ {ONE_OFF_TARGET} × the floor | {verdict[row['ratio'] >= ONE_OFF_TARGET]}: "
                f"{row['ratio']:.3f} |"
            )
        elif row["url"] in UNCACHED:
            print(f"| `{row['url']}` (built per request, no target) | {row['ratio']:.3f} |")
    slowest = max(rows, key=lambda row: row["service"]["p99"])
    print(
        f"| every URL p99 < {P99_TARGET_MS:.0f} ms (median of the rounds) | "
        f"{verdict[slowest['service']['p99'] < P99_TARGET_MS]}: "
        f"highest {slowest['service']['p99']:.1f} ms at `{slowest['url']}` |"
    )
    against_sync = ", ".join(f"{row['ratio']:.3f}×" for row in workers)
    print(
        f"| gunicorn.conf.py at least as fast as plain sync | "
        f"{verdict[min(r['ratio'] for r in workers) >= 1]}: {against_sync} |"
    )
    for row in keys:
        print(
            f"| account key on `{row['url']}` ≥ {ACCOUNT_KEY_TARGET} × an operator key | "
            f"{verdict[row['ratio'] >= ACCOUNT_KEY_TARGET]}: {row['ratio']:.3f} |"
        )
    for row in metrics:
        print(
            f"| metrics on, `{row['url']}` ≥ {METRICS_TARGET} × metrics off | "
            f"{verdict[row['ratio'] >= METRICS_TARGET]}: {row['ratio']:.3f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=3, help="whole seconds per wrk run")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=5, help="alternating runs per side")
    parser.add_argument("--iterations", type=int, default=5000, help="in-process calls per URL")
    parser.add_argument("--only", default="", help="only the URLs containing this text, and only their table")
    args = parser.parse_args()
    urls = [url for url in URLS if args.only in url]
    key = secrets.token_urlsafe(24)
    print(f"# Corridor API benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"wrk -t2 -c{args.connections} -d{args.duration}s, {args.rounds} alternating rounds per side\n"
    )
    with service_and_floor(key) as (service, floor):
        rows = side_by_side(service, floor, key, args, urls)
        # the same server and URL, a key made in an account against the operator's
        keys = (
            []
            if args.only
            else side_by_side(service, service, account_key(service), args, [ACCOUNT_KEY_URL], second_key=key)
        )
    workers = [] if args.only else worker_models(key, args)
    metrics = [] if args.only else metrics_cost(key, args)
    limits = [] if args.only else rate_limits.measure(args)
    shared = None if args.only else fair_share.measure(args)
    print("Medians over the rounds (service / floor); ratio: median of the rounds' service ÷ floor.\n")
    print_table(rows, "service", "floor")
    if args.only:
        return
    print("\nThe shipped worker configuration against plain sync workers:\n")
    print_table(workers, "gunicorn.conf.py", "sync")
    print("\nA key made in an account against an operator key (API_KEYS), same server:\n")
    print_table(keys, "account key", "operator key")
    print(
        f"\nMetrics on (METRICS_TOKEN: every request counted and timed) against off, {args.rounds * METRICS_ROUNDS} "
        "rounds:\n"
    )
    print_table(metrics, "metrics on", "metrics off")
    print("\nRate limits off, counted in memory and in Redis (bench/rate_limits.py), per CPU-second of the workers:\n")
    rate_limits.print_rows(limits)
    print(f"\nThe targets, on this run's {args.rounds} round(s) of {args.duration} s per side:")
    print_targets(rows, workers, keys, metrics)
    rate_limits.print_targets(limits)
    fair_share.print_targets(shared)
    print(f"\n| in-process handler (median of {args.iterations}) | service µs | bare Flask µs |")
    print("|---|---:|---:|")
    for url, service_us, bare_us in in_process(key, args.iterations):
        print(f"| `{url}` | {service_us:.1f} | {bare_us:.1f} |")
    print_history_memory()


def print_history_memory() -> None:
    """What the ECB history's arrays take: held once, in the master, shared by the forked workers."""
    from corridor.rates.history import default_history_path, load_history

    history = load_history(default_history_path(), 64 * 2**20)
    print(
        f"\nECB rate history in memory: {history.nbytes() / 2**20:.1f} MiB of arrays "
        f"({len(history.days):,} business days × {len(history.rates)} currencies), target < 20 MB"
    )


if __name__ == "__main__":
    main()
