"""Response bodies: built with the data for every canonical URL, kept by normalised query, bounded."""

from dataclasses import replace

import pytest

from corridor.web.endpoint import QUERY_MEMO, QUERY_MEMO_LENGTH, Operation
from corridor.web.memo import SharedLRU
from corridor.web.service import ResponseCache


def canonical_urls(catalog):
    """Every URL whose body is built with the data."""
    urls = ["/api/corridors", "/api/currencies", "/api/poc/corridors", "/api/poc/providers", "/api/poc/full",
            "/api/poc/currencies", "/api/poc/guide", "/api/benchmark", "/api/poc/benchmark"]
    for f in catalog.corridors:
        urls += [f"/api/providers?corridor={f.corridor.key}", f"/api/poc/providers?corridor={f.corridor.key}",
                 f"/api/poc/corridors/{f.corridor.id}",
                 f"/api/poc/corridors?from={f.corridor.from_currency}&to={f.corridor.to_currency}"]
    return urls


@pytest.fixture
def builds(monkeypatch):
    """The (view, query) of every body built from now on."""
    built = []
    body = Operation.body

    def counted(self, catalog, query, path):
        built.append((self.view.__name__, dict(query), dict(path)))
        return body(self, catalog, query, path)

    monkeypatch.setattr(Operation, "body", counted)
    return built


def test_every_canonical_body_is_served_as_built_with_the_data(fresh_app, auth, builds):
    service = fresh_app.extensions["corridor"]
    client = fresh_app.test_client()
    urls = canonical_urls(service.data.catalog)
    served = {url: client.get(url, headers=auth) for url in urls}
    assert builds == [] and len(service.data.bodies.prebuilt) == len(urls)
    service.data = replace(service.data, bodies=ResponseCache({}, limit=0))  # nothing kept: every view runs
    for url, response in served.items():
        fresh = client.get(url, headers=auth)
        assert (response.status_code, response.data, response.headers["ETag"]) == (200, fresh.data, fresh.headers["ETag"]), url
    assert len(builds) == len(urls)


@pytest.mark.parametrize("spellings", [
    ["corridor=GBP_INR&payout=cash_pickup&sort=speed", "sort=speed&&payout=cash_pickup&corridor=gbp_inr",
     "corridor=Gbp_Inr&sort=speed&payout=cash_pickup&"],
    ["from=usd&to=eur", "to=EUR&from=USD", "&from=Usd&to=eUR"],
])
def test_spellings_of_one_query_are_built_once_and_share_one_body(fresh_app, auth, builds, spellings):
    client = fresh_app.test_client()
    path = "/api/providers" if "corridor" in spellings[0] else "/api/midrate"
    etags = {client.get(f"{path}?{query}", headers=auth).headers["ETag"] for query in spellings}
    assert len(etags) == 1 and len(builds) == 1
    assert len(fresh_app.extensions["corridor"].data.bodies.recent) == 1


def test_canonical_spellings_are_never_built_again(fresh_app, auth, builds):
    client = fresh_app.test_client()
    for url in ["/api/providers?corridor=usd_mxn&sort=cost", "/api/poc/corridors?to=mxn&from=usd", "/api/poc/full?&&",
                "/api/poc/providers?&&", "/api/poc/providers?&corridor=USD_MXN&sort=cost&"]:
        assert client.get(url, headers=auth).status_code == 200
    assert builds == []


def test_one_off_amounts_are_built_every_time_and_not_kept(fresh_app, builds):
    client = fresh_app.test_client()
    for _ in range(2):
        assert client.get("/api/poc/providers?corridor=USD_MXN&amount=20.5").status_code == 200
    assert len(builds) == 2 and len(fresh_app.extensions["corridor"].data.bodies.recent) == 0


def test_loaded_queries_are_remembered_when_short_and_not_one_off(fresh_app, auth):
    client = fresh_app.test_client()
    operation = fresh_app.view_functions["api.providers"].operation
    operation.loaded.clear()
    client.get("/api/providers?corridor=USD_MXN&payout=card", headers=auth)
    client.get("/api/providers?corridor=USD_MXN&amount=10", headers=auth)
    client.get("/api/providers?corridor=USD_MXN" + "&" * QUERY_MEMO_LENGTH, headers=auth)
    assert len(operation.loaded) == 1 and operation.loaded.get(b"corridor=USD_MXN&payout=card") is not None


def test_empty_separators_grow_nothing(fresh_app, builds):
    client = fresh_app.test_client()
    operation = fresh_app.view_functions["poc.full"].operation
    operation.loaded.clear()
    for count in range(1, 3000):
        assert client.get("/api/poc/full?" + "&" * count).status_code == 200
    assert builds == [] and len(fresh_app.extensions["corridor"].data.bodies.recent) == 0
    assert len(operation.loaded) == QUERY_MEMO_LENGTH  # the spellings of at most 128 bytes


def test_remembered_queries_are_bounded(fresh_app, auth, builds):
    client = fresh_app.test_client()
    operation = fresh_app.view_functions["api.providers"].operation
    operation.loaded.clear()
    spellings = [  # USD_MXN in each of its 64 mixes of case, after 0 to 19 empty separators
        "&" * gap + "corridor=" + "".join(c.lower() if mask >> i & 1 else c for i, c in enumerate("USD_MXN"))
        for gap in range(20) for mask in range(128) if not mask & 8
    ]
    assert len(set(spellings)) > QUERY_MEMO
    for query in spellings:
        assert client.get(f"/api/providers?{query}", headers=auth).status_code == 200
    assert len(operation.loaded) == QUERY_MEMO and builds == []


def test_a_shared_lru_keeps_its_limit_and_the_most_recently_used():
    memo = SharedLRU(limit=100, size=len)
    for n in range(10):
        memo.put(n, "x" * 20)
        memo.get(0)  # used all along: never the least recently used
    assert memo.total <= 100 and len(memo) == 5
    assert memo.get(0) is not None and memo.get(9) is not None and memo.get(1) is None
    memo.put("big", "y" * 101)  # over the limit alone: not kept, nothing dropped for it
    assert memo.get("big") is None and len(memo) == 5

