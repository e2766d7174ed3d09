"""Bearer keys: the operator's (API_KEYS, API_KEYS_FILE) and those account holders make, held only as SHA-256 digests."""

from __future__ import annotations

import hmac
import os
import re
import secrets
import stat
from typing import Iterable, NamedTuple

from flask import current_app, request

from corridor.data.accounts import KeyRecord, key_digest
from corridor.settings import ConfigError
from corridor.web.account_keys import KeysUnavailable
from corridor.web.errors import ApiError
from corridor.web.rate_limits import limit_key, limit_key_lookup, limit_refused_key

_REALM = 'Bearer realm="corridor-api"'
_HASHED = re.compile(r"sha256:([0-9a-f]{64})", re.IGNORECASE)
_RAW = re.compile(r"[\x21-\x7e]+")  # printable ASCII, no spaces: survives any HTTP client
SHORT_KEY = 16  # raw keys shorter than this are warned about: guessable
KEYS_FILE_MAX = 2**20  # bytes: thousands of entries


class Keys(NamedTuple):
    """Digests of the live keys, and the entries that are raw keys shorter than SHORT_KEY."""

    digests: tuple[bytes, ...]
    short: tuple[str, ...]  # where each short one is, e.g. "API_KEYS entry 2": never the key


def parse_entries(entries: Iterable[tuple[str, str]]) -> Keys:
    """Digests of raw or `sha256:` entries, each given with where it is; never echoes an entry."""
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
    """The comma-separated entries of API_KEYS; empty ones are skipped."""
    entries = (e for e in (e.strip() for e in value.split(",")) if e)
    return parse_entries((f"API_KEYS entry {n}", e) for n, e in enumerate(entries, start=1))


def read_keys_file(path: str) -> Keys:
    """The entries of an API_KEYS_FILE, one per line; blank lines and lines starting with # skipped."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe or a device could block or never end
            raise ConfigError(f"API_KEYS_FILE {path} cannot be read: not a regular file.")
        with open(path, "rb") as handle:
            data = handle.read(KEYS_FILE_MAX + 1)
        if len(data) > KEYS_FILE_MAX:
            raise ConfigError(f"API_KEYS_FILE {path} cannot be read: over {KEYS_FILE_MAX:,} bytes.")
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else "not UTF-8 text"
        raise ConfigError(f"API_KEYS_FILE {path} cannot be read: {reason}.") from None
    lines = ((n, line.strip()) for n, line in enumerate(text.splitlines(), start=1))
    keys = parse_entries((f"API_KEYS_FILE {path} line {n}", line) for n, line in lines if line and not line.startswith("#"))
    if not keys.digests:
        raise ConfigError(f"API_KEYS_FILE {path} holds no key: give one entry per line.")
    return keys


def with_keys_file(keys: Keys, keys_file: str) -> Keys:
    """API_KEYS's `keys` and, if set, API_KEYS_FILE's; ConfigError if the file is unusable."""
    if keys_file:
        from_file = read_keys_file(keys_file)
        keys = Keys(keys.digests + from_file.digests, keys.short + from_file.short)
    return keys


def generate_key() -> tuple[str, str]:
    """A new random key and its `sha256:` entry for API_KEYS."""
    key = secrets.token_urlsafe(32)
    return key, "sha256:" + key_digest(key).hex()


def operator_key(candidate: bytes) -> bool:
    """Whether `candidate` is the digest of one of API_KEYS and API_KEYS_FILE's keys."""
    found = False
    for known in current_app.extensions["corridor"].keys:  # every live key, not stopping early, in constant time
        found |= hmac.compare_digest(candidate, known)
    return found


def account_key(token: str, candidate: bytes) -> KeyRecord | None:
    """The live account key `token` (whose digest is `candidate`), if it is one; 503 if the accounts database cannot be
    asked. The database is asked only once the request is counted (corridor.web.rate_limits.limit_key_lookup)."""
    try:
        return current_app.extensions["account_keys"].live(token, candidate, before_asking=limit_key_lookup)
    except KeysUnavailable:
        raise ApiError(503, "unavailable", "API keys cannot be checked right now; try again in a minute.",
                       {"Retry-After": "60"}) from None


def require_api_key() -> None:
    """Group A's before_request hook: a 401 ApiError unless the request is OPTIONS or sends `Bearer <a live key>`; then
    the key's budget counts it, and an account key's use is recorded."""
    if request.method == "OPTIONS":
        return
    header = request.headers.get("Authorization")
    if header is None:
        limit_refused_key()
        raise ApiError(
            401, "missing_api_key", "Send your API key in the header 'Authorization: Bearer <key>'.",
            {"WWW-Authenticate": _REALM},
        )
    scheme, _, token = header.partition(" ")
    token = token.strip(" ")
    candidate = key_digest(token) if scheme.lower() == "bearer" and token else None
    record = None
    if candidate is not None and not operator_key(candidate):
        record = account_key(token, candidate)
        candidate = candidate if record is not None else None
    if candidate is None:
        limit_refused_key()  # 429 instead once the address has spent its budget
        raise ApiError(
            401, "invalid_api_key", "The API key is not valid; send 'Authorization: Bearer <key>' with a live key.",
            {"WWW-Authenticate": f'{_REALM}, error="invalid_token"'},
        )
    limit_key(candidate)
    if record is not None:
        current_app.extensions["account_keys"].record_use(record)
