"""JSON bodies as the API writes them: compact UTF-8, keys in schema order. Pure: no Flask."""

from __future__ import annotations

import json
import secrets
from typing import Any


class RawJSON:
    """JSON text encoded already (a fast path built from a schema), placed in a document as it is."""

    __slots__ = ("text",)  # not a tuple: the encoder would write a tuple as an array

    def __init__(self, text: str) -> None:
        self.text = text


# a RawJSON inside a payload is encoded as this string, then replaced by its text; no data
# contains it: a NUL is written \u0000 in JSON, and the rest is random per process
_MARK = "\x00raw-json-" + secrets.token_hex(8)


def _splice_mark(value: Any) -> str:
    if isinstance(value, RawJSON):
        return _MARK
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


# one encoder for every body: `json.dumps` with options builds a new one per call
_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_splice_mark)
_MARK_JSON = _encoder.encode(_MARK)


def json_text(payload: Any) -> str:
    """Compact JSON, keys in schema order; a RawJSON payload, or top-level value of a dict payload, as it is."""
    if isinstance(payload, RawJSON):
        return payload.text
    text = _encoder.encode(payload)
    raws = [value.text for value in payload.values() if isinstance(value, RawJSON)] if isinstance(payload, dict) else []
    pieces = text.split(_MARK_JSON)
    if len(pieces) != len(raws) + 1:
        raise TypeError("RawJSON is placed only as a payload or a top-level value of a payload dict")
    return "".join(piece + raw for piece, raw in zip(pieces, raws)) + pieces[-1]


def json_bytes(payload: Any) -> bytes:
    """Compact UTF-8 JSON, keys in schema order, one trailing newline for terminals."""
    return json_text(payload).encode() + b"\n"
