"""The response cache: a 200 is built on first request and kept by endpoint and loaded query, bounded in bytes."""

import dataclasses
import datetime as dt
import gc
import hashlib
import tracemalloc

import pytest
from conftest import build_app, reread

from corridor.api.queries import QueryParser
from corridor.state import current_service
from corridor.state.responses import KeptUrl, ResponseCache
from corridor.state.versions import data_version

GZIP = {"Accept-Encoding": "gzip, br;q=0.5"}
MONTHS = dt.timedelta(days=60)  # of daily rates: some 2 KB of JSON


def answers(app):
    """The keys of the answers kept in the app's data version, not of the URLs pointing at them."""
    return [key for key, kept in current_service(app).data.responses.items() if not isinstance(kept, KeptUrl)]


def counting(app, monkeypatch):
    """`app`, and the keys of the responses it builds from now on."""
    built = []
    keep = ResponseCache.keep

    def counted(self, key, response, *pointed_at_by):
        if response is not None:  # None: a URL pointed at an answer kept before
            built.append(key)
        return keep(self, key, response, *pointed_at_by)

    monkeypatch.setattr(ResponseCache, "keep", counted)
    return app, built


@pytest.fixture(scope="module")
def cache_app():
    """The app the module's tests of what is kept share, its cache emptied for each (`keeps`): building one took most
    of a test's CPU."""
    return build_app()


@pytest.fixture
def keeps(cache_app, monkeypatch):
    """An app whose cache holds nothing, and the keys of the responses it builds from now on."""
    current_service(cache_app).data.responses.clear()
    return counting(cache_app, monkeypatch)


def test_nothing_is_built_at_start_and_a_repeated_request_is_built_once(make_app, auth, monkeypatch):
    app, built = counting(make_app(), monkeypatch)  # an app of the test's own: what it holds at start is asked
    assert len(current_service(app).data.responses) == 0
    client = app.test_client()
    first, again = (client.get("/api/poc/full", headers=auth) for _ in range(2))
    assert (first.status_code, first.data, first.headers["ETag"]) == (200, again.data, again.headers["ETag"])
    assert len(built) == 1


@pytest.mark.parametrize(
    "path, spellings",
    [
        (
            "/api/providers",
            [
                "corridor=GBP_INR&payout=cash_pickup&sort=speed",
                "sort=speed&&payout=cash_pickup&corridor=gbp_inr",
                "corridor=Gbp_Inr&sort=speed&payout=cash_pickup&",
            ],
        ),
        ("/api/providers", ["corridor=usd_mxn", "corridor=USD_MXN&sort=cost", "&corridor=USD_MXN&"]),
        ("/api/midrate", ["from=usd&to=eur", "to=EUR&from=USD", "&from=Usd&to=eUR"]),
        ("/api/poc/full", ["", "&&", "&" * 3000]),
        (
            "/api/poc/history",
            ["from=usd&to=jpy&start=1970-01-01&end=1999-12-31", "from=USD&to=JPY&start=1999-01-04&end=1999-12-31"],
        ),
        (
            "/api/history",
            ["from=USD&to=JPY", "from=USD&to=JPY&end=2026-10-30", "from=USD&to=JPY&start=2025-10-30&end=2999-12-31"],
        ),
    ],
)
def test_spellings_of_one_query_share_one_kept_response(keeps, auth, path, spellings):
    app, built = keeps
    client = app.test_client()
    etags = {client.get(f"{path}?{query}", headers=auth).headers["ETag"] for query in spellings}
    assert len(etags) == 1 and len(built) == 1 and len(answers(app)) == 1


