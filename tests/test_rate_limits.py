"""Rate limits through the test client: budgets per key, per address and per sign-in, their headers, the 429, the
weight of history ranges, the settings, and a store that cannot be reached."""

import logging
import socket
import time
import uuid

import pytest
from conftest import HASHED_KEY, RAW_KEY, build_app, redis_test_db
from holders import CSRF, PASSWORD, Holder

from corridor.limits import counts as rate_counts
from corridor.limits.counts import RateLimits
from corridor.settings import ConfigError
from corridor.state import current_service

PUBLIC_URL = "/api/poc/corridors/1"


def limited_app(make_app, **config):
    return make_app(RATE_LIMITS="on", **config)


@pytest.fixture(scope="module")
def limited_apps():
    """The apps with rate limits on that the module's tests share, one per config: building one took most of a
    test's CPU."""
    return {}


@pytest.fixture
def limited(limited_apps):
    """An app with rate limits on and `config` over the defaults, counting in memory; shared with the tests of the
    same config, but with counts of the test's own: a new store, nothing counted yet."""

    def limited(**config):
        key = tuple(sorted(config.items()))
        if key not in limited_apps:
            limited_apps[key] = build_app(RATE_LIMITS="on", **config)
        app = limited_apps[key]
        service = current_service(app)
        service.limits = RateLimits(service.limits.uri, service.limits.budgets, app.logger)
        return app

    return limited


def limit_headers(response):
    return {name: response.headers.get(name) for name in ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")}


def assert_refused(response, sentence):
    """A 429 as problem details, with Retry-After equal to RateLimit-Reset and nothing left."""
    assert response.status_code == 429, response.text
    assert response.mimetype == "application/problem+json"
    assert response.headers["Cache-Control"] == "no-store"
    reset = int(response.headers["Retry-After"])
    assert 1 <= reset <= 60 and response.headers["RateLimit-Reset"] == str(reset)
    assert response.headers["RateLimit-Remaining"] == "0"
    assert response.get_json() == {
        "type": "about:blank",
        "title": "Too Many Requests",
        "status": 429,
        "detail": f"Too many requests: {sentence}. Try again in {reset} seconds.",
        "code": "rate_limited",
        "ok": False,
    }


def test_an_address_gets_exactly_its_budget_then_429(limited):
    client = limited(RATE_LIMIT_PUBLIC="5/minute").test_client()
    answers = [client.get(PUBLIC_URL) for _ in range(5)]
    assert [a.status_code for a in answers] == [200] * 5
    assert [a.headers["RateLimit-Remaining"] for a in answers] == ["4", "3", "2", "1", "0"]
    assert {a.headers["RateLimit-Limit"] for a in answers} == {"5"}
    assert all(59 <= int(a.headers["RateLimit-Reset"]) <= 60 for a in answers)
    assert_refused(client.get(PUBLIC_URL), "5 per minute for your address")
    assert_refused(client.get("/api/poc/full"), "5 per minute for your address")  # one budget for every endpoint


def test_each_api_key_has_its_own_budget_apart_from_the_address(limited, auth):
    client = limited(RATE_LIMIT_API="3/minute", RATE_LIMIT_PUBLIC="2/minute").test_client()
    for key in (RAW_KEY, HASHED_KEY):
        bearer = {"Authorization": f"Bearer {key}"}
        answers = [client.get("/api/corridors", headers=bearer) for _ in range(3)]
        assert [(a.status_code, a.headers["RateLimit-Remaining"]) for a in answers] == [
            (200, "2"),
            (200, "1"),
            (200, "0"),
        ]
        assert_refused(client.get("/api/midrate?from=USD&to=MXN", headers=bearer), "3 per minute for this API key")
    assert [client.get(PUBLIC_URL).status_code for _ in range(3)] == [200, 200, 429]


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong-key-0123456789"}, {"Authorization": f"Bearer cor_{'x' * 43}"}],
    ids=["none", "wrong", "made-up"],
)
def test_a_request_without_a_valid_key_counts_against_its_address_not_a_key(limited, auth, headers):
    client = limited(RATE_LIMIT_API="2/minute", RATE_LIMIT_PUBLIC="2/minute").test_client()
    refused = [client.get("/api/corridors", headers=headers) for _ in range(3)]
    assert [(r.status_code, r.headers["RateLimit-Remaining"]) for r in refused] == [(401, "1"), (401, "0"), (429, "0")]
    assert_refused(refused[-1], "2 per minute for your address")
    assert client.get("/api/corridors", headers=auth).headers["RateLimit-Remaining"] == "1"  # a key has its own


