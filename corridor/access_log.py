"""gunicorn's logger with secrets kept out of access lines (SPEC §7: keys never in logs), and each
line's atoms worked out only when the format names them."""

from __future__ import annotations

import logging
import os
import traceback
from typing import Any, Callable
from urllib.parse import unquote_plus

from gunicorn.glogging import Logger

from schemas.query import query_parameter_values

_ACCEPTED = query_parameter_values()
_LIMIT = 256
_MISSING = object()


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
    """Access-line atoms with a redacted query and nothing of the Authorization header, whatever the format."""

    def atoms(self, resp: Any, req: Any, environ: dict, request_time: Any) -> dict:
        """Every atom gunicorn offers, the query and the Authorization header redacted in each
        (`u` is the user of Basic credentials, which a client may send a key as)."""
        atoms = super().atoms(resp, req, environ, request_time)
        line = AccessAtoms(self, resp, req, environ, request_time)
        for name, redacted in _REDACTED.items():
            value = redacted(line)
            if value is not _MISSING:
                atoms[name] = value
        return atoms

    def access(self, resp: Any, req: Any, environ: dict, request_time: Any) -> None:
        """gunicorn's access line, from atoms worked out one by one as the format asks for them.

        The line is formatted here, once, and logged as it is: each atom is read at the time of the
        request, a failing one is reported like any other error here, and the record holds no
        request objects. Its pathname, lineno and funcName are logging's for an unknown caller.
        """
        log = self.access_log
        if not self.access_log_enabled or not log.isEnabledFor(logging.INFO):
            return
        try:
            line = self.cfg.access_log_format % AccessAtoms(self, resp, req, environ, request_time)
            # the record `log.info(line)` makes, less its walk up the stack to name the caller: always here
            log.handle(log.makeRecord(log.name, logging.INFO, "(unknown file)", 0, line, None, None, "(unknown function)"))
        except Exception:
            self.error(traceback.format_exc())


def _last(pairs: Any, name: str) -> Any:
    # gunicorn builds its atoms dict from these pairs in order, so the last of a name wins
    if hasattr(pairs, "items"):
        pairs = pairs.items()
    for key, value in reversed(list(pairs)):
        if key.lower() == name:
            return value
    return _MISSING


def _sent(atoms: AccessAtoms) -> Any:
    return getattr(atoms.resp, "sent", None)


def _status(atoms: AccessAtoms) -> Any:
    status = atoms.resp.status
    return status.split(None, 1)[0] if isinstance(status, str) else status


_Atom = Callable[["AccessAtoms"], Any]
# the atoms that could show a key, as AccessLogger gives them: the one place they are redacted
_REDACTED: dict[str, _Atom] = {
    "u": lambda a: "-",  # gunicorn's: the user of Basic credentials
    "r": lambda a: f"{a.environ['REQUEST_METHOD']} {_redacted_uri(a.environ)} {a.environ['SERVER_PROTOCOL']}",
    "q": lambda a: redact_query(a.environ.get("QUERY_STRING", "")),
    "{authorization}i": lambda a: "-",
    "{http_authorization}e": lambda a: "-",
    "{query_string}e": lambda a: redact_query(a.environ["QUERY_STRING"]) if "QUERY_STRING" in a.environ else _MISSING,
    "{raw_uri}e": lambda a: _redacted_uri(a.environ) if "RAW_URI" in a.environ else _MISSING,
}
# gunicorn's own atoms (Logger.atoms), then those redactions
_ATOMS: dict[str, _Atom] = {
    "h": lambda a: a.environ.get("REMOTE_ADDR", "-"),
    "l": lambda a: "-",
    "t": lambda a: a.logger.now(),
    "s": _status,
    "m": lambda a: a.environ.get("REQUEST_METHOD"),
    "U": lambda a: a.environ.get("PATH_INFO"),
    "H": lambda a: a.environ.get("SERVER_PROTOCOL"),
    "b": lambda a: _sent(a) is not None and str(_sent(a)) or "-",
    "B": _sent,
    "f": lambda a: a.environ.get("HTTP_REFERER", "-"),
    "a": lambda a: a.environ.get("HTTP_USER_AGENT", "-"),
    "T": lambda a: a.time.seconds,
    "D": lambda a: a.time.seconds * 1000000 + a.time.microseconds,
    "M": lambda a: a.time.seconds * 1000 + int(a.time.microseconds / 1000),
    "L": lambda a: "%d.%06d" % (a.time.seconds, a.time.microseconds),
    "p": lambda a: f"<{os.getpid()}>",
    **_REDACTED,
}


class AccessAtoms:
    """What gunicorn's SafeAtoms gives over `AccessLogger.atoms` (quotes escaped, "-" for an atom
    there is none of, braced names in any case), one atom at a time, for `format % atoms`:
    building all ~60 for a line that names 7 cost more than the rest of the line
    (docs/PERFORMANCE.md)."""

    __slots__ = ("logger", "resp", "req", "environ", "time")

    def __init__(self, logger: AccessLogger, resp: Any, req: Any, environ: dict, request_time: Any) -> None:
        self.logger, self.resp, self.req, self.environ, self.time = logger, resp, req, environ, request_time

    def __getitem__(self, key: str) -> Any:
        if key[:1] == "{":
            key = key.lower()
        atom = _ATOMS.get(key)
        value = atom(self) if atom is not None else self._braced(key)
        if value is _MISSING:
            return "-"
        return value.replace('"', '\\"') if isinstance(value, str) else value

    def _braced(self, key: str) -> Any:
        if key[:1] != "{" or key[-2:-1] != "}" or key[-1] not in "ioe":
            return _MISSING
        name, kind = key[1:-2], key[-1]
        if kind == "e":
            return _last(self.environ, name)
        return _last(self.resp.headers if kind == "o" else getattr(self.req, "headers", self.req), name)
