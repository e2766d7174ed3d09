"""Operations (issue: hardening): slow clients, refresh on HUP, proxies and HTTPS, limits, logs."""

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from app import create_app
from conftest import API_KEYS, HASHED_KEY, RAW_KEY, ROOT, SEED, curl, gunicorn_env, running_gunicorn
from corridor.settings import ConfigError


def test_400_half_sent_requests_do_not_stall_a_normal_one(server):
    base, _, _ = server
    result = subprocess.run([sys.executable, "scripts/slow_clients.py", base, "--connections", "400", "--hold", "1", "--limit", "3"],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    seconds = float(re.search(r"answered 200 in ([\d.]+) s", result.stdout).group(1))
    assert seconds < 3  # milliseconds when served; a stalled server answers in 10 s or never


def _health(base):
    return json.loads(curl(f"{base}/api/poc/health"))


def _write_atomically(path, data):
    temporary = path.with_suffix(".new")
    temporary.write_text(data if isinstance(data, str) else json.dumps(data))
    os.replace(temporary, path)


def _load(base, seconds, connections=8):
    """wrk against a Group A and a Group B URL; returns the two processes.

    A request counts as lost if it fails, not if it waits: new workers boot while the old drain.
    """
    return [
        subprocess.Popen(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-H", f"Authorization: Bearer {RAW_KEY}",
                          base + url], stdout=subprocess.PIPE, text=True)
        for url in ("/api/providers?corridor=USD_MXN", "/api/poc/corridors")
    ]


def _wrk_failures(process):
    out, _ = process.communicate(timeout=60)
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return requests, (int(non_2xx.group(1)) if non_2xx else 0) + (sum(map(int, sockets.groups())) if sockets else 0)


@pytest.fixture
def refreshable(free_port, tmp_path, raw_seed):
    """gunicorn serving a copy of the data that the test may replace; yields (base, process, data path, log)."""
    data = tmp_path / "seed.json"
    data.write_text(json.dumps(raw_seed))
    log = tmp_path / "gunicorn.log"
    with running_gunicorn(free_port, gunicorn_env(API_KEYS=RAW_KEY, SEED_DATA=str(data)), log) as (base, process):
        yield base, process, data, log


def test_refresh_under_load_loses_no_request(refreshable, raw_seed):
    base, process, data, log = refreshable
    load = _load(base, seconds=6)
    time.sleep(1)
    newer = dict(raw_seed, as_of="2026-11-21")
    newer["rates"] = dict(raw_seed["rates"], interbank=dict(raw_seed["rates"]["interbank"], MXN=18.5))
    _write_atomically(data, newer)
    process.send_signal(signal.SIGHUP)
    time.sleep(1.5)
    process.send_signal(signal.SIGHUP)
    for wrk in load:
        requests, failures = _wrk_failures(wrk)
        assert requests > 1000 and failures == 0, (requests, failures)
    assert _health(base)["dataAsOf"] == "2026-11-21"
    mid = json.loads(curl("-H", f"Authorization: Bearer {RAW_KEY}", f"{base}/api/midrate?from=USD&to=MXN"))
    assert mid["ref_rate_b"] == 18.5
    assert log.read_text().count("Data refresh: ") == 2


def test_broken_file_on_hup_keeps_the_last_good_data(refreshable):
    base, process, data, log = refreshable
    load = _load(base, seconds=4, connections=4)
    time.sleep(0.5)
    _write_atomically(data, '{"as_of": "2026-12-01", "rates": ')
    process.send_signal(signal.SIGHUP)
    for wrk in load:
        requests, failures = _wrk_failures(wrk)
        assert requests > 500 and failures == 0, (requests, failures)
    assert process.poll() is None
    assert _health(base)["dataAsOf"] == "2026-11-20"
    text = log.read_text()
    assert "Data refresh refused; still serving" in text and "not valid JSON at line 1" in text
    assert "Worker failed to boot" not in text


