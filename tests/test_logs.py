"""Logs without keys: the shipped access line carries no query or credentials; gunicorn's own messages are filtered."""

import base64
import copy
import datetime
import json
import logging
import re
import runpy
import socket
import warnings
from types import SimpleNamespace

import pytest
from conftest import RAW_KEY, logged
from gunicorn.config import Config
from gunicorn.glogging import Logger
from harness import ROOT, curl, requires

from corridor.serving.logs import JsonFormatter, RedactClientText, gunicorn_log_config, redact_text, request_id

KEY_AS_USER = "Basic " + base64.b64encode(f"{RAW_KEY}:".encode()).decode()  # what `curl -u KEY:` sends


def _environ(target: str, query: str, authorization: str) -> dict:
    return {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"{target}?{query}",
        "PATH_INFO": "/api/providers",
        "QUERY_STRING": query,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "REMOTE_PORT": "50412",
        "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_AUTHORIZATION": authorization,
        "HTTP_USER_AGENT": 'curl/8.5 "quoted"',
        "wsgi.url_scheme": "http",
        "Mixed_Case": "kept",
    }


REQUESTS = {
    "bearer key, misplaced key in the query": (
        SimpleNamespace(
            status="200 OK",
            sent=1761,
            headers=[
                ("ETag", '"0f3a"'),
                ("Content-Length", "1761"),
                ("X-Request-ID", "abc-123"),
                ("x-request-id", "last"),
            ],
        ),
        SimpleNamespace(
            headers=[
                ("HOST", "127.0.0.1:8000"),
                ("AUTHORIZATION", f"Bearer {RAW_KEY}"),
                ("USER-AGENT", 'curl/8.5 "quoted"'),
            ]
        ),
        _environ("/api/providers", f"corridor=USD_MXN&api_key={RAW_KEY}", f"Bearer {RAW_KEY}"),
    ),
    "key as a basic user, in a known parameter, nothing sent yet": (
        SimpleNamespace(status=404, headers={"Content-Type": "application/json"}),
        [("AUTHORIZATION", KEY_AS_USER)],
        _environ("/api/providers", f"corridor=USD_MXN;key={RAW_KEY}&amount={RAW_KEY}", KEY_AS_USER),
    ),
    "key in the request target's userinfo and fragment": (
        SimpleNamespace(status=400, sent=0, headers=[]),
        [],
        {
            key: value
            for key, value in _environ(  # and no client address or user agent to give
                f"http://user:{RAW_KEY}@127.0.0.1/api/providers#x&api_key={RAW_KEY}", "sort=cost", ""
            ).items()
            if key not in ("REMOTE_ADDR", "HTTP_USER_AGENT")
        },
    ),
}
LINES = {  # the shipped format's line for each request: method, path, protocol; no query, no user
    "bearer key, misplaced key in the query": (
        '[23/Nov/2026:01:02:03 +0000] rid=last "GET /api/providers HTTP/1.1" 200 1761 1234ms 127.0.0.1'
    ),
    "key as a basic user, in a known parameter, nothing sent yet": (
        '[23/Nov/2026:01:02:03 +0000] rid=- "GET /api/providers HTTP/1.1" 404 - 1234ms 127.0.0.1'
    ),
    "key in the request target's userinfo and fragment": (
        '[23/Nov/2026:01:02:03 +0000] rid=- "GET /api/providers HTTP/1.1" 400 0 1234ms -'
    ),
}


@pytest.fixture
def logger(monkeypatch):
    """gunicorn's own logger with the shipped access format, its clock fixed."""
    config = Config()
    config.set("accesslog", "/dev/null")
    config.set("access_log_format", runpy.run_path(str(ROOT / "gunicorn.conf.py"))["access_log_format"])
    logger = Logger(config)
    monkeypatch.setattr(logger, "now", lambda: "[23/Nov/2026:01:02:03 +0000]")
    return logger


@pytest.mark.parametrize("name", list(REQUESTS))
def test_the_shipped_access_line_has_the_path_and_no_query_or_credentials(logger, caplog, name):
    resp, req, environ = REQUESTS[name]
    with caplog.at_level(logging.INFO, logger=logger.access_log.name):
        logger.access(resp, req, environ, datetime.timedelta(seconds=1, microseconds=234567))
    assert [record.getMessage() for record in caplog.records] == [LINES[name]]
    assert RAW_KEY not in caplog.text


@requires("curl")
def test_a_key_in_the_query_string_never_reaches_the_log_of_a_real_server(server):
    base, process, log = server
    since = len(log.read_text())
    curl("-o", "/dev/null", "-H", "X-Request-ID: query-key-1", f"{base}/api/corridors?api_key={RAW_KEY}")
    curl(
        "-o",
        "/dev/null",
        "-H",
        f"Authorization: Bearer {RAW_KEY}",
        "-H",
        "X-Request-ID: query-key-2",
        f"{base}/api/corridors?key={RAW_KEY}",
    )
    text = logged(log, "rid=query-key-2", since)
    assert "rid=query-key-1" in text and text.count('"GET /api/corridors HTTP/1.1"') == 2
    assert RAW_KEY not in text


