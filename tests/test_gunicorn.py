"""The real thing: gunicorn with the shipped config on loopback, checked with curl."""

import json
import signal
import subprocess
import time
import urllib.error

from conftest import RAW_KEY, logged, start_gunicorn, stop
from harness import DIRECT, ROOT, curl, flask_command, requires


@requires("curl")
def test_serves_group_a_over_http(server):
    base, process, log_path = server
    key = ["-H", f"Authorization: Bearer {RAW_KEY}"]
    status = curl("-o", "/dev/null", "-w", "%{http_code} %{content_type}", f"{base}/api/corridors")
    assert status == "401 application/problem+json"
    corridors = json.loads(curl(*key, f"{base}/api/corridors"))
    assert corridors[0]["from_currency"] == "USD" and corridors[0]["to_currency"] == "MXN"
    providers = json.loads(curl(*key, f"{base}/api/providers?corridor=usd_mxn"))
    assert providers[0]["rank"] == 1 and providers[0]["provider"] == corridors[0]["best_provider"]
    headers = curl(*key, "-I", "-H", "X-Request-ID: curl-check-1", f"{base}/api/midrate?from=USD&to=EUR")
    assert headers.startswith("HTTP/1.1 200")
    assert "x-request-id: curl-check-1" in headers.lower()
    assert "x-content-type-options: nosniff" in headers.lower()
    log = logged(log_path, "rid=curl-check-1")
    assert '"HEAD /api/midrate HTTP/1.1" 200' in log  # the path: a query could hold a misplaced key
    assert RAW_KEY not in log


def test_gunicorn_on_an_empty_database_is_not_ready_until_it_is_upgraded_and_reloaded(tmp_path):
    database = tmp_path / "new.sqlite3"
    base, process, log = start_gunicorn(
        tmp_path / "log", API_KEYS=RAW_KEY, DATABASE_URL=f"sqlite:///{database}", WEB_CONCURRENCY="1"
    )
    try:
        assert _health_when_answered(base, process, log) == (503, "migrations_pending")
        upgrade = "run `.venv/bin/flask --app app db upgrade` first."
        assert log.read_text().count(f"The database sqlite:///{database} has no tables yet: {upgrade}") == 1
        assert flask_command("db", "upgrade", DATABASE_URL=f"sqlite:///{database}").returncode == 0
        process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 30
        while _health_when_answered(base, process, log) != (200, "ok"):
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
    finally:
        stop(process)


def _health_when_answered(base, process, log):
    """The health check's status and `status` field, once gunicorn answers it."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with DIRECT.open(f"{base}/api/poc/health", timeout=2) as response:
                return response.status, json.load(response)["status"]
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)["status"]
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)


def test_gunicorn_refuses_broken_data(write_seed, seed_copy, tmp_path):
    seed_copy["corridors"][0]["offers"][0]["settlement"] = "soon"
    path = write_seed(seed_copy)
    (tmp_path / "tmp").mkdir()
    _, process, _ = start_gunicorn(tmp_path / "log", API_KEYS=RAW_KEY, SEED_DATA=path, TMPDIR=str(tmp_path / "tmp"))
    process.wait(timeout=30)
    output = (tmp_path / "log").read_text()
    assert process.returncode != 0
    assert path in output and "$.corridors[0].offers[0].settlement" in output
    assert "Traceback" not in output
    assert not any((tmp_path / "tmp").iterdir()), "a refused start leaves no data snapshot behind"


def _smoke(base, *key):
    return subprocess.run(
        ["bash", "scripts/smoke.sh", base, *key], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


@requires("curl")  # scripts/smoke.sh runs it
def test_smoke_script_passes_against_a_real_server(server):
    base, _, _ = server
    result = _smoke(base, RAW_KEY)
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[-1] == "39 passed, 0 failed"


@requires("curl")
def test_smoke_script_stops_at_the_first_failure(server):
    base, _, _ = server
    wrong_key = _smoke(base, "not-the-key")
    assert wrong_key.returncode == 1
    assert wrong_key.stdout.splitlines()[-1].startswith(
        "FAIL GET /api/corridors: expected 200 application/json, got 401"
    )
    nobody = _smoke("http://127.0.0.1:1")
    assert nobody.returncode == 1 and "could not connect" in nobody.stdout
