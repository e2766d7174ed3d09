"""Group B over HTTP: errors, ignored keys, methods, CORS preflight, ETags and HEAD."""

import re

import pytest
from conftest import GROUP_B_DATA_URLS
from expected import shipped_seed
from flask import Flask

from corridor.serving.http import register_response_headers


@pytest.mark.parametrize(
    "url, status, code",
    [
        ("/api/poc/corridors?from=USD", 400, "missing_parameter"),
        ("/api/poc/corridors?to=MXN", 400, "missing_parameter"),
        ("/api/poc/corridors?from=&to=", 400, "missing_parameter"),
        ("/api/poc/corridors?from=USD&to=MX", 400, "invalid_parameter"),
        ("/api/poc/corridors?from=USD&to=XYZ", 404, "unknown_corridor"),
        ("/api/poc/corridors?from=MXN&to=USD", 404, "unknown_corridor"),
        ("/api/poc/corridors?from=USD&to=EGP", 404, "unknown_corridor"),
        ("/api/poc/corridors?corridor=USD_MXN", 400, "invalid_parameter"),
        ("/api/poc/corridors?from=USD&to=MXN&from=USD", 400, "invalid_parameter"),
        ("/api/poc/providers?corridor=", 400, "missing_parameter"),
        ("/api/poc/providers?corridor=USD+MXN", 400, "invalid_parameter"),
        ("/api/poc/providers?corridor=USD-MXN", 404, "unknown_corridor"),  # a country pair, and no such corridor
        ("/api/poc/providers?corridor=USD_EGP", 404, "unknown_corridor"),
        ("/api/poc/providers?corridor=USD_MXN&sort=x", 400, "invalid_parameter"),
        ("/api/poc/providers?amount=100", 400, "missing_parameter"),
        ("/api/poc/providers?sort=cost&payout=card", 400, "missing_parameter"),
        ("/api/poc/full?x=1", 400, "invalid_parameter"),
        ("/api/poc/guide?x=1", 400, "invalid_parameter"),
        ("/api/poc/health?x=1", 400, "invalid_parameter"),
        ("/api/poc/corridors/1?x=1", 400, "invalid_parameter"),
        ("/api/poc/nowhere", 404, "not_found"),
        ("/api/poc/corridors/", 404, "not_found"),
    ],
)
def test_errors(client, url, status, code):
    response = client.get(url)
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert response.get_json()["code"] == code


@pytest.mark.parametrize(
    "segment",
    [
        "0",
        "01",
        "+1",
        "-1",
        "1.0",
        "1e0",
        " 1",
        "1 ",
        "%EF%BC%91",
        "%D9%A1",
        "%E0%A5%A7",
        "9" * 5000,
        "%00",
        "abc",
        str(next(c["id"] for c in shipped_seed()["corridors"] if not c["active"])),
        "99999",
    ],
)
def test_corridor_id_not_served(client, segment):
    response = client.get(f"/api/poc/corridors/{segment}")
    assert response.status_code == 404
    body = response.get_json()
    assert body["code"] == "not_found" and len(body["detail"]) < 120
    assert body["detail"].startswith("No active corridor has the id '")  # quoted, whatever its form


@pytest.mark.parametrize(
    "segment, quoted",
    [("01", "'01'"), ("%EF%BC%91", "'\uff11'"), ("1.0", "'1.0'"), ("%00", "'?'"), ("9" * 50, f"'{'9' * 40}…'")],
)
def test_a_malformed_corridor_id_is_quoted_back(client, segment, quoted):
    detail = client.get(f"/api/poc/corridors/{segment}").get_json()["detail"]
    assert detail == f"No active corridor has the id {quoted}."


@pytest.mark.parametrize("header", ["Bearer wrong", "Basic abc", "", "garbage \u00e9"])
def test_authorization_is_ignored(client, header):
    assert client.get("/api/poc/corridors", headers={"Authorization": header}).status_code == 200


