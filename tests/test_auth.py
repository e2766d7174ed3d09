"""Bearer keys from API_KEYS, held as digests, never shown; refusal without keys."""

import hashlib
import os
import subprocess
import sys

import pytest
from conftest import HASHED_KEY, RAW_KEY
from harness import ROOT

from corridor.data.keys import parse_api_keys
from corridor.settings import ConfigError

REALM = 'Bearer realm="corridor-api"'
INVALID = 'Bearer realm="corridor-api", error="invalid_token"'


@pytest.mark.parametrize(
    "header",
    [f"Bearer {RAW_KEY}", f"bearer {RAW_KEY}", f"BEARER {RAW_KEY}", f"Bearer {HASHED_KEY}", f"Bearer  {RAW_KEY} "],
)
def test_live_keys_are_accepted(client, header):
    response = client.get("/api/corridors", headers={"Authorization": header})
    assert response.status_code == 200


@pytest.mark.parametrize(
    "header",
    [
        "Bearer wrong-key",
        "Bearer",
        "Bearer ",
        "",
        f"Basic {RAW_KEY}",
        f"Token {RAW_KEY}",
        f"{RAW_KEY}",
        f"Bearer {RAW_KEY}x",
        f"Bearer {RAW_KEY[:-1]}",
        f"Bearer {RAW_KEY} {RAW_KEY}",
        f"Bearer sha256:{hashlib.sha256(HASHED_KEY.encode()).hexdigest()}",
        "Bearer a=b",
        "Bearer clé-\u00e9\u2603",
        "Bearer " + "k" * 8000,
    ],
)
def test_bad_credentials_are_invalid(client, header):
    response = client.get("/api/corridors", headers={"Authorization": header})
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == INVALID
    assert response.get_json()["code"] == "invalid_api_key"


def test_missing_header(client):
    response = client.get("/api/providers?corridor=USD_MXN")
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == REALM
    assert response.get_json()["code"] == "missing_api_key"


@pytest.mark.parametrize("name", ["api_key", "key", "access_token", "token"])
def test_key_in_query_string_is_never_accepted(client, name):
    response = client.get(f"/api/corridors?{name}={RAW_KEY}")
    assert response.status_code == 401
    assert response.get_json()["code"] == "missing_api_key"


def test_two_keys_are_live_at_once(client):
    for key in (RAW_KEY, HASHED_KEY):
        assert client.get("/api/corridors", headers={"Authorization": f"Bearer {key}"}).status_code == 200


def test_only_digests_are_held():
    digests = parse_api_keys(f"one-key-123, sha256:{'AB' * 32}").digests
    assert digests == (hashlib.sha256(b"one-key-123").digest(), bytes.fromhex("ab" * 32))


@pytest.mark.parametrize("value", ["", " ", ",,", " , "])
def test_empty_entries_are_ignored(value):
    assert parse_api_keys(value).digests == ()


@pytest.mark.parametrize(
    "value, position",
    [("sha256:abc", 1), ("good-key-1, sha256:" + "g" * 64, 2), ("has space", 1), ("ok-key, clé", 2), ("tab\tkey", 1)],
)
def test_unusable_entries_refuse_start_up_without_echoing_them(value, position):
    with pytest.raises(ConfigError) as caught:
        parse_api_keys(value)
    message = caught.value.format_message()
    assert f"API_KEYS entry {position} is not usable" in message
    assert value.split(",")[-1].strip() not in message


def test_without_operator_keys_group_a_is_shut_to_everyone_without_an_account_key(make_app, caplog):
    client = make_app(API_KEYS=" , ").test_client()
    assert "API_KEYS and API_KEYS_FILE give no key: Group A answers only keys made in accounts." in caplog.text
    for header in (f"Bearer {RAW_KEY}", f"Bearer {HASHED_KEY}", "Bearer cor_" + "A" * 43):
        response = client.get("/api/corridors", headers={"Authorization": header})
        assert response.status_code == 401 and response.get_json()["code"] == "invalid_api_key"


def _flask(*args, timeout=30, **changes):
    env = {k: v for k, v in os.environ.items() if k != "API_KEYS"} | changes
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_keys_generate_works_without_keys(make_app):
    result = make_app(API_KEYS="").test_cli_runner().invoke(args=["keys", "generate"])
    assert result.exit_code == 0, result.output
    lines = dict(line.split(":", 1) for line in result.stdout.splitlines())
    key, entry = lines["key"].strip(), lines["entry"].strip()
    assert len(key) >= 40
    assert entry == "sha256:" + hashlib.sha256(key.encode()).hexdigest()
    client = make_app(API_KEYS=entry).test_client()
    assert client.get("/api/corridors", headers={"Authorization": f"Bearer {key}"}).status_code == 200


def test_data_check_works_without_keys(make_app):
    result = make_app(API_KEYS="").test_cli_runner().invoke(args=["data", "check"])
    assert result.exit_code == 0, result.output
    assert "OK" in result.stdout


def test_a_command_on_a_database_behind_its_migrations_runs_and_names_the_upgrade(tmp_path):
    result = _flask("keys", "generate", DATABASE_URL=f"sqlite:///{tmp_path}/new.sqlite3")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("has no tables yet: run `.venv/bin/flask --app app db upgrade` first.") == 1


def test_keys_never_reach_bodies_or_logs(app, caplog):
    caplog.set_level("DEBUG")
    client = app.test_client()
    bodies = [
        client.get(url, headers={"Authorization": header}).get_data(as_text=True)
        for url in ("/api/corridors", "/api/providers?corridor=nope", "/api/nowhere")
        for header in (f"Bearer {RAW_KEY}", f"Bearer {RAW_KEY}x", f"Basic {HASHED_KEY}")
    ]
    for text in bodies + [caplog.text]:
        assert RAW_KEY not in text and HASHED_KEY not in text


def test_raw_keys_do_not_stay_in_the_config(app):
    assert "API_KEYS" not in app.config
    assert RAW_KEY not in repr(app.config) and RAW_KEY not in repr(app.extensions)


@pytest.mark.parametrize("entry", ["SHA256:abc", "Sha256:" + "z" * 64])
def test_any_case_sha256_prefix_must_be_a_digest(entry):
    with pytest.raises(ConfigError, match="API_KEYS entry 1"):
        parse_api_keys(entry)


def test_upper_case_sha256_entry_is_a_digest():
    assert parse_api_keys("SHA256:" + "AB" * 32).digests == (bytes.fromhex("ab" * 32),)
