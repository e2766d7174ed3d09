"""Rates over time: both groups' history against the ECB file itself, read here without the app's reader."""

import csv
import datetime as dt
import io

import pytest
from expected import ecb_history, sig6

from corridor.state import current_service

ECB = ecb_history()
FIRST, LAST = min(ECB), max(ECB)


def expected_points(frm, to, start, end, interval="day"):
    """The points the API must list, worked out from the file."""
    chosen = {}
    for day, rates in ECB.items():
        if start <= day <= end and frm in rates and to in rates:
            key = {"day": day, "week": day.isocalendar()[:2], "month": (day.year, day.month)}[interval]
            chosen[key] = {"date": day.isoformat(), "rate": sig6(rates[to] / rates[frm])}
    return list(chosen.values())


def get(client, auth, url):
    response = client.get(url, headers=auth)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response


@pytest.mark.parametrize(
    "frm, to, start, end, interval",
    [
        ("USD", "MXN", "2025-01-01", "2025-12-31", "month"),
        ("GBP", "INR", "2024-06-01", "2024-09-30", "week"),
        ("EUR", "JPY", "2008-09-01", "2008-10-31", "day"),
        ("JPY", "EUR", "1999-01-01", "1999-02-15", "day"),
        ("CYP", "USD", "2007-12-01", "2008-03-01", "day"),  # the Cypriot pound ends with 2007
        ("USD", "RUB", "2022-02-20", "2022-12-31", "day"),  # the ECB stopped RUB on 2022-03-01
    ],
)
def test_group_a_series_equal_the_ecb_file(client, auth, frm, to, start, end, interval):
    url = f"/api/history?from={frm.lower()}&to={to}&start={start}&end={end}&interval={interval}"
    body = get(client, auth, url).get_json()
    assert list(body) == ["from", "to", "source", "interval", "start", "end", "points"]
    start = max(start, FIRST.isoformat())  # a range from before the history is the one from its first day
    assert body == {
        "from": frm,
        "to": to,
        "source": "ECB",
        "interval": interval,
        "start": start,
        "end": end,
        "points": expected_points(frm, to, dt.date.fromisoformat(start), dt.date.fromisoformat(end), interval),
    }


def test_a_pair_with_rub_after_march_2022_has_no_points(client, auth):
    body = get(client, auth, "/api/history?from=USD&to=RUB&start=2022-03-02&end=2023-12-31").get_json()
    assert body["points"] == []
    assert expected_points("USD", "RUB", dt.date(2022, 2, 1), dt.date(2022, 3, 31))[-1]["date"] == "2022-03-01"


def test_group_b_wraps_the_same_points(client, auth):
    query = "from=USD&to=MXN&interval=month&start=2025-01-01&end=2025-12-31"
    a = get(client, auth, f"/api/history?{query}").get_json()
    b = get(client, {}, f"/api/poc/history?{query}").get_json()
    assert list(b) == ["ok", "pair", "from", "to", "source", "interval", "start", "end", "count", "points"]
    assert b == {"ok": True, "pair": "USD→MXN", **{k: v for k, v in a.items()}, "count": 12}
    assert [p["date"] for p in b["points"]][:2] == ["2025-01-31", "2025-02-28"]


def test_defaults_are_the_last_year_of_daily_rates(client, auth):
    body = get(client, auth, "/api/history?from=USD&to=MXN").get_json()
    start = LAST - dt.timedelta(days=365)
    assert (body["start"], body["end"], body["interval"]) == (start.isoformat(), LAST.isoformat(), "day")
    assert body["points"] == expected_points("USD", "MXN", start, LAST)
    assert 250 <= len(body["points"]) <= 260