def test_a_url_asked_again_as_sent_is_answered_without_loading_its_query(keeps, auth, monkeypatch):
    app, built = keeps
    client = app.test_client()
    first = client.get("/api/providers?corridor=usd_mxn&sort=speed", headers=auth)
    loads = []
    monkeypatch.setattr("schemas.query.CorridorQuery.load", lambda *args, **kwargs: loads.append(args))
    again = client.get("/api/providers?corridor=usd_mxn&sort=speed", headers=auth)
    assert (again.status_code, again.data, again.headers["ETag"]) == (200, first.data, first.headers["ETag"])
    assert loads == [] and len(built) == 1
    assert client.get("/api/providers?corridor=usd_mxn&sort=speed").status_code == 401  # the key is still asked for
    assert (
        client.get(
            "/api/providers?corridor=usd_mxn&sort=speed", headers={**auth, "If-None-Match": first.headers["ETag"]}
        ).status_code
        == 304
    )


def test_answers_that_depend_on_the_query_are_kept_apart(keeps, auth):
    app, built = keeps
    client = app.test_client()
    bodies = {
        client.get(f"/api/providers?corridor=USD_MXN&sort={sort}", headers=auth).data
        for sort in ("cost", "speed", "score")
    }
    assert len(bodies) == 3 and len(built) == 3


@pytest.mark.parametrize(
    "url",
    [
        "/api/providers?corridor=USD_XYZ",
        "/api/providers?corridor=1",
        "/api/poc/corridors/999",
        "/api/history?from=USD&to=NGN",
    ],
)
def test_errors_are_never_kept(keeps, auth, url):
    app, built = keeps
    assert app.test_client().get(url, headers=auth).status_code in (400, 404)
    assert built == [] and len(current_service(app).data.responses) == 0


def test_a_refresh_serves_a_new_version_with_nothing_kept(make_app, auth):
    app = make_app()
    client = app.test_client()
    client.get("/api/corridors", headers=auth)
    served = current_service(app).data
    assert len(answers(app)) == 1
    assert reread(app) == []
    fresh = current_service(app).data
    # the new version keeps only what it built itself (its whole lists, before it was served): nothing of the last
    assert fresh is not served
    assert not [key for key, kept in fresh.responses.items() if served.responses.get(key) is kept]


def test_a_version_served_while_a_request_runs_gets_none_of_its_answer(make_app, monkeypatch):
    app = make_app()
    old = current_service(app).data
    last = old.catalog.history.ecb.last
    newer_day = {last + dt.timedelta(days=3): old.catalog.history.ecb.on_day(last)}
    newer = data_version(app, old.sources, dataclasses.replace(old.live, ecb_days=newer_day))
    parse = QueryParser.parse

    def parse_then_refresh(self, *args, **kwargs):  # a refresh lands once the query is loaded
        loaded = parse(self, *args, **kwargs)
        current_service(app).serve(newer)
        return loaded

    monkeypatch.setattr(QueryParser, "parse", parse_then_refresh)
    client = app.test_client()
    url = "/api/poc/history?from=USD&to=MXN"
    assert client.get(url).get_json()["end"] == last.isoformat()
    assert client.get(url).get_json()["end"] == (last + dt.timedelta(days=3)).isoformat()


def test_many_ranges_keep_the_cache_within_its_bound(make_app, auth):
    app = make_app(CACHE_MB="1")
    client = app.test_client()
    for day in range(1, 1500):  # two months from each day
        start = dt.date(2020, 1, 1) + dt.timedelta(day)
        assert client.get(f"/api/poc/history?from=USD&to=MXN&start={start}&end={start + MONTHS}").status_code == 200
    responses = current_service(app).data.responses
    assert responses.currsize <= 2**20 and 100 < len(answers(app)) < 1499  # the least recently used went first


# --- quotes at a given amount: answered, never kept -----------------------------------------------------------------


AMOUNT_QUOTES = [
    "/api/providers?corridor=USD_MXN&amount=1234.56",
    "/api/providers?corridor=GBP_INR&receive_amount=50000&payout=cash_pickup",
    "/api/poc/providers?corridor=USD_MXN&amount=2345.67",
    "/api/poc/providers?corridor=USD_MXN&receive_amount=40000&sort=speed",
]


