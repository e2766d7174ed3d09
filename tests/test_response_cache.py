"""Response bodies: built with the data for every canonical URL, kept by normalised query, bounded."""

import pytest

from corridor.web.service import ResponseCache, cache_key
from corridor.web.http import make_body


@pytest.fixture
def service(fresh_app):
    return fresh_app.extensions["corridor"]


def test_every_canonical_response_is_built_before_serving(service):
    corridors = len(service.catalog.by_key)
    # per corridor: its Group A and Group B providers, its Group B pair and id; plus seven lists
    assert len(service.bodies.prebuilt) == 4 * corridors + 7


def test_built_bodies_are_what_serving_gives(fresh_app, service, auth):
    client = fresh_app.test_client()
    urls = ["/api/corridors", "/api/currencies", "/api/poc/corridors", "/api/poc/providers", "/api/poc/full",
            "/api/poc/currencies", "/api/poc/guide"]
    for f in service.catalog.corridors:
        urls += [f"/api/providers?corridor={f.corridor.key}", f"/api/poc/providers?corridor={f.corridor.key}",
                 f"/api/poc/corridors/{f.corridor.id}",
                 f"/api/poc/corridors?from={f.corridor.from_currency}&to={f.corridor.to_currency}"]
    kept = {url: client.get(url, headers=auth) for url in urls}
    service.bodies = ResponseCache({}, limit=0)  # nothing kept: every view and schema runs again
    for url in urls:
        fresh = client.get(url, headers=auth)
        assert (fresh.data, fresh.headers["ETag"]) == (kept[url].data, kept[url].headers["ETag"]), url


@pytest.mark.parametrize("spellings", [
    ["corridor=USD_MXN", "corridor=usd_mxn", "corridor=Usd_Mxn&sort=cost", "sort=cost&corridor=USD_MXN", "&&corridor=USD_MXN&"],
    ["corridor=GBP_INR&payout=cash_pickup&sort=speed", "sort=speed&&payout=cash_pickup&corridor=gbp_inr"],
])
def test_spellings_of_one_query_share_one_body(client, service, auth, spellings):
    kept = len(service.bodies.recent)
    etags = {client.get(f"/api/providers?{query}", headers=auth).headers["ETag"] for query in spellings}
    assert len(etags) == 1
    assert len(service.bodies.recent) <= kept + 1


def test_one_off_amounts_are_not_kept(client, service, auth):
    kept = len(service.bodies.recent)
    for amount in ("10", "20.5", "30"):
        assert client.get(f"/api/poc/providers?corridor=USD_MXN&amount={amount}").status_code == 200
    assert len(service.bodies.recent) == kept


def test_the_cache_keeps_at_most_its_limit_in_bytes():
    cache = ResponseCache({}, limit=1000)
    for n in range(50):
        cache.put(cache_key("e", {}, {"n": n}), make_body({"n": n, "pad": "x" * 80}))
    assert cache.recent.currsize <= 1000
    assert cache.get(cache_key("e", {}, {"n": 49})) is not None and cache.get(cache_key("e", {}, {"n": 0})) is None
    cache.put(cache_key("e", {}, {"big": 1}), make_body("y" * 2000))  # over the limit alone: not kept
    assert cache.get(cache_key("e", {}, {"big": 1})) is None