@pytest.mark.parametrize(
    "asked, in_force",
    [
        ("2025-12-25", "2025-12-24"),  # Christmas: a TARGET holiday
        ("2025-12-27", "2025-12-24"),  # the Saturday after Boxing Day
        ("2026-10-25", "2026-10-23"),  # a Sunday
        ("2026-10-28", "2026-10-28"),  # a business day
        ("2031-01-01", LAST.isoformat()),  # after the history ends: its last rate
    ],
)
def test_date_gives_the_rate_in_force(client, auth, asked, in_force):
    body = get(client, auth, f"/api/history?from=GBP&to=USD&date={asked}").get_json()
    rates = ECB[dt.date.fromisoformat(in_force)]
    assert (body["start"], body["end"]) == (asked, asked)
    assert body["points"] == [{"date": in_force, "rate": sig6(rates["USD"] / rates["GBP"])}]


@pytest.mark.parametrize(
    "url, status, code, detail",
    [
        (
            "/api/history?from=USD&to=NGN",
            404,
            "no_history",
            "No rate history for NGN: the ECB does not publish it, and no Frankfurter series of it is held.",
        ),
        ("/api/history?from=XYZ&to=USD", 404, "unknown_currency", "No rates for currency XYZ in this service."),
        (
            "/api/history?from=USD&to=MXN&date=1998-12-31",
            404,
            "no_history",
            "The ECB history begins on 1999-01-04; no rate was in force on 1998-12-31.",
        ),
        (
            "/api/history?from=USD&to=MXN&date=0001-01-01",
            404,
            "no_history",
            "The ECB history begins on 1999-01-04; no rate was in force on 0001-01-01.",
        ),
        (
            "/api/history?from=USD&to=MXN&date=2002-01-02",
            404,
            "no_history",
            "The ECB published no USD and MXN rates on 2002-01-02, the business day in force on 2002-01-02.",
        ),
        (
            "/api/history?from=USD&to=MXN&start=2025-1-01",
            400,
            "invalid_parameter",
            "Query parameter 'start' must be a real date written YYYY-MM-DD, such as 2025-10-30.",
        ),
        (
            "/api/history?from=USD&to=MXN&end=2025-02-29",
            400,
            "invalid_parameter",
            "Query parameter 'end' must be a real date written YYYY-MM-DD, such as 2025-10-30.",
        ),
        (
            "/api/history?from=USD&to=MXN&start=2025-03-01&end=2025-02-01",
            400,
            "invalid_parameter",
            "Query parameter 'start' is after end; give a start on or before the end.",
        ),
        (
            "/api/history?from=USD&to=MXN&date=2025-03-01&end=2025-04-01",
            400,
            "invalid_parameter",
            "Query parameter 'date' cannot be given with start or end; give a date, or a range.",
        ),
        (
            "/api/history?from=USD&to=MXN&interval=year",
            400,
            "invalid_parameter",
            "Query parameter 'interval' must be one of: day, week, month.",
        ),
        (
            "/api/history?from=USD&to=MXN&format=xml",
            400,
            "invalid_parameter",
            "Query parameter 'format' must be one of: json, csv.",
        ),
        ("/api/history?from=USD", 400, "missing_parameter", "Query parameter 'to' needs a value, for example to=MXN."),
        (
            "/api/poc/history?from=USD&to=MXN&date=",
            400,
            "missing_parameter",
            "Query parameter 'date' needs a value, for example date=2026-10-25.",
        ),
    ],
)
def test_errors_are_problem_details(client, auth, url, status, code, detail):
    response = client.get(url, headers=auth)
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    assert (response.get_json()["code"], response.get_json()["detail"]) == (code, detail)


@pytest.mark.parametrize(
    "query",
    [
        "start=1990-01-01&end=1998-12-31",
        "start=2030-01-01",
        "start=2030-01-01&end=2030-12-31",
        "end=0001-01-05",
        "start=9999-12-31",
        "start=0001-01-01&end=9999-12-31&interval=week",
    ],
)
def test_a_range_outside_the_history_is_an_empty_series(client, auth, query):
    body = get(client, auth, f"/api/history?from=USD&to=MXN&{query}").get_json()
    assert body["start"] <= body["end"]
    if "9999-12-31&interval" in query:  # the whole history, one point a week
        assert body["points"] == expected_points("USD", "MXN", dt.date.min, dt.date.max, "week")
    else:
        assert body["points"] == []


