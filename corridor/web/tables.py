"""CSV bodies of dumped rate series: `date,rate`, the same figures as the JSON."""

from __future__ import annotations

from typing import Any

from corridor.web.http import Body, encode_body

CSV_MEDIA_TYPE = "text/csv; charset=utf-8"


def series_csv(payload: dict[str, Any], compress: bool) -> Body:
    """A dumped series (either group's) as a CSV file named FROM_TO_START_END.csv."""
    # the dumped values, written as JSON writes them: the same number in both formats
    lines = ["date,rate", *(f"{point['date']},{point['rate']!r}" for point in payload["points"])]
    filename = f"{payload['from']}_{payload['to']}_{payload['start']}_{payload['end']}.csv"
    return encode_body("\r\n".join(lines).encode() + b"\r\n", compress=compress, media_type=CSV_MEDIA_TYPE,
                       headers=(("Content-Disposition", f'attachment; filename="{filename}"'),))
