"""The real thing: gunicorn with the shipped config on loopback, checked with curl."""

import json
import os
import subprocess
import sys
import time

import pytest

from conftest import RAW_KEY, ROOT

def _env(**changes):
    env = {k: v for k, v in os.environ.items() if k not in {"API_KEYS", "SEED_DATA", "PORT"}}
    env.update(changes)
    return env


def _gunicorn(port, env):
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--bind", f"127.0.0.1:{port}",
         "--workers", "2", "wsgi:app"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )


def _curl(*args):
    result = subprocess.run(["curl", "-sS", "--max-time", "5", *args], capture_output=True, text=True, timeout=10)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def server(free_port):
    """gunicorn serving the shipped data; yields its base URL; always stopped."""
    process = _gunicorn(free_port, _env(API_KEYS=RAW_KEY))
    base = f"http://127.0.0.1:{free_port}"
    try:
        deadline = time.monotonic() + 20
        while subprocess.run(["curl", "-s", "-o", "/dev/null", f"{base}/api/corridors"]).returncode != 0:
            assert process.poll() is None and time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)
        yield base, process
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_serves_group_a_over_http(server):
    base, process = server
    key = ["-H", f"Authorization: Bearer {RAW_KEY}"]
    status = _curl("-o", "/dev/null", "-w", "%{http_code} %{content_type}", f"{base}/api/corridors")
    assert status == "401 application/problem+json"
    corridors = json.loads(_curl(*key, f"{base}/api/corridors"))
    assert corridors[0]["from_currency"] == "USD" and corridors[0]["to_currency"] == "MXN"
    providers = json.loads(_curl(*key, f"{base}/api/providers?corridor=usd_mxn"))
    assert providers[0]["rank"] == 1 and providers[0]["provider"] == corridors[0]["best_provider"]
    headers = _curl(*key, "-I", "-H", "X-Request-ID: curl-check-1", f"{base}/api/midrate?from=USD&to=EUR")
    assert headers.startswith("HTTP/1.1 200")
    assert "x-request-id: curl-check-1" in headers.lower()
    assert "x-content-type-options: nosniff" in headers.lower()
    process.terminate()
    log, _ = process.communicate(timeout=20)
    assert "rid=curl-check-1" in log
    assert '"HEAD /api/midrate?from=USD&to=EUR HTTP/1.1" 200' in log
    assert RAW_KEY not in log


def test_gunicorn_refuses_to_start_without_keys(free_port):
    process = _gunicorn(free_port, _env())
    output, _ = process.communicate(timeout=30)
    assert process.returncode != 0
    assert "API_KEYS" in output and "Traceback" not in output


def test_gunicorn_refuses_broken_data(free_port, write_seed, seed_copy):
    seed_copy["corridors"][0]["offers"][0]["settlement"] = "soon"
    path = write_seed(seed_copy)
    process = _gunicorn(free_port, _env(API_KEYS=RAW_KEY, SEED_DATA=path))
    output, _ = process.communicate(timeout=30)
    assert process.returncode != 0
    assert path in output and "$.corridors[0].offers[0].settlement" in output
    assert "Traceback" not in output
