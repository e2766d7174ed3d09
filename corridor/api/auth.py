"""Group A's bearer keys: the operator's (API_KEYS, API_KEYS_FILE), held as digests in the app's state, and those
account holders make, checked through what this process learnt of them (corridor/accounts/keys.py)."""

from __future__ import annotations

import hashlib
import hmac

from flask import request

from corridor.errors import ApiError
from corridor.limits.budgets import charge, limit_key_lookup, limit_refused_key
from corridor.state import current_service

_REALM = 'Bearer realm="corridor-api"'


def require_api_key() -> None:
    """Group A's before_request hook: a 401 ApiError unless the request is OPTIONS or sends `Bearer <a live key>`; then
    the key's budget counts it, and an account key's use is recorded."""
    if request.method == "OPTIONS":
        return
    header = request.headers.get("Authorization")
    if header is None:
        limit_refused_key()
        raise ApiError(
            401,
            "missing_api_key",
            "Send your API key in the header 'Authorization: Bearer <key>'.",
            {"WWW-Authenticate": _REALM},
        )
    service = current_service()
    scheme, _, token = header.partition(" ")
    token = token.strip(" ")
    # corridor.data.keys.key_digest's formula, inline on every Group A request
    digest = (
        hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()
        if scheme.lower() == "bearer" and token
        else None
    )
    operator = False
    for known in service.keys:  # every live key, not stopping early, in constant time
        operator |= hmac.compare_digest(digest or b"", known)
    record = None
    account_keys = service.account_keys
    if digest is not None and not operator and account_keys is not None:
        # asks the accounts database only once the address has paid for the look-up; 503 if it cannot be asked
        record = account_keys.live(token, digest, before_asking=limit_key_lookup)
        if service.metrics is not None:
            (service.metrics.key_miss if record is None else service.metrics.key_hit).inc()
    if not operator and record is None:
        limit_refused_key()  # 429 instead once the address has spent its budget
        raise ApiError(
            401,
            "invalid_api_key",
            "The API key is not valid; send 'Authorization: Bearer <key>' with a live key.",
            {"WWW-Authenticate": f'{_REALM}, error="invalid_token"'},
        )
    assert digest is not None, "no digest is neither the operator's nor an account's"
    if service.limits is not None:
        charge("api", digest.hex())  # the key's budget, by its digest, never the key
    if record is not None and account_keys is not None:
        account_keys.record_use(record)
