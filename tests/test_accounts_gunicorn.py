"""Account holders through real gunicorn, on SQLite and on PostgreSQL; two instances on one database agree."""

import concurrent.futures
import time
from contextlib import ExitStack

import pytest
from conftest import RAW_KEY, running_gunicorn
from holders import KEY_FORMAT, PASSWORD, HttpHolder

TRUST = "1"  # KEY_TRUST_SECONDS: how long a process keeps what the database said of a key (5 s by default)
BOUND = 3  # seconds: a revoked key answers 401 on every instance within this (TRUST and a margin)


def until_refused(holder, key):
    """Seconds until `key` answers 401 on `holder`'s server; fails after BOUND."""
    started = time.monotonic()
    while True:
        response = holder.api(key)
        if response.status_code == 401:
            assert response.json()["code"] == "invalid_api_key"
            return time.monotonic() - started
        assert response.status_code == 200
        assert time.monotonic() - started < BOUND, f"the key still works after {BOUND} s"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def instances(accounts_app, tmp_path_factory):
    """Two gunicorns on `accounts_app`'s database with no operator key, shared by the module's tests of each kind of
    database (`database_url` empties it before each test)."""
    folder = tmp_path_factory.mktemp("instances")
    settings = {
        "API_KEYS": "",
        "WEB_CONCURRENCY": "2",
        "DATABASE_URL": accounts_app.config["DATABASE_URL"],
        "KEY_TRUST_SECONDS": TRUST,
    }
    with ExitStack() as stack:
        yield [stack.enter_context(running_gunicorn(folder / f"{name}.log", **settings)) for name in ("a", "b")]


def test_a_holders_path_through_gunicorn(instances, database_url):
    # no operator key at all: the service starts, and Group A is open to account keys only
    server = instances[0]
    ana = HttpHolder(server.base)
    response = ana.sign_up("ana@example.com")
    assert (response.status_code, response.headers["Location"]) == (303, "/account")
    assert ana.get("/account").status_code == 200
    key = ana.make_key("laptop", "90")
    assert KEY_FORMAT.fullmatch(key)
    response = ana.api(key)
    assert response.status_code == 200 and response.json()[0]["from_currency"] == "USD"
    [key_id] = ana.key_ids()
    assert ana.revoke(key_id).status_code == 303
    assert until_refused(ana, key) < BOUND

    assert ana.submit("/account", "/account/logout").headers["Location"] == "/account/login"
    assert ana.get("/account").status_code == 303
    assert ana.log_in("ana@example.com").headers["Location"] == "/account"
    key = ana.make_key("server", "none")
    assert ana.api(key).status_code == 200
    response = ana.submit("/account", "/account/delete", password=PASSWORD)
    assert (response.status_code, response.headers["Location"]) == (303, "/account/signup")
    assert until_refused(ana, key) < BOUND
    log = server.log.read_text()
    assert key not in log and PASSWORD not in log


def test_two_instances_on_one_database_agree(instances, database_url):
    first, second = instances
    ana = HttpHolder(first.base)
    ana.sign_up("ana@example.com")
    key = ana.make_key()
    elsewhere = HttpHolder(second.base)
    assert all(elsewhere.api(key).status_code == 200 for _ in range(8))  # at once, on every worker
    ana.revoke(ana.key_ids()[0])
    waited = until_refused(elsewhere, key)
    assert all(elsewhere.api(key).status_code == 401 for _ in range(8))
    assert waited < BOUND


def test_a_slow_postgresql_query_holds_up_no_other_request_of_its_worker(tmp_path, postgres_url):
    import psycopg

    with running_gunicorn(
        tmp_path / "gunicorn.log", API_KEYS=RAW_KEY, WEB_CONCURRENCY="1", DATABASE_URL=postgres_url
    ) as server:
        holder = HttpHolder(server.base)
        with psycopg.connect(postgres_url) as blocker, concurrent.futures.ThreadPoolExecutor(1) as pool:
            blocker.execute("LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE")  # every key look-up now waits
            waiting = pool.submit(holder.api, "cor_" + "A" * 43)
            time.sleep(0.5)
            assert not waiting.done()  # the look-up is held in the database
            started = time.monotonic()
            response = holder.api(RAW_KEY)  # the same (single) worker, another greenlet
            served_in = time.monotonic() - started
            blocker.rollback()  # the lock goes: the look-up finishes
            assert waiting.result(timeout=10).status_code == 401
    assert response.status_code == 200
    assert served_in < 1, f"an operator key waited {served_in:.1f} s behind a database query"
