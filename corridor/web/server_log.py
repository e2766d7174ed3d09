"""gunicorn's logger with keys kept out of its access lines and of its own messages."""

from __future__ import annotations

import logging
import re
import traceback
from typing import Any
from urllib.parse import unquote_plus

from gunicorn.glogging import Logger

from schemas.query import query_parameter_values

_ACCEPTED = query_parameter_values()
_LIMIT = 256
_QUOTED = re.compile(r"""'[^']*'?|"[^"]*"?""")  # what gunicorn quotes of a bad request: the client's text
_QUERY = re.compile(r"\?[^\s'\"]*")
_CREDENTIALS = re.compile(r"\b(bearer|basic)\s+\S+", re.IGNORECASE)


def redact_query(query: str) -> str:
    """The query less parameters the API does not define and values no endpoint accepts."""
    # either could be a misplaced key: `?api_key=…`, `?corridor=USD_MXN;key=…`
    parts = []
    for part in query.split("&"):
        if part:
            name, _, value = part.partition("=")
            accepted = _ACCEPTED.get(unquote_plus(name))
            if accepted is None:
                parts.append("[redacted]")
            else:
                parts.append(part if not value or accepted.fullmatch(unquote_plus(value)) else f"{name}=[redacted]")
    text = "&".join(parts)
    return text if len(text) <= _LIMIT else f"{text[:_LIMIT]}…"


def _redacted_uri(environ: dict) -> str:
    """The request target as logged: its path and redacted query, never a scheme, host or fragment."""
    # `GET http://user:key@host/…` and `GET /path#…&key=…` are request lines a client may send
    path = environ.get("RAW_URI", environ.get("PATH_INFO", "")).split("?", 1)[0].split("#", 1)[0]
    if "://" in path:
        path = "/" + path.split("://", 1)[1].partition("/")[2]
    query = redact_query(environ.get("QUERY_STRING", ""))
    return f"{path}?{query}" if query else path


def redact_text(text: str) -> str:
    """A message with any text a client sent in quotes, any query and any credentials redacted."""
    text = _QUOTED.sub(lambda quoted: f"{quoted[0][0]}[redacted]{quoted[0][0]}", text)
    return _CREDENTIALS.sub(r"\1 [redacted]", _QUERY.sub("?[redacted]", text))


def redact_record(record: logging.LogRecord) -> bool:
    """A logging filter: the record's message, and its traceback if any, redacted in place."""
    message = record.getMessage()
    if record.exc_info:
        message = f"{message}\n{''.join(traceback.format_exception(*record.exc_info)).rstrip()}"
        record.exc_info = record.exc_text = None
    record.msg, record.args = redact_text(message), None
    return True


class RedactingLogger(Logger):
    """gunicorn's logger, redacting every access-line atom and every message that could show a key."""

    def setup(self, cfg: Any) -> None:
        """gunicorn's set-up, with the error log's records redacted."""
        super().setup(cfg)
        if redact_record not in self.error_log.filters:
            self.error_log.addFilter(redact_record)

    def atoms(self, resp: Any, req: Any, environ: dict, request_time: Any) -> dict:
        """gunicorn's atoms, redacted."""
        atoms = super().atoms(resp, req, environ, request_time)
        uri = _redacted_uri(environ)
        atoms.update({
            "u": "-",
            "r": f"{environ['REQUEST_METHOD']} {uri} {environ['SERVER_PROTOCOL']}",
            "q": redact_query(environ.get("QUERY_STRING", "")),
            "{authorization}i": "-",
            "{http_authorization}e": "-",
            "{query_string}e": redact_query(environ.get("QUERY_STRING", "")),
            "{raw_uri}e": uri,
        })
        return atoms
