"""Bearer keys: parsed from API_KEYS, held only as SHA-256 digests, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from corridor.settings import ConfigError
from corridor.web.errors import ApiError

_REALM = 'Bearer realm="corridor-api"'
_HASHED = re.compile(r"sha256:([0-9a-f]{64})", re.IGNORECASE)
_RAW = re.compile(r"[\x21-\x7e]+")  # printable ASCII, no spaces: survives any HTTP client


def digest(key: str) -> bytes:
    """SHA-256 of a key as sent; works for any text a header can carry."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()


def parse_api_keys(value: str) -> tuple[bytes, ...]:
    """Digests of the comma-separated raw or `sha256:` entries; never echoes an entry."""
    digests = []
    entries = [e.strip() for e in value.split(",")]
    for position, entry in enumerate((e for e in entries if e), start=1):
        if hashed := _HASHED.fullmatch(entry):
            digests.append(bytes.fromhex(hashed[1]))
        elif entry.lower().startswith("sha256:") or not _RAW.fullmatch(entry):
            raise ConfigError(
                f"API_KEYS entry {position} is not usable: give a raw key of printable ASCII "
                "without spaces, or sha256: followed by 64 hex digits."
            )
        else:
            digests.append(digest(entry))
    return tuple(digests)


def generate_key() -> tuple[str, str]:
    """A new random key and its `sha256:` entry for API_KEYS."""
    key = secrets.token_urlsafe(32)
    return key, "sha256:" + digest(key).hex()


def authenticate(header: str | None, digests: tuple[bytes, ...]) -> None:
    """Raise a 401 ApiError unless `header` is `Bearer <a live key>`."""
    if header is None:
        raise ApiError(
            401, "missing_api_key", "Send your API key in the header 'Authorization: Bearer <key>'.",
            {"WWW-Authenticate": _REALM},
        )
    scheme, _, token = header.partition(" ")
    token = token.strip(" ")
    if scheme.lower() != "bearer" or not token or not _matches(digest(token), digests):
        raise ApiError(
            401, "invalid_api_key", "The API key is not valid; send 'Authorization: Bearer <key>' with a live key.",
            {"WWW-Authenticate": f'{_REALM}, error="invalid_token"'},
        )


def _matches(candidate: bytes, digests: tuple[bytes, ...]) -> bool:
    # compare against every live key, without stopping early, in constant time each
    found = False
    for known in digests:
        found |= hmac.compare_digest(candidate, known)
    return found
