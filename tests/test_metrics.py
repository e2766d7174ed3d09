"""/metrics for the operator: off unless asked for, only to the token, never rate limited, and counting what an
operator watches (requests by route template, cache, refusals, key checks, feeds, the survey)."""

import datetime as dt
import shutil
import time

import pytest
from conftest import RAW_KEY, build_app, refresh
from feeds import Reply
from holders import Holder, query, signed_up
from prometheus_client.parser import text_string_to_metric_families

from corridor.settings import ConfigError
from corridor.state import current_service

TOKEN = "metrics-token-for-the-tests-0123"
SCRAPER = {"Authorization": f"Bearer {TOKEN}"}
AUTH = {"Authorization": f"Bearer {RAW_KEY}"}


def samples(client):
    """Every sample /metrics answers, as {(name, sorted labels): value}."""
    response = client.get("/metrics", headers=SCRAPER)
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("text/plain; version=")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(found, name, **labels):
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def metered():
    """An app with metrics on, of the test's own: nothing counted yet."""
    return build_app(METRICS_TOKEN=TOKEN)


@pytest.fixture(scope="module")
def shared_metered():
    """An app with metrics on, shared by the module's tests that count nothing they assert."""
    return build_app(METRICS_TOKEN=TOKEN)


def test_metrics_are_an_unknown_path_unless_turned_on(client):
    response = client.get("/metrics", headers=SCRAPER)
    assert response.status_code == 404
    assert current_service(client.application).metrics is None


@pytest.mark.parametrize(
    "header",
    [None, "Bearer wrong-token-wrong-token-0123", f"Basic {TOKEN}", f"Bearer {TOKEN}x", "Bearer", f"bearer  {RAW_KEY}"],
)
def test_metrics_are_refused_without_the_token(shared_metered, header):
    response = shared_metered.test_client().get("/metrics", headers={"Authorization": header} if header else {})
    assert response.status_code == 401
    assert response.get_json()["code"] == "invalid_metrics_token"
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="corridor-metrics"'
    assert TOKEN not in response.text


def test_requests_are_counted_by_route_template_method_and_status_never_by_path(metered):
    client = metered.test_client()
    for path in ("/api/poc/corridors/1", "/api/poc/corridors/2", "/api/poc/corridors/999"):
        client.get(path)
    client.head("/api/corridors", headers=AUTH)
    client.get("/no/such/path?key=abc")
    found = samples(client)
    template = "/api/poc/corridors/{corridor_id}"
    assert value(found, "http_requests_total", method="GET", route=template, status="200") == 2
    assert value(found, "http_requests_total", method="GET", route=template, status="404") == 1
    assert value(found, "http_requests_total", method="HEAD", route="/api/corridors", status="200") == 1
    assert value(found, "http_requests_total", method="GET", route="unmatched", status="404") == 1
    # each timed also by how the response cache was asked: both answers had to be made; no route, no cache
    built = {"method": "GET", "route": template, "status": "200", "cache": "miss"}
    assert value(found, "http_request_duration_seconds_count", **built) == 2
    assert value(found, "http_request_duration_seconds_sum", **built) > 0
    assert (
        value(found, "http_request_duration_seconds_count", method="GET", route="unmatched", status="404", cache="")
        == 1
    )
    text = client.get("/metrics", headers=SCRAPER).text
    assert "/no/such/path" not in text and "key=abc" not in text and "/api/poc/corridors/1" not in text


def test_the_response_cache_counts_a_miss_then_hits(metered):
    client = metered.test_client()
    before = samples(client)
    assert value(before, "corridor_response_cache_lookups_total", result="miss") == 0
    assert ("corridor_response_cache_lookups_total", (("result", "hit"),)) in before  # there from the start
    for _ in range(3):
        client.get("/api/poc/corridors/1")
    client.get("/api/poc/corridors/1?")  # another spelling of the same query: kept all the same
    found = samples(client)
    assert value(found, "corridor_response_cache_lookups_total", result="miss") == 1
    assert value(found, "corridor_response_cache_lookups_total", result="hit") == 3
    kept = {"method": "GET", "route": "/api/poc/corridors/{corridor_id}", "status": "200", "cache": "hit"}
    assert value(found, "http_request_duration_seconds_count", **kept) == 3


def test_refusals_are_counted_by_budget_and_the_scrape_is_never_limited():
    app = build_app(METRICS_TOKEN=TOKEN, RATE_LIMITS="on", RATE_LIMIT_PUBLIC="2/minute", RATE_LIMIT_API="1/minute")
    client = app.test_client()
    statuses = [client.get("/api/poc/corridors/1").status_code for _ in range(4)]
    statuses += [client.get("/api/corridors", headers=AUTH).status_code for _ in range(2)]
    assert statuses == [200, 200, 429, 429, 200, 429]
    for _ in range(5):
        response = client.get("/metrics", headers=SCRAPER)
        assert response.status_code == 200
        assert "RateLimit-Limit" not in response.headers
    found = samples(client)
    assert value(found, "corridor_rate_limit_refusals_total", budget="public") == 2
    assert value(found, "corridor_rate_limit_refusals_total", budget="api") == 1


