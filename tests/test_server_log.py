"""The access line: gunicorn's atoms with every one that could show a key redacted."""

import base64
import datetime
import logging
import re
import runpy
import socket
from types import SimpleNamespace

import pytest
from gunicorn.config import Config
from gunicorn.glogging import SafeAtoms

from conftest import RAW_KEY
from harness import ROOT, curl, requires
from corridor.web.server_log import RedactingLogger, redact_query, redact_record, redact_text

KEY_AS_USER = "Basic " + base64.b64encode(f"{RAW_KEY}:".encode()).decode()  # what `curl -u KEY:` sends


def _environ(target: str, query: str, authorization: str) -> dict:
    return {
        "REQUEST_METHOD": "GET", "RAW_URI": f"{target}?{query}", "PATH_INFO": "/api/providers",
        "QUERY_STRING": query, "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "REMOTE_PORT": "50412",
        "HTTP_HOST": "127.0.0.1:8000", "HTTP_AUTHORIZATION": authorization, "HTTP_USER_AGENT": 'curl/8.5 "quoted"',
        "wsgi.url_scheme": "http", "Mixed_Case": "kept",
    }


REQUESTS = {
    "bearer key, misplaced key in the query": (
        SimpleNamespace(status="200 OK", sent=1761, headers=[
            ("ETag", '"0f3a"'), ("Content-Length", "1761"), ("X-Request-ID", "abc-123"), ("x-request-id", "last")]),
        SimpleNamespace(headers=[("HOST", "127.0.0.1:8000"), ("AUTHORIZATION", f"Bearer {RAW_KEY}"),
                                 ("USER-AGENT", 'curl/8.5 "quoted"')]),
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
        {key: value for key, value in  # and no client address or user agent to give
         _environ(f"http://user:{RAW_KEY}@127.0.0.1/api/providers#x&api_key={RAW_KEY}", "sort=cost", "").items()
         if key not in ("REMOTE_ADDR", "HTTP_USER_AGENT")},
    ),
}
LINES = {  # the shipped format's line for each request
    "bearer key, misplaced key in the query":
        '[23/Nov/2026:01:02:03 +0000] rid=last "GET /api/providers?corridor=USD_MXN&[redacted] HTTP/1.1" '
        '200 1761 1234ms 127.0.0.1',
    "key as a basic user, in a known parameter, nothing sent yet":
        '[23/Nov/2026:01:02:03 +0000] rid=- "GET /api/providers?corridor=[redacted]&amount=[redacted] HTTP/1.1" '
        '404 - 1234ms 127.0.0.1',
    "key in the request target's userinfo and fragment":
        '[23/Nov/2026:01:02:03 +0000] rid=- "GET /api/providers?sort=cost HTTP/1.1" 400 0 1234ms -',
}
EVERY_ATOM = ["h", "l", "u", "t", "r", "s", "m", "U", "q", "H", "b", "B", "f", "a", "T", "D", "M", "L", "p",
              "{authorization}i", "{user-agent}i", "{x-request-id}o", "{http_authorization}e", "{query_string}e",
              "{raw_uri}e", "{http_host}e"]


@pytest.fixture
def logger():
    config = Config()
    config.set("accesslog", "/dev/null")
    config.set("access_log_format", runpy.run_path(str(ROOT / "gunicorn.conf.py"))["access_log_format"])
    return RedactingLogger(config)


@pytest.fixture(params=list(REQUESTS))
def request_name(request):
    return request.param


@pytest.fixture
def line_inputs(request_name, logger, monkeypatch):
    monkeypatch.setattr(logger, "now", lambda: "[23/Nov/2026:01:02:03 +0000]")
    resp, req, environ = REQUESTS[request_name]
    return resp, req, environ, datetime.timedelta(seconds=1, microseconds=234567)


@pytest.fixture
def captured(logger, caplog):
    """caplog, catching the access log's records whatever the logger's own handlers."""
    with caplog.at_level(logging.INFO, logger=logger.access_log.name):
        yield caplog


def test_the_shipped_format_logs_each_request_redacted(logger, line_inputs, request_name, captured):
    logger.access(*line_inputs)
    assert [record.getMessage() for record in captured.records] == [LINES[request_name]]


@pytest.mark.parametrize("atom", [*EVERY_ATOM, "{AUTHORIZATION}i", "{HTTP_AUTHORIZATION}E"])
def test_no_atom_gives_the_key(logger, line_inputs, atom):
    assert RAW_KEY not in str(SafeAtoms(logger.atoms(*line_inputs))[atom])


