""" "They receive" quotes and the SDG 10.c benchmark, recomputed here from the data file, both groups alike."""

from statistics import fmean

import pytest
from conftest import ok_json
from expected import active, corridor_costs, group_a_entries, group_b_entries, half_up, key, pct, shipped_seed

RAW = shipped_seed()
ACTIVE = active(RAW)
BY_KEY = {key(c): c for c in ACTIVE}


@pytest.mark.parametrize(
    "corridor, receive, options",
    [
        ("USD_MXN", 5000, {}),
        ("GBP_INR", 100000, {"sort": "speed"}),
        ("USD_PHP", 0.01, {"payout": "cash_pickup"}),
        ("AED_INR", 10**12, {"sort": "score"}),
    ],
)
def test_receive_amount_prices_each_offer_at_what_delivers_it(client, auth, corridor, receive, options):
    query = "&".join(f"{k}={v}" for k, v in options.items())
    url = f"/api/providers?corridor={corridor}&receive_amount={receive}&{query}"
    a = client.get(url, headers=auth).get_json()
    b = ok_json(client, url.replace("/api/", "/api/poc/"))
    assert a == group_a_entries(RAW, BY_KEY[corridor], receive=receive, **options)
    assert b["providers"] == group_b_entries(RAW, BY_KEY[corridor], receive=receive, **options)
    assert {entry["recipient_gets"] for entry in a} == {half_up(receive)}


def test_cost_order_with_receive_amount_is_by_total_paid(client, auth):
    entries = client.get("/api/providers?corridor=USD_MXN&receive_amount=5000", headers=auth).get_json()
    paid = [(e["total_paid"], -e["svc_score"], e["provider"]) for e in entries]
    assert paid == sorted(paid)
    assert [e["rank"] for e in entries] == list(range(1, len(entries) + 1))


@pytest.mark.parametrize("url", ["/api/providers?corridor=USD_MXN", "/api/providers?corridor=USD_MXN&amount=1000"])
def test_total_paid_is_on_every_entry_in_every_mode(client, auth, url):
    for entry in client.get(url, headers=auth).get_json():
        assert entry["total_paid"] == half_up(entry["send_amount"] + entry["fee_total"])


@pytest.mark.parametrize(
    "query, detail",
    [
        (
            "amount=100&receive_amount=5000",
            "Query parameter 'receive_amount' cannot be given with amount; give what is sent or what is received.",
        ),
        (
            "receive_amount=1000000000000.01",
            "Query parameter 'receive_amount' must be a plain decimal above 0 and at most "
            "1000000000000, with at most 2 decimals, such as 5000.",
        ),
        (
            "receive_amount=0",
            "Query parameter 'receive_amount' must be a plain decimal above 0 and at most 1000000000000, "
            "with at most 2 decimals, such as 5000.",
        ),
        (
            "receive_amount=1e3",
            "Query parameter 'receive_amount' must be a plain decimal above 0 and at most 1000000000000, "
            "with at most 2 decimals, such as 5000.",
        ),
    ],
)
@pytest.mark.parametrize("prefix", ["/api", "/api/poc"])
def test_bad_receive_amounts_are_400(client, auth, prefix, query, detail):
    response = client.get(f"{prefix}/providers?corridor=USD_MXN&{query}", headers=auth)
    assert response.status_code == 400
    assert (response.get_json()["code"], response.get_json()["detail"]) == ("invalid_parameter", detail)


def test_receive_amount_without_a_corridor_is_refused_in_group_b(client):
    response = client.get("/api/poc/providers?receive_amount=5000")
    assert response.status_code == 400 and response.get_json()["code"] == "missing_parameter"


def test_corridor_summaries_and_objects_carry_the_sdg_figures(client, auth):
    a = client.get("/api/corridors", headers=auth).get_json()
    b = ok_json(client, "/api/poc/corridors")["corridors"]
    for summary, item, corridor in zip(a, b, ACTIVE, strict=True):
        costs = corridor_costs(RAW, corridor)
        assert summary["avg_cost_pct"] == half_up(costs["avg"]) and item["avgCost"] == pct(costs["avg"])
        assert summary["sdg_target_met"] is item["sdgTargetMet"] is (half_up(costs["avg"]) <= 3)
        assert summary["offers_over_5_pct"] == item["offersOver5Pct"] == costs["over_5"]


def _benchmark():
    costs = {key(c): corridor_costs(RAW, c) for c in ACTIVE}
    flows = {key(c): c["annual_flow_bn"] for c in ACTIVE}
    cheapest = min(costs, key=lambda k: costs[k]["avg"])
    costliest = max(costs, key=lambda k: costs[k]["avg"])
    return {
        "avg": fmean(c["avg"] for c in costs.values()),
        "weighted": sum(costs[k]["avg"] * flows[k] for k in costs) / sum(flows.values()),
        "smart": fmean(c["smart"] for c in costs.values()),
        "meeting": sum(c["sdg_met"] for c in costs.values()),
        "over_5": sum(c["over_5"] > 0 for c in costs.values()),
        "cheapest": (cheapest, costs[cheapest]["avg"]),
        "costliest": (costliest, costs[costliest]["avg"]),
    }


