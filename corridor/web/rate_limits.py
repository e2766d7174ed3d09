"""Rate limits: a budget per API key on Group A, per client address elsewhere, and per address and per email on
sign-in, counted by corridor.data.rate_counts.

A request costs one unit of its budget, a history range more, by the rates it can hold (`weighted`). Every limited
answer says where its tightest budget stands in RateLimit-* headers; over budget, the answer is 429 with Retry-After.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Flask, Response, current_app, g, request
from limits import RateLimitItem, parse_many

from corridor.data.rate_counts import RateLimits, store
from corridor.settings import ConfigError
from corridor.web.errors import ApiError

BUDGETS = {  # name: its setting, and whose budget it is, as a 429 says
    "api": ("RATE_LIMIT_API", "this API key"),
    "public": ("RATE_LIMIT_PUBLIC", "your address"),
    "login": ("RATE_LIMIT_LOGIN", "sign-in attempts from your address"),
    "email": ("RATE_LIMIT_LOGIN", "sign-in attempts for this email"),
}
UNLIMITED = frozenset({"poc.health"})  # probes must always get through
SIGN_IN = frozenset({"account.login", "account.signup"})


def register_rate_limits(app: Flask) -> None:
    """Check the settings and, unless RATE_LIMITS is off, count every request but the health probe's."""
    config = app.config
    switch = str(config["RATE_LIMITS"]).strip().lower()
    if switch not in ("on", "off"):
        raise ConfigError(f"RATE_LIMITS must be on or off, not {config['RATE_LIMITS']!r}.")
    budgets = {name: budget(config, setting) for name, (setting, _) in BUDGETS.items()}
    uri = store(str(config["RATE_LIMIT_STORAGE"]).strip())
    if switch == "off":
        return
    app.extensions["rate_limits"] = RateLimits(uri, budgets, app.logger)
    app.before_request(limit_by_address)
    app.after_request(add_rate_limit_headers)


def budget(config: dict, setting: str) -> RateLimitItem:
    """The setting's `N/second|minute|hour|day` (or `N/5 minutes`), as `limits` reads it; ConfigError otherwise."""
    text = str(config[setting]).strip()
    try:
        items = parse_many(text)
    except ValueError:
        items = []
    item = items[0] if len(items) == 1 else None
    if item is None or item.amount < 1 or item.GRANULARITY.name not in ("second", "minute", "hour", "day"):
        raise ConfigError(f"{setting} must be one limit such as 600/minute (N per second, minute, hour or day), "
                          f"not {text!r}.")
    return item


def client_address() -> str:
    """The address the app trusts (PROXY_HOPS); an IPv6 client's /64, which one subscriber usually holds whole."""
    address = request.remote_addr or ""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 4:
        return address
    if parsed.ipv4_mapped:  # an IPv4 client of a dual-stack socket: its own address, not the /64 of every such one
        return str(parsed.ipv4_mapped)
    return str(ipaddress.ip_network(f"{parsed}/64", strict=False))


def charge(budget: str, identity: str, cost: int = 1) -> None:
    """Count a request against a budget; keep the tightest count for the headers; 429 if it is over."""
    count = current_app.extensions["rate_limits"].charge(budget, identity, cost)
    if count is None:
        return
    kept = g.get("rate_limit")
    if kept is None or count.over or (count.remaining, -count.reset) < (kept.remaining, -kept.reset):
        g.rate_limit = count
    if count.over:
        raise ApiError(429, "rate_limited",
                       f"Too many requests: {describe(current_app.extensions['rate_limits'].budgets[budget])} for "
                       f"{BUDGETS[budget][1]}. Try again in {count.reset} seconds.",
                       {"Retry-After": str(count.reset)})


def describe(item: RateLimitItem) -> str:
    """`600 per minute`, `10 per 5 minutes`."""
    unit = item.GRANULARITY.name
    return f"{item.amount} per {unit}" if item.multiples == 1 else f"{item.amount} per {item.multiples} {unit}s"


def limit_by_address() -> None:
    """The app's before-request hook: every request but Group A's (counted per key), the probe's and CORS
    preflights (a browser reads nothing of a refused one), per address."""
    if request.blueprint == "api" or request.endpoint in UNLIMITED or request.method == "OPTIONS":
        return
    address = client_address()
    g.rate_budget = ("public", address)
    charge("public", address)
    if request.endpoint in SIGN_IN and request.method == "POST":
        charge("login", address)


def limit_by_key() -> None:
    """Group A's before-request hook, once the key is checked: per key (by its digest, never the key)."""
    if "rate_limits" in current_app.extensions and "api_key_digest" in g:
        identity = g.api_key_digest.hex()
        g.rate_budget = ("api", identity)
        charge("api", identity)


def limit_refused_key() -> None:
    """Count a Group A request refused for its key against its address's budget: guessing keys is not free."""
    if "rate_limits" in current_app.extensions:
        charge("public", client_address())


def limit_sign_in(email: str) -> None:
    """Count a sign-in or sign-up attempt against the email's budget, by a keyed digest: the store holds no email,
    nor a digest anyone could match against a list of emails without SECRET_KEY."""
    if "rate_limits" in current_app.extensions:
        secret = current_app.secret_key
        secret = secret if isinstance(secret, bytes) else str(secret).encode()
        charge("email", hmac.new(secret, email.strip().lower().encode(), hashlib.sha256).hexdigest())


def weighted(weight: Callable[..., int]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Charge a view's request `weight(**query)` units in all, from its loaded query, before the view runs."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def charged(**query: Any) -> Any:
            if "rate_budget" in g:
                budget, identity = g.rate_budget
                whole = current_app.extensions["rate_limits"].budgets[budget].amount
                extra = min(weight(**query), whole) - 1  # a request dearer than the whole budget costs the budget
                if extra > 0:
                    charge(budget, identity, cost=extra)
            return view(**query)

        return charged

    return decorate


def add_rate_limit_headers(response: Response) -> Response:
    """The app's after-request hook: the tightest budget this request counted against, if the store answered."""
    count = g.get("rate_limit")
    if count is not None:
        headers = response.headers
        headers["RateLimit-Limit"] = str(count.limit)
        headers["RateLimit-Remaining"] = str(count.remaining)
        headers["RateLimit-Reset"] = str(count.reset)
    return response
