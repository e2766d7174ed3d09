"""HTTP on both groups: HEAD, OPTIONS, strong ETags, Last-Modified and 304, caching, nosniff, request ids, odd paths."""

import json
import re

import pytest
from conftest import GROUP_B_DATA_URLS
from expected import shipped_seed
from flask import request

AS_OF = shipped_seed()["as_of"]  # 2026-11-20
LAST_MODIFIED = "Fri, 20 Nov 2026 00:00:00 GMT"

URLS = ["/api/corridors", "/api/providers?corridor=USD_MXN", "/api/midrate?from=USD&to=EUR"]


@pytest.mark.parametrize("url", URLS)
def test_get_carries_strong_etag_and_private_caching(client, auth, url):
    response = client.get(url, headers=auth)
    assert response.status_code == 200
    assert re.fullmatch(r'"[0-9a-f]{40}"', response.headers["ETag"])
    assert response.headers["Cache-Control"] == "private, max-age=60"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("url", URLS + GROUP_B_DATA_URLS + ["/api/poc/corridors/999", "/api/providers?corridor=XX"])
def test_json_answers_are_compact_utf8_in_schema_order_and_end_their_line(client, auth, url):
    """orjson writes them: the bytes the standard library writes with these options, non-ASCII (`→`) as it is."""
    body = client.get(url, headers=auth).data
    expected = json.dumps(json.loads(body), ensure_ascii=False, separators=(",", ":")) + "\n"
    assert body == expected.encode()


@pytest.mark.parametrize("url", URLS)
def test_if_none_match_gives_304_without_body(client, auth, url):
    etag = client.get(url, headers=auth).headers["ETag"]
    response = client.get(url, headers={**auth, "If-None-Match": etag})
    assert response.status_code == 304
    assert response.get_data() == b""
    assert response.headers["ETag"] == etag
    stale = client.get(url, headers={**auth, "If-None-Match": '"0000"'})
    assert stale.status_code == 200


def test_etags_differ_between_bodies(client, auth):
    etags = {client.get(url, headers=auth).headers["ETag"] for url in URLS}
    assert len(etags) == len(URLS)


@pytest.mark.parametrize("url", URLS)
def test_head_is_get_without_body(client, auth, url):
    get, head = client.get(url, headers=auth), client.head(url, headers=auth)
    assert head.status_code == 200
    assert head.get_data() == b""
    for name in ("Content-Type", "Content-Length", "ETag", "Cache-Control"):
        assert head.headers[name] == get.headers[name]


def test_head_needs_a_key_too(client):
    response = client.head("/api/corridors")
    assert response.status_code == 401
    assert response.get_data() == b""


@pytest.mark.parametrize("url", URLS)
def test_options_needs_no_key(client, url):
    response = client.options(url)
    assert response.status_code == 204
    assert response.headers["Allow"] == "GET, HEAD, OPTIONS"
    assert response.get_data() == b"" and "Content-Type" not in response.headers


def test_error_responses_are_not_cached(client):
    assert client.get("/api/corridors").headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("given", ["abc-123", "A.b_c-9", "x" * 128])
def test_request_id_is_echoed(client, given):
    assert client.get("/api/corridors", headers={"X-Request-ID": given}).headers["X-Request-ID"] == given


@pytest.mark.parametrize("given", ["", "x" * 129, "has space", "tab\there", "semi;colon", "ünï"])
def test_bad_request_id_is_replaced(client, given):
    response = client.get("/api/nowhere", headers={"X-Request-ID": given})
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["X-Request-ID"])


@pytest.mark.parametrize("url", ["/api/poc/corridors/1", "/api/corridors"])
def test_if_match_with_another_etag_is_412_and_with_the_current_one_200(client, auth, url):
    etag = client.get(url, headers=auth).headers["ETag"]
    for header in (etag, "*", f'"other", {etag}', ""):  # an empty one holds no tag: ignored
        assert client.get(url, headers={**auth, "If-Match": header}).status_code == 200, header
    # a passing If-Match leaves the other conditions to decide, as HTTP orders them
    assert client.get(url, headers={**auth, "If-Match": etag, "If-None-Match": etag}).status_code == 304
    assert client.get(url, headers={**auth, "If-Match": "*", "If-Modified-Since": LAST_MODIFIED}).status_code == 304
    for header in ('"not-it"', f"W/{etag}"):  # If-Match compares strongly: a weak tag never matches
        response = client.get(url, headers={**auth, "If-Match": header})
        assert response.status_code == 412 and response.mimetype == "application/problem+json"
        assert response.get_json()["code"] == "precondition_failed"
        assert response.headers["Cache-Control"] == "no-store"


