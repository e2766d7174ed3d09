"""The access line: atoms worked out on demand give what gunicorn's would, secrets redacted in all."""

import datetime
import logging
from types import SimpleNamespace

import pytest
from gunicorn.config import Config
from gunicorn.glogging import SafeAtoms

from conftest import RAW_KEY
from corridor.access_log import AccessAtoms, AccessLogger

SHIPPED_FORMAT = '%(t)s rid=%({x-request-id}o)s "%(r)s" %(s)s %(b)s %(M)sms %(h)s'
BASIC = "Basic dXNlcjpwYXNz"  # user:pass


def _environ(query: str, authorization: str) -> dict:
    return {
        "REQUEST_METHOD": "GET", "RAW_URI": f"/api/providers?{query}", "PATH_INFO": "/api/providers",
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
        _environ(f"corridor=USD_MXN&api_key={RAW_KEY}", f"Bearer {RAW_KEY}"),
    ),
    "basic credentials, nothing sent yet": (
        SimpleNamespace(status=404, headers={"Content-Type": "application/json"}),
        [("AUTHORIZATION", BASIC)],
        _environ("", BASIC),
    ),
}


@pytest.fixture
def logger():
    config = Config()
    config.set("accesslog", "/dev/null")
    return AccessLogger(config)


@pytest.fixture(params=list(REQUESTS), ids=list(REQUESTS))
def line_inputs(request, logger, monkeypatch):
    monkeypatch.setattr(logger, "now", lambda: "[23/Nov/2026:01:02:03 +0000]")
    resp, req, environ = REQUESTS[request.param]
    return resp, req, environ, datetime.timedelta(seconds=1, microseconds=234567)


def test_each_atom_is_what_gunicorn_gives_over_the_redacted_atoms(logger, line_inputs):
    eager = SafeAtoms(logger.atoms(*line_inputs))
    lazy = AccessAtoms(logger, *line_inputs)
    names = [*eager, *(name.upper() for name in eager if name.startswith("{")),
             "x", "{nothing}i", "{x-request-id}", "{x-request-id}x", "{}o", "{mixed_case}e"]
    assert len(names) > 40
    assert {name: lazy[name] for name in names} == {name: eager[name] for name in names}
    assert set(lazy) == set(eager) and len(lazy) == len(eager) and "h" in lazy and "x" not in lazy


def test_the_shipped_format_reads_the_atoms_it_names(logger, line_inputs):
    line = SHIPPED_FORMAT % AccessAtoms(logger, *line_inputs)
    if line_inputs[0].status == "200 OK":
        assert line == ('[23/Nov/2026:01:02:03 +0000] rid=last "GET /api/providers?corridor=USD_MXN&[redacted] '
                        'HTTP/1.1" 200 1761 1234ms 127.0.0.1')
    else:
        assert line == '[23/Nov/2026:01:02:03 +0000] rid=- "GET /api/providers HTTP/1.1" 404 - 1234ms 127.0.0.1'


@pytest.mark.parametrize("atom", ["{authorization}i", "{AUTHORIZATION}i", "{http_authorization}e", "{query_string}e",
                                  "{raw_uri}e", "q", "r", "a", "{user-agent}i"])
def test_no_atom_gives_the_key(logger, line_inputs, atom):
    assert RAW_KEY not in str(AccessAtoms(logger, *line_inputs)[atom])


def test_a_line_goes_through_logging_once_with_every_atom_named(logger, line_inputs, caplog):
    names = ["h", "u", "t", "r", "q", "s", "b", "B", "f", "a", "T", "D", "M", "L", "{authorization}i",
             "{user-agent}i", "{x-request-id}o", "{http_authorization}e", "{query_string}e", "{raw_uri}e"]
    logger.cfg.set("access_log_format", " ".join(f"%({name})s" for name in names))
    with caplog.at_level(logging.INFO, logger=logger.access_log.name):
        logger.access(*line_inputs)
    eager = SafeAtoms(logger.atoms(*line_inputs))
    assert [record.getMessage() for record in caplog.records] == [" ".join(str(eager[name]) for name in names)]
    assert RAW_KEY not in caplog.text and "dXNlcjpwYXNz" not in caplog.text


def test_no_line_when_the_access_log_is_off(line_inputs, caplog):
    logger = AccessLogger(Config())  # no accesslog set
    with caplog.at_level(logging.INFO, logger=logger.access_log.name):
        logger.access(*line_inputs)
    assert caplog.records == []