@pytest.mark.parametrize("url", AMOUNT_QUOTES)
def test_a_quote_at_a_given_amount_is_answered_with_validators_and_never_kept(keeps, auth, url):
    app, built = keeps
    client = app.test_client()
    first, again = (client.get(url, headers={**auth, **GZIP}) for _ in range(2))
    assert (first.status_code, first.data, first.headers["ETag"]) == (200, again.data, again.headers["ETag"])
    assert first.headers["ETag"] == f'"{hashlib.sha1(first.data).hexdigest()}"'  # of the body: equal in every worker
    assert first.headers["Last-Modified"] == "Fri, 20 Nov 2026 00:00:00 GMT"
    assert first.headers["Cache-Control"] in ("private, max-age=60", "public, max-age=60")
    assert first.get_json() and int(first.headers["Content-Length"]) == len(first.data) > 1024
    # built for each request, so not compressed (that is done once, for answers that are kept)
    assert "Content-Encoding" not in first.headers and "Accept-Encoding" not in first.headers.get("Vary", "")
    assert built == [] and len(current_service(app).data.responses) == 0


@pytest.mark.parametrize("url", AMOUNT_QUOTES)
def test_a_quote_at_a_given_amount_answers_conditional_requests(app, auth, url):
    client = app.test_client()
    etag = client.get(url, headers=auth).headers["ETag"]
    assert client.get(url, headers={**auth, "If-None-Match": etag}).status_code == 304
    assert client.get(url, headers={**auth, "If-None-Match": '"other"'}).status_code == 200
    assert client.get(url, headers={**auth, "If-Modified-Since": "Sat, 21 Nov 2026 00:00:00 GMT"}).status_code == 304
    refused = client.get(url, headers={**auth, "If-Match": '"other"'})
    assert (refused.status_code, refused.mimetype) == (412, "application/problem+json")
    assert client.get(url, headers={**auth, "If-Match": etag}).status_code == 200
    head = client.head(url, headers=auth)
    assert (head.status_code, head.data, head.headers["ETag"]) == (200, b"", etag)


def test_a_stream_of_amounts_pushes_no_kept_answer_out(make_app, auth):
    app = make_app(CACHE_MB="1")
    client = app.test_client()
    full = client.get("/api/poc/full").headers["ETag"]
    kept = dict(current_service(app).data.responses)
    for cents in range(1, 1500):
        assert client.get(f"/api/poc/providers?corridor=USD_MXN&amount={cents / 100:.2f}").status_code == 200
    assert dict(current_service(app).data.responses) == kept
    assert client.get("/api/poc/full", headers={"If-None-Match": full}).status_code == 304


def _json(app, n):
    body = b'{"from":"USD","to":"MXN","ref_rate_a":18.%d,"ref_rate_b":18.4215,"updated":"Nov 20, 2026"}\n' % n
    return app.response_class(body, mimetype="application/json")


def _csv(app, n):
    return app.response_class(
        b"date,rate\r\n2026-10-%02d,18.%d\r\n" % (n % 28 + 1, n),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="USD_MXN_{n}_{n}.csv"'},
    )


@pytest.mark.parametrize("small_response", [_json, _csv])
def test_the_counted_size_is_what_the_kept_responses_take(app, small_response):
    """tracemalloc's count of what 1 MiB of small responses holds: at most what the cache counts, and not far below."""
    cache = ResponseCache(2**20)
    with app.test_request_context():
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for n in range(5000):  # over a MiB's worth: the oldest are dropped
                response = small_response(app, n)
                cache.keep(f"api.history[('date', datetime.date(2025, 1, {n % 28 + 1})), ('n', {n})]", response)
            del response
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
    assert cache.currsize <= 2**20 and 1000 < len(cache) < 5000
    assert 0.8 * cache.currsize <= held <= cache.currsize, (held, cache.currsize)


def test_an_answer_dropped_by_another_thread_while_read_reads_as_missing(app):
    class DroppedWhileRead(ResponseCache):
        def __contains__(self, key):
            found = super().__contains__(key)
            if found:
                del self[key]  # as another thread's eviction would, between the check and the read
            return found

    cache = DroppedWhileRead(2**20)
    with app.test_request_context():
        cache.keep("small", app.response_class(b"x"))
    assert cache.get("small") is None  # as a miss reads: the answer is built again


