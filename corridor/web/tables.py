"""Rate series for the history views: the one a query asks for, and its CSV body (`date,rate`)."""

from __future__ import annotations

from typing import Any

from corridor.domain.catalog import Catalog
from corridor.domain.history import Series
from corridor.web.http import Body, encode_body

CSV_MEDIA_TYPE = "text/csv; charset=utf-8"


def series_for(catalog: Catalog, query: dict[str, Any]) -> Series:
    """The pair's rates a loaded history query asks for: a range by interval, or the one in force on a date."""
    return catalog.rate_history(query["from_currency"], query["to_currency"], interval=query["interval"],
                                start=query.get("start"), end=query.get("end"), date=query.get("date"))


def series_csv(payload: dict[str, Any], compress: bool) -> Body:
    """A dumped series (either group's) as a CSV file named FROM_TO_START_END.csv."""
    # the dumped values, written as JSON writes them: the same number in both formats
    lines = ["date,rate", *(f"{point['date']},{point['rate']!r}" for point in payload["points"])]
    filename = f"{payload['from']}_{payload['to']}_{payload['start']}_{payload['end']}.csv"
    return encode_body("\r\n".join(lines).encode() + b"\r\n", compress=compress, media_type=CSV_MEDIA_TYPE,
                       headers=(("Content-Disposition", f'attachment; filename="{filename}"'),))
