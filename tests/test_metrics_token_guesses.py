"""A wrong `/metrics` token is counted against its address's budget like any request, and refused with a 429 once the
budget is spent; the operator's scraper, with the token, is never limited."""

import pytest
from conftest import build_app

TOKEN = "metrics-token-for-the-tests-0123"


@pytest.fixture
def limited():
    return build_app(METRICS_TOKEN=TOKEN, RATE_LIMITS="on", RATE_LIMIT_PUBLIC="3/minute").test_client()


@pytest.mark.parametrize("header", [None, "Bearer wrong-token-wrong-token-0123", f"Basic {TOKEN}", "Bearer"])
def test_wrong_metrics_tokens_count_against_the_address_and_are_refused_once_it_is_spent(limited, header):
    headers = {"Authorization": header} if header else {}
    answers = [limited.get("/metrics", headers=headers) for _ in range(4)]
    assert [a.status_code for a in answers] == [401, 401, 401, 429]
    assert [a.headers["RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
    assert answers[0].headers["RateLimit-Limit"] == "3"
    refused = answers[3]
    assert refused.get_json()["code"] == "rate_limited"
    assert refused.headers["Retry-After"] == refused.headers["RateLimit-Reset"]
    assert limited.get("/api/poc/corridors/1").status_code == 429  # the same address's budget


def test_wrong_metrics_tokens_after_the_address_spent_its_budget_are_refused(limited):
    assert [limited.get("/api/poc/corridors/1").status_code for _ in range(4)] == [200, 200, 200, 429]
    wrong = {"Authorization": "Bearer wrong-token-wrong-token-0123"}
    assert {limited.get("/metrics", headers=wrong).status_code for _ in range(20)} == {429}


def test_the_scraper_with_the_token_is_never_limited_nor_counted(limited):
    scraper = {"Authorization": f"Bearer {TOKEN}"}
    answers = [limited.get("/metrics", headers=scraper) for _ in range(5)]
    assert [a.status_code for a in answers] == [200] * 5
    assert not any("RateLimit-Limit" in a.headers for a in answers)
    assert limited.get("/api/poc/corridors/1").headers["RateLimit-Remaining"] == "2"
