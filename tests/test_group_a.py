"""Group A: every field, type, order and value, re-derived from the data file."""

import pytest
from expected import (
    active,
    corridor_costs,
    countries,
    group_a_entries,
    half_up,
    key,
    mid,
    ranked,
    shipped_seed,
    sig6,
    updated,
)

SUMMARY_FIELDS = [
    "from_currency",
    "to_currency",
    "source",
    "destination",
    "source_country",
    "destination_country",
    "mid_market",
    "best_rate",
    "best_payout_currency",
    "best_provider",
    "true_cost_pct",
    "compliance",
    "score",
    "key",
    "avg_cost_pct",
    "sdg_target_met",
    "offers_over_5_pct",
    "prices",
    "annual_flow_bn",
    "flow_year",
    "flow_source",
]
PROVIDER_FIELDS = [
    "rank",
    "provider",
    "rate",
    "flat_fee",
    "fee_pct",
    "spread_pct",
    "true_cost_pct",
    "settlement",
    "payout_methods",
    "svc_score",
    "send_amount",
    "fee_total",
    "recipient_gets",
    "settlement_minutes",
    "total_paid",
    "source",
    "period",
    "collected",
    "payout_currency",
    "payout_rate",
    "payout_amount",
    "fx_margin_disclosed",
    "firm_type",
    "promotion",
    "payment_instrument",
    "pickup_method",
    "speed",
]
ACTIVE = active(shipped_seed())


def test_corridors_lists_active_corridors_by_id(client, auth, raw_seed):
    response = client.get("/api/corridors", headers=auth)
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    body = response.get_json()
    expected = active(raw_seed)
    assert [(c["from_currency"], c["to_currency"]) for c in body] == [
        (c["from_currency"], c["to_currency"]) for c in expected
    ]
    for item, corridor in zip(body, expected, strict=True):
        best = ranked(raw_seed, corridor)[0]
        assert list(item) == SUMMARY_FIELDS
        assert item == {
            "from_currency": corridor["from_currency"],
            "to_currency": corridor["to_currency"],
            "source": corridor["source"],
            "destination": corridor["destination"],
            "source_country": countries(corridor)[0],
            "destination_country": countries(corridor)[1],
            "mid_market": sig6(mid(raw_seed, corridor["from_currency"], corridor["to_currency"])),
            "best_rate": sig6(best["rate"]),
            "best_payout_currency": corridor["to_currency"],
            "best_provider": best["name"],
            "true_cost_pct": half_up(best["cost"]),
            "compliance": corridor["compliance"],
            "score": corridor["score"],
            "key": key(corridor),
            "avg_cost_pct": half_up(corridor_costs(raw_seed, corridor)["avg"]),
            "sdg_target_met": corridor_costs(raw_seed, corridor)["sdg_met"],
            "offers_over_5_pct": corridor_costs(raw_seed, corridor)["over_5"],
            "prices": "sample",
            "annual_flow_bn": half_up(corridor["annual_flow_bn"], 1),
            "flow_year": None,  # the data file's own flow: no remittance matrix is imported here
            "flow_source": "data file",
        }


def test_inactive_corridors_are_served_nowhere(client, auth, raw_seed):
    inactive = [c for c in raw_seed["corridors"] if not c["active"]]
    listed = {(c["from_currency"], c["to_currency"]) for c in client.get("/api/corridors", headers=auth).get_json()}
    for corridor in inactive:
        assert (corridor["from_currency"], corridor["to_currency"]) not in listed
        response = client.get(f"/api/providers?corridor={key(corridor)}", headers=auth)
        assert response.status_code == 404
        assert response.get_json()["code"] == "unknown_corridor"


@pytest.mark.parametrize("corridor_key", [key(c) for c in active(shipped_seed())])
def test_providers_ranked_by_true_cost(client, auth, raw_seed, corridor_key):
    corridor = next(c for c in active(raw_seed) if key(c) == corridor_key)
    response = client.get(f"/api/providers?corridor={corridor_key}", headers=auth)
    assert response.status_code == 200
    body = response.get_json()
    assert body == group_a_entries(raw_seed, corridor)
    assert all(list(item) == PROVIDER_FIELDS for item in body)


def test_field_types(client, auth):
    summary = client.get("/api/corridors", headers=auth).get_json()[0]
    provider = client.get("/api/providers?corridor=USD_MXN", headers=auth).get_json()[0]
    for name in ("mid_market", "best_rate", "true_cost_pct"):
        assert isinstance(summary[name], float), name
    for name in ("rate", "flat_fee", "fee_pct", "spread_pct", "true_cost_pct"):
        assert isinstance(provider[name], float), name
    assert isinstance(summary["score"], int) and isinstance(provider["svc_score"], int)
    assert isinstance(provider["rank"], int) and isinstance(provider["payout_methods"], list)


def test_a_summary_names_the_cheapest_offer_at_the_reference_amount(client, auth, raw_seed):
    summaries = client.get("/api/corridors", headers=auth).get_json()
    for summary, corridor in zip(summaries, ACTIVE, strict=True):
        first = ranked(raw_seed, corridor)[0]
        assert (summary["best_provider"], summary["best_rate"], summary["true_cost_pct"]) == (
            first["name"],
            sig6(first["rate"]),
            half_up(first["cost"]),
        ), key(corridor)


@pytest.mark.parametrize("query", ["corridor=usd_mxn", "corridor=Usd_Mxn", "corridor=USD_MXN"])
def test_corridor_key_any_case(client, auth, query):
    response = client.get(f"/api/providers?{query}", headers=auth)
    assert response.status_code == 200
    assert response.get_json()[0]["rank"] == 1


@pytest.mark.parametrize("frm, to", [("USD", "EUR"), ("eur", "jpy"), ("GBP", "INR"), ("Mxn", "usd"), ("AED", "PKR")])
def test_midrate_any_pair(client, auth, raw_seed, frm, to):
    response = client.get(f"/api/midrate?from={frm}&to={to}", headers=auth)
    assert response.status_code == 200
    body = response.get_json()
    assert list(body) == ["from", "to", "ref_rate_a", "ref_rate_b", "updated"]
    assert body == {
        "from": frm.upper(),
        "to": to.upper(),
        "ref_rate_a": sig6(mid(raw_seed, frm.upper(), to.upper(), "consumer")),
        "ref_rate_b": sig6(mid(raw_seed, frm.upper(), to.upper())),
        "updated": updated(raw_seed, frm.upper(), to.upper()),
    }
    assert body["ref_rate_a"] != body["ref_rate_b"]


def test_midrate_same_currency_is_one(client, auth):
    body = client.get("/api/midrate?from=inr&to=INR", headers=auth).get_json()
    assert (body["ref_rate_a"], body["ref_rate_b"]) == (1, 1)


def test_midrate_of_a_corridor_equals_its_mid_market(client, auth):
    summary = client.get("/api/corridors", headers=auth).get_json()[0]
    rate = client.get(
        f"/api/midrate?from={summary['from_currency']}&to={summary['to_currency']}", headers=auth
    ).get_json()
    assert rate["ref_rate_b"] == summary["mid_market"]


def test_updated_has_no_leading_zero_in_the_day(make_app, seed_copy, auth):
    seed_copy["as_of"] = "2026-11-05"
    client = make_app(seed_copy).test_client()
    assert client.get("/api/midrate?from=AED&to=PKR", headers=auth).get_json()["updated"] == "Nov 5, 2026"
