"""Edge cases: conditional requests, odd paths, rounding ties, keys at rest, CLI independence."""

import os
import subprocess
import sys

import pytest

from app import create_app
from conftest import API_KEYS, RAW_KEY, ROOT, SEED, curl
from corridor.auth import parse_api_keys
from corridor.config import ConfigError
from schemas.rounding import round_half_up, round_significant


@pytest.mark.parametrize("header", ['"not-it"', "*", 'W/"x"'])
def test_if_match_is_ignored_on_reads(client, auth, header):
    response = client.get("/api/poc/corridors/1", headers={"If-Match": header})
    assert response.status_code == 200 and response.get_json()["ok"] is True
    assert client.get("/api/corridors", headers={**auth, "If-Match": header}).status_code == 200


def test_304_keeps_cache_control_and_any_etag_matches(client):
    etag = client.get("/api/poc/full").headers["ETag"]
    for header in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        response = client.get("/api/poc/full", headers={"If-None-Match": header})
        assert response.status_code == 304, header
        assert response.headers["Cache-Control"] == "public, max-age=60"
        assert "Content-Type" not in response.headers


@pytest.mark.parametrize("method", ["GET", "DELETE", "OPTIONS", "HEAD"])
@pytest.mark.parametrize(
    "path",
    ["/api//corridors", "/api/poc//corridors", "/api/poc/corridors//1", "/api/poc/corridors/abc?x=1",
     "/api/poc/corridors/01", "/api/poc/corridors/%EF%BC%91", "/api/corridors/"],
)
def test_odd_paths_are_404_before_anything_else(client, method, path):
    response = client.open(path, method=method)
    assert response.status_code == 404
    assert "Location" not in response.headers
    if method != "HEAD":
        assert response.get_json()["code"] == "not_found"


def test_group_b_success_carries_common_headers(client):
    response = client.get("/api/poc/corridors/1", headers={"X-Request-ID": "trace-7"})
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Request-ID"] == "trace-7"


@pytest.mark.parametrize(
    "value, places, text",
    [(3.335, 2, "3.34"), (4.245, 2, "4.25"), (2.375, 2, "2.38"), (100 * 4.14 / 200 + 0.42, 2, "2.49"),
     (0.0, 2, "0.00"), (63.25, 1, "63.3"), (1.005, 2, "1.01"), (2.3749, 2, "2.37"), (1234567.125, 2, "1234567.13"),
     (3.3349999999999995, 2, "3.34"), (0.125, 2, "0.13")],
)
def test_ties_round_up_as_on_paper(value, places, text):
    assert f"{round_half_up(value, places):.{places}f}" == text


@pytest.mark.parametrize(
    "value, text", [(18.19745, "18.1975"), (0.0000380445, "0.0000380445"), (26285.0, "26285.0"), (1.0, "1.00000")]
)
def test_significant_figures(value, text):
    assert str(round_significant(value, 6)) == text


def test_raw_keys_do_not_stay_in_the_config(app):
    assert "API_KEYS" not in app.config
    assert RAW_KEY not in repr(app.config) and RAW_KEY not in repr(app.extensions)


@pytest.mark.parametrize("entry", ["SHA256:abc", "Sha256:" + "z" * 64])
def test_any_case_sha256_prefix_must_be_a_digest(entry):
    with pytest.raises(ConfigError, match="API_KEYS entry 1"):
        parse_api_keys(entry)


def test_upper_case_sha256_entry_is_a_digest():
    assert parse_api_keys("SHA256:" + "AB" * 32) == (bytes.fromhex("ab" * 32),)


def test_key_in_query_string_never_reaches_the_access_log(server):
    base, process, log = server
    curl("-o", "/dev/null", f"{base}/api/corridors?api_key={RAW_KEY}")
    curl("-o", "/dev/null", "-H", f"Authorization: Bearer {RAW_KEY}", f"{base}/api/corridors?key={RAW_KEY}")
    process.terminate()
    process.wait(timeout=30)  # gunicorn's graceful_timeout is 20 s
    text = log.read_text()
    assert "GET /api/corridors?[redacted] HTTP/1.1" in text
    assert RAW_KEY not in text


def test_cli_commands_work_whatever_the_configured_data(tmp_path):
    env = {**os.environ, "SEED_DATA": str(tmp_path / "missing.json"), "API_KEYS": "sha256:nonsense"}
    for args in (["data", "check", str(SEED)], ["keys", "generate"], ["routes"]):
        result = subprocess.run([sys.executable, "-m", "flask", "--app", "app", *args], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, (args, result.stderr)


def test_cached_responses_are_byte_identical_to_fresh_schema_dumps(auth):
    app = create_app({"API_KEYS": API_KEYS, "SEED_DATA": str(SEED)})
    cache = app.extensions["corridor"]["responses"]
    corridors = len(app.extensions["corridor"]["catalog"].by_key)
    assert len(cache) == 4 * corridors + 7, "every corridor's responses are built before serving"
    prebuilt = dict(cache)
    client = app.test_client()
    for (path, query), body in prebuilt.items():
        cache.clear()  # the view and its schemas run again
        url = path + ("?" + query.decode() if query else "")
        response = client.get(url, headers=auth)
        assert response.data == body.data, url
        assert response.headers["ETag"] == f'"{body.etag}"'
