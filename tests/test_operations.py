"""Operations: slow clients, proxies and HTTPS, settings refused, request limits, logs."""

import re
import socket
import subprocess
import sys
import threading

import pytest
from conftest import HASHED_KEY, RAW_KEY, logged, start_gunicorn
from harness import ROOT, curl, requires

from corridor.settings import ConfigError
from corridor.state import current_service


def test_400_half_sent_requests_do_not_stall_a_normal_one(server):
    base, _, _ = server
    result = subprocess.run(
        [sys.executable, "scripts/slow_clients.py", base, "--connections", "400", "--hold", "1", "--limit", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    seconds = float(re.search(r"answered 200 in ([\d.]+) s", result.stdout).group(1))
    assert seconds < 3  # milliseconds when served; a stalled server answers in 10 s or never


@pytest.mark.parametrize(
    "chunks",
    [b"5\r\n--zz\r\n0\r\n\r\n", b"zz\r\nemail\r\n0\r\n\r\n", b"-5\r\nemail\r\n", b"5\r\nemail\r\n"],
    ids=["no-terminator", "bad-size", "negative-size", "cut-short"],
)
def test_a_form_whose_chunked_body_cannot_be_read_gets_400_not_a_fault(server, chunks):
    base, _, log = server
    since = len(log.read_text())
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(
            b"POST /account/login HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Request-ID: chunked-1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks
        )
        connection.shutdown(socket.SHUT_WR)  # a client that sends no more
        answer = b"".join(iter(lambda: connection.recv(65536), b""))
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert b"malformed or cut short" in answer
    assert "Unhandled error" not in logged(log, "chunked-1", since)


@pytest.mark.parametrize("hops, forwarded, secure", [(0, "https", False), (1, "https", True), (1, "http", False)])
def test_hsts_only_on_https_as_seen_through_trusted_proxies(make_app, hops, forwarded, secure):
    client = make_app(PROXY_HOPS=str(hops)).test_client()
    response = client.get("/api/poc/health", headers={"X-Forwarded-Proto": forwarded, "X-Forwarded-For": "203.0.113.9"})
    assert ("Strict-Transport-Security" in response.headers) is secure
    if secure:
        assert response.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_forwarded_for_sets_the_client_address_from_trusted_hops_only(make_app):
    seen = []
    for hops in (0, 1):
        app = make_app(PROXY_HOPS=str(hops))

        @app.get("/whoami")
        def whoami():
            from flask import request

            seen.append(request.remote_addr)
            return {"ok": True}

        app.test_client().get(
            "/whoami", headers={"X-Forwarded-For": "198.51.100.7"}, environ_base={"REMOTE_ADDR": "10.0.0.2"}
        )
    assert seen == ["10.0.0.2", "198.51.100.7"]


@pytest.mark.parametrize("value", ["-1", "x", "6", "1.5"])
def test_bad_proxy_hops_refuse_start_up(make_app, value):
    with pytest.raises(ConfigError, match="PROXY_HOPS"):
        make_app(PROXY_HOPS=value)


def test_debug_mode_is_refused_outside_flask_run(make_app):
    with pytest.raises(ConfigError, match="FLASK_DEBUG"):
        make_app(DEBUG=True)


def test_under_flask_run_the_first_request_starts_the_refresher_once_and_hands_the_app_back(make_app, monkeypatch):
    started = []
    monkeypatch.setattr("corridor.serving.refresher.Refresher.run", lambda refresher: started.append(refresher))
    app = make_app(TESTING=False)  # as `flask run` serves it: no gunicorn hook starts the refresher
    wrapped = app.wsgi_app
    client = app.test_client()
    for _ in range(2):
        assert client.get("/api/poc/health").status_code == 200
    assert app.wsgi_app is not wrapped and current_service(app).refreshing
    for thread in threading.enumerate():
        if thread.name == "rates-refresher":
            thread.join(5)
    assert len(started) == 1


def test_a_middleware_added_after_the_factory_stays_after_the_first_request(make_app, monkeypatch):
    monkeypatch.setattr("corridor.serving.refresher.Refresher.run", lambda refresher: None)
    app = make_app(TESTING=False)
    inner = app.wsgi_app

    def tagged(environ, start_response):
        return inner(environ, lambda status, headers, *rest: start_response(status, [*headers, ("X-Tag", "1")], *rest))

    app.wsgi_app = tagged
    client = app.test_client()
    assert [client.get("/api/poc/health").headers.get("X-Tag") for _ in range(3)] == ["1", "1", "1"]
    assert app.wsgi_app is tagged and current_service(app).refreshing


def test_gunicorn_refuses_flask_debug(tmp_path):
    log = tmp_path / "log"
    _, process, _ = start_gunicorn(log, API_KEYS=RAW_KEY, FLASK_DEBUG="1")
    process.wait(timeout=30)
    assert process.returncode != 0 and "FLASK_DEBUG is set" in log.read_text()


@requires("curl")
def test_gunicorn_request_limits(server):
    base, _, _ = server
    long_line = curl("-o", "/dev/null", "-w", "%{http_code}", f"{base}/api/poc/full?{'a' * 2100}=1")
    assert long_line == "414"
    many = [arg for i in range(60) for arg in ("-H", f"X-Extra-{i}: 1")]
    assert curl("-o", "/dev/null", "-w", "%{http_code}", *many, f"{base}/api/poc/health") in {"400", "431"}


@requires("curl")
def test_logs_have_the_start_up_line_access_lines_and_no_secrets(server):
    base, process, log = server
    body = curl("-H", f"Authorization: Bearer {RAW_KEY}", "-H", "X-Request-ID: ops-1", f"{base}/api/corridors")
    curl(
        "-o",
        "/dev/null",
        "-H",
        f"Authorization: Bearer {HASHED_KEY}x",
        f"{base}/api/providers?corridor=USD_MXN&amount=5",
    )
    curl("-o", "/dev/null", "-H", f"Authorization: Basic {RAW_KEY}", f"{base}/api/midrate?from=USD&token={RAW_KEY}")
    curl("-o", "/dev/null", "-H", "X-Request-ID: ops-4", f"{base}/api/poc/corridors?from=USD&to=MXN")
    text = logged(log, "rid=ops-4")
    assert re.search(
        r"Loaded \S+/seed_data\.json: as of 2026-11-20: \d+ corridors \(\d+ active\), \d+ providers, \d+ offers, "
        r"\d+ currencies; 1 operator API key\(s\) live\.",
        text,
    )
    line = re.compile(
        r"^\[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d \+0000\] rid=(\S+) "
        r'"(\w+) (\S+) HTTP/1\.1" (\d{3}) (\d+|-) (\d+)ms 127\.0\.0\.1$',
        re.M,
    )
    lines = line.findall(text)  # in the order workers wrote them, which may not be the requests'
    assert [line[1:5] for line in lines if line[0] == "ops-1"] == [
        ("GET", "/api/corridors", "200", str(len(body.encode())))
    ]
    assert any(line[2] == "/api/midrate" and line[3] == "401" for line in lines)
    assert any(line[2] == "/api/poc/corridors" and line[3] == "200" for line in lines)
    for secret in (RAW_KEY, HASHED_KEY, "Bearer", "Basic"):
        assert secret not in text
