"""The failure every package raises for a client to read; corridor/api/errors.py answers it."""

from __future__ import annotations

from collections.abc import Mapping


class ApiError(Exception):
    """A client-facing failure with its HTTP status, machine code and a sentence to act on."""

    def __init__(self, status: int, code: str, detail: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = dict(headers or {})


def quoted(name: str, limit: int = 40) -> str:
    """A client-sent name made safe to quote back: printable and short."""
    clean = "".join(c if c.isprintable() else "?" for c in name[:limit])
    return f"'{clean}…'" if len(name) > limit else f"'{clean}'"
