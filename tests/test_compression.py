"""Large bodies also go out gzip-compressed, built once, to clients that accept it."""

import gzip

import pytest

GZIP = {"Accept-Encoding": "gzip, deflate"}
LARGE = ["/api/poc/full", "/api/poc/providers", "/api/corridors", "/api/poc/providers?corridor=USD_MXN",
         "/api/providers?corridor=GBP_INR&payout=cash_pickup", "/api/poc/guide"]


@pytest.mark.parametrize("url", LARGE)
def test_a_large_body_is_gzip_for_a_client_that_accepts_it(client, auth, url):
    plain = client.get(url, headers=auth)
    packed = client.get(url, headers={**auth, **GZIP})
    assert packed.status_code == 200 and packed.headers["Content-Encoding"] == "gzip"
    assert plain.headers["Vary"] == packed.headers["Vary"] == "Accept-Encoding"
    assert "Content-Encoding" not in plain.headers
    assert gzip.decompress(packed.data) == plain.data and len(packed.data) < len(plain.data)
    assert int(packed.headers["Content-Length"]) == len(packed.data)
    assert packed.headers["ETag"] != plain.headers["ETag"]


@pytest.mark.parametrize("accept", ["", "identity", "gzip;q=0", "br", "deflate, gzip;q=0"])
def test_a_client_that_does_not_accept_gzip_gets_the_plain_body(client, accept):
    response = client.get("/api/poc/full", headers={"Accept-Encoding": accept})
    assert "Content-Encoding" not in response.headers and response.get_json()["ok"] is True
    assert response.headers["Vary"] == "Accept-Encoding"


@pytest.mark.parametrize("accept", ["*", "gzip;q=0.5, identity", "GZIP"])
def test_any_acceptance_of_gzip_gets_it(client, accept):
    assert client.get("/api/poc/full", headers={"Accept-Encoding": accept}).headers["Content-Encoding"] == "gzip"


def test_each_encoding_is_validated_by_its_own_etag(client):
    plain, packed = client.get("/api/poc/full"), client.get("/api/poc/full", headers=GZIP)
    assert client.get("/api/poc/full", headers={**GZIP, "If-None-Match": packed.headers["ETag"]}).status_code == 304
    assert client.get("/api/poc/full", headers={"If-None-Match": plain.headers["ETag"]}).status_code == 304
    other = client.get("/api/poc/full", headers={**GZIP, "If-None-Match": plain.headers["ETag"]})
    assert other.status_code == 200 and other.headers["ETag"] == packed.headers["ETag"]
    not_modified = client.get("/api/poc/full", headers={**GZIP, "If-None-Match": packed.headers["ETag"]})
    assert not_modified.headers["Vary"] == "Accept-Encoding" and not not_modified.data


def test_head_of_a_gzip_body_has_its_headers_and_no_body(client):
    get, head = client.get("/api/poc/full", headers=GZIP), client.head("/api/poc/full", headers=GZIP)
    assert head.data == b""
    for name in ("Content-Encoding", "Content-Length", "ETag", "Vary"):
        assert head.headers[name] == get.headers[name]


@pytest.mark.parametrize("url", ["/api/poc/corridors/1", "/api/midrate?from=USD&to=EUR", "/api/poc/health",
                                 "/api/poc/providers?corridor=USD_MXN&amount=1234.5",
                                 "/api/providers?corridor=USD_MXN&amount=99"])
def test_small_bodies_and_one_off_quotes_go_out_as_they_are(client, auth, url):
    response = client.get(url, headers={**auth, **GZIP})
    assert response.status_code == 200
    assert "Content-Encoding" not in response.headers and "Vary" not in response.headers
    assert response.get_json()
