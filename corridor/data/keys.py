"""The operator's keys (API_KEYS, API_KEYS_FILE), held only as SHA-256 digests: the one digest of every key."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable
from typing import NamedTuple

from corridor.data.files import NotRegularFile, read_regular_file
from corridor.settings import ConfigError

_HASHED = re.compile(r"sha256:([0-9a-f]{64})", re.IGNORECASE)
_RAW = re.compile(r"[\x21-\x7e]+")  # printable ASCII, no spaces: survives any HTTP client
SHORT_KEY = 16  # raw keys shorter than this are warned about: guessable
KEYS_FILE_MAX = 2**20  # bytes: thousands of entries


def key_digest(key: str) -> bytes:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()


class Keys(NamedTuple):
    digests: tuple[bytes, ...]
    short: tuple[str, ...]  # where each raw key shorter than SHORT_KEY is, e.g. "API_KEYS entry 2": never the key


def parse_entries(entries: Iterable[tuple[str, str]]) -> Keys:
    """Digests of raw or `sha256:` entries, each given with where it is, which an error names: never the entry."""
    digests, short = [], []
    for where, entry in entries:
        if hashed := _HASHED.fullmatch(entry):
            digests.append(bytes.fromhex(hashed[1]))
        elif entry.lower().startswith("sha256:") or not _RAW.fullmatch(entry):
            raise ConfigError(
                f"{where} is not usable: give a raw key of printable ASCII "
                "without spaces, or sha256: followed by 64 hex digits."
            )
        else:
            digests.append(key_digest(entry))
            if len(entry) < SHORT_KEY:
                short.append(where)
    return Keys(tuple(digests), tuple(short))


def parse_api_keys(value: str) -> Keys:
    entries = (e for e in (e.strip() for e in value.split(",")) if e)
    return parse_entries((f"API_KEYS entry {n}", e) for n, e in enumerate(entries, start=1))


def with_keys_file(keys: Keys, path: str) -> Keys:
    """`keys` and, if `path` names a file, its entries: one a line; blank lines and lines starting with # skipped."""
    if not path:
        return keys
    try:
        data = read_regular_file(path, KEYS_FILE_MAX)
        if len(data) > KEYS_FILE_MAX:
            raise ConfigError(f"API_KEYS_FILE {path} cannot be read: over {KEYS_FILE_MAX:,} bytes.")
        text = data.decode("utf-8-sig")  # a byte-order mark, as some editors write, is no part of the first key
    except NotRegularFile:
        raise ConfigError(f"API_KEYS_FILE {path} cannot be read: not a regular file.") from None
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else "not UTF-8 text"
        raise ConfigError(f"API_KEYS_FILE {path} cannot be read: {reason}.") from None
    lines = ((n, line.strip()) for n, line in enumerate(text.splitlines(), start=1))
    from_file = parse_entries(
        (f"API_KEYS_FILE {path} line {n}", line) for n, line in lines if line and not line.startswith("#")
    )
    if not from_file.digests:
        raise ConfigError(f"API_KEYS_FILE {path} holds no key: give one entry per line.")
    return Keys(keys.digests + from_file.digests, keys.short + from_file.short)


def generate_key() -> tuple[str, str]:
    key = secrets.token_urlsafe(32)
    return key, "sha256:" + key_digest(key).hex()
