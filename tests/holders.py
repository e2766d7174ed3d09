"""An account holder in a browser (pages fetched, forms posted with the CSRF token of the page they come from), and
what an operator reads of the accounts database."""

import re

import requests
import sqlalchemy as sa

from corridor.accounts.models import ApiKey
from corridor.data.database import engine_url

CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
NEW_KEY = re.compile(r'<code id="new-key">([^<]+)</code>')
REVOKE = re.compile(r'action="/account/keys/(\d+)/revoke"')
PASSWORD = "correct horse battery staple"
EMAIL = "ana.silva@example.com"
KEYS = ApiKey.__table__
KEY_FORMAT = re.compile(r"cor_[A-Za-z0-9_-]{32,}")  # a prefix scanners know, then at least 32 URL-safe characters


class Holder:
    """Through a Flask test client (redirects not followed, as a browser's network panel shows them)."""

    def __init__(self, client):
        self.client = client

    def get(self, path):
        return self.client.get(path)

    def post(self, path, data):
        return self.client.post(path, data=data)

    def token(self, page="/account"):
        """The CSRF token of the form on `page`."""
        response = self.get(page)
        assert response.status_code == 200, response.text
        return CSRF.search(response.text)[1]

    def submit(self, page, action, **fields):
        """Fill in the form of `page` that posts to `action`, and send it."""
        return self.post(action, {"csrf_token": self.token(page), **fields})

    def sign_up(self, email, password=PASSWORD):
        return self.submit("/account/signup", "/account/signup", email=email, password=password)

    def log_in(self, email, password=PASSWORD):
        return self.submit("/account/login", "/account/login", email=email, password=password)

    def make_key(self, name="checkout server", expires_days="none"):
        """A new key, as the page the form's redirect opens shows it once."""
        response = self.submit("/account", "/account/keys", name=name, expires_days=expires_days)
        assert (response.status_code, response.headers["Location"]) == (303, "/account"), response.text
        return NEW_KEY.search(self.get("/account").text)[1]

    def key_ids(self):
        return [int(n) for n in REVOKE.findall(self.get("/account").text)]

    def revoke(self, key_id):
        """As a person does: Revoke on the account page opens a page that asks; its button revokes."""
        path = f"/account/keys/{key_id}/revoke"
        asked = self.get(path)
        if asked.status_code != 200:
            return asked
        return self.post(path, {"csrf_token": CSRF.search(asked.text)[1], "confirm": "yes"})


class HttpHolder(Holder):
    """The same through real HTTP to a running server."""

    def __init__(self, base):
        super().__init__(requests.Session())
        self.base = base
        self.client.trust_env = False  # loopback: never through a proxy

    def get(self, path):
        return self.client.get(self.base + path, allow_redirects=False, timeout=10)

    def post(self, path, data):
        return self.client.post(self.base + path, data=data, allow_redirects=False, timeout=10)

    def api(self, key, path="/api/corridors"):
        return self.client.get(self.base + path, headers={"Authorization": f"Bearer {key}"}, timeout=10)


def signed_up(holder, email=EMAIL):
    """`holder`, signed up (and so signed in) as `email`."""
    response = holder.sign_up(email)
    assert response.status_code == 303, response.text
    return holder


def api(app_or_holder, key, path="/api/corridors"):
    """GET `path` of Group A with `key`, through the holder's client or a new one of the app's."""
    client = getattr(app_or_holder, "client", None) or app_or_holder.test_client()
    return client.get(path, headers={"Authorization": f"Bearer {key}"})


def query(url, statement, **params):
    """The rows of `statement` (SQL, or a statement on the tables, whose times come back as datetimes), run straight
    on the database as an operator would."""
    engine = sa.create_engine(engine_url(url))
    try:
        with engine.begin() as connection:
            result = connection.execute(sa.text(statement) if isinstance(statement, str) else statement, params)
            return result.all() if result.returns_rows else None
    finally:
        engine.dispose()


def set_keys(url, **values):
    """Set `values` on every key row, as an operator would."""
    query(url, sa.update(KEYS).values(**values))
