"""What dumping a long series costs: every business day of USD→JPY since 1999, through the schemas as shipped (one
pass over the points, `SeriesPoints`) and through a nested schema per point, in alternating rounds.

Usage: python -m bench.history_dump [--rounds N]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import time

from marshmallow import fields

from bench.load import FEEDS_OFF
from corridor.state import current_service
from schemas.api import HistoryPointSchema, HistorySchema


class NestedPerPoint(HistorySchema):
    points = fields.List(fields.Nested(HistoryPointSchema))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    os.environ.update(FEEDS_OFF)
    from app import create_app

    catalog = current_service(create_app()).data.catalog
    series = catalog.rate_history("USD", "JPY", start=dt.date(1999, 1, 4), end=dt.date(2026, 10, 30))
    schemas = {"one pass (shipped)": HistorySchema(), "nested schema per point": NestedPerPoint()}
    assert schemas["one pass (shipped)"].dump(series) == schemas["nested schema per point"].dump(series)
    times: dict[str, list[float]] = {name: [] for name in schemas}
    for _ in range(args.rounds):
        for name, schema in schemas.items():
            started = time.perf_counter()
            schema.dump(series)
            times[name].append(time.perf_counter() - started)
    print(f"| dump of {len(series.points):,} points (median of {args.rounds}) | ms |\n|---|---:|")
    for name, values in times.items():
        print(f"| {name} | {statistics.median(values) * 1e3:.1f} |")


if __name__ == "__main__":
    main()
