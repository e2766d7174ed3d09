"""gunicorn's logger with keys kept out of its access lines and of its own messages."""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import unquote_plus

from gunicorn.glogging import Logger

from schemas.query import query_parameter_values

_ACCEPTED = query_parameter_values()
_LIMIT = 256
_BAD_REQUEST = re.compile(r"(Invalid request from ip=\S*: )(.*)", re.DOTALL)
# where gunicorn's description of a request it could not parse ends and the client's text begins
_CLIENT_TEXT = re.compile(r"""[:'"(]""")
_SECRETS = [  # in any other message: a URL's query, fragment and credentials, an Authorization value
    (re.compile(r"([?#])[^\s'\"]+"), r"\1[redacted]"),
    (re.compile(r"://[^/\s'\"]*@"), "://[redacted]@"),
    (re.compile(r"\b(bearer|basic)\s+\S+", re.IGNORECASE), r"\1 [redacted]"),
]


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
    """A message of gunicorn's with nothing a client sent that could be a key."""
    bad = _BAD_REQUEST.match(text)
    if bad:  # gunicorn's description of what it could not parse, none of the client's text
        description = _CLIENT_TEXT.split(bad[2], maxsplit=1)[0].rstrip()
        return text if description == bad[2] else f"{bad[1]}{description} [redacted]"
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


def redact_record(record: logging.LogRecord) -> bool:
    """A logging filter: the record's message and traceback redacted in place."""
    try:
        message = record.getMessage()
    except Exception:  # a malformed call: logging reports it as it would without this filter
        return True
    record.msg, record.args = redact_text(message), None
    if record.exc_info:
        record.exc_text = redact_text(logging.Formatter().formatException(record.exc_info))
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