def test_a_response_over_the_bound_alone_is_sent_and_not_kept(app):
    cache = ResponseCache(1000)
    with app.test_request_context():
        kept = cache.keep("big", app.response_class(b"x" * 2000), "url /big?", 0)
    assert kept.body == b"x" * 2000 and len(cache) == 0
    assert cache.gzipped("big", kept) is kept and len(cache) == 0  # nor compressed anew for every request


# --- compressed once ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/api/poc/full", "/api/corridors", "/api/history?from=USD&to=MXN&format=csv"])
def test_a_client_that_accepts_gzip_gets_the_same_answer_compressed_once(keeps, auth, url, monkeypatch):
    import gzip

    app, _ = keeps
    client = app.test_client()
    plain = client.get(url, headers=auth)
    compressions = []
    compress = gzip.compress
    monkeypatch.setattr(gzip, "compress", lambda *args, **kwargs: compressions.append(1) or compress(*args, **kwargs))
    zipped = [client.get(url, headers={**auth, **GZIP}) for _ in range(3)]
    assert len(compressions) == 1  # made once, then kept beside the plain answer
    first = zipped[0]
    assert (first.status_code, first.headers["Content-Encoding"]) == (200, "gzip")
    assert gzip.decompress(first.data) == plain.data and len(first.data) < len(plain.data) / 3
    assert {z.data for z in zipped} == {first.data}
    assert first.headers["ETag"] == plain.headers["ETag"][:-1] + '-gzip"'
    assert first.headers["Content-Type"] == plain.headers["Content-Type"]
    assert "Accept-Encoding" in first.headers["Vary"] and "Accept-Encoding" in plain.headers["Vary"]
    assert int(first.headers["Content-Length"]) == len(first.data)
    assert "Content-Encoding" not in plain.headers
    assert any(key.startswith("gzip ") for key in current_service(app).data.responses)


@pytest.mark.parametrize("accept", ["identity", "gzip;q=0", "br", "deflate"])
def test_a_client_that_does_not_accept_gzip_gets_the_plain_answer(app, auth, accept):
    answer = app.test_client().get("/api/poc/full", headers={"Accept-Encoding": accept})
    assert "Content-Encoding" not in answer.headers and answer.get_json()["ok"] is True


def test_a_small_answer_is_sent_as_it_is(app):
    answer = app.test_client().get("/api/poc/corridors/1", headers=GZIP)
    assert len(answer.data) < 1024 and "Content-Encoding" not in answer.headers
    assert "Accept-Encoding" not in answer.headers.get("Vary", "")


def test_each_encoding_revalidates_against_its_own_etag(app, auth):
    client = app.test_client()
    plain = client.get("/api/corridors", headers=auth).headers["ETag"]
    zipped = client.get("/api/corridors", headers={**auth, **GZIP}).headers["ETag"]
    assert plain != zipped
    assert client.get("/api/corridors", headers={**auth, **GZIP, "If-None-Match": zipped}).status_code == 304
    assert client.get("/api/corridors", headers={**auth, "If-None-Match": plain}).status_code == 304
    assert client.get("/api/corridors", headers={**auth, **GZIP, "If-None-Match": plain}).status_code == 200
    head = client.head("/api/corridors", headers={**auth, **GZIP})
    assert (head.status_code, head.data, head.headers["Content-Encoding"], head.headers["ETag"]) == (
        200,
        b"",
        "gzip",
        zipped,
    )


def test_the_compressed_answers_count_against_the_bound(make_app):
    app = make_app(CACHE_MB="1")
    client = app.test_client()
    for day in range(1, 1500):
        start = dt.date(2020, 1, 1) + dt.timedelta(day)
        url = f"/api/poc/history?from=USD&to=MXN&start={start}&end={start + MONTHS}"
        assert client.get(url, headers=GZIP).headers["Content-Encoding"] == "gzip"
    responses = current_service(app).data.responses
    assert responses.currsize <= 2**20 and 100 < sum(key.startswith("gzip ") for key in responses) < 1499
