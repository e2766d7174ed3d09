"""SPEC §8: HEAD, OPTIONS, strong ETags and 304, caching, nosniff, request ids."""

import os
import re

import pytest
from flask import Flask, Response, request


from bench.urls import URLS as EVERY_URL, concrete
from corridor.http import JsonBodyResponse, RequestIds

URLS = ["/api/corridors", "/api/providers?corridor=USD_MXN", "/api/midrate?from=USD&to=EUR"]


@pytest.mark.parametrize("url", URLS)
def test_get_carries_strong_etag_and_private_caching(client, auth, url):
    response = client.get(url, headers=auth)
    assert response.status_code == 200
    assert re.fullmatch(r'"[0-9a-f]{32}"', response.headers["ETag"])
    assert response.headers["Cache-Control"] == "private, max-age=60"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("url", URLS)
def test_if_none_match_gives_304_without_body(client, auth, url):
    etag = client.get(url, headers=auth).headers["ETag"]
    response = client.get(url, headers={**auth, "If-None-Match": etag})
    assert response.status_code == 304
    assert response.get_data() == b""
    assert response.headers["ETag"] == etag
    stale = client.get(url, headers={**auth, "If-None-Match": '"0000"'})
    assert stale.status_code == 200


def test_etags_differ_between_bodies(client, auth):
    etags = {client.get(url, headers=auth).headers["ETag"] for url in URLS}
    assert len(etags) == len(URLS)


@pytest.mark.parametrize("url", URLS)
def test_head_is_get_without_body(client, auth, url):
    get, head = client.get(url, headers=auth), client.head(url, headers=auth)
    assert head.status_code == 200
    assert head.get_data() == b""
    for name in ("Content-Type", "Content-Length", "ETag", "Cache-Control"):
        assert head.headers[name] == get.headers[name]


def test_head_needs_a_key_too(client):
    response = client.head("/api/corridors")
    assert response.status_code == 401
    assert response.get_data() == b""


@pytest.mark.parametrize("url", URLS)
def test_options_needs_no_key(client, url):
    response = client.options(url)
    assert response.status_code == 204
    assert response.headers["Allow"] == "GET, HEAD, OPTIONS"
    assert response.get_data() == b""
    assert "Content-Type" not in response.headers


def test_error_responses_are_not_cached(client):
    assert client.get("/api/corridors").headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("given", ["abc-123", "A.b_c-9", "x" * 128])
def test_request_id_is_echoed(client, given):
    assert client.get("/api/corridors", headers={"X-Request-ID": given}).headers["X-Request-ID"] == given


@pytest.mark.parametrize("given", ["", "x" * 129, "has space", "tab\there", "semi;colon", "ünï"])
def test_bad_request_id_is_replaced(client, given):
    response = client.get("/api/nowhere", headers={"X-Request-ID": given})
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["X-Request-ID"])


def test_generated_request_ids_differ_per_request_and_per_forked_worker():
    ids = RequestIds()
    first, second = ids(), ids()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # a worker forked from the master draws its own prefix
        try:
            os.write(write, ids().encode())
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    forked = os.read(read, 64).decode()
    os.close(read)
    assert all(re.fullmatch(r"[0-9a-f]{32}", rid) for rid in (first, second, forked))
    assert len({first, second, forked}) == 3
    assert forked[:16] != first[:16] and first[:16] == second[:16]


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("url", [concrete(url) for url in EVERY_URL] + ["/api/providers?corridor=usd_mxn&amount=7.5"])
def test_json_bodies_go_out_with_the_headers_werkzeug_would_send(app, auth, url, method):
    # over https, so HSTS is among the headers too
    with app.test_request_context(url, method=method, headers=auth, base_url="https://localhost"):
        response = app.full_dispatch_request()  # the view and every after-request hook
        assert type(response) is JsonBodyResponse and response.status_code == 200
        sent = response.get_wsgi_headers(request.environ).to_wsgi_list()
        assert sent == Response.get_wsgi_headers(response, request.environ).to_wsgi_list()
        assert ("Content-Length", str(len(response.get_data()))) in sent
        assert ("Strict-Transport-Security", "max-age=31536000") in sent
        body = list(response.get_app_iter(request.environ))
        assert body == list(Response.get_app_iter(response, request.environ))
        assert body == ([] if method == "HEAD" else [response.get_data()])
        if method == "GET":
            assert response.get_app_iter(request.environ) is response.response  # not wrapped


def test_a_json_body_with_a_close_hook_goes_out_werkzeugs_way(app):
    closed = []
    response = JsonBodyResponse(b'{"a":1}', headers=[("Content-Type", "application/json")])
    assert response.get_app_iter({"REQUEST_METHOD": "GET"}) == [b'{"a":1}']  # as it was set
    response.call_on_close(lambda: closed.append(True))
    app_iter = response.get_app_iter({"REQUEST_METHOD": "GET"})
    assert list(app_iter) == [b'{"a":1}'] and not closed
    app_iter.close()  # what the server does once the body is sent
    assert closed == [True]


def test_ensure_sync_gives_flasks_answer_once_per_function(app):
    def plain():
        return None

    async def coroutine():
        return None

    assert app.ensure_sync(plain) is plain and app.ensure_sync(plain) is plain
    with pytest.raises(Exception) as ours:  # no asgiref installed: Flask refuses async functions
        app.ensure_sync(coroutine)
    with pytest.raises(Exception) as flasks:
        Flask.ensure_sync(app, coroutine)
    assert type(ours.value) is type(flasks.value) and str(ours.value) == str(flasks.value)
