"""The route table routes as Werkzeug does: the same rule and arguments, or the same error."""

from urllib.parse import unquote

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect
from werkzeug.test import EnvironBuilder

from corridor.routing import LazyAdapter


def outcome(match):
    """What a match gives: the rule and its arguments, or the error a client would get."""
    try:
        rule, args = match()
    except HTTPException as error:
        methods = sorted(getattr(error, "valid_methods", None) or ())
        return type(error).__name__, error.code, getattr(error, "new_url", None), methods
    return rule.rule, rule.endpoint, args


def both_matches(app, path, method="GET", headers=None, base_url="http://localhost"):
    """The app's match of one request, Werkzeug's as Flask binds it, and the app's adapter."""
    path, _, query = path.partition("?")
    environ = EnvironBuilder(query_string=query, method=method, headers=headers, base_url=base_url).get_environ()
    # PATH_INFO as a server gives it (EnvironBuilder would read a leading // as a host)
    environ["PATH_INFO"] = unquote(path).encode().decode("latin-1")
    request = app.request_class(environ)
    fast = app.create_url_adapter(request)
    werkzeug = outcome(lambda: Flask.create_url_adapter(app, request).match(return_rule=True))
    return fast, outcome(lambda: fast.match(return_rule=True)), werkzeug


def test_the_table_holds_every_path_without_arguments_and_every_canonical_corridor(app):
    paths = {path for path, _ in app.route_table.routes}
    assert {"/api/corridors", "/api/providers", "/api/midrate", "/api/currencies", "/api/poc/corridors",
            "/api/poc/providers", "/api/poc/full", "/api/poc/guide", "/api/poc/currencies", "/api/poc/health",
            "/api/openapi.json", "/api/docs"} <= paths
    assert {f"/api/poc/corridors/{corridor_id}" for corridor_id in app.extensions["corridor"]["catalog"].by_id} <= paths
    assert {method for _, method in app.route_table.routes} == {"GET", "HEAD", "OPTIONS"}


@pytest.mark.parametrize("path", ["/api/corridors", "/api/poc/providers", "/api/poc/corridors/1"])
@pytest.mark.parametrize("method", ["GET", "HEAD", "OPTIONS"])
def test_a_table_path_is_routed_without_binding_the_url_map(app, path, method):
    both_matches(app, "/api/poc/health")  # the map bound to this Host once
    fast, routed, werkzeug = both_matches(app, path, method)
    assert isinstance(fast, LazyAdapter)
    assert routed == werkzeug and isinstance(routed[2], dict)
    assert fast._bound is None


def test_the_arguments_are_a_fresh_dict_each_time(app):
    first, second = (both_matches(app, "/api/poc/corridors/1")[1][2] for _ in range(2))
    first["corridor_id"] = "changed"
    assert second == {"corridor_id": "1"}


@pytest.mark.parametrize(("path", "method", "headers", "expected"), [
    ("/api/corridors/", "GET", None, "NotFound"),
    ("/api//corridors", "GET", None, "NotFound"),
    ("/api/corridors", "POST", None, "MethodNotAllowed"),
    ("/api/corridors", "get", None, "api.corridors"),
    ("/API/corridors", "GET", None, "NotFound"),
    ("/api/poc/corridors/99", "GET", None, "poc.corridor"),
    ("/api/poc/corridors/01", "GET", None, "NotFound"),
    ("/api/corridors", "GET", {"Connection": "Upgrade", "Upgrade": "websocket"}, "WebsocketMismatch"),
    ("/api/docs/", "GET", None, "NotFound"),
])
def test_what_the_table_does_not_hold_is_matched_by_werkzeug(app, path, method, headers, expected):
    _, routed, werkzeug = both_matches(app, path, method, headers)
    assert routed == werkzeug
    assert expected in routed


def test_a_redirect_names_the_host_the_client_used(fresh_app):
    # the API has no rule ending in a slash; one added later is not in the table, so Werkzeug's
    # adapter is bound to the request's own host and scheme, as Flask binds it
    fresh_app.add_url_rule("/api/poc/extra/", "extra", lambda: "")
    _, routed, werkzeug = both_matches(fresh_app, "/api/poc/extra", base_url="https://api.example.com:8443")
    assert routed == werkzeug
    assert routed[:3] == ("RequestRedirect", RequestRedirect.code, "https://api.example.com:8443/api/poc/extra/")


@pytest.mark.parametrize("host", ["a..b", "x" * 64 + ".com"])
@pytest.mark.parametrize("path", ["/api/poc/health", "/api/corridors", "/api/poc/corridors/1"])
def test_a_host_werkzeug_cannot_bind_is_refused_on_every_path(client, host, path):
    for _ in range(2):  # not remembered as bound
        response = client.get(path, headers={"Host": host})
        assert response.status_code == 400
        assert response.get_json()["code"] == "invalid_parameter"


def test_only_hosts_the_map_was_bound_to_take_the_table(fresh_app):
    both_matches(fresh_app, "/api/poc/full", headers={"Host": "api.example.com"})
    both_matches(fresh_app, "/api/poc/full", headers={"Host": "a..b"})
    assert fresh_app.route_table.hosts == {"api.example.com"}
    for n in range(100):
        both_matches(fresh_app, "/api/poc/missing", headers={"Host": f"h{n}.example.com"})
    assert len(fresh_app.route_table.hosts) == 64  # bounded: further hosts bind each time


# paths as anyone may send them: the table's own, alone or with more after them (slashes doubled
# or trailing, escapes, case changes, non-ASCII), and pieces of them put together
SERVED = ["/api/corridors", "/api/providers", "/api/midrate", "/api/poc/corridors", "/api/poc/corridors/1",
          "/api/poc/corridors/19", "/api/poc/full", "/api/poc/health", "/api/docs", "/api/openapi.json"]
path_pieces = st.sampled_from(["/api", "/poc", "/corridors", "/providers", "/full", "/health", "/1", "/19", "/0",
                               "/01", "/docs", "/openapi.json", "/", "//", "/%41", "/é", "/API", ".", "?x", "1"])
paths = st.one_of(
    st.sampled_from(SERVED),
    st.tuples(st.sampled_from(SERVED), st.lists(path_pieces, max_size=2).map("".join)).map("".join),
    st.lists(path_pieces, max_size=6).map("".join),
)


hosts = st.sampled_from(["localhost", "api.example.com:8443", "[::1]:8000", "a..b", "x" * 64 + ".com", "é.example",
                         "bad host", "", "LOCALHOST"])


@given(path=paths, method=st.sampled_from(["GET", "HEAD", "OPTIONS", "POST", "DELETE", "get", "PROPFIND"]), host=hosts)
@settings(max_examples=1000, deadline=None, derandomize=True)
def test_any_request_is_routed_as_werkzeug_routes_it(app, path, method, host):
    for _ in range(2):  # the second time, a Host the map was bound to takes the table
        _, routed, werkzeug = both_matches(app, path or "/", method, headers={"Host": host})
        assert routed == werkzeug


def test_the_url_map_is_still_there_for_building_urls_and_allowed_methods(app):
    with app.test_request_context("/api/corridors"):
        adapter = app.create_url_adapter(app.request_class(EnvironBuilder(path="/api/corridors").get_environ()))
        assert adapter.build("poc.corridor", {"corridor_id": "7"}) == "/api/poc/corridors/7"
        assert sorted(adapter.allowed_methods()) == ["GET", "HEAD", "OPTIONS"]