def test_health_is_never_limited(limited):
    client = limited(RATE_LIMIT_PUBLIC="1/minute").test_client()
    assert client.get(PUBLIC_URL).status_code == 200
    health = [client.get("/api/poc/health") for _ in range(20)]
    assert {h.status_code for h in health} == {200}
    assert {h.headers.get("RateLimit-Limit") for h in health} == {None}
    assert client.get(PUBLIC_URL).status_code == 429


@pytest.mark.parametrize(
    "path",
    ["/", "/api/docs", "/api/openapi.json", "/api/poc/guide", "/account/login", "/account/signup", "/no/such/path"],
)
def test_the_page_docs_account_pages_and_unknown_paths_count_against_the_address(limited, path):
    client = limited(RATE_LIMIT_PUBLIC="2/minute").test_client()
    first, second, third = (client.get(path) for _ in range(3))
    assert (first.headers["RateLimit-Remaining"], second.headers["RateLimit-Remaining"]) == ("1", "0")
    assert third.status_code == 429 and third.headers["Retry-After"] == third.headers["RateLimit-Reset"]


@pytest.mark.parametrize(
    "first, second, shared",
    [
        ("198.51.100.7", "198.51.100.8", False),
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff::9", True),  # one /64
        ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
        ("::ffff:198.51.100.7", "::ffff:198.51.100.8", False),  # IPv4 clients of a dual-stack socket
        ("::ffff:198.51.100.7", "198.51.100.7", True),
    ],
)
def test_addresses_have_budgets_of_their_own_and_an_ipv6_64_is_one(limited, first, second, shared):
    client = limited(RATE_LIMIT_PUBLIC="1/minute").test_client()
    assert client.get(PUBLIC_URL, environ_base={"REMOTE_ADDR": first}).status_code == 200
    again = client.get(PUBLIC_URL, environ_base={"REMOTE_ADDR": second})
    assert again.status_code == (429 if shared else 200)


def test_behind_a_trusted_proxy_the_forwarded_address_is_counted(limited):
    client = limited(RATE_LIMIT_PUBLIC="1/minute", PROXY_HOPS="1").test_client()
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    assert client.get(PUBLIC_URL, headers={"X-Forwarded-For": "203.0.113.1"}, environ_base=proxy).status_code == 200
    assert client.get(PUBLIC_URL, headers={"X-Forwarded-For": "203.0.113.2"}, environ_base=proxy).status_code == 200
    assert client.get(PUBLIC_URL, headers={"X-Forwarded-For": "203.0.113.1"}, environ_base=proxy).status_code == 429


@pytest.mark.parametrize(
    "query, cost",
    [
        pytest.param("date=2026-10-26", 1, id="one-date"),
        pytest.param("start=2026-09-19&end=2026-10-30", 1, id="41-days"),
        pytest.param("start=2026-09-18&end=2026-10-30", 2, id="42-days"),
        pytest.param("", 9, id="default-year-daily"),
        pytest.param("interval=week", 2, id="year-weekly"),
        pytest.param("start=2024-10-30&end=2026-10-30&interval=month", 1, id="two-years-monthly"),
        pytest.param("start=1999-01-04&end=2026-10-30&interval=month", 12, id="every-month-since-1999"),
        pytest.param("start=1999-01-04&end=2026-10-30&format=csv", 242, id="every-day-since-1999"),
        pytest.param("start=1900-01-01&end=2999-12-31", 242, id="clamped-to-the-history"),
    ],
)
@pytest.mark.parametrize("group", ["poc", "api"])
def test_a_history_range_costs_one_more_per_30_rates_it_can_hold(limited, auth, query, cost, group):
    client = limited(RATE_LIMIT_PUBLIC="300/minute", RATE_LIMIT_API="300/minute").test_client()
    path = "/api/history" if group == "api" else "/api/poc/history"
    answer = client.get(f"{path}?from=USD&to=MXN&{query}", headers=auth)
    assert answer.status_code == 200, answer.text
    assert answer.headers["RateLimit-Remaining"] == str(300 - cost)
    again = client.get(f"{path}?from=USD&to=MXN&{query}", headers=auth)  # answered from the cache as sent
    if 2 * cost <= 300:
        assert (again.data, again.headers["RateLimit-Remaining"]) == (answer.data, str(300 - 2 * cost))
    else:  # what it costs is more than is left
        assert (again.status_code, again.headers["RateLimit-Remaining"]) == (429, "0")


