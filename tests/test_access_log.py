"""The access line: atoms worked out on demand give what gunicorn's would, secrets redacted in all."""

import base64
import datetime
import logging
from types import SimpleNamespace

import pytest
from gunicorn.config import Config
from gunicorn.glogging import SafeAtoms

from conftest import RAW_KEY
from corridor.access_log import AccessAtoms, AccessLogger, redact_query

SHIPPED_FORMAT = '%(t)s rid=%({x-request-id}o)s "%(r)s" %(s)s %(b)s %(M)sms %(h)s'
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
    return AccessLogger(config)


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


def test_each_atom_is_what_gunicorn_gives_over_the_redacted_atoms(logger, line_inputs):
    eager = SafeAtoms(logger.atoms(*line_inputs))
    lazy = AccessAtoms(logger, *line_inputs)
    names = [*eager, *(name.upper() for name in eager if name.startswith("{")),
             "x", "{nothing}i", "{x-request-id}", "{x-request-id}x", "{}o", "{mixed_case}e"]
    assert len(names) > 40
    assert {name: lazy[name] for name in names} == {name: eager[name] for name in names}


def test_the_shipped_format_reads_the_atoms_it_names(logger, line_inputs, request_name):
    assert SHIPPED_FORMAT % AccessAtoms(logger, *line_inputs) == LINES[request_name]


@pytest.mark.parametrize("atom", [*EVERY_ATOM, "{AUTHORIZATION}i", "{HTTP_AUTHORIZATION}E"])
def test_no_atom_gives_the_key(logger, line_inputs, atom):
    assert RAW_KEY not in str(AccessAtoms(logger, *line_inputs)[atom])


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


def test_a_line_goes_through_logging_once_as_formatted(logger, line_inputs, captured):
    logger.cfg.set("access_log_format", " ".join(f"%({name})s" for name in EVERY_ATOM))
    logger.access(*line_inputs)
    eager = SafeAtoms(logger.atoms(*line_inputs))
    assert [(r.levelno, r.getMessage()) for r in captured.records] == [(logging.INFO, " ".join(str(eager[n]) for n in EVERY_ATOM))]
    assert captured.records[0].args is None  # the line, not the request's objects, stays with the record
    assert RAW_KEY not in captured.text


def test_a_literal_format_and_percent_signs_log_as_written(logger, line_inputs, captured):
    logger.cfg.set("access_log_format", "100%% %(s)s")
    logger.access(*line_inputs)
    assert [r.getMessage() for r in captured.records] == [f"100% {line_inputs[0].status}".replace("200 OK", "200")]


@pytest.mark.parametrize("silence", ["level", "disabled", "filter", "off"])
def test_no_line_when_the_access_log_is_silenced(logger, line_inputs, captured, silence, monkeypatch):
    log = logger.access_log
    if silence == "level":
        log.setLevel(logging.WARNING)  # caplog puts the level back
    elif silence == "disabled":
        monkeypatch.setattr(log, "disabled", True)
    elif silence == "filter":
        monkeypatch.setattr(log, "filters", [lambda record: False])
    else:
        monkeypatch.setattr(logger, "_access_log_enabled", False)
    logger.access(*line_inputs)
    assert captured.records == []


def test_an_atom_that_fails_is_reported_as_an_error_not_raised(logger, line_inputs, captured, monkeypatch):
    errors = []
    monkeypatch.setattr(logger, "error", errors.append)
    logger.cfg.set("access_log_format", "%(r)s")
    resp, req, environ, took = line_inputs
    logger.access(resp, req, {k: v for k, v in environ.items() if k != "REQUEST_METHOD"}, took)
    assert captured.records == [] and len(errors) == 1 and "KeyError: 'REQUEST_METHOD'" in errors[0]
