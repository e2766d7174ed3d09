"""gunicorn's logger with secrets kept out of access lines (SPEC §7: keys never in logs)."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_plus

from gunicorn.glogging import Logger

from schemas.query import query_parameter_names

_KNOWN = query_parameter_names()
_LIMIT = 256


def redact_query(query: str) -> str:
    """The query with every parameter the API does not define replaced: it could be a misplaced key."""
    parts = [part if unquote_plus(part.split("=", 1)[0]) in _KNOWN else "[redacted]" for part in query.split("&") if part]
    text = "&".join(parts)
    return text if len(text) <= _LIMIT else f"{text[:_LIMIT]}…"


class AccessLogger(Logger):
    """Access-line atoms with a redacted query and no Authorization header, whatever the format."""

    def atoms(self, resp: Any, req: Any, environ: dict, request_time: Any) -> dict:
        atoms = super().atoms(resp, req, environ, request_time)
        query = redact_query(environ.get("QUERY_STRING", ""))
        path = environ.get("RAW_URI", environ.get("PATH_INFO", "")).split("?", 1)[0]
        atoms["q"] = query
        atoms["r"] = f"{environ['REQUEST_METHOD']} {path}{'?' + query if query else ''} {environ['SERVER_PROTOCOL']}"
        atoms["{authorization}i"] = "-"
        return atoms