@pytest.mark.usefixtures("quick_hashes")
def test_an_account_key_pays_a_history_range_from_its_own_budget_when_it_is_looked_up(limited):
    # the look-up of a key this process has not seen counts against the address first: the range's cost is still the
    # key's, not the address's
    app = limited(RATE_LIMIT_PUBLIC="300/minute", RATE_LIMIT_API="300/minute")
    holder = Holder(sign_in_client(app, "198.51.100.60"))
    assert holder.sign_up(f"{uuid.uuid4().hex}@example.com").status_code == 303
    bearer = {"Authorization": f"Bearer {holder.make_key()}"}
    client = sign_in_client(app, "198.51.100.61")
    assert client.get("/api/history?from=USD&to=MXN", headers=bearer).headers["RateLimit-Remaining"] == "291"
    assert client.get("/api/corridors", headers=bearer).headers["RateLimit-Remaining"] == "290"  # the key's 9, then 1
    assert client.get(PUBLIC_URL).headers["RateLimit-Remaining"] == "298"  # the look-up, then this one


def test_a_range_costing_more_than_the_whole_budget_costs_the_budget(limited):
    client = limited(RATE_LIMIT_PUBLIC="20/minute").test_client()
    answer = client.get("/api/poc/history?from=USD&to=JPY&start=1999-01-04&end=2026-10-30")
    assert (answer.status_code, answer.headers["RateLimit-Remaining"]) == (200, "0")


def test_cors_preflights_are_not_counted(limited):
    client = limited(RATE_LIMIT_PUBLIC="1/minute").test_client()
    preflight = {"Origin": "https://example.org", "Access-Control-Request-Method": "GET"}
    assert {client.options(PUBLIC_URL, headers=preflight).status_code for _ in range(5)} == {204}
    assert client.get(PUBLIC_URL).headers["RateLimit-Remaining"] == "0"


def test_a_range_costing_more_than_is_left_is_refused_before_any_work(limited):
    client = limited(RATE_LIMIT_PUBLIC="30/minute").test_client()
    for _ in range(5):
        client.get(PUBLIC_URL)
    assert_refused(
        client.get("/api/poc/history?from=USD&to=JPY&start=1999-01-04&end=2026-10-30&interval=week"),
        "30 per minute for your address",
    )
    assert client.get(PUBLIC_URL).status_code == 429  # what it asked for is spent


def sign_in_client(app, address):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def attempt(client, action, email, password="not the password at all"):
    """A form posted with the CSRF token of the page it is on."""
    token = CSRF.search(client.get(f"/account/{action}").text)[1]
    return client.post(f"/account/{action}", data={"csrf_token": token, "email": email, "password": password})


@pytest.mark.usefixtures("quick_hashes")
@pytest.mark.parametrize("action", ["login", "signup"])
def test_sign_in_attempts_are_limited_per_address(limited, action):
    client = sign_in_client(limited(RATE_LIMIT_LOGIN="3/minute"), "198.51.100.20")
    emails = [f"{uuid.uuid4().hex}@example.com" for _ in range(4)]
    statuses = [attempt(client, action, email, "" if action == "signup" else PASSWORD).status_code for email in emails]
    assert statuses == [400, 400, 400, 429]  # an empty password is refused by the sign-up form, after counting
    refused = attempt(client, action, emails[0])
    assert refused.status_code == 429 and refused.mimetype == "text/html"
    assert "Too many requests: 3 per minute for sign-in attempts from your address." in refused.text
    assert refused.headers["Retry-After"] == refused.headers["RateLimit-Reset"]
    assert refused.headers["RateLimit-Limit"] == "3" and refused.headers["Cache-Control"] == "no-store"
    assert client.get(f"/account/{action}").status_code == 200  # the page itself is on the address's budget
    assert sign_in_client(client.application, "198.51.100.21").get("/account/login").status_code == 200