def test_no_post(client):
    response = client.post("/api/poc/corridors")
    assert response.status_code == 405
    assert response.headers["Allow"] == "GET, HEAD, OPTIONS"
    assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_options_preflight_allows_the_headers_a_page_may_send(client):
    response = client.options(
        "/api/poc/providers",
        headers={
            "Origin": "https://example.org",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization, if-match, if-none-match, x-request-id, x-other",
        },
    )
    assert response.status_code == 204 and response.get_data() == b""
    assert response.headers["Allow"] == "GET, HEAD, OPTIONS"
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert response.headers["Access-Control-Allow-Methods"] == "GET, HEAD"
    assert response.headers["Access-Control-Allow-Headers"] == "authorization, if-match, if-none-match, x-request-id"
    assert response.headers["Access-Control-Max-Age"] == "600"
    assert response.headers["Access-Control-Expose-Headers"] == (
        "Content-Disposition, ETag, Last-Modified, Link, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, "
        "Retry-After, X-Request-ID"
    )


def test_a_csv_file_name_is_readable_by_a_page(client):
    response = client.get("/api/poc/history.csv?from=USD&to=MXN", headers={"Origin": "https://example.org"})
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    exposed = [name.strip() for name in response.headers["Access-Control-Expose-Headers"].split(",")]
    assert "Content-Disposition" in exposed


@pytest.mark.parametrize(
    "method, asked_headers",
    [
        ("POST", "authorization"),  # a method Group B does not answer: nothing allowed
        ("DELETE", ""),
        ("", "authorization"),  # no Access-Control-Request-Method: not a preflight
    ],
)
def test_a_preflight_for_another_method_is_allowed_nothing(client, method, asked_headers):
    response = client.options(
        "/api/poc/corridors",
        headers={
            "Origin": "https://example.org",
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": asked_headers,
        },
    )
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    for name in ("Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Access-Control-Max-Age"):
        assert name not in response.headers


def test_a_preflight_asking_only_other_headers_is_allowed_none(client):
    response = client.options(
        "/api/poc/corridors",
        headers={
            "Origin": "https://example.org",
            "Access-Control-Request-Method": "get",
            "Access-Control-Request-Headers": "x-other, cookie",
        },
    )
    assert response.headers["Access-Control-Allow-Methods"] == "GET, HEAD"
    assert "Access-Control-Allow-Headers" not in response.headers


@pytest.mark.parametrize(
    "path, public",
    [
        ("/api/poc", True),
        ("/api/poc/", True),
        ("/api/poc/no-such-thing", True),  # an unknown path under the prefix: its 404 is readable too
        ("/api/poc//corridors", True),
        ("/api/openapi.json", True),
        ("/api/pocket", False),  # only the prefix as a whole path segment
        ("/api/openapi.jsonx", False),
        ("/api/docs", False),
        ("/", False),
    ],
)
def test_cors_headers_exactly_under_the_public_prefixes(client, path, public):
    response = client.get(path, headers={"Origin": "https://example.org"})
    cors = [name for name in response.headers.keys() if name.startswith("Access-Control-")]
    assert cors == (["Access-Control-Allow-Origin", "Access-Control-Expose-Headers"] if public else [])


@pytest.mark.parametrize("method", ["OPTIONS", "GET"])
def test_group_a_answers_browsers_no_cors(client, auth, method):
    headers = {"Origin": "https://example.org", "Access-Control-Request-Method": "GET", **auth}
    response = client.open("/api/corridors", method=method, headers=headers)
    assert response.status_code in (200, 204)
    assert not [name for name in response.headers.keys() if name.startswith("Access-Control-")]


@pytest.mark.parametrize("url", GROUP_B_DATA_URLS)
def test_etag_304_and_head(client, url):
    get = client.get(url)
    assert re.fullmatch(r'"[0-9a-f]{40}"', get.headers["ETag"])
    again = client.get(url, headers={"If-None-Match": get.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    head = client.head(url)
    assert head.status_code == 200 and head.get_data() == b""
    assert head.headers["ETag"] == get.headers["ETag"]
    assert head.headers["Content-Length"] == get.headers["Content-Length"]


def test_success_carries_the_common_headers(client):
    response = client.get("/api/poc/corridors/1", headers={"X-Request-ID": "trace-7"})
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Request-ID"] == "trace-7"


def test_an_app_with_no_public_blueprint_answers_no_path_with_cors():
    """Which paths carry CORS comes from the blueprints' policies alone: with none public, none does."""
    app = Flask(__name__)
    app.add_url_rule("/api/poc/corridors", "corridors", lambda: "[]")
    register_response_headers(app)
    response = app.test_client().get("/api/poc/corridors", headers={"Origin": "https://example.org"})
    assert response.status_code == 200
    assert [name for name in response.headers.keys() if name.startswith("Access-Control-")] == []
