"""A logging filter for gunicorn's error log: nothing a client sent that could be a key reaches it."""

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
    """Redacts each record's message and traceback in place (gunicorn.conf.py adds it to gunicorn.error)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed call: logging reports it as it would without this filter
            return True
        record.msg, record.args = redact_text(message), None
        if record.exc_info:
            record.exc_text = redact_text(logging.Formatter().formatException(record.exc_info))
        return True
