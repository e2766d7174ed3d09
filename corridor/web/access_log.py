"""gunicorn's logger with keys kept out of access lines, whatever the access-log format names."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_plus

from gunicorn.glogging import Logger

from schemas.query import query_parameter_values

_ACCEPTED = query_parameter_values()
_LIMIT = 256


def redact_query(query: str) -> str:
    """The query with each parameter the API does not define, and each value no endpoint accepts,
    redacted: either could be a misplaced key (`?api_key=…`, `?corridor=USD_MXN;key=…`)."""
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
    """The request target as logged: its path, without a scheme, host or fragment (`http://user:key@…`,
    `/path#…&key=…` are possible request lines), and the redacted query."""
    path = environ.get("RAW_URI", environ.get("PATH_INFO", "")).split("?", 1)[0].split("#", 1)[0]
    if "://" in path:
        path = "/" + path.split("://", 1)[1].partition("/")[2]
    query = redact_query(environ.get("QUERY_STRING", ""))
    return f"{path}?{query}" if query else path


class AccessLogger(Logger):
    """gunicorn's atoms, with every one that could show a key redacted: the query wherever it
    appears, and the Authorization header and Basic credentials (`u`) not at all."""

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
