"""Logging filters: nothing a client sent that could be a key reaches gunicorn's error log, and nothing a client sent
can start a line of its own in any log."""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import secrets

from flask import g, has_request_context, request

_BAD_REQUEST = re.compile(r"(Invalid request from ip=\S*: )(.*)", re.DOTALL)
# where gunicorn's description of a request it could not parse ends and the client's text begins
_CLIENT_TEXT = re.compile(r"""[:'"(]""")
_SECRETS = [  # in any other message: a URL's query, fragment and credentials, an Authorization value
    (re.compile(r"([?#])[^\s'\"]+"), r"\1[redacted]"),
    (re.compile(r"://[^/\s'\"]*@"), "://[redacted]@"),
    (re.compile(r"\b(bearer|basic)\s+\S+", re.IGNORECASE), r"\1 [redacted]"),
]


# C0 and C1 controls, DEL and Unicode's line and paragraph separators: each could end a line, or restyle a terminal
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def escape_control(text: str) -> str:
    """`text` with each control character written as an escape (`\\x0a`), so that it stays on its line."""
    return _CONTROL.sub(
        lambda match: f"\\x{ord(match[0]):02x}" if ord(match[0]) < 0x100 else f"\\u{ord(match[0]):04x}", text
    )


class EscapeControl(logging.Filter):
    """Escapes control characters in each record's arguments (gunicorn's access line takes a dict of them, the app's
    messages a tuple): a path or header a client sent cannot forge a line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, dict):
            for name, value in record.args.items():
                if isinstance(value, str):
                    record.args[name] = escape_control(value)
        elif isinstance(record.args, tuple):
            record.args = tuple(escape_control(arg) if isinstance(arg, str) else arg for arg in record.args)
        return True


def redact_text(text: str) -> str:
    """A message of gunicorn's with nothing a client sent that could be a key."""
    bad = _BAD_REQUEST.match(text)
    if bad:  # gunicorn's description of what it could not parse, none of the client's text
        description = _CLIENT_TEXT.split(bad[2], maxsplit=1)[0].rstrip()
        return text if description == bad[2] else f"{bad[1]}{description} [redacted]"
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class RedactClientText(logging.Filter):
    """Redacts each record's message and traceback in place, and escapes the message's control characters
    (gunicorn.conf.py adds it to gunicorn.error)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed call: logging reports it as it would without this filter
            return True
        record.msg, record.args = escape_control(redact_text(message)), None
        if record.exc_info:
            record.exc_text = redact_text(logging.Formatter().formatException(record.exc_info))
        return True


class JsonFormatter(logging.Formatter):
    """LOG_FORMAT=json: each record as one JSON object on its own line. gunicorn's access line becomes the request's
    fields (its time, id, method, route, status, bytes, duration and client address as PROXY_HOPS trusts it), never
    its query string or headers; any other line keeps its message, with the request's id and route when it was
    logged during one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        atoms = record.args if record.name == "gunicorn.access" and isinstance(record.args, dict) else None
        if atoms is not None:  # gunicorn's atoms of an access line, its environ's among them (`{name}e`)
            status = atoms.get("s", "-")
            entry.update(
                message="request",
                request_id=_present(atoms.get("{x-request-id}o")),
                method=_present(atoms.get("m")),
                route=_route(atoms.get("{corridor.route}e")),
                path=_present(atoms.get("U")),
                status=int(status) if str(status).isdigit() else None,
                bytes=int(atoms["B"]) if str(atoms.get("B", "")).isdigit() else 0,
                duration_ms=round(int(atoms["D"]) / 1000, 3) if str(atoms.get("D", "")).isdigit() else None,
                client=_present(atoms.get("h")),
            )
        else:
            entry["message"] = record.getMessage()
            if has_request_context():
                rule = request.url_rule
                entry.update(request_id=request_id(), method=request.method, route=_route(rule.rule if rule else None))
            if record.exc_info:
                entry["exception"] = record.exc_text or self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, separators=(",", ":"))


def json_line(message: str, logger: str, level: int = logging.INFO) -> str:
    """`message` as the JSON object `logger` would log it with LOG_FORMAT=json: a command's output line."""
    record = logging.makeLogRecord(
        {"name": logger, "msg": message, "levelno": level, "levelname": logging.getLevelName(level)}
    )
    return JsonFormatter().format(record)


def format_as_json(logger: logging.Logger) -> None:
    """Each of `logger`'s handlers writes JSON lines from now on: Alembic's, which its ini file sets up as text."""
    for handler in logger.handlers:
        handler.setFormatter(JsonFormatter())


def _route(rule: object) -> str | None:
    return route_template(rule) if isinstance(rule, str) and rule != "-" else None


def _present(value: object) -> object:
    return None if value in (None, "-") else value


def gunicorn_log_config(log_format: str) -> dict:
    """gunicorn's `logconfig_dict`: for LOG_FORMAT=json, its error and access lines (and the app's, which reach the
    root logger) in JSON, on stderr and stdout as in text; nothing for text, gunicorn's own lines."""
    if log_format.strip().lower() != "json":
        return {}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "corridor.serving.logs.JsonFormatter"}},
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stdout"},
            "error_console": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"},
        },
        "root": {"level": "INFO", "handlers": ["error_console"]},
        "loggers": {
            "gunicorn.error": {"handlers": ["error_console"], "propagate": False},  # at LOG_LEVEL, as gunicorn set
            "gunicorn.access": {"level": "INFO", "handlers": ["console"], "propagate": False},
        },
    }


CLIENT_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")


def request_id() -> str:
    """This request's id, the same wherever it is asked for: the client's X-Request-ID if it is a plain token of up to
    128 characters, else one made for it."""
    if "request_id" not in g:
        given = request.headers.get("X-Request-ID")
        g.request_id = given if given and CLIENT_REQUEST_ID.fullmatch(given) else secrets.token_hex(16)
    return g.request_id


_RULE_VARIABLE = re.compile(r"<(?:[^<>:]+:)?([^<>:]+)>")


def route_template(rule: str) -> str:
    """A route as the API document writes it: `/api/poc/corridors/{corridor_id}`, not Werkzeug's `<…:corridor_id>`."""
    return _RULE_VARIABLE.sub(r"{\1}", rule)