@pytest.mark.parametrize(
    "query, logged",
    [
        ("corridor=usd_mxn&amount=1000.5&payout=cash_pickup&sort=speed", "corridor=usd_mxn&amount=1000.5&payout=cash_pickup&sort=speed"),
        ("from=GBP&to=inr", "from=GBP&to=inr"),
        ("corr%69dor=USD_MXN&amount=", "corr%69dor=USD_MXN&amount="),
        ("corridor=USD%5FMXN", "corridor=USD%5FMXN"),
        ("corridor=USD_MXN;key=secret-1", "corridor=[redacted]"),
        ("amount=secret-2&sort=cheapest", "amount=[redacted]&sort=[redacted]"),
        ("payout=secret-3", "payout=[redacted]"),
        ("key=secret-4&corridor=USD_MXN", "[redacted]&corridor=USD_MXN"),
        ("secret-5", "[redacted]"),
        ("api_key=secret-6", "[redacted]"),
        ("from=USD&token=secret-7&to=EUR", "from=USD&[redacted]&to=EUR"),
        ("", ""),
        ("&&corridor=USD_MXN&", "corridor=USD_MXN"),
    ],
)
def test_a_query_keeps_known_parameters_with_accepted_values(query, logged):
    assert redact_query(query) == logged


@requires("curl")
def test_a_key_in_the_query_string_never_reaches_the_log_of_a_real_server(server):
    base, process, log = server
    curl("-o", "/dev/null", f"{base}/api/corridors?api_key={RAW_KEY}")
    curl("-o", "/dev/null", "-H", f"Authorization: Bearer {RAW_KEY}", f"{base}/api/corridors?key={RAW_KEY}")
    process.terminate()
    process.wait(timeout=30)  # gunicorn's graceful_timeout is 20 s
    text = log.read_text()
    assert "GET /api/corridors?[redacted] HTTP/1.1" in text
    assert RAW_KEY not in text


@pytest.mark.parametrize("sent", [
    f"GET /api/curr encies?api_key={RAW_KEY} HTTP/1.1\r\nHost: x\r\n\r\n",
    f"GET x\"'#api_key={RAW_KEY} HTTP/1.1\r\nHost: x\r\n\r\n",  # both quotes: gunicorn escapes one
    f"GET /api/corridors HTTP/1.1\r\nHost: x\r\nAuthorization Bearer {RAW_KEY}\r\n\r\n",  # no colon
    f"GET /api/corridors HTTP/1.1\r\nHost: x\r\nX\"' {RAW_KEY}\r\n\r\n",
])
def test_a_key_in_a_request_gunicorn_cannot_parse_stays_out_of_its_log(server, sent):
    base, process, log = server
    with socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=5) as sock:
        sock.sendall(sent.encode("latin-1"))
        assert sock.recv(65536).startswith(b"HTTP/1.1 400")
    process.terminate()
    process.wait(timeout=30)
    text = log.read_text()
    assert re.search(r"Invalid request from ip=127\.0\.0\.1: Invalid HTTP [\w ]+ \[redacted\]$", text, re.M)
    assert RAW_KEY not in text


@pytest.mark.parametrize("message, logged", [
    ("Invalid request from ip=1.2.3.4: Invalid HTTP request line: 'GET /a?k=SECRET HTTP/1.1'",
     "Invalid request from ip=1.2.3.4: Invalid HTTP request line [redacted]"),
    ("Invalid request from ip=1.2.3.4: Invalid HTTP Header: 'X\"\\' SECRET'",
     "Invalid request from ip=1.2.3.4: Invalid HTTP Header [redacted]"),
    ("Invalid request from ip=: Request Line is too large (5000 > 2048)",
     "Invalid request from ip=: Request Line is too large [redacted]"),
    ("Invalid request from ip=1.2.3.4: Contradictory scheme headers",
     "Invalid request from ip=1.2.3.4: Contradictory scheme headers"),
    ("Error handling request GET /api/x?key=SECRET", "Error handling request GET /api/x?[redacted]"),
    ("Error handling request GET http://u:SECRET@h/x#api_key=SECRET", "Error handling request GET http://[redacted]@h/x#[redacted]"),
    ("sent Bearer SECRET and basic SECRET", "sent Bearer [redacted] and basic [redacted]"),
    ("Booting worker with pid: 12", "Booting worker with pid: 12"),
    ("Worker (pid:12) was sent SIGKILL! Perhaps out of memory?", "Worker (pid:12) was sent SIGKILL! Perhaps out of memory?"),
    ("Can't connect to ('127.0.0.1', 8000)", "Can't connect to ('127.0.0.1', 8000)"),
])
def test_gunicorns_own_messages_lose_what_a_client_sent_and_keep_the_rest(message, logged):
    assert redact_text(message) == logged


def test_a_traceback_in_gunicorns_log_keeps_its_lines_less_any_key(logger, caplog):
    with caplog.at_level(logging.ERROR, logger=logger.error_log.name):
        try:
            raise ValueError(f"bad line 'GET /?api_key={RAW_KEY}'")
        except ValueError:
            logger.exception("Error handling request %s", f"/x?key={RAW_KEY}")
    assert "Error handling request /x?[redacted]" in caplog.text and RAW_KEY not in caplog.text
    assert 'File "' in caplog.text and "ValueError: bad line 'GET /?[redacted]'" in caplog.text


def test_a_malformed_log_call_goes_through_the_filter_as_it_came():
    record = logging.LogRecord("gunicorn.error", logging.ERROR, __file__, 1, "two values %s %s", ("one",), None)
    assert redact_record(record) is True  # logging itself then reports the mismatch, as without the filter
    assert (record.msg, record.args) == ("two values %s %s", ("one",))