def test_account_key_checks_are_counted_as_hit_miss_and_database_error(migrated_sqlite, tmp_path, quick_hashes):
    path = tmp_path / "accounts.sqlite3"
    shutil.copyfile(migrated_sqlite, path)
    url = f"sqlite:///{path}"
    app = build_app(DATABASE_URL=url, METRICS_TOKEN=TOKEN)
    holder = signed_up(Holder(app.test_client()))
    key = holder.make_key()
    client = app.test_client()
    assert client.get("/api/corridors", headers={"Authorization": f"Bearer {key}"}).status_code == 200
    assert client.get("/api/corridors", headers={"Authorization": "Bearer cor_" + "B" * 43}).status_code == 401
    assert client.get("/api/corridors", headers=AUTH).status_code == 200  # the operator's: no account check
    query(url, "DROP TABLE api_keys")
    assert client.get("/api/corridors", headers={"Authorization": "Bearer cor_" + "C" * 43}).status_code == 503
    found = samples(client)
    checks = {
        result: value(found, "corridor_account_key_checks_total", result=result) for result in ("hit", "miss", "error")
    }
    assert checks == {"hit": 1, "miss": 1, "error": 1}


def test_feed_fetches_are_counted_by_outcome_and_the_rates_age_is_there_from_the_start(make_app, feeds):
    app = make_app(METRICS_TOKEN=TOKEN, ECB_RATES_URL=feeds.ecb_url, FRANKFURTER_URL=feeds.frankfurter_url)
    client = app.test_client()
    before = samples(client)
    # before any fetch: each feed's age, of the rates the data file and the history give
    data = current_service(app).data
    as_of = {
        feed["source"]: feed["date"] or data.catalog.dataset.as_of for feed in data.live.report(data.sources.dataset)
    }
    for feed, day in as_of.items():
        age = value(before, "corridor_rates_age_seconds", feed=feed)
        midnight = dt.datetime.combine(dt.date.fromisoformat(str(day)), dt.time(), dt.UTC).timestamp()
        assert abs(age - (time.time() - midnight)) < 60
    assert not [key for key in before if key[0] == "corridor_feed_fetches_total"]
    refresh(app)
    found = samples(client)
    assert value(found, "corridor_feed_fetches_total", feed="ECB", outcome="ok") == 1
    assert value(found, "corridor_feed_fetches_total", feed="Frankfurter", outcome="ok") == 1
    assert value(found, "corridor_rates_age_seconds", feed="ECB") < value(
        before, "corridor_rates_age_seconds", feed="ECB"
    )


def test_a_failing_feed_is_counted_as_failing(make_app, feeds):
    app = make_app(METRICS_TOKEN=TOKEN, ECB_RATES_URL=feeds.ecb_url, FRANKFURTER_URL="off")
    feeds.replies["/ecb.xml"] = Reply(status=500, body=b"down")
    refresh(app)
    found = samples(app.test_client())
    assert value(found, "corridor_feed_fetches_total", feed="ECB", outcome="failing") == 1
    assert not [key for key in found if key[0] == "corridor_feed_fetches_total" and ("feed", "Frankfurter") in key[1]]


def test_the_survey_import_and_its_latest_period_are_shown(surveyed_database):
    app = build_app(DATABASE_URL=surveyed_database, METRICS_TOKEN=TOKEN)
    survey = current_service(app).data.sources.survey
    found = samples(app.test_client())
    latest = max(observation.period for observation in survey.latest)
    assert value(found, "corridor_survey_info", **{"import": str(survey.version), "period": latest}) == 1


def test_no_survey_no_survey_metric(shared_metered):
    assert not [key for key in samples(shared_metered.test_client()) if key[0] == "corridor_survey_info"]


@pytest.mark.parametrize(
    ("setting", "value_", "message"),
    [
        ("METRICS_TOKEN", "short", "METRICS_TOKEN must be at least 16 characters"),
        ("METRICS_PORT", "http", "METRICS_PORT must be a port"),
        ("METRICS_PORT", "0", "METRICS_PORT must be a port"),
        ("METRICS_PORT", "127.0.0.1:70000", "METRICS_PORT must be a port"),
        ("METRICS_PORT", "１２３", "METRICS_PORT must be a port"),
        ("LOG_FORMAT", "yaml", "LOG_FORMAT 'yaml' is not one of text, json"),
    ],
)
def test_bad_operator_settings_refuse_start_up_with_a_message(setting, value_, message):
    with pytest.raises(ConfigError, match=message):
        build_app(**{setting: value_})
