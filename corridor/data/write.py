"""Writing a data file: the layout people review (one offer a line), atomically, only if valid."""

from __future__ import annotations

import functools
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from corridor.data.load import DataError, parse_dataset
from corridor.domain.model import Dataset

_ENTRIES_PER_LINE = 6
_json = functools.partial(json.dumps, ensure_ascii=False)


def format_data(value: Any, indent: int = 0) -> str:
    """JSON with 2-space indentation; small flat objects on one line, big ones a few entries a line."""
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, dict) and not any(_nested(v) or isinstance(v, dict) for v in value.values()):
        entries = [f"{_json(k)}: {_json(v)}" for k, v in value.items()]
        if len(entries) <= 8:
            return "{" + ", ".join(entries) + "}"
        lines = [", ".join(entries[i : i + _ENTRIES_PER_LINE]) for i in range(0, len(entries), _ENTRIES_PER_LINE)]
        return "{\n" + ",\n".join(inner + line for line in lines) + "\n" + pad + "}"
    if isinstance(value, dict):
        items = [f"{inner}{_json(k)}: {format_data(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if _nested(value):
        return "[\n" + ",\n".join(inner + format_data(v, indent + 2) for v in value) + "\n" + pad + "]"
    return _json(value)


def _nested(value: Any) -> bool:
    return isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value)


def write_valid_data(raw: dict, path: str) -> Dataset:
    text = (format_data(raw) + "\n").encode()
    dataset = parse_dataset(text, path)
    target = Path(path)
    try:
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            if target.exists():
                os.chmod(temporary, target.stat().st_mode & 0o777)
            os.replace(temporary, target)  # readers see the old file or the new one, never a mix
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as err:  # a read-only folder, a full disk: said in one line, the old file kept
        raise DataError(f"{path}: cannot write the data file: {err.strerror}.") from None
    return dataset