@pytest.mark.parametrize(
    "sent",
    [
        f"GET /api/curr encies?api_key={RAW_KEY} HTTP/1.1\r\nHost: x\r\n\r\n",
        f"GET x\"'#api_key={RAW_KEY} HTTP/1.1\r\nHost: x\r\n\r\n",  # both quotes: gunicorn escapes one
        f"GET /api/corridors HTTP/1.1\r\nHost: x\r\nAuthorization Bearer {RAW_KEY}\r\n\r\n",  # no colon
        f"GET /api/corridors HTTP/1.1\r\nHost: x\r\nX\"' {RAW_KEY}\r\n\r\n",
    ],
)
def test_a_key_in_a_request_gunicorn_cannot_parse_stays_out_of_its_log(server, sent):
    base, process, log = server
    since = len(log.read_text())
    with socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=5) as sock:
        sock.sendall(sent.encode("latin-1"))
        assert sock.recv(65536).startswith(b"HTTP/1.1 400")
    text = logged(log, "Invalid request from ip=", since)
    assert re.search(r"Invalid request from ip=127\.0\.0\.1: Invalid HTTP [\w ]+ \[redacted\]$", text, re.M)
    assert RAW_KEY not in text


@pytest.mark.parametrize(
    "message, logged",
    [
        (
            "Invalid request from ip=1.2.3.4: Invalid HTTP request line: 'GET /a?k=SECRET HTTP/1.1'",
            "Invalid request from ip=1.2.3.4: Invalid HTTP request line [redacted]",
        ),
        (
            "Invalid request from ip=1.2.3.4: Invalid HTTP Header: 'X\"\\' SECRET'",
            "Invalid request from ip=1.2.3.4: Invalid HTTP Header [redacted]",
        ),
        (
            "Invalid request from ip=: Request Line is too large (5000 > 2048)",
            "Invalid request from ip=: Request Line is too large [redacted]",
        ),
        (
            "Invalid request from ip=1.2.3.4: Contradictory scheme headers",
            "Invalid request from ip=1.2.3.4: Contradictory scheme headers",
        ),
        ("Error handling request GET /api/x?key=SECRET", "Error handling request GET /api/x?[redacted]"),
        (
            "Error handling request GET http://u:SECRET@h/x#api_key=SECRET",
            "Error handling request GET http://[redacted]@h/x#[redacted]",
        ),
        ("sent Bearer SECRET and basic SECRET", "sent Bearer [redacted] and basic [redacted]"),
        ("Booting worker with pid: 12", "Booting worker with pid: 12"),
        (
            "Worker (pid:12) was sent SIGKILL! Perhaps out of memory?",
            "Worker (pid:12) was sent SIGKILL! Perhaps out of memory?",
        ),
        ("Can't connect to ('127.0.0.1', 8000)", "Can't connect to ('127.0.0.1', 8000)"),
    ],
)
def test_gunicorns_own_messages_lose_what_a_client_sent_and_keep_the_rest(message, logged):
    assert redact_text(message) == logged


def test_a_traceback_in_gunicorns_log_keeps_its_lines_less_any_key(caplog):
    log = logging.getLogger("test.gunicorn.error")
    log.addFilter(RedactClientText())
    with caplog.at_level(logging.ERROR, logger=log.name):
        try:
            raise ValueError(f"bad line 'GET /?api_key={RAW_KEY}'")
        except ValueError:
            log.exception("Error handling request %s", f"/x?key={RAW_KEY}")
    assert "Error handling request /x?[redacted]" in caplog.text and RAW_KEY not in caplog.text
    assert 'File "' in caplog.text and "ValueError: bad line 'GET /?[redacted]'" in caplog.text


def test_a_malformed_log_call_goes_through_the_filter_as_it_came():
    record = logging.LogRecord("gunicorn.error", logging.ERROR, __file__, 1, "two values %s %s", ("one",), None)
    assert RedactClientText().filter(record) is True  # logging itself then reports the mismatch, as without the filter
    assert (record.msg, record.args) == ("two values %s %s", ("one",))


FORGERIES = ["/api/poc/x%0aFORGED line", "/api/poc/x%0d%0aFORGED line", "/api/poc/x%1b[2K%1b[1GFORGED line"]