def test_benchmark_in_both_groups_equals_the_data(client, auth):
    expected = _benchmark()
    a = client.get("/api/benchmark", headers=auth).get_json()
    assert a == {
        "corridor_count": len(ACTIVE),
        "avg_cost_pct": half_up(expected["avg"]),
        "weighted_avg_cost_pct": half_up(expected["weighted"]),
        "smart_avg_cost_pct": half_up(expected["smart"]),
        "corridors_meeting_target": expected["meeting"],
        "corridors_with_offer_over_5_pct": expected["over_5"],
        "cheapest": {"key": expected["cheapest"][0], "avg_cost_pct": half_up(expected["cheapest"][1])},
        "costliest": {"key": expected["costliest"][0], "avg_cost_pct": half_up(expected["costliest"][1])},
        "prices": "sample",  # no survey imported: the sample corridors' figures, none apart
        "sample": None,
        "survey": None,  # no survey imported: tests/test_costs.py has it with one
    }
    b = ok_json(client, "/api/poc/benchmark")
    pair = lambda k: k.replace("_", "→")  # noqa: E731
    assert b == {
        "ok": True,
        "corridorCount": len(ACTIVE),
        "avgCost": pct(expected["avg"]),
        "weightedAvgCost": pct(expected["weighted"]),
        "smartAvgCost": pct(expected["smart"]),
        "meetingTarget": expected["meeting"],
        "withOfferOver5Pct": expected["over_5"],
        "cheapest": {
            "corridor": pair(expected["cheapest"][0]),
            "key": expected["cheapest"][0],
            "avgCost": pct(expected["cheapest"][1]),
        },
        "costliest": {
            "corridor": pair(expected["costliest"][0]),
            "key": expected["costliest"][0],
            "avgCost": pct(expected["costliest"][1]),
        },
        "prices": "sample",
        "sample": None,
        "survey": None,
    }


def test_benchmark_needs_a_key_in_group_a(client):
    assert client.get("/api/benchmark").status_code == 401


def test_receive_amount_at_the_extremes_of_the_rate_tables_is_quoted(make_app, seed_copy, auth):
    for table in ("interbank", "consumer"):
        seed_copy["rates"][table].update(GBP=1e9, INR=1e-6)  # the bounds validation allows
    client = make_app(seed_copy).test_client()
    a = client.get("/api/providers?corridor=GBP_INR&receive_amount=1000000000000", headers=auth)
    b = client.get("/api/poc/providers?corridor=GBP_INR&receive_amount=1000000000000")
    assert a.status_code == b.status_code == 200
    for entry in a.get_json():
        assert entry["send_amount"] == pytest.approx(1e12 / entry["rate"], rel=1e-5) and entry["send_amount"] > 1e26
    assert client.get("/?corridor=GBP_INR&mode=receive&amount=1000000000000").status_code == 200


def test_the_benchmark_is_null_where_there_is_nothing_to_average(make_app, seed_copy, auth):
    for corridor in seed_copy["corridors"]:
        corridor["active"] = False
    client = make_app(seed_copy).test_client()
    assert client.get("/api/benchmark", headers=auth).get_json() == {
        "corridor_count": 0,
        "avg_cost_pct": None,
        "weighted_avg_cost_pct": None,
        "smart_avg_cost_pct": None,
        "corridors_meeting_target": 0,
        "corridors_with_offer_over_5_pct": 0,
        "cheapest": None,
        "costliest": None,
        "prices": "sample",
        "sample": None,
        "survey": None,
    }
    assert ok_json(client, "/api/poc/benchmark") == {
        "ok": True,
        "corridorCount": 0,
        "avgCost": None,
        "weightedAvgCost": None,
        "smartAvgCost": None,
        "meetingTarget": 0,
        "withOfferOver5Pct": 0,
        "cheapest": None,
        "costliest": None,
        "prices": "sample",
        "sample": None,
        "survey": None,
    }


def test_without_any_flow_only_the_weighted_mean_is_null(make_app, seed_copy, client, auth):
    for corridor in seed_copy["corridors"]:
        corridor["annual_flow_bn"] = 0
    figures = make_app(seed_copy).test_client().get("/api/benchmark", headers=auth).get_json()
    shipped = client.get("/api/benchmark", headers=auth).get_json()
    assert figures == {**shipped, "weighted_avg_cost_pct": None}
