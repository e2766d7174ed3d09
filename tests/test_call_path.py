"""The short path: a request runs few of the project's own functions outside the pure domain, and a public one none of
the account pages'."""

import pytest
from conftest import RAW_KEY, build_app

from bench.call_path import URLS, project_calls

AUTH = {"Authorization": f"Bearer {RAW_KEY}"}


@pytest.fixture(scope="module", params=["off", "on"])
def counted_app(request):
    app = build_app(RATE_LIMITS=request.param, RATE_LIMIT_API="1000000/minute", RATE_LIMIT_PUBLIC="1000000/minute")
    app.test_client().get("/api/poc/corridors/1", headers=AUTH)  # the store of counts opens on the first request
    return request.param, app


@pytest.mark.parametrize("url", URLS)
def test_a_request_runs_at_most_10_project_functions_outside_the_domain_and_14_with_limits(counted_app, url):
    # the short-path target (docs/PERFORMANCE.md)
    limits, app = counted_app
    bound = 14 if limits == "on" else 10
    for when in ("built", "kept"):
        calls = project_calls(app, url, AUTH)
        assert len(calls) <= bound, (when, calls)


@pytest.mark.parametrize("url", [url for url in URLS if url.startswith("/api/poc/")])
def test_a_public_request_touches_no_account_code(counted_app, url):
    _, app = counted_app
    calls = project_calls(app, url, {})
    assert not [name for name in calls if name.startswith("corridor.accounts")], calls
