"""The real thing: gunicorn with the shipped config on loopback, checked with curl."""

import json
import subprocess

from conftest import RAW_KEY, logged, start_gunicorn
from harness import ROOT, curl, requires


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


def test_gunicorn_refuses_a_database_behind_its_migrations(tmp_path):
    (tmp_path / "tmp").mkdir()
    database = tmp_path / "new.sqlite3"
    _, process, _ = start_gunicorn(
        tmp_path / "log", API_KEYS=RAW_KEY, TMPDIR=str(tmp_path / "tmp"), DATABASE_URL=f"sqlite:///{database}"
    )
    process.wait(timeout=30)
    output = (tmp_path / "log").read_text()
    assert process.returncode != 0
    assert (
        f"The database sqlite:///{database} has no tables yet: run `.venv/bin/flask --app app db upgrade` first."
    ) in output
    assert "Traceback" not in output
    assert not any((tmp_path / "tmp").iterdir()), "a refused start leaves no data snapshot behind"


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
