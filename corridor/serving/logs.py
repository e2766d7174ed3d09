"""Logging filters: nothing a client sent that could be a key reaches gunicorn's error log, and nothing a client sent
can start a line of its own in any log."""

from __future__ import annotations

import logging
import re

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
    return _CONTROL.sub(lambda match: f"\\x{ord(match[0]):02x}" if ord(match[0]) < 0x100 else
                        f"\\u{ord(match[0]):04x}", text)


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
