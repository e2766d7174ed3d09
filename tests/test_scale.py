"""A large data file: every canonical body is built once with the data, none per request."""

import json

import pytest

from app import create_app
from bench.generate import generate
from conftest import API_KEYS
from corridor.settings import ConfigError
from corridor.web.endpoint import Operation
from corridor.web.quotes import FIXED_MEMO, QuoteEntries
from schemas.api import RankedProviderSchema

CORRIDORS = 2000


@pytest.fixture(scope="module")
def large_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("large") / "large.json"
    path.write_text(json.dumps(generate(CORRIDORS)))
    return path


@pytest.fixture(scope="module")
def large_app(large_file):
    return create_app({"API_KEYS": API_KEYS, "SEED_DATA": str(large_file)})


def test_the_generated_file_has_the_corridors_and_offers_asked_for(large_app):
    catalog = large_app.extensions["corridor"].data.catalog
    assert len(catalog.by_key) == CORRIDORS
    assert {len(f.quotes) for f in catalog.corridors} == {12}


def test_every_list_and_corridor_is_served_without_a_build(large_app, auth, monkeypatch):
    def no_build(*args):
        raise AssertionError("built per request")

    monkeypatch.setattr(Operation, "body", no_build)
    client = large_app.test_client()
    full = client.get("/api/poc/full", headers={"Accept-Encoding": "gzip"})
    assert full.status_code == 200 and full.headers["Content-Encoding"] == "gzip"
    for url in ["/api/poc/full", "/api/poc/providers", "/api/poc/corridors", "/api/corridors"]:
        assert client.get(url, headers=auth).status_code == 200, url
    catalog = large_app.extensions["corridor"].data.catalog
    for figures in catalog.corridors[::97]:
        key, corridor_id = figures.corridor.key, figures.corridor.id
        for url in [f"/api/providers?corridor={key}", f"/api/poc/providers?corridor={key.lower()}",
                    f"/api/poc/corridors/{corridor_id}"]:
            assert client.get(url, headers=auth).status_code == 200, url


def test_fixed_parts_of_quote_entries_are_kept_for_a_bounded_number_of_corridors(large_app):
    catalog = large_app.extensions["corridor"].data.catalog
    entries = QuoteEntries(RankedProviderSchema)
    for key in catalog.by_key:
        entries.dump(catalog, catalog.quotes(key, 10.0))
    assert len(entries._parts) == FIXED_MEMO < len(catalog.by_key)


def test_a_file_over_the_size_limit_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "big.json"
    path.write_text("{" * (2**20 + 1))  # not JSON either: parsing it first would say so instead
    with pytest.raises(ConfigError, match=r"over 1,048,576 bytes, the limit DATA_MAX_MB sets"):
        create_app({"API_KEYS": API_KEYS, "SEED_DATA": str(path), "DATA_MAX_MB": "1"})


@pytest.mark.parametrize("name, value", [("DATA_MAX_MB", "0"), ("DATA_MAX_MB", "64MB"), ("CACHE_MB", "-1"),
                                         ("CACHE_MB", "99999")])
def test_size_settings_out_of_range_refuse_start_up(name, value):
    with pytest.raises(ConfigError, match=name):
        create_app({"API_KEYS": API_KEYS, name: value})
