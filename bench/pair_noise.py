"""How much one round's service/baseline ratio wanders, to choose `make bench`'s rounds and duration.

Drives each URL for `--pairs` pairs per wrk duration, the side that goes first alternating, and
prints the pairs' median ratio, the spread of one pair (standard deviation of the log ratio), the
spread of a median of `--rounds` pairs (bootstrap, fixed seed), and the median ratio by which side
went first. Usage: python -m bench.pair_noise [--pairs 16] [--durations 3 1] [--rounds 5] [URL…]
"""

from __future__ import annotations

import argparse
import math
import random
import secrets
import statistics

from bench.load import service_and_floor, wrk

DEFAULT_URLS = ["/api/poc/corridors/1", "/api/poc/providers?corridor=USD_MXN&amount=*"]


def pairs(service: str, baseline: str, url: str, key: str, count: int, duration: int) -> list[tuple[bool, float]]:
    """`count` pairs of runs as (service went first, service/baseline requests/s)."""
    measured = []
    for n in range(count):
        first = (service, baseline) if n % 2 == 0 else (baseline, service)
        rps = {base: wrk(base + url, key, duration, 32)["rps"] for base in first}
        measured.append((n % 2 == 0, rps[service] / rps[baseline]))
    return measured


def spread_of_median(ratios: list[float], rounds: int, draws: int = 4000) -> float:
    """Standard deviation of the median of `rounds` pairs drawn from `ratios` (seeded bootstrap)."""
    pick = random.Random(0)
    return statistics.stdev(statistics.median(pick.choices(ratios, k=rounds)) for _ in range(draws))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("urls", nargs="*", default=DEFAULT_URLS)
    parser.add_argument("--pairs", type=int, default=16)
    parser.add_argument("--durations", type=int, nargs="+", default=[3, 1], help="whole seconds per wrk run")
    parser.add_argument("--rounds", type=int, nargs="+", default=[5, 15], help="pairs a median is taken over")
    args = parser.parse_args()
    key = secrets.token_urlsafe(24)
    print("| URL | wrk run | pairs | median ratio | one pair: sd of log ratio | service first / baseline first | "
          + " | ".join(f"sd of a median of {n}" for n in args.rounds) + " |")
    print("|---|---:|---:|---:|---:|---:|" + "---:|" * len(args.rounds))
    with service_and_floor(key) as (service, baseline, _):
        for base in (service, baseline):
            wrk(base + args.urls[0], key, 2, 32)  # warm-up
        for url in args.urls:
            for duration in args.durations:
                measured = pairs(service, baseline, url, key, args.pairs, duration)
                ratios = [ratio for _, ratio in measured]
                by_order = [statistics.median(r for first, r in measured if first is side) for side in (True, False)]
                print(f"| `{url}` | {duration} s | {len(ratios)} | {statistics.median(ratios):.3f} | "
                      f"{statistics.stdev(math.log(r) for r in ratios):.3f} | {by_order[0]:.3f} / {by_order[1]:.3f} | "
                      + " | ".join(f"{spread_of_median(ratios, n):.3f}" for n in args.rounds) + " |", flush=True)


if __name__ == "__main__":
    main()