@requires("curl")
def test_control_characters_a_client_sends_cannot_forge_a_line_of_the_access_log(server):
    base, process, log = server
    since = len(log.read_text())
    for path in FORGERIES:
        assert curl("-g", "-o", "/dev/null", "-w", "%{http_code}", base + path.replace(" ", "%20")) == "404"
    logged(log, "x\\x1b[2K\\x1b[1GFORGED", since)
    lines = [line for line in log.read_text()[since:].splitlines() if "FORGED" in line]
    assert len(lines) == len(FORGERIES) and all(line.startswith("[") and " rid=" in line for line in lines), lines
    assert r'"GET /api/poc/x\x0aFORGED line HTTP/1.1" 404' in lines[0]
    assert r"/api/poc/x\x0d\x0aFORGED" in lines[1] and r"/api/poc/x\x1b[2K\x1b[1GFORGED" in lines[2]
    assert "\x1b" not in log.read_text()[since:]


def test_the_app_s_own_lines_escape_what_a_client_sent(app, caplog):
    with caplog.at_level(logging.ERROR, logger=app.logger.name):
        app.logger.error("Unhandled error on %s %s", "GET", "/api/x\nFORGED line\x1b[2K\u2028")
    assert caplog.records[-1].getMessage() == r"Unhandled error on GET /api/x\x0aFORGED line\x1b[2K\u2028"


def test_a_json_line_logged_during_a_request_names_its_id_method_and_route_on_one_line(app):
    with app.test_request_context("/api/poc/corridors/7", headers={"X-Request-ID": "trace-7"}):
        record = logging.LogRecord("app", logging.ERROR, __file__, 1, "Refresh failed: %s", ("boom\nforged",), None)
        line = JsonFormatter().format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert datetime.datetime.fromisoformat(entry.pop("time")).utcoffset() == datetime.timedelta(0)
    assert entry == {
        "level": "error",
        "logger": "app",
        "message": "Refresh failed: boom\nforged",
        "request_id": "trace-7",
        "method": "GET",
        "route": "/api/poc/corridors/{corridor_id}",
    }


def test_a_request_id_made_up_for_a_log_line_is_the_one_the_response_carries(app):
    with app.test_request_context("/api/poc/health"):
        made = json.loads(JsonFormatter().format(logging.LogRecord("app", logging.INFO, __file__, 1, "x", (), None)))
        response = app.process_response(app.response_class("{}"))
        assert made["request_id"] == request_id() == response.headers["X-Request-ID"]


@pytest.fixture
def app_logger(monkeypatch):
    """The process's `app` logger, as the test found it once it ends: LOG_FORMAT=json replaces its handlers."""
    logger, caught = logging.getLogger("app"), logging.getLogger("py.warnings")
    for name in ("handlers", "filters", "propagate"):
        monkeypatch.setattr(logger, name, copy.copy(getattr(logger, name)))
    for name in ("handlers", "propagate"):
        monkeypatch.setattr(caught, name, copy.copy(getattr(caught, name)))
    monkeypatch.setattr(warnings, "showwarning", warnings.showwarning)
    monkeypatch.setattr(logging, "_warnings_showwarning", logging._warnings_showwarning)
    return logger


def test_a_second_app_in_one_process_with_json_logs_writes_each_line_once(make_app, app_logger, capsys):
    for _ in range(2):
        assert make_app(LOG_FORMAT="json").logger is app_logger
    capsys.readouterr()
    app_logger.error("Refresh failed: %s", "boom\nforged")
    lines = capsys.readouterr().err.splitlines()
    assert [json.loads(line)["message"] for line in lines] == [r"Refresh failed: boom\x0aforged"]


def test_a_json_access_line_has_the_requests_fields_and_no_query_or_credentials():
    config = Config()
    config.set("accesslog", "-")
    environ = _environ("/api/providers", f"corridor=USD_MXN&api_key={RAW_KEY}", f"Bearer {RAW_KEY}")
    environ["corridor.route"] = "/api/providers"
    atoms = Logger(config).atoms(
        SimpleNamespace(status="200 OK", sent=512, headers=[("X-Request-ID", "rid-1")], response_length=512),
        SimpleNamespace(headers=[]),
        environ,
        datetime.timedelta(milliseconds=3, microseconds=250),
    )
    record = logging.LogRecord("gunicorn.access", logging.INFO, __file__, 1, "%(s)s", (), None)
    record.args = atoms
    entry = json.loads(JsonFormatter().format(record))
    del entry["time"]
    assert entry == {
        "level": "info",
        "logger": "gunicorn.access",
        "message": "request",
        "request_id": "rid-1",
        "method": "GET",
        "route": "/api/providers",
        "path": "/api/providers",
        "status": 200,
        "bytes": 512,
        "duration_ms": 3.25,
        "client": "127.0.0.1",
    }


def test_text_logs_leave_gunicorns_configuration_as_it_is():
    assert gunicorn_log_config("text") == {}
    assert gunicorn_log_config(" JSON ")["formatters"]["json"]["()"] == "corridor.serving.logs.JsonFormatter"
