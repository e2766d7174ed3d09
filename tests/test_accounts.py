"""Account holders through the test client, on SQLite and on PostgreSQL: every form, and the keys they make."""

import concurrent.futures
import datetime as dt
import hashlib
import re
import string

import pytest
import sqlalchemy as sa
from conftest import RAW_KEY, build_app
from holders import CSRF, EMAIL, KEY_FORMAT, KEYS, PASSWORD, Holder, api, query, set_keys, signed_up
from werkzeug.security import generate_password_hash

from corridor.accounts import models as accounts
from corridor.data.database import engine_url
from corridor.settings import ConfigError

pytestmark = pytest.mark.usefixtures("quick_hashes")
SHIPPED_SCRYPT = "scrypt:32768:8:1$"  # Werkzeug's default: 32 MiB and about 0.1 s a hash


def without_token(text):
    return CSRF.sub("", text)


# --- sign up, sign in, sign out --------------------------------------------------------------------


def test_signing_up_signs_in_and_sees_other_to_the_account(holder):
    response = holder.sign_up("Ana.Silva@Example.com")
    assert response.status_code == 303
    assert response.headers["Location"] == "/account"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("corridor_session=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain HTTP here: a Secure cookie would never come back
    page = holder.get("/account")
    assert page.status_code == 200
    assert "Signed in as <strong>ana.silva@example.com</strong>" in page.text
    assert "No key yet." in page.text


def test_the_session_cookie_is_secure_behind_https(database_url):
    holder = Holder(build_app(DATABASE_URL=database_url, PROXY_HOPS="1").test_client())
    holder.client.environ_base.update(
        {
            "HTTP_X_FORWARDED_PROTO": "https",
            "HTTP_X_FORWARDED_FOR": "203.0.113.9",
            "HTTP_REFERER": "https://evil.example/account/signup",
        }
    )
    # over HTTPS a form must also come from a page of this site, as its Referer says
    assert holder.sign_up(EMAIL).status_code == 400
    holder.client.environ_base["HTTP_REFERER"] = "https://localhost/account/signup"
    response = holder.sign_up(EMAIL)
    assert response.status_code == 303
    assert "; Secure" in response.headers["Set-Cookie"]


def test_an_email_is_taken_whatever_its_case(holder, accounts_app, database_url):
    signed_up(holder)
    other = Holder(accounts_app.test_client())
    response = other.sign_up("ANA.SILVA@example.COM")
    assert response.status_code == 400
    assert "An account with this email exists: sign in instead." in response.text
    assert query(database_url, "SELECT email FROM accounts") == [(EMAIL,)]


@pytest.mark.parametrize(
    "email, password, message",
    [
        (EMAIL, "elevenchars", "Use 12 to 200 characters."),
        (EMAIL, "", "Choose a password."),
        (EMAIL, "p" * 201, "Use 12 to 200 characters."),
        ("", PASSWORD, "Enter your email address."),
        ("ana.example.com", PASSWORD, "Enter an email address such as ana@example.com."),
        ("ana@example", PASSWORD, "Enter an email address such as ana@example.com."),
        ("a b@example.com", PASSWORD, "Enter an email address such as ana@example.com."),
        ("a" * 250 + "@example.com", PASSWORD, "An email address has at most 254 characters."),
        ("<script>alert(1)</script>@x.io", PASSWORD, "Enter an email address such as ana@example.com."),
        ("ana\x00@example.com", PASSWORD, "Enter an email address such as ana@example.com."),
        ("ana@exa\x7fmple.com", PASSWORD, "Enter an email address such as ana@example.com."),
    ],
)
def test_a_refused_sign_up_says_why_and_makes_nothing(holder, database_url, email, password, message):
    response = holder.sign_up(email, password)
    assert response.status_code == 400
    assert message in response.text
    assert "<script>alert" not in response.text  # what was typed comes back escaped
    assert query(database_url, "SELECT count(*) FROM accounts") == [(0,)]


def test_the_password_is_kept_only_as_a_memory_hard_hash(holder, database_url, monkeypatch):
    monkeypatch.undo()  # the shipped cost
    signed_up(holder)
    [(stored,)] = query(database_url, "SELECT password_hash FROM accounts")
    assert stored.startswith(SHIPPED_SCRYPT) and PASSWORD not in stored
    assert holder.submit("/account", "/account/logout").status_code == 303
    assert holder.log_in(EMAIL).headers["Location"] == "/account"


def test_a_wrong_password_and_an_unknown_email_answer_alike(holder, accounts_app):
    signed_up(holder)
    stranger = Holder(accounts_app.test_client())
    wrong_password = stranger.log_in(EMAIL, "not the password at all")
    unknown_email = stranger.log_in("nobody@example.com", PASSWORD)
    assert wrong_password.status_code == unknown_email.status_code == 400
    # the same page but for the email typed, which the form keeps
    assert without_token(wrong_password.text) == without_token(unknown_email.text).replace("nobody@example.com", EMAIL)
    assert "The email or the password is wrong." in wrong_password.text
    assert stranger.get("/account").status_code == 303


def test_an_unknown_email_is_checked_against_a_hash_as_costly_as_a_real_one(monkeypatch):
    monkeypatch.undo()  # the shipped stand-in
    assert accounts._STAND_IN_HASH.split("$")[0] == generate_password_hash("x").split("$")[0]


@pytest.mark.parametrize("email", ["ana\x00@example.com", "a" * 300 + "@example.com"])
def test_a_malformed_email_at_sign_in_is_a_400(holder, email):
    response = holder.log_in(email)
    assert response.status_code == 400
    assert "Enter an email address such as" in response.text or "An email address has at most 254" in response.text


def test_signing_in_and_out(holder, accounts_app):
    signed_up(holder)
    browser = Holder(accounts_app.test_client())
    response = browser.log_in("  ANA.silva@example.com ")
    assert (response.status_code, response.headers["Location"]) == (303, "/account")
    assert browser.get("/account").status_code == 200
    response = browser.submit("/account", "/account/logout")
    assert (response.status_code, response.headers["Location"]) == (303, "/account/login")
    assert "You are signed out." in browser.get("/account/login").text
    assert browser.get("/account").status_code == 303


def test_the_account_page_sends_a_signed_out_browser_to_sign_in(holder):
    response = holder.get("/account")
    assert (response.status_code, response.headers["Location"]) == (303, "/account/login")


@pytest.mark.parametrize(
    "path",
    [
        "/account/signup",
        "/account/login",
        "/account/logout",
        "/account/keys",
        "/account/keys/1/revoke",
        "/account/delete",
    ],
)
def test_every_form_needs_its_csrf_token(holder, database_url, path):
    signed_up(holder)
    holder.make_key()
    response = holder.post(path, {"email": "b@example.com", "password": PASSWORD, "name": "x", "expires_days": "30"})
    assert response.status_code == 400
    assert response.mimetype == "text/html"
    assert "The form expired or came from another site" in response.text
    assert query(database_url, "SELECT count(*) FROM accounts") == [(1,)]
    assert query(database_url, "SELECT count(*) FROM api_keys") == [(1,)]
    assert holder.get("/account").status_code == 200  # still signed in


@pytest.mark.parametrize(
    "method, path, status",
    [("GET", "/account/nope", 404), ("PUT", "/account/signup", 405), ("GET", "/account/keys/x/revoke", 404)],
)
def test_a_mistaken_account_url_is_answered_as_a_page(holder, method, path, status):
    response = holder.client.open(path, method=method)
    assert (response.status_code, response.mimetype) == (status, "text/html")
    assert response.headers["Cache-Control"] == "no-store"
    if status == 405:
        assert response.headers["Allow"] == "GET, HEAD, OPTIONS, POST"


def test_a_mistaken_api_url_is_still_answered_as_problem_details(holder):
    for path in ("/api/nope", "/api/poc/nope", "/nope"):
        assert holder.get(path).mimetype == "application/problem+json"


@pytest.mark.parametrize("secret", ["short", "x" * 31])
def test_a_short_secret_key_is_refused(make_app, secret):
    with pytest.raises(ConfigError, match="SECRET_KEY must be at least 32 characters"):
        make_app(SECRET_KEY=secret)


def test_account_pages_cannot_be_framed_or_cached(holder):
    for path in ("/account/signup", "/account/login"):
        response = holder.get(path)
        assert response.status_code == 200
        assert response.headers["Content-Security-Policy"] == (
            "default-src 'self'; script-src 'none'; frame-ancestors 'none'; form-action 'self'"
        )
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["Cache-Control"] == "no-store"
        assert "<script" not in response.text


# --- keys ------------------------------------------------------------------------------------------


def test_a_new_key_is_shown_once_and_only_its_digest_is_kept(holder, database_url):
    signed_up(holder)
    key = holder.make_key("checkout server", "30")
    assert KEY_FORMAT.fullmatch(key) and set(key[4:]) <= set(string.ascii_letters + string.digits + "-_")
    page = holder.get("/account").text
    assert key not in page
    row = re.search(r'<tr>\s*<th scope="row">(.*?)</th>' + r"\s*<td[^>]*>(.*?)</td>" * 4, page, re.S)
    name, shown, created, used, expires = (re.sub(r"<[^>]+>", "", cell).strip() for cell in row.groups())
    now = dt.datetime.now(dt.UTC)
    assert (name, shown, used) == ("checkout server", key[:12] + "…", "never")
    assert created in {(now - dt.timedelta(minutes=m)).strftime("%Y-%m-%d %H:%M UTC") for m in (0, 1)}
    assert expires in {(now + dt.timedelta(days=30, minutes=-m)).strftime("%Y-%m-%d %H:%M UTC") for m in (0, 1)}
    [(digest, kept)] = query(database_url, sa.select(KEYS.c.digest, KEYS.c.shown))
    assert (digest, kept) == (hashlib.sha256(key.encode()).hexdigest(), key[:12])


def test_a_new_key_works_at_once_and_a_revoked_one_answers_401(holder):
    signed_up(holder)
    key = holder.make_key()
    assert api(holder, key).status_code == 200
    assert api(holder, RAW_KEY).status_code == 200  # the operator's keys still work beside it
    [key_id] = holder.key_ids()
    response = holder.revoke(key_id)
    assert (response.status_code, response.headers["Location"]) == (303, "/account")
    response = api(holder, key)
    assert response.status_code == 401
    assert response.get_json()["code"] == "invalid_api_key"
    assert holder.key_ids() == []


@pytest.mark.parametrize(
    "name, expires_days, message",
    [
        ("", "30", "Name the key"),
        ("   ", "30", "Name the key"),
        ("n" * 61, "30", "A name has at most 60 characters."),
        ("tab\tname", "30", "A name is printable text."),
        ("next\u0085line", "30", "A name is printable text."),
        ("\u202eevil", "30", "A name is printable text."),
        ("isolate\u2066d", "30", "A name is printable text."),
        ("ok", "7", "Not a valid choice"),
        ("ok", "", "Not a valid choice"),
    ],
)
def test_a_refused_key_says_why_and_makes_nothing(holder, database_url, name, expires_days, message):
    signed_up(holder)
    response = holder.submit("/account", "/account/keys", name=name, expires_days=expires_days)
    assert response.status_code == 400
    assert message in response.text and 'id="new-key"' not in response.text
    assert query(database_url, "SELECT count(*) FROM api_keys") == [(0,)]


@pytest.mark.parametrize("name", ["می\u200cخواهم", "👩\u200d💻 laptop", "no\u00a0break", "café server"])
def test_a_key_name_in_any_script_is_taken(holder, database_url, name):
    signed_up(holder)
    assert holder.submit("/account", "/account/keys", name=name, expires_days="30").status_code == 303
    assert query(database_url, "SELECT name FROM api_keys") == [(name,)]


def test_a_key_name_is_shown_as_text(holder):
    signed_up(holder)
    holder.make_key('<img src=x onerror="alert(1)">')
    page = holder.get("/account").text
    assert "<img" not in page and "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in page


@pytest.mark.parametrize("expires_days, days", [("30", 30), ("90", 90), ("365", 365), ("none", None)])
def test_each_expiry_choice(holder, database_url, expires_days, days):
    signed_up(holder)
    holder.make_key("k", expires_days)
    [(created, expires)] = query(database_url, sa.select(KEYS.c.created_at, KEYS.c.expires_at))
    assert expires == (created + dt.timedelta(days=days) if days else None)


def test_an_expired_key_answers_401(holder, database_url):
    signed_up(holder)
    key = holder.make_key("k", "30")
    set_keys(database_url, expires_at=dt.datetime(2026, 1, 1))
    response = api(holder, key)
    assert response.status_code == 401 and response.get_json()["code"] == "invalid_api_key"
    assert "<strong>expired</strong> 2026-01-01 00:00 UTC" in holder.get("/account").text


def test_a_holder_has_at_most_ten_live_keys(holder, database_url):
    signed_up(holder)
    keys = [holder.make_key(f"key {n}") for n in range(10)]
    response = holder.submit("/account", "/account/keys", name="eleventh", expires_days="30")
    assert response.status_code == 400
    assert "You have 10 live keys, the most an account may hold: revoke one first." in response.text
    assert query(database_url, "SELECT count(*) FROM api_keys") == [(10,)]
    holder.revoke(holder.key_ids()[0])
    assert KEY_FORMAT.fullmatch(holder.make_key("eleventh"))
    assert api(holder, keys[-1]).status_code == 200


def test_revoking_asks_first_and_revokes_only_once_confirmed(holder):
    signed_up(holder)
    key = holder.make_key("checkout server")
    [key_id] = holder.key_ids()
    path = f"/account/keys/{key_id}/revoke"
    assert f'<form method="get" action="{path}">' in holder.get("/account").text  # the Revoke button opens the page
    asked = holder.get(path)
    assert asked.status_code == 200 and asked.headers["Cache-Control"] == "no-store"
    assert "<title>Revoke this key? · Corridor API</title>" in asked.text
    assert f"Revoke <strong>checkout server</strong> (<code>{key[:12]}…</code>" in asked.text
    assert f'<form id="revoke-form" class="signed-in" method="post" action="{path}">' in asked.text
    assert '<input type="hidden" name="confirm" value="yes">' in asked.text
    assert '<a href="/account">Keep it and go back</a>' in asked.text
    assert "<script" not in asked.text
    token = CSRF.search(asked.text)[1]
    for unconfirmed in ({"csrf_token": token}, {"csrf_token": token, "confirm": "no"}):
        response = holder.post(path, unconfirmed)  # an old page's one-click form, or a forged field: asked again
        assert response.status_code == 200 and '<form id="revoke-form"' in response.text
        assert api(holder, key).status_code == 200 and holder.key_ids() == [key_id]
    response = holder.post(path, {"csrf_token": token, "confirm": "yes"})
    assert (response.status_code, response.headers["Location"]) == (303, "/account")
    assert api(holder, key).status_code == 401 and holder.key_ids() == []


def test_the_confirmation_page_of_another_holders_key_is_404(holder, accounts_app):
    signed_up(holder)
    holder.make_key()
    [key_id] = holder.key_ids()
    mallory = signed_up(Holder(accounts_app.test_client()), "mallory@example.com")
    response = mallory.get(f"/account/keys/{key_id}/revoke")
    assert response.status_code == 404 and "checkout server" not in response.text


@pytest.mark.parametrize("key_id", ["999", "0", "abc", "1.0", "99999999999999999999"])
def test_revoking_a_key_one_does_not_hold_is_404(holder, key_id):
    signed_up(holder)
    holder.make_key()
    token = holder.token()
    response = holder.post(f"/account/keys/{key_id}/revoke", {"csrf_token": token})
    assert response.status_code == 404
    assert len(holder.key_ids()) == 1


def test_revoking_another_holders_key_is_404_and_changes_nothing(holder, accounts_app):
    signed_up(holder)
    key = holder.make_key()
    [key_id] = holder.key_ids()
    mallory = signed_up(Holder(accounts_app.test_client()), "mallory@example.com")
    response = mallory.revoke(key_id)
    assert response.status_code == 404
    assert holder.key_ids() == [key_id]
    assert api(holder, key).status_code == 200


def test_deleting_the_account_takes_its_password_and_its_keys(holder, accounts_app, database_url):
    signed_up(holder)
    key = holder.make_key()
    response = holder.submit("/account", "/account/delete", password="not the password")
    assert response.status_code == 400 and "The password is wrong; the account is kept." in response.text
    assert api(holder, key).status_code == 200
    response = holder.submit("/account", "/account/delete", password=PASSWORD)
    assert (response.status_code, response.headers["Location"]) == (303, "/account/signup")
    assert api(holder, key).status_code == 401
    assert holder.get("/account").status_code == 303
    assert query(database_url, "SELECT count(*) FROM accounts") == [(0,)]
    assert query(database_url, "SELECT count(*) FROM api_keys") == [(0,)]
    assert Holder(accounts_app.test_client()).log_in(EMAIL).status_code == 400


def test_a_deleted_accounts_session_opens_no_later_account(holder, accounts_app):
    signed_up(holder)
    elsewhere = Holder(accounts_app.test_client())  # the same holder signed in on another device
    assert elsewhere.log_in(EMAIL).status_code == 303
    holder.submit("/account", "/account/delete", password=PASSWORD)
    newcomer = signed_up(Holder(accounts_app.test_client()), "newcomer@example.com")
    assert "newcomer@example.com" in newcomer.get("/account").text
    response = elsewhere.get("/account")
    assert (response.status_code, response.headers["Location"]) == (303, "/account/login")


def test_deleting_an_account_row_takes_its_keys_with_it(holder, database_url):
    signed_up(holder)
    key = holder.make_key()
    engine = sa.create_engine(engine_url(database_url))
    with engine.begin() as connection:  # as docs/OPERATIONS.md tells an operator to
        if engine.dialect.name == "sqlite":
            connection.execute(sa.text("PRAGMA foreign_keys=ON"))
        connection.execute(sa.text("DELETE FROM accounts WHERE email = :email"), {"email": EMAIL})
    engine.dispose()
    assert query(database_url, "SELECT count(*) FROM api_keys") == [(0,)]
    assert api(holder, key).status_code == 401


def test_a_key_left_without_its_account_opens_nothing(holder, database_url):
    signed_up(holder)
    key = holder.make_key()
    # SQLite's own shell leaves foreign keys off, and PostgreSQL's owner can switch them off: the keys stay behind
    engine = sa.create_engine(engine_url(database_url))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(sa.text("ALTER TABLE accounts DISABLE TRIGGER ALL"))
        connection.execute(sa.text("DELETE FROM accounts"))
        if engine.dialect.name == "postgresql":
            connection.execute(sa.text("ALTER TABLE accounts ENABLE TRIGGER ALL"))
    engine.dispose()
    assert query(database_url, "SELECT count(*) FROM api_keys") == [(1,)]
    assert api(holder, key).status_code == 401


def test_two_holders_racing_for_the_tenth_key_get_one(holder, accounts_app, database_url):
    signed_up(holder)
    for n in range(8):
        holder.make_key(f"key {n}")
    cookie = holder.client.get_cookie("corridor_session").value
    token = holder.token()

    def make(n):
        client = accounts_app.test_client()
        client.set_cookie("corridor_session", cookie)
        return client.post("/account/keys", data={"csrf_token": token, "name": f"racer {n}", "expires_days": "30"})

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        statuses = sorted(response.status_code for response in pool.map(make, range(4)))
    assert statuses == [303, 303, 400, 400]
    assert query(database_url, "SELECT count(*) FROM api_keys") == [(10,)]


def test_nothing_secret_reaches_the_database_or_the_log(holder, database_url, caplog):
    caplog.set_level("DEBUG")
    signed_up(holder)
    key = holder.make_key()
    api(holder, key)
    stored = repr(query(database_url, "SELECT * FROM accounts") + query(database_url, "SELECT * FROM api_keys"))
    for secret in (PASSWORD, key, key[12:]):
        assert secret not in stored and secret not in caplog.text


def test_the_api_sets_no_cookie_even_for_a_signed_in_browser(holder):
    signed_up(holder)
    for path in ("/api/poc/corridors", "/api/poc/health", "/"):
        response = holder.get(path)
        assert response.status_code == 200
        assert "Set-Cookie" not in response.headers and "Cookie" not in response.headers.get("Vary", "")