@pytest.mark.usefixtures("quick_hashes")
def test_wrong_passwords_from_one_address_never_lock_the_owner_out_at_another(limited):
    app = limited(RATE_LIMIT_LOGIN="3/minute")
    email = f"{uuid.uuid4().hex}@example.com"
    assert attempt(sign_in_client(app, "198.51.100.60"), "signup", email, PASSWORD).status_code == 303
    attacker = sign_in_client(app, "198.51.100.61")
    assert [attempt(attacker, "login", email).status_code for _ in range(12)] == [400] * 3 + [429] * 9
    assert attempt(sign_in_client(app, "198.51.100.62"), "login", email, PASSWORD).status_code == 303


@pytest.mark.usefixtures("quick_hashes")
def test_failed_sign_ins_for_an_email_are_limited_from_any_address_at_ten_times_the_sign_in_budget(limited):
    app = limited(RATE_LIMIT_LOGIN="1/minute")
    email = f"{uuid.uuid4().hex}@example.com"
    statuses = [
        attempt(sign_in_client(app, f"198.51.100.{n}"), "login", email.upper() if n % 2 else email).status_code
        for n in range(70, 81)
    ]
    assert statuses == [400] * 10 + [429]
    refused = attempt(sign_in_client(app, "198.51.100.90"), "login", email)
    assert "Too many requests: 10 per minute for failed sign-ins for this email." in refused.text
    assert attempt(sign_in_client(app, "198.51.100.91"), "login", f"other-{email}").status_code == 400


@pytest.mark.usefixtures("quick_hashes")
def test_deleting_an_account_checks_its_password_against_the_sign_in_budget(limited):
    client = sign_in_client(limited(RATE_LIMIT_LOGIN="3/minute"), "198.51.100.95")
    assert attempt(client, "signup", f"{uuid.uuid4().hex}@example.com", PASSWORD).status_code == 303

    def delete(password):
        token = CSRF.search(client.get("/account").text)[1]
        return client.post("/account/delete", data={"csrf_token": token, "password": password})

    assert [delete("not the password at all").status_code for _ in range(3)] == [400, 400, 429]  # the sign-up was one
    assert "3 per minute for sign-in attempts from your address" in delete(PASSWORD).text
    assert client.get("/account").status_code == 200  # the account is kept


@pytest.mark.usefixtures("quick_hashes")
def test_a_holder_signs_up_and_in_well_within_the_sign_in_budget(limited):
    client = sign_in_client(limited(), "198.51.100.50")
    email = f"{uuid.uuid4().hex}@example.com"
    assert attempt(client, "signup", email, PASSWORD).status_code == 303
    client.post("/account/logout", data={"csrf_token": CSRF.search(client.get("/account").text)[1]})
    signed_in = attempt(client, "login", email, PASSWORD)
    assert signed_in.status_code == 303 and signed_in.headers["RateLimit-Limit"] == "10"
    assert signed_in.headers["RateLimit-Remaining"] == "8"  # the address's sign-in budget: a sign-up and a sign-in


def test_limits_off_refuse_nothing_and_send_no_headers(make_app):
    client = make_app(RATE_LIMITS="off", RATE_LIMIT_PUBLIC="1/minute").test_client()
    answers = [client.get(PUBLIC_URL) for _ in range(5)]
    assert [a.status_code for a in answers] == [200] * 5
    assert {name for a in answers for name, _ in a.headers if name.startswith("RateLimit")} == set()


@pytest.mark.parametrize(
    "setting, value, message",
    [
        ("RATE_LIMITS", "yes", "RATE_LIMITS must be on or off, not 'yes'."),
        ("RATE_LIMIT_API", "600", "RATE_LIMIT_API must be one limit such as 600/minute"),
        ("RATE_LIMIT_PUBLIC", "10/minute;5/second", "RATE_LIMIT_PUBLIC must be one limit such as 600/minute"),
        ("RATE_LIMIT_LOGIN", "0/minute", "RATE_LIMIT_LOGIN must be one limit such as 600/minute"),
        ("RATE_LIMIT_LOGIN", "ten/fortnight", "RATE_LIMIT_LOGIN must be one limit such as 600/minute"),
        ("RATE_LIMIT_LOGIN", "10/minute|5/second", "RATE_LIMIT_LOGIN must be one limit such as 600/minute"),
        ("RATE_LIMIT_API", "600/month", "RATE_LIMIT_API must be one limit such as 600/minute"),
        (
            "RATE_LIMIT_STORAGE",
            "redis://127.0.0.1:6379/0?socket_timeout=abc",
            "RATE_LIMIT_STORAGE must be memory:// or redis://host:port/db, not 'redis://127.0.0.1:6379'",
        ),
        (
            "RATE_LIMIT_STORAGE",
            "memcached://127.0.0.1:11211",
            "RATE_LIMIT_STORAGE must be memory:// or redis://host:port/db",
        ),
        ("RATE_LIMIT_STORAGE", "redis://", "RATE_LIMIT_STORAGE must be memory:// or redis://host:port/db"),
        (
            "RATE_LIMIT_STORAGE",
            "redis://127.0.0.1:port/0",
            "RATE_LIMIT_STORAGE must be memory:// or redis://host:port/db",
        ),
    ],
)
def test_bad_settings_refuse_to_start_and_say_which(make_app, setting, value, message):
    with pytest.raises(ConfigError) as refused:
        make_app(**{"RATE_LIMITS": "off", setting: value})
    assert message in str(refused.value)


