"""Rate limits: a budget per API key on Group A, per client address elsewhere, and per address and per email on
sign-in, counted in fixed windows in `limits`' storage (this process's memory, or Redis shared by every instance).

A request costs one unit of its budget, a history range more, by the rates it can hold (`weighted`). Every limited answer says where its tightest budget stands in RateLimit-* headers; over budget, the
answer is 429 with Retry-After. When the store cannot be reached, requests are served unlimited (fail open).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import threading
import time
from collections.abc import Callable
from functools import wraps
from time import monotonic
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, g, request
from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import Storage, storage_from_string

from corridor.settings import ConfigError
from corridor.web.errors import ApiError

BUDGETS = {  # name: its setting, and whose budget it is, as a 429 says
    "api": ("RATE_LIMIT_API", "this API key"),
    "public": ("RATE_LIMIT_PUBLIC", "your address"),
    "login": ("RATE_LIMIT_LOGIN", "sign-in attempts from your address"),
    "email": ("RATE_LIMIT_LOGIN", "sign-in attempts for this email"),
}
STORES = ("memory", "redis", "rediss")
UNLIMITED = frozenset({"poc.health"})  # probes must always get through
SIGN_IN = frozenset({"account.login", "account.signup"})
# a store on the same network answers in well under a millisecond: waiting longer only holds requests up
STORE_TIMEOUT_SECONDS = 0.25
# connections each process keeps to Redis: a count takes well under a millisecond, and without a cap every waiting
# greenlet of a gevent worker would open its own
REDIS_CONNECTIONS = 20
# once the store fails, requests skip it this long rather than each wait for it
DOWN_SECONDS = 5
WARN_EVERY_SECONDS = 60


class Count(NamedTuple):
    """Where one budget stands after a request: its size, what is left, and the seconds until its window ends."""

    limit: int
    remaining: int
    reset: int
    over: bool


class RateLimits:
    """The budgets and the store that counts them; the store is opened on first use, in the process that serves."""

    def __init__(self, uri: str, budgets: dict[str, RateLimitItem], logger: Any) -> None:
        self.uri = uri
        self.budgets = budgets
        self._logger = logger
        self._storage: Storage | None = None
        self._opening = threading.Lock()
        self._down_until = 0.0
        self._warned_at = -math.inf

    def _store(self) -> Storage:
        # opened lazily: a gunicorn master that loads the app must fork no store's threads or sockets
        if self._storage is None:
            with self._opening:
                if self._storage is None:
                    options = {} if self.uri.startswith("memory") else {"connection_pool": redis_pool(self.uri)}
                    self._storage = storage_from_string(self.uri, wrap_exceptions=True, **options)
        return self._storage

    def charge(self, budget: str, identity: str, cost: int = 1) -> Count | None:
        """Count `cost` against `identity`'s `budget`; None while the store cannot be reached."""
        if monotonic() < self._down_until:
            return None
        item = self.budgets[budget]
        key = item.key_for(budget, identity)
        try:
            store = self._store()
            used = store.incr(key, item.get_expiry(), amount=cost)
            ends = store.get_expiry(key)
        except StorageError as error:
            self._fail(error.storage_error)
            return None
        except Exception as error:  # noqa: BLE001 - whatever the store raises, requests are served (fail open)
            self._fail(error)
            return None
        # Redis's TTL is whole seconds, rounded to the nearest: half a second more never tells a client to come early
        late = 0.5 if self.uri.startswith("redis") else 0.0
        reset = max(1, math.ceil(ends - time.time() + late))
        return Count(item.amount, max(0, item.amount - used), reset, used > item.amount)

    def _fail(self, error: Exception) -> None:
        now = monotonic()
        self._down_until = now + DOWN_SECONDS
        if now - self._warned_at >= WARN_EVERY_SECONDS:
            self._warned_at = now
            self._logger.warning("Rate limits are not enforced: the store %s cannot be reached (%s); requests are "
                                 "served unlimited until it answers.", store_name(self.uri), type(error).__name__)


def redis_pool(uri: str) -> Any:
    """At most REDIS_CONNECTIONS connections, a short timeout, and no retry: redis-py's default retries a failed
    command 3 times, sleeping up to 1, 2 and 4 seconds between them, all inside the request. Reads the URL without
    connecting: ValueError if its options are not redis-py's."""
    from redis import BlockingConnectionPool
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return BlockingConnectionPool.from_url(
        uri, max_connections=REDIS_CONNECTIONS, timeout=STORE_TIMEOUT_SECONDS, socket_timeout=STORE_TIMEOUT_SECONDS,
        socket_connect_timeout=STORE_TIMEOUT_SECONDS, retry=Retry(NoBackoff(), 0))


def store_name(uri: str) -> str:
    """The store's scheme, host and port, never a password in its URL (even one with `/`, `?` or `#` unencoded)."""
    scheme, _, rest = uri.partition("://")
    host = rest.rpartition("@")[2]  # what follows the last @: a password may hold any other character
    for end in "/?#":
        host = host.partition(end)[0]
    return f"{scheme}://{host}"


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


def store(uri: str) -> str:
    """RATE_LIMIT_STORAGE if it is memory:// or a Redis URL redis-py reads; ConfigError otherwise."""
    try:
        parts = urlsplit(uri)
        usable = parts.scheme in STORES and (parts.scheme == "memory" or bool(parts.hostname)) and parts.port != 0
        if usable and parts.scheme != "memory":
            redis_pool(uri).disconnect()  # its options and database number, read now rather than at each request
    except ValueError:  # a port that is not a number, or out of range; an option or database redis-py refuses
        usable = False
    if not usable:
        raise ConfigError(f"RATE_LIMIT_STORAGE must be memory:// or redis://host:port/db, not {store_name(uri)!r}.")
    return uri


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