@pytest.mark.parametrize("hops, forwarded, secure", [(0, "https", False), (1, "https", True), (1, "http", False)])
def test_hsts_only_on_https_as_seen_through_trusted_proxies(hops, forwarded, secure):
    client = create_app({"API_KEYS": API_KEYS, "SEED_DATA": str(SEED), "PROXY_HOPS": str(hops)}).test_client()
    response = client.get("/api/poc/health", headers={"X-Forwarded-Proto": forwarded, "X-Forwarded-For": "203.0.113.9"})
    assert ("Strict-Transport-Security" in response.headers) is secure
    if secure:
        assert response.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_forwarded_for_sets_the_client_address_from_trusted_hops_only():
    seen = []
    for hops in (0, 1):
        app = create_app({"API_KEYS": API_KEYS, "SEED_DATA": str(SEED), "PROXY_HOPS": str(hops)})

        @app.get("/whoami")
        def whoami():
            from flask import request

            seen.append(request.remote_addr)
            return {"ok": True}

        app.test_client().get("/whoami", headers={"X-Forwarded-For": "198.51.100.7"},
                              environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert seen == ["10.0.0.2", "198.51.100.7"]


@pytest.mark.parametrize("value", ["-1", "x", "6", "1.5"])
def test_bad_proxy_hops_refuse_start_up(value):
    with pytest.raises(ConfigError, match="PROXY_HOPS"):
        create_app({"API_KEYS": API_KEYS, "SEED_DATA": str(SEED), "PROXY_HOPS": value})


def test_debug_mode_is_refused_outside_flask_run():
    with pytest.raises(ConfigError, match="FLASK_DEBUG"):
        create_app({"API_KEYS": API_KEYS, "SEED_DATA": str(SEED), "DEBUG": True})


def test_gunicorn_refuses_flask_debug(free_port, tmp_path):
    log = tmp_path / "log"
    from conftest import gunicorn

    process = gunicorn(free_port, gunicorn_env(API_KEYS=RAW_KEY, FLASK_DEBUG="1"), log)
    process.wait(timeout=30)
    assert process.returncode != 0 and "FLASK_DEBUG is set" in log.read_text()


def test_gunicorn_request_limits(server):
    base, _, _ = server
    long_line = curl("-o", "/dev/null", "-w", "%{http_code}", f"{base}/api/poc/full?{'a' * 2100}=1")
    assert long_line == "414"
    many = [arg for i in range(60) for arg in ("-H", f"X-Extra-{i}: 1")]
    assert curl("-o", "/dev/null", "-w", "%{http_code}", *many, f"{base}/api/poc/health") in {"400", "431"}


def test_logs_have_the_start_up_line_access_lines_and_no_secrets(server):
    base, process, log = server
    curl("-o", "/dev/null", "-H", f"Authorization: Bearer {RAW_KEY}", "-H", "X-Request-ID: ops-1", f"{base}/api/corridors")
    curl("-o", "/dev/null", "-H", f"Authorization: Bearer {HASHED_KEY}x", f"{base}/api/providers?corridor=USD_MXN&amount=5")
    curl("-o", "/dev/null", "-H", f"Authorization: Basic {RAW_KEY}", f"{base}/api/midrate?from=USD&token={RAW_KEY}")
    curl("-o", "/dev/null", f"{base}/api/poc/corridors?from=USD&to=MXN")
    process.terminate()
    process.wait(timeout=30)
    text = log.read_text()
    assert re.search(r"Loaded \S+/corridor-data-\w+/seed_data-\w+\.json: as of 2026-11-20: \d+ corridors \(\d+ active\), \d+ providers, \d+ offers, "
                     r"\d+ currencies; 1 API key\(s\) live\.", text)
    line = re.compile(r'^\[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d \+0000\] rid=(\S+) "(\w+) (\S+) HTTP/1\.1" (\d{3}) (\d+|-) (\d+)ms 127\.0\.0\.1$', re.M)
    lines = line.findall(text)  # in the order workers wrote them, which may not be the requests'
    assert [l[1:5] for l in lines if l[0] == "ops-1"] == [("GET", "/api/corridors", "200", "4000")]
    assert any(l[2] == "/api/midrate?from=USD&[redacted]" and l[3] == "401" for l in lines)
    assert any(l[2] == "/api/poc/corridors?from=USD&to=MXN" and l[3] == "200" for l in lines)
    for secret in (RAW_KEY, HASHED_KEY, "Bearer", "Basic"):
        assert secret not in text