def test_304_keeps_cache_control_and_any_matching_etag_counts(client):
    etag = client.get("/api/poc/full").headers["ETag"]
    for header in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        response = client.get("/api/poc/full", headers={"If-None-Match": header})
        assert response.status_code == 304, header
        assert response.headers["Cache-Control"] == "public, max-age=60"
        assert "Content-Type" not in response.headers


@pytest.mark.parametrize("method", ["GET", "DELETE", "OPTIONS", "HEAD"])
@pytest.mark.parametrize(
    "path",
    ["/api//corridors", "/api/poc//corridors", "/api/poc/corridors//1", "/api/corridors/"],
)
def test_odd_paths_are_404_before_anything_else(client, method, path):
    response = client.open(path, method=method)
    assert response.status_code == 404
    assert "Location" not in response.headers
    if method != "HEAD":
        assert response.get_json()["code"] == "not_found"


@pytest.mark.parametrize("method", ["GET", "DELETE", "OPTIONS", "HEAD"])
@pytest.mark.parametrize("segment", ["abc", "01", "%EF%BC%91", "1.0"])
@pytest.mark.parametrize("query", ["", "?x=1"])
def test_a_malformed_corridor_id_is_answered_as_an_id_not_served(client, method, segment, query):
    malformed = client.open(f"/api/poc/corridors/{segment}{query}", method=method)
    not_served = client.open(f"/api/poc/corridors/999{query}", method=method)
    assert malformed.status_code == not_served.status_code  # 404, or 405, 204, 400 as for any id
    assert malformed.headers.get("Allow") == not_served.headers.get("Allow")


@pytest.mark.parametrize("url", URLS + GROUP_B_DATA_URLS)
def test_data_responses_carry_the_data_date_as_last_modified(client, auth, url):
    assert AS_OF == "2026-11-20"
    assert client.get(url, headers=auth).headers["Last-Modified"] == LAST_MODIFIED


@pytest.mark.parametrize(
    "since, status",
    [
        (LAST_MODIFIED, 304),
        ("Sat, 21 Nov 2026 08:00:00 GMT", 304),
        ("Thu, 19 Nov 2026 23:59:59 GMT", 200),
        ("not a date", 200),
        ("", 200),
    ],
)
@pytest.mark.parametrize("url", ["/api/corridors", "/api/poc/corridors/1"])
def test_if_modified_since_gives_304_unless_the_data_is_newer(client, auth, url, since, status):
    response = client.get(url, headers={**auth, "If-Modified-Since": since})
    assert response.status_code == status
    if status == 304:
        assert response.get_data() == b"" and "Last-Modified" not in response.headers  # RFC 9110 15.4.5
        assert response.headers["ETag"] == client.get(url, headers=auth).headers["ETag"]


@pytest.mark.parametrize("if_none_match, status", [('"not-current"', 200), ("*", 304)])
def test_if_none_match_wins_over_if_modified_since(client, auth, if_none_match, status):
    headers = {**auth, "If-None-Match": if_none_match, "If-Modified-Since": LAST_MODIFIED}
    assert client.get("/api/corridors", headers=headers).status_code == status


@pytest.mark.parametrize("url", ["/api/poc/health", "/api/corridors?bad=1", "/api/openapi.json"])
def test_health_errors_and_the_document_carry_no_last_modified(client, auth, url):
    assert "Last-Modified" not in client.get(url, headers=auth).headers


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_newcomers_at_api_are_sent_to_the_docs_page(client, method):
    response = client.open("/api", method=method)
    assert response.status_code == 302
    assert response.headers["Location"] == "/api/docs"
    assert client.get(response.headers["Location"]).status_code == 200


@pytest.mark.parametrize("path", ["/docs", "/health", "/api/", "/index.html"])
def test_other_unknown_paths_name_the_docs_page(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.get_json()["detail"] == (
        "Nothing is served at this path; / compares providers, /api/docs lists the endpoints."
    )


def test_unreadable_if_modified_since_is_ignored(client):
    response = client.get(
        "/api/poc/corridors/1", headers={"If-Modified-Since": "Mon, 01 Jan 99999999999999999999 00:00:00 GMT"}
    )
    assert response.status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {"If-Match": "*"},
        {"If-Match": "*", "If-None-Match": "*"},
        {"If-Modified-Since": "Mon, 01 Jan 99999999999999999999 00:00:00 GMT"},
    ],
)
def test_the_conditions_are_decided_without_changing_the_request(make_app, auth, headers):
    """The headers a request came with are still its own once its conditions are decided: the hooks and logs after the
    view read what the client sent."""
    app = make_app()
    seen = []

    @app.after_request
    def record(response):
        seen.append({name: request.headers.get(name) for name in headers})
        return response

    response = app.test_client().get("/api/poc/corridors/1", headers={**auth, **headers})
    assert response.status_code == (304 if "If-None-Match" in headers else 200)
    assert seen == [headers]
