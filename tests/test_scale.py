"""A large data file: served from the start with nothing built ahead, each answer built on first request."""

import json

import pytest
from conftest import build_app

from bench.generate import generate
from corridor.settings import ConfigError
from corridor.state import current_service
from corridor.state.responses import KeptUrl

CORRIDORS = 2000


@pytest.fixture(scope="module")
def large_app(tmp_path_factory):
    path = tmp_path_factory.mktemp("large") / "large.json"
    path.write_text(json.dumps(generate(CORRIDORS)))
    return build_app(SEED_DATA=str(path))


def test_the_generated_file_has_the_corridors_and_offers_asked_for(large_app):
    catalog = current_service(large_app).data.catalog
    assert len(catalog.by_key) == CORRIDORS
    assert {len(f.quotes) for f in catalog.corridors} == {12}


def test_nothing_is_built_ahead_and_every_list_and_corridor_answers(large_app, auth):
    responses = current_service(large_app).data.responses
    assert len(responses) == 0
    client = large_app.test_client()
    for url in ["/api/poc/full", "/api/poc/providers", "/api/poc/corridors", "/api/corridors"]:
        response = client.get(url, headers=auth)
        assert response.status_code == 200 and len(response.data) > 100_000, url
    catalog = current_service(large_app).data.catalog
    for figures in catalog.corridors[::97]:
        key, corridor_id = figures.corridor.key, figures.corridor.id
        for url in [
            f"/api/providers?corridor={key}",
            f"/api/poc/providers?corridor={key.lower()}",
            f"/api/poc/corridors/{corridor_id}",
        ]:
            assert client.get(url, headers=auth).status_code == 200, url
    kept = [key for key, value in responses.items() if not isinstance(value, KeptUrl)]  # not the URLs pointing at them
    assert len(kept) == 4 + 3 * len(catalog.corridors[::97])


def test_a_file_over_the_size_limit_is_refused_before_it_is_parsed(make_app, tmp_path):
    path = tmp_path / "big.json"
    path.write_text("{" * (2**20 + 1))  # not JSON either: parsing it first would say so instead
    with pytest.raises(ConfigError, match=r"over 1,048,576 bytes, the limit DATA_MAX_MB sets"):
        make_app(SEED_DATA=str(path), DATA_MAX_MB="1")


@pytest.mark.parametrize(
    "name, value",
    [
        ("DATA_MAX_MB", "0"),
        ("DATA_MAX_MB", "64MB"),
        ("CACHE_MB", "-1"),
        ("CACHE_MB", "99999"),
        ("KEY_TRUST_SECONDS", "0"),
        ("KEY_TRUST_SECONDS", "5s"),
    ],
)
def test_whole_number_settings_out_of_range_refuse_start_up(make_app, name, value):
    with pytest.raises(ConfigError, match=name):
        make_app(**{name: value})
