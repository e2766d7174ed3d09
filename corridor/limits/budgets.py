"""Each request charged against its budget, and the 429 once a budget is spent; corridor/limits/counts.py counts."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress

from flask import Flask, current_app, g, request

from corridor.errors import ApiError
from corridor.limits.counts import Count, RateLimits, store
from corridor.settings import current_settings
from corridor.state import current_service
from corridor.state.policy import is_exempt, policy_of

BUDGETS = {  # name: whose budget it is, as a 429 says
    "api": "this API key",
    "public": "your address",
    "login": "sign-in attempts from your address",
    "email": "failed sign-ins for this email",
}


def register_limits(app: Flask) -> None:
    """Check the store and, unless RATE_LIMITS is off, count every request but an exempt view's."""
    settings = current_settings(app)
    uri = store(settings.rate_limit_storage)
    if not settings.rate_limits:
        return
    login = settings.rate_limit_login
    budgets = {
        "api": settings.rate_limit_api,
        "public": settings.rate_limit_public,
        "login": login,
        # wrong passwords only, and many more than one address may try: one address's budget stops a guesser long
        # before, so that guesses for an email from one address never lock its owner out at another
        "email": type(login)(login.amount * 10, login.multiples),
    }
    current_service(app).limits = RateLimits(uri, budgets, app.logger)


def client_address() -> str:
    """The address the app trusts (PROXY_HOPS); an IPv6 client's /64, which one subscriber usually holds whole."""
    address = request.remote_addr or ""
    if ":" not in address:
        return address
    try:
        parsed = ipaddress.IPv6Address(address)
    except ValueError:
        return address
    if parsed.ipv4_mapped:  # an IPv4 client of a dual-stack socket: its own address, not the /64 of every such one
        return str(parsed.ipv4_mapped)
    return str(ipaddress.ip_network(f"{parsed}/64", strict=False))


def count_by_address(app: Flask) -> None:
    """Count each request against its address's budget, as its blueprint's policy says (unknown paths too); not an
    exempt view's (a probe), nor a CORS preflight's, which a browser reads nothing of once refused. Registered once
    every blueprint is: which endpoints no address budget counts is worked out once, not per request."""
    if current_service(app).limits is None:
        return  # RATE_LIMITS=off
    uncounted = frozenset(
        endpoint
        for endpoint, view in app.view_functions.items()
        if is_exempt(view) or policy_of(app.blueprints.get(endpoint.rpartition(".")[0])).budget != "public"
    )

    @app.before_request
    def limit_request() -> None:
        if request.method != "OPTIONS" and request.endpoint not in uncounted:
            charge("public", client_address())


def charge(budget: str, identity: str, cost: int = 1, own: bool = True) -> None:
    """Count a request against a budget (the first `own` one it counts against is its own: a history range's extra
    cost goes there); keep the tightest count for the headers; 429 if it is over."""
    limits = current_service().limits
    if limits is None:
        return
    count = limits.count(budget, identity, cost)
    if count is None:  # the store cannot be reached: served uncounted
        return
    if own and "rate_budget" not in g:
        g.rate_budget = (budget, identity)
    kept = g.get("rate_limit")
    if kept is None or count.over or (count.remaining, -count.reset) < (kept.remaining, -kept.reset):
        g.rate_limit = count
    if count.over:
        raise too_many(limits, budget, count)


def refuse_if_spent(budget: str, identity: str) -> None:
    """429 if nothing is left of a budget, counting nothing."""
    limits = current_service().limits
    if limits is None:
        return
    count = limits.count(budget, identity, 0)
    if count is not None and count.remaining == 0:
        g.rate_limit = count
        raise too_many(limits, budget, count)


def too_many(limits: RateLimits, budget: str, count: Count) -> ApiError:
    """The 429 of a spent budget, counted in the metrics."""
    metrics = current_service().metrics
    if metrics is not None:
        metrics.refusals.labels(budget).inc()
    item = limits.budgets[budget]
    unit = item.GRANULARITY.name
    per = unit if item.multiples == 1 else f"{item.multiples} {unit}s"  # `600 per minute`, `10 per 5 minutes`
    return ApiError(
        429,
        "rate_limited",
        f"Too many requests: {item.amount} per {per} for {BUDGETS[budget]}. Try again in {count.reset} seconds.",
        {"Retry-After": str(count.reset)},
    )


def limit_key_lookup(digest: bytes) -> None:
    """Before the accounts database is asked about a key: count the request against its address (guessing keys is not
    free), and refuse it if the key's own budget is spent; a refused request never reaches the database."""
    g.address_counted = True
    charge("public", client_address(), own=False)  # the look-up's: the request's own budget is its key's, next
    refuse_if_spent("api", digest.hex())


def limit_refused_key() -> None:
    """Count a Group A request refused for its key against its address's budget, unless its look-up was counted."""
    if not g.get("address_counted"):
        charge("public", client_address())


def limit_password_check() -> None:
    """A form that checks or makes a password (each hashes one): counted against its address's sign-in budget."""
    charge("login", client_address())


def email_identity(email: str) -> str:
    """An email as the store knows it, a keyed digest: the store holds no email, nor a digest anyone could match
    against a list of emails without SECRET_KEY."""
    secret = current_app.secret_key
    secret = secret if isinstance(secret, bytes) else str(secret).encode()
    return hmac.new(secret, email.strip().lower().encode(), hashlib.sha256).hexdigest()


def refuse_spent_email(email: str) -> None:
    """Before a password is checked: 429 if the email has had its budget of failed sign-ins."""
    refuse_if_spent("email", email_identity(email))


def count_failed_sign_in(email: str) -> None:
    """A wrong password for an email: counted against the email's budget of failed sign-ins."""
    charge("email", email_identity(email))
