"""Account keys on Group A's hot path, on SQLite and on PostgreSQL: what is asked of the database, and when."""

import datetime as dt
import time

import pytest
import sqlalchemy as sa
from conftest import RAW_KEY, build_app
from holders import EMAIL, KEYS, Holder, api, query, set_keys, signed_up

from corridor.accounts.keys import DOWN_SECONDS, AccountKeys
from corridor.data.database import db
from corridor.settings import WHOLE_NUMBERS
from corridor.state import current_service

pytestmark = pytest.mark.usefixtures("quick_hashes")


class Clock:
    """A monotonic clock the test moves."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


TRUST_SECONDS = WHOLE_NUMBERS["KEY_TRUST_SECONDS"][0]  # the setting's default


def with_clock(app):
    clock = Clock()
    current_service(app).account_keys = AccountKeys(TRUST_SECONDS, clock)
    return clock


def sql_of(app, action):
    """The SQL statements `app` sends while `action` runs."""
    statements = []

    def seen(connection, cursor, statement, *args):
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", seen)
    try:
        action()
    finally:
        sa.event.remove(engine, "before_cursor_execute", seen)
    return statements


def test_the_hot_path_asks_the_database_once_per_key_and_trust_period(holder, accounts_app):
    clock = with_clock(accounts_app)
    signed_up(holder)
    key = holder.make_key()
    statements = sql_of(accounts_app, lambda: [api(holder, key) for _ in range(50)])
    assert len(statements) == 2  # the look-up, and "last used"
    clock.now += TRUST_SECONDS
    assert len(sql_of(accounts_app, lambda: api(holder, key))) == 1  # one look-up more once trust ran out


@pytest.mark.parametrize("token", ["cor_short", "cor_" + "!" * 43, "cor_" + "A" * 44, "COR_" + "A" * 43])
def test_text_not_shaped_like_a_key_never_reaches_the_database(holder, accounts_app, token):
    statements = sql_of(accounts_app, lambda: [api(holder, token) for _ in range(3)])
    assert statements == []
    assert api(holder, token).get_json()["code"] == "invalid_api_key"


def test_an_unknown_key_is_looked_up_once_per_trust_period(holder, accounts_app):
    clock = with_clock(accounts_app)
    made_up = "cor_" + "A" * 43
    assert len(sql_of(accounts_app, lambda: [api(holder, made_up) for _ in range(20)])) == 1
    clock.now += TRUST_SECONDS
    assert len(sql_of(accounts_app, lambda: api(holder, made_up))) == 1


def test_a_revoked_key_stops_on_another_instance_within_the_trust_period(holder, accounts_app, database_url):
    other = build_app(DATABASE_URL=database_url)  # a second instance on the same database
    clock = with_clock(other)
    signed_up(holder)
    key = holder.make_key()
    assert api(other, key).status_code == 200  # a key made on one instance works on the other at once
    holder.revoke(holder.key_ids()[0])
    clock.now += TRUST_SECONDS - 0.5
    assert api(other, key).status_code == 200  # what the other instance learnt is still trusted
    clock.now += 0.5
    assert api(other, key).status_code == 401


def test_last_used_is_written_at_most_once_a_minute_per_key(holder, accounts_app, database_url):
    clock = with_clock(accounts_app)
    signed_up(holder)
    key = holder.make_key()
    api(holder, key)
    last_used = sa.select(KEYS.c.last_used_at)
    [(first,)] = query(database_url, last_used)
    assert abs(first - dt.datetime.now(dt.UTC).replace(tzinfo=None)) < dt.timedelta(seconds=5)
    assert f'<td data-label="Last used">{first:%Y-%m-%d %H:%M} UTC</td>' in holder.get("/account").text
    # another instance wrote it 30 s ago: a minute later here, the database still refuses a second write
    set_keys(database_url, last_used_at=first - dt.timedelta(seconds=30))
    clock.now += 61
    api(holder, key)
    assert query(database_url, last_used) == [(first - dt.timedelta(seconds=30),)]
    set_keys(database_url, last_used_at=first - dt.timedelta(seconds=61))
    clock.now += 61
    api(holder, key)
    [(latest,)] = query(database_url, last_used)
    assert latest >= first


def test_the_service_starts_without_operator_keys(database_url):
    app = build_app(DATABASE_URL=database_url, API_KEYS="")
    holder = Holder(app.test_client())
    signed_up(holder)
    key = holder.make_key()
    assert api(app, key).status_code == 200
    assert api(app, RAW_KEY).status_code == 401
    assert api(app, "cor_" + "x" * 43).status_code == 401


def test_a_database_that_fails_answers_503_and_operator_keys_still_work(make_app, tmp_path, migrated_sqlite, caplog):
    path = tmp_path / "gone.sqlite3"
    path.write_bytes(migrated_sqlite.read_bytes())
    app = make_app(DATABASE_URL=f"sqlite:///{path}")
    clock = with_clock(app)
    holder = signed_up(Holder(app.test_client()))
    key = holder.make_key()
    path.unlink()
    with app.app_context():
        db.engine.dispose()  # its connections kept the file open: SQLite now opens an empty one, with no table
    for response in (api(app, key), holder.get("/account")):
        assert response.status_code == 503
        assert response.headers["Retry-After"] == "60"
    # for DOWN_SECONDS the keys answer 503 without asking the database again
    assert sql_of(app, lambda: api(app, key).get_json()["code"] == "unavailable") == []
    clock.now += DOWN_SECONDS
    assert len(sql_of(app, lambda: api(app, key))) == 1
    failures = [r.getMessage() for r in caplog.records if "The accounts database failed" in r.getMessage()]
    assert failures == [
        "The accounts database failed (no such table: api_keys); account keys answer 503 for 5 s.",
        "The accounts database failed on GET /account: no such table: accounts",
        "The accounts database failed (no such table: api_keys); account keys answer 503 for 5 s.",
    ]
    assert "Traceback" not in caplog.text and EMAIL not in caplog.text
    page = holder.get("/account")
    assert page.mimetype == "text/html" and "Accounts cannot be reached right now; try again in a minute." in page.text
    assert api(app, RAW_KEY).status_code == 200


def test_made_up_keys_count_against_their_address_before_the_database_is_asked(database_url):
    app = build_app(DATABASE_URL=database_url, RATE_LIMITS="on", RATE_LIMIT_PUBLIC="2/minute")
    answers, made_up = [], [f"cor_{n:043d}" for n in range(5)]
    statements = sql_of(app, lambda: answers.extend(api(app, key) for key in made_up))
    assert [answer.status_code for answer in answers] == [401, 401, 429, 429, 429]
    assert len(statements) == 2  # a look-up for each request counted; none for a refused one


def test_a_key_over_its_budget_is_refused_without_asking_the_database(database_url):
    app = build_app(DATABASE_URL=database_url, RATE_LIMITS="on", RATE_LIMIT_API="2/minute")
    clock = with_clock(app)
    key = signed_up(Holder(app.test_client())).make_key()
    assert [api(app, key).status_code for _ in range(3)] == [200, 200, 429]
    clock.now += TRUST_SECONDS  # what this process knew of the key has run out
    answers = []
    assert sql_of(app, lambda: answers.extend(api(app, key) for _ in range(3))) == []
    assert [answer.status_code for answer in answers] == [429] * 3


def test_a_stalled_postgresql_answers_503_within_its_statement_timeout_and_operator_keys_work(postgres_url):
    import psycopg

    app = build_app(DATABASE_URL=postgres_url)
    with app.app_context():
        assert db.engine.pool.timeout() == 3  # a request waits at most 3 s for a connection too
        with db.engine.connect() as connection:
            assert connection.scalar(sa.text("SHOW statement_timeout")) == "3s"
    with psycopg.connect(postgres_url) as blocker:
        blocker.execute("LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE")  # every key look-up now waits
        started = time.monotonic()
        refused = api(app, "cor_" + "A" * 43)
        waited = time.monotonic() - started
        assert api(app, RAW_KEY).status_code == 200
    assert (refused.status_code, refused.headers["Retry-After"]) == (503, "60")
    assert refused.get_json()["code"] == "unavailable"
    assert 2.5 < waited < 5