@pytest.mark.parametrize("prefix, auth_needed", [("/api", True), ("/api/poc", False)])
def test_csv_round_trips_to_the_json_points(client, auth, prefix, auth_needed):
    query = "from=USD&to=MXN&start=2025-10-30&end=2026-10-30"
    headers = auth if auth_needed else {}
    points = get(client, headers, f"{prefix}/history?{query}").get_json()["points"]
    response = get(client, headers, f"{prefix}/history?{query}&format=csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"] == 'attachment; filename="USD_MXN_2025-10-30_2026-10-30.csv"'
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [{"date": r["date"], "rate": float(r["rate"])} for r in rows] == points
    assert response.get_data(as_text=True).startswith("date,rate\r\n")


@pytest.mark.parametrize("url", ["/api/history?from=USD&to=MXN", "/api/poc/history?from=USD&to=MXN&format=csv"])
def test_http_rules_hold_for_history(client, auth, url):
    response = get(client, auth, url)
    # the newest figure served: the data's as_of (2026-11-20), after the history's last day (2026-10-30)
    assert response.headers["Last-Modified"] == "Fri, 20 Nov 2026 00:00:00 GMT"
    etag = response.headers["ETag"]
    assert client.get(url, headers={**auth, "If-None-Match": etag}).status_code == 304
    assert client.get(url, headers={**auth, "If-Modified-Since": "Fri, 20 Nov 2026 00:00:00 GMT"}).status_code == 304
    assert client.get(url, headers={**auth, "If-Modified-Since": "Fri, 30 Oct 2026 00:00:00 GMT"}).status_code == 200
    head = client.head(url, headers=auth)
    assert head.status_code == 200 and head.get_data() == b"" and head.headers["ETag"] == etag
    public = url.startswith("/api/poc/")
    assert response.headers["Cache-Control"] == ("public, max-age=60" if public else "private, max-age=60")
    assert ("Access-Control-Allow-Origin" in response.headers) is public


def test_group_a_history_needs_a_key(client):
    assert client.get("/api/history?from=USD&to=MXN").status_code == 401


@pytest.mark.parametrize(
    "args, message",
    [
        (["--end", "0001-01-05"], "USD→MXN, ECB, day, 0001-01-01 to 0001-01-05: 0 points"),
        (["--start", "2025-02-01", "--end", "2025-01-01"], "Error: --start 2025-02-01 is after --end 2025-01-01."),
    ],
)
def test_history_show_handles_odd_ranges(app, args, message):
    result = app.test_cli_runner().invoke(args=["history", "show", "USD", "MXN", *args])
    assert message in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_history_show_prints_a_table(app):
    result = app.test_cli_runner().invoke(
        args=["history", "show", "usd", "mxn", "--start", "2025-01-01", "--end", "2025-03-31", "--interval", "month"]
    )
    assert result.exit_code == 0, result.output
    rows = [expected_points("USD", "MXN", dt.date(2025, 1, 1), dt.date(2025, 3, 31), "month")]
    assert result.output.splitlines() == [
        "USD→MXN, ECB, month, 2025-01-01 to 2025-03-31: 3 points",
        f"{'date':<10}  {'rate':>12}",
        *(f"{p['date']:<10}  {p['rate']:>12}" for p in rows[0]),
    ]


@pytest.mark.parametrize("interval", ["day", "month"])
def test_series_points_dump_as_the_point_schema_says(app, interval):
    from schemas.api import HistoryPointSchema, HistorySchema

    catalog = current_service(app).data.catalog
    series = catalog.rate_history("GBP", "INR", interval=interval, start=dt.date(2008, 1, 1), end=dt.date(2026, 10, 30))
    dumped = HistorySchema().dump(series)["points"]
    assert len(dumped) > 200 and dumped == HistoryPointSchema(many=True).dump(series.points)
