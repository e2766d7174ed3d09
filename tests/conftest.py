"""Shared fixtures: the app on the shipped data with two live keys, clients, seed copies."""

import copy
import hashlib
import json

import pytest

from app import create_app
from expected import SEED, shipped_seed
from harness import gunicorn_env, running_gunicorn, unused_port

RAW_KEY = "test-key-raw-0123456789"
HASHED_KEY = "test-key-hashed-9876543210"
API_KEYS = f" {RAW_KEY} , ,sha256:{hashlib.sha256(HASHED_KEY.encode()).hexdigest()} "


# every Group B URL whose body is data (not health, not an error)
GROUP_B_DATA_URLS = ["/api/poc/corridors", "/api/poc/corridors?from=USD&to=MXN", "/api/poc/corridors/1",
                     "/api/poc/providers", "/api/poc/providers?corridor=USD_MXN", "/api/poc/full", "/api/poc/guide",
                     "/api/poc/currencies", "/api/poc/providers?corridor=USD_MXN&amount=1000&payout=cash_pickup&sort=speed"]


def ok_json(client, url):
    """A Group B 200: its cacheable JSON headers checked, its `ok` envelope first; the body."""
    response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    assert response.headers["Cache-Control"] == "public, max-age=60"
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    body = response.get_json()
    assert body["ok"] is True and list(body)[0] == "ok"
    return body


@pytest.fixture(scope="session")
def raw_seed():
    """The shipped data file as plain JSON, for re-deriving expected figures."""
    return shipped_seed()


def make_app():
    return create_app({"TESTING": True, "API_KEYS": API_KEYS, "SEED_DATA": str(SEED)})


@pytest.fixture(scope="session")
def app():
    """The app on the shipped data with two live keys; shared, since serving never changes it."""
    return make_app()


@pytest.fixture
def fresh_app():
    """An app of the test's own, for tests that add routes to it."""
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def auth():
    """Headers with a live key."""
    return {"Authorization": f"Bearer {RAW_KEY}"}


@pytest.fixture
def seed_copy(raw_seed):
    """A deep copy of the shipped data to break one rule at a time."""
    return copy.deepcopy(raw_seed)


@pytest.fixture
def write_seed(tmp_path):
    """Write data (a dict, or raw text) to a file and return its path."""

    def write(data, name="seed.json"):
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        return str(path)

    return write


@pytest.fixture
def client_on(write_seed):
    """A test client of an app of its own serving `data` (a dict), with the usual keys."""

    def serve(data):
        return create_app({"TESTING": True, "API_KEYS": API_KEYS, "SEED_DATA": write_seed(data)}).test_client()

    return serve


@pytest.fixture
def free_port():
    """A loopback port nobody listens on right now, per test."""
    return unused_port()


@pytest.fixture
def server(free_port, tmp_path):
    """gunicorn serving the shipped data; yields its base URL, process and log file."""
    log = tmp_path / "gunicorn.log"
    with running_gunicorn(free_port, gunicorn_env(API_KEYS=RAW_KEY), log) as (base, process):
        yield base, process, log