@pytest.mark.parametrize("password", ["hunter2-secret", "pa/ss", "ab#cd", "ab?cd", "a@b"])
def test_a_refusal_never_shows_the_store_password(make_app, password):
    with pytest.raises(ConfigError) as refused:
        make_app(RATE_LIMIT_STORAGE=f"rediss://:{password}@cache.example:port/0")
    assert password not in str(refused.value) and "not 'rediss://cache.example:port'" in str(refused.value)


@pytest.fixture
def silent_port():
    """A loopback port that accepts connections and never answers: a store that hangs."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield listener.getsockname()[1]


@pytest.mark.parametrize("store", ["refused", "hangs"])
def test_an_unreachable_store_serves_everything_and_warns_once_a_minute(
    make_app, caplog, monkeypatch, silent_port, store
):
    from harness import unused_port

    port = unused_port() if store == "refused" else silent_port
    app = limited_app(
        make_app, RATE_LIMIT_PUBLIC="1/minute", RATE_LIMIT_STORAGE=f"redis://:s3cret-pass@127.0.0.1:{port}/0"
    )
    clock = [1000.0]
    monkeypatch.setattr(rate_counts, "monotonic", lambda: clock[0])
    client = app.test_client()
    started = time.perf_counter()
    with caplog.at_level(logging.WARNING):
        answers = [client.get(PUBLIC_URL) for _ in range(20)]
        for _ in range(3):  # past DOWN_SECONDS, the store is asked again, and fails again, quietly
            clock[0] += rate_counts.DOWN_SECONDS
            answers.append(client.get(PUBLIC_URL))
        clock[0] += rate_counts.WARN_EVERY_SECONDS - 3 * rate_counts.DOWN_SECONDS  # a minute after the first warning
        answers.append(client.get(PUBLIC_URL))
    took = time.perf_counter() - started
    assert {a.status_code for a in answers} == {200}
    assert {a.headers.get("RateLimit-Limit") for a in answers} == {None}
    warnings = [r.getMessage() for r in caplog.records if "Rate limits are not enforced" in r.getMessage()]
    assert len(warnings) == 2, warnings
    assert warnings[0].startswith(f"Rate limits are not enforced: the store redis://127.0.0.1:{port} cannot be reached")
    assert "s3cret" not in caplog.text
    # one wait of the store's timeout per attempt (5), not one per request (24)
    assert took < 24 * rate_counts.STORE_TIMEOUT_SECONDS / 2


def test_two_apps_on_one_redis_share_one_budget(make_app, redis_url, auth):
    first, second = (
        limited_app(make_app, RATE_LIMIT_API="4/minute", RATE_LIMIT_STORAGE=redis_url).test_client() for _ in range(2)
    )
    answers = [(first if n % 2 else second).get("/api/corridors", headers=auth) for n in range(5)]
    assert [(a.status_code, a.headers["RateLimit-Remaining"]) for a in answers] == [
        (200, "3"),
        (200, "2"),
        (200, "1"),
        (200, "0"),
        (429, "0"),
    ]


def test_each_test_process_counts_in_a_redis_database_of_its_own(monkeypatch):
    # one shared database let a test emptying it reset the budgets a gunicorn of another process was counting: 313
    # answers of 600 passed a budget of 300 (test_one_address_at_200_connections_gets_its_shared_budget_and_no_more)
    databases = set()
    for worker in range(8):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", f"gw{worker}")
        databases.add(redis_test_db())
    assert len(databases) == 8 and "redis://127.0.0.1:6379/14" not in databases  # bench/rate_limits.py's
