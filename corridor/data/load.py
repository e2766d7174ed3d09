"""Read and validate a data file; a broken one is refused with file, JSON path and rule."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

from marshmallow import ValidationError

from corridor.data.files import NotRegularFile, read_regular_file
from corridor.domain.model import Dataset
from corridor.settings import ConfigError
from schemas.seed import SeedSchema

_seed_schema = SeedSchema()
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class DataError(ConfigError):
    """A data file that cannot be served."""


def read_data_file(path: str, max_bytes: int | None = None) -> bytes:
    """The file's bytes, or DataError naming it; a file over `max_bytes` is refused unread."""
    try:
        data = read_regular_file(path, max_bytes)
    except NotRegularFile:
        raise DataError(f"{path}: the data file is not a regular file.") from None
    except OSError as err:
        raise DataError(f"{path}: cannot read the data file: {err.strerror}.") from None
    if max_bytes is not None and len(data) > max_bytes:
        raise DataError(f"{path}: the data file is over {max_bytes:,} bytes, the limit DATA_MAX_MB sets.")
    return data


def load_dataset(path: str, max_bytes: int | None = None) -> Dataset:
    """Read, parse, validate and freeze the data file at `path`, or raise DataError."""
    return parse_dataset(read_data_file(path, max_bytes), path)


def parse_dataset(data: bytes, path: str) -> Dataset:
    """Parse, validate and freeze the bytes of a data file; `path` names it in errors."""
    try:
        raw = json.loads(data.decode("utf-8"), parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
    except UnicodeDecodeError:
        raise DataError(f"{path}: the data file is not UTF-8 text.") from None
    except json.JSONDecodeError as err:
        raise DataError(f"{path}: not valid JSON at line {err.lineno} column {err.colno}: {err.msg}.") from None
    except ValueError as err:
        if "integer string conversion" in str(err):  # Python's own words name its setting, not the file's fault
            err = ValueError(f"a number has more than {sys.get_int_max_str_digits():,} digits, as no figure does.")
        raise DataError(f"{path}: {err}") from None
    except RecursionError:
        raise DataError(f"{path}: arrays or objects nested too deeply to be corridor data.") from None
    try:
        return _seed_schema.load(raw)
    except ValidationError as err:
        lines = [f"  {where}: {rule}" for where, rule in error_lines(err.messages)]
        raise DataError(f"{path} is not valid corridor data ({len(lines)} problem(s)):\n" + "\n".join(lines)) from None


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number the data file may hold (JSON has no {name}).")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) < len(pairs):
        twice = next(key for key, count in Counter(key for key, _ in pairs).items() if count > 1)
        raise ValueError(f"the key {twice!r} appears twice in one object.")
    return result


def error_lines(messages: Any, path: str = "$") -> Iterator[tuple[str, str]]:
    """Flatten marshmallow's nested error dict into (JSON path, rule) pairs."""
    if isinstance(messages, str):
        yield path, messages
    elif isinstance(messages, list):
        for message in messages:
            yield from error_lines(message, path)
    else:
        for key, value in messages.items():
            if key == "_schema":
                yield from error_lines(value, path)
            elif isinstance(key, int):
                yield from error_lines(value, f"{path}[{key}]")
            elif isinstance(value, dict) and set(value) <= {"key", "value"}:
                # a rate-table entry: marshmallow reports its key and its value apart
                for part, rule in value.items():
                    yield from error_lines(rule, _member(path, key) + (" (the key)" if part == "key" else ""))
            else:
                yield from error_lines(value, _member(path, key))


def _member(path: str, key: str) -> str:
    # plain names read as `.name`; anything odd is quoted so the path stays unambiguous
    return f"{path}.{key}" if _NAME.fullmatch(key) else f"{path}[{json.dumps(key)}]"


def summary(dataset: Dataset) -> str:
    """One line on what a valid file holds."""
    active = len(dataset.active_corridors)
    offers = sum(len(c.offers) for c in dataset.corridors)
    return (
        f"as of {dataset.as_of.isoformat()}: {len(dataset.corridors)} corridors ({active} active), "
        f"{len(dataset.providers)} providers, {offers} offers, {len(dataset.currencies)} currencies"
    )
