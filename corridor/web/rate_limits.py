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

from corridor.data.rate_counts import Count, RateLimits, store
from corridor.settings import ConfigError
from corridor.web.errors import ApiError

BUDGETS = {  # name: its setting, how many times it, and whose budget it is, as a 429 says
    "api": ("RATE_LIMIT_API", 1, "this API key"),
    "public": ("RATE_LIMIT_PUBLIC", 1, "your address"),
    "login": ("RATE_LIMIT_LOGIN", 1, "sign-in attempts from your address"),
    # wrong passwords only, and many more than one address may try: one address's budget stops a guesser long before,
    # so that guesses for an email from one address never lock its owner out at another
    "email": ("RATE_LIMIT_LOGIN", 10, "failed sign-ins for this email"),
}
UNLIMITED = frozenset({"poc.health"})  # probes must always get through
PASSWORD_FORMS = frozenset({"account.login", "account.signup", "account.delete"})  # each hashes a password


def register_rate_limits(app: Flask) -> None:
    """Check the settings and, unless RATE_LIMITS is off, count every request but the health probe's."""
    config = app.config
    switch = str(config["RATE_LIMITS"]).strip().lower()
    if switch not in ("on", "off"):
        raise ConfigError(f"RATE_LIMITS must be on or off, not {config['RATE_LIMITS']!r}.")
    budgets = {name: budget(config, setting, times) for name, (setting, times, _) in BUDGETS.items()}
    uri = store(str(config["RATE_LIMIT_STORAGE"]).strip())
    if switch == "off":
        return
    app.extensions["rate_limits"] = RateLimits(uri, budgets, app.logger)
    app.before_request(limit_by_address)
    app.after_request(add_rate_limit_headers)


def budget(config: dict, setting: str, times: int = 1) -> RateLimitItem:
    """`times` the setting's `N/second|minute|hour|day` (or `N/5 minutes`), as `limits` reads it; ConfigError
    otherwise."""
    text = str(config[setting]).strip()
    try:
        items = parse_many(text)
    except ValueError:
        items = []
    item = items[0] if len(items) == 1 else None
    if item is None or item.amount < 1 or item.GRANULARITY.name not in ("second", "minute", "hour", "day"):
        raise ConfigError(f"{setting} must be one limit such as 600/minute (N per second, minute, hour or day), "
                          f"not {text!r}.")
    return type(item)(item.amount * times, item.multiples)


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
    if count is not None:
        _answer(budget, count)


def refuse_if_spent(budget: str, identity: str) -> None:
    """429 if nothing is left of a budget, counting nothing."""
    count = current_app.extensions["rate_limits"].spent(budget, identity)
    if count is not None:
        _answer(budget, count._replace(over=True))


def _answer(budget: str, count: Count) -> None:
    kept = g.get("rate_limit")
    if kept is None or count.over or (count.remaining, -count.reset) < (kept.remaining, -kept.reset):
        g.rate_limit = count
    if count.over:
        raise ApiError(429, "rate_limited",
                       f"Too many requests: {describe(current_app.extensions['rate_limits'].budgets[budget])} for "
                       f"{BUDGETS[budget][2]}. Try again in {count.reset} seconds.",
                       {"Retry-After": str(count.reset)})


def describe(item: RateLimitItem) -> str:
    """`600 per minute`, `10 per 5 minutes`."""
    unit = item.GRANULARITY.name
    return f"{item.amount} per {unit}" if item.multiples == 1 else f"{item.amount} per {item.multiples} {unit}s"


def limit_by_address() -> None:
    """The app's before-request hook: every request but Group A's (counted per key), the probe's and CORS
    preflights (a browser reads nothing of a refused one), per address; a password form's post per sign-in budget."""
    if request.blueprint == "api" or request.endpoint in UNLIMITED or request.method == "OPTIONS":
        return
    address = client_address()
    g.rate_budget = ("public", address)
    charge("public", address)
    if request.endpoint in PASSWORD_FORMS and request.method == "POST":
        charge("login", address)


def limit_key(digest: bytes) -> None:
    """Count a Group A request against its key's budget (by the key's digest, never the key), once the key is known
    to be live."""
    if "rate_limits" in current_app.extensions:
        identity = digest.hex()
        g.rate_budget = ("api", identity)
        charge("api", identity)


def limit_key_lookup(digest: bytes) -> None:
    """Before the accounts database is asked about a key: count the request against its address (guessing keys is not
    free), and refuse it if the key's own budget is spent; a refused request never reaches the database."""
    if "rate_limits" in current_app.extensions:
        g.address_counted = True
        charge("public", client_address())
        refuse_if_spent("api", digest.hex())


def limit_refused_key() -> None:
    """Count a Group A request refused for its key against its address's budget, unless its look-up was counted."""
    if "rate_limits" in current_app.extensions and not g.get("address_counted"):
        charge("public", client_address())


def email_identity(email: str) -> str:
    """An email as the store knows it, a keyed digest: the store holds no email, nor a digest anyone could match
    against a list of emails without SECRET_KEY."""
    secret = current_app.secret_key
    secret = secret if isinstance(secret, bytes) else str(secret).encode()
    return hmac.new(secret, email.strip().lower().encode(), hashlib.sha256).hexdigest()


def refuse_spent_email(email: str) -> None:
    """Before a password is checked: 429 if the email has had its budget of failed sign-ins."""
    if "rate_limits" in current_app.extensions:
        refuse_if_spent("email", email_identity(email))


def count_failed_sign_in(email: str) -> None:
    """A wrong password for an email: counted against the email's budget of failed sign-ins."""
    if "rate_limits" in current_app.extensions:
        charge("email", email_identity(email))


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
