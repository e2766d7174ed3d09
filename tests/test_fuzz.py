"""Property-based fuzzing through the WSGI app: any query, path or header gets an allowed status,
a JSON body, and problem details on errors; never a 5xx."""

import json
from urllib.parse import quote

import pytest
from conftest import RAW_KEY
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

ENDPOINTS = [
    "/api/corridors",
    "/api/providers",
    "/api/midrate",
    "/api/poc/corridors",
    "/api/poc/corridors/1",
    "/api/poc/providers",
    "/api/poc/full",
    "/api/poc/guide",
    "/api/poc/health",
    "/api/history",
    "/api/poc/history",
]
ALLOWED = {200, 204, 302, 304, 400, 401, 404, 405}
NAMES = ["corridor", "from", "to", "amount", "payout", "sort", "api_key", "start", "end", "date", "interval"]
FUZZ = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)
codes = st.sampled_from(
    [
        "USD",
        "usd",
        "MXN",
        "EUR",
        "XYZ",
        "US",
        "USDX",
        "USD_MXN",
        "usd_mxn",
        "GBP_INR",
        "",
        "0001-01-01",
        "9999-12-31",
        "2025-02-29",
        "2025-12-25",
        "week",
        "month",
    ]
)
values = st.one_of(codes, text)
queries = st.lists(st.tuples(st.one_of(st.sampled_from(NAMES), text), values), max_size=4)
header_text = st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=60)


def check(response, method="GET"):
    assert response.status_code in ALLOWED, response.status_code
    if response.status_code == 302:  # /api leads to the docs page
        assert response.headers["Location"] == "/api/docs"
        return
    if response.mimetype == "text/html":  # the comparison page at /
        assert response.status_code in (200, 400) and response.headers["Content-Security-Policy"] == (
            "default-src 'self'; frame-ancestors 'none'"
        )
        return
    if response.status_code in (204, 304) or method == "HEAD":
        assert response.get_data() == b""
        return
    body = json.loads(response.get_data())
    if response.status_code >= 400:
        assert response.mimetype == "application/problem+json"
        assert list(body) == ["type", "title", "status", "detail", "code", "ok"]
        assert body["status"] == response.status_code and body["ok"] is False
    else:
        assert response.mimetype == "application/json"


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@FUZZ
@given(query=queries)
def test_any_query_string(client, endpoint, query):
    raw = "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in query)
    check(client.get(f"{endpoint}?{raw}", headers={"Authorization": f"Bearer {RAW_KEY}"}))


@FUZZ
@given(
    segments=st.lists(text, min_size=1, max_size=4),
    prefix=st.sampled_from(["/api", "/api/poc", "/api/poc/corridors", ""]),
)
def test_any_path(client, segments, prefix):
    path = prefix + "/" + "/".join(quote(s, safe="") for s in segments)
    assume(not path.startswith("//"))  # the test client would read a host there; odd paths are tested apart
    check(client.get(path, headers={"Authorization": f"Bearer {RAW_KEY}"}))


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@FUZZ
@given(
    authorization=st.one_of(st.none(), header_text, header_text.map(lambda t: "Bearer " + t)),
    request_id=header_text,
    if_none_match=header_text,
    method=st.sampled_from(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"]),
)
def test_any_headers_and_method(client, endpoint, authorization, request_id, if_none_match, method):
    headers = {"X-Request-ID": request_id, "If-None-Match": if_none_match}
    if authorization is not None:
        headers["Authorization"] = authorization
    response = client.open(endpoint, method=method, headers=headers)
    check(response, method)
    assert response.headers["X-Content-Type-Options"] == "nosniff"
