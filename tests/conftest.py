"""Shared fixtures: the app on the shipped data with two live keys, clients, seed copies."""

import copy
import hashlib
import json
import socket

import pytest

from app import create_app
from expected import SEED, shipped_seed

ROOT = SEED.parent

RAW_KEY = "test-key-raw-0123456789"
HASHED_KEY = "test-key-hashed-9876543210"
API_KEYS = f" {RAW_KEY} , ,sha256:{hashlib.sha256(HASHED_KEY.encode()).hexdigest()} "


@pytest.fixture(scope="session")
def raw_seed():
    """The shipped data file as plain JSON, for re-deriving expected figures."""
    return shipped_seed()


@pytest.fixture
def app():
    return create_app({"TESTING": True, "API_KEYS": API_KEYS, "SEED_DATA": str(SEED)})


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
def free_port():
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
