"""Group B: shapes, formats and values re-derived from the data."""

import re

import pytest
from conftest import ok_json
from expected import (
    active,
    corridor_costs,
    countries,
    display_date,
    group_b_entries,
    half_up,
    key,
    minutes,
    pct,
    shipped_seed,
)

CORRIDOR_FIELDS = [
    "id",
    "corridor",
    "sourceCountry",
    "destinationCountry",
    "annualFlowBn",
    "flowYear",
    "flowSource",
    "avgCost",
    "bestCost",
    "compliance",
    "settlement",
    "key",
    "sdgTargetMet",
    "offersOver5Pct",
    "prices",
]
ENTRY_FIELDS = [
    "rank",
    "provider",
    "rate",
    "fee",
    "feePct",
    "spreadPct",
    "trueCostPct",
    "settlement",
    "payoutMethods",
    "score",
    "sendAmount",
    "feeTotal",
    "recipientGets",
    "settlementMinutes",
    "totalPaid",
    "source",
    "period",
    "collected",
    "payoutCurrency",
    "payoutRate",
    "payoutAmount",
    "fxMarginDisclosed",
    "firmType",
    "promotion",
    "paymentInstrument",
    "pickupMethod",
    "speed",
]
PAIR = re.compile(r"[A-Z]{3}\u2192[A-Z]{3}")
BILLIONS = re.compile(r"\$[0-9]+\.[0-9]B")
PERCENT = re.compile(r"[0-9]+\.[0-9]{2}%")
ACTIVE = active(shipped_seed())


def expected_corridor(raw, corridor):
    costs = corridor_costs(raw, corridor)
    return {
        "id": corridor["id"],
        "corridor": f"{corridor['from_currency']}→{corridor['to_currency']}",
        "sourceCountry": countries(corridor)[0],
        "destinationCountry": countries(corridor)[1],
        "annualFlowBn": f"${half_up(corridor['annual_flow_bn'], 1):.1f}B",
        "flowYear": None,  # the data file's own flow: no remittance matrix is imported here
        "flowSource": "data file",
        "avgCost": pct(costs["avg"]),
        "bestCost": pct(costs["best"]),
        "compliance": corridor["compliance"],
        "settlement": costs["settlement"],
        "key": key(corridor),
        "sdgTargetMet": costs["sdg_met"],
        "offersOver5Pct": costs["over_5"],
        "prices": "sample",
    }


def test_corridor_list(client, raw_seed):
    body = ok_json(client, "/api/poc/corridors")
    assert list(body) == ["ok", "count", "corridors", "next"] and body["next"] is None  # whole: no next page
    assert body["count"] == len(ACTIVE) == len(body["corridors"])
    assert body["corridors"] == [expected_corridor(raw_seed, c) for c in ACTIVE]
    for item in body["corridors"]:
        assert list(item) == CORRIDOR_FIELDS
        assert PAIR.fullmatch(item["corridor"])
        assert BILLIONS.fullmatch(item["annualFlowBn"])
        assert PERCENT.fullmatch(item["avgCost"]) and PERCENT.fullmatch(item["bestCost"])


def test_spec_formats_of_corridor_one(client):
    item = ok_json(client, "/api/poc/corridors/1")["corridor"]
    assert item["corridor"] == "USD\u2192MXN"
    assert item["annualFlowBn"] == "$63.3B"


@pytest.mark.parametrize("corridor", ACTIVE, ids=key)
def test_one_corridor_by_id_and_by_pair(client, raw_seed, corridor):
    expected = {"ok": True, "corridor": expected_corridor(raw_seed, corridor)}
    assert ok_json(client, f"/api/poc/corridors/{corridor['id']}") == expected
    frm, to = corridor["from_currency"].lower(), corridor["to_currency"]
    assert ok_json(client, f"/api/poc/corridors?from={frm}&to={to}") == expected


@pytest.mark.parametrize("corridor", ACTIVE, ids=key)
def test_providers_of_one_corridor(client, raw_seed, corridor):
    body = ok_json(client, f"/api/poc/providers?corridor={key(corridor).lower()}")
    assert list(body) == ["ok", "corridor", "sourceCountry", "destinationCountry", "count", "providers"]
    assert body == {
        "ok": True,
        "corridor": key(corridor),
        "sourceCountry": countries(corridor)[0],
        "destinationCountry": countries(corridor)[1],
        "count": len(corridor["offers"]),
        "providers": group_b_entries(raw_seed, corridor),
    }
    for entry in body["providers"]:
        assert list(entry) == ENTRY_FIELDS
        assert all(PERCENT.fullmatch(entry[f]) for f in ("feePct", "spreadPct", "trueCostPct"))
        assert isinstance(entry["rate"], float) and isinstance(entry["fee"], float)


def test_grouped_providers_are_every_corridors_ranking_at_the_reference_amount(client, raw_seed):
    body = ok_json(client, "/api/poc/providers")
    assert list(body) == ["ok", "count", "corridors", "next"] and body["next"] is None  # whole: no next page
    assert body["count"] == len(ACTIVE)
    assert body["corridors"] == [
        {
            "corridor": key(c),
            "sourceCountry": countries(c)[0],
            "destinationCountry": countries(c)[1],
            "count": len(c["offers"]),
            "providers": group_b_entries(raw_seed, c),
        }
        for c in ACTIVE
    ]


def test_full(client, raw_seed):
    body = ok_json(client, "/api/poc/full")
    assert list(body) == ["ok", "updated", "count", "corridors", "next"] and body["next"] is None
    assert body["updated"] == display_date(raw_seed["as_of"])
    assert body["count"] == len(ACTIVE)
    for item, corridor in zip(body["corridors"], ACTIVE, strict=True):
        assert list(item) == CORRIDOR_FIELDS + ["complianceNotes", "providers"]
        assert item == {
            **expected_corridor(raw_seed, corridor),
            "complianceNotes": corridor["compliance_notes"],
            "providers": group_b_entries(raw_seed, corridor),
        }


def test_health(client, raw_seed):
    response = client.get("/api/poc/health")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert "ETag" not in response.headers
    body = response.get_json()
    assert list(body) == [
        "ok",
        "status",
        "version",
        "dataAsOf",
        "corridors",
        "uptimeSeconds",
        "historyStart",
        "historyEnd",
        "rates",
    ]
    assert body["rates"] == [  # the client's app has both feeds off
        {"source": "ECB", "status": "off", "date": "2026-10-30", "checkedAt": None, "error": None},
        {"source": "Frankfurter", "status": "off", "date": None, "checkedAt": None, "error": None},
    ]
    assert (body["historyStart"], body["historyEnd"]) == ("1999-01-04", "2026-10-30")  # the shipped ECB history
    assert body["status"] == "ok" and re.fullmatch(r"\d+\.\d+\.\d+", body["version"])
    assert body["dataAsOf"] == raw_seed["as_of"]
    assert body["corridors"] == len(ACTIVE)
    assert isinstance(body["uptimeSeconds"], int) and body["uptimeSeconds"] >= 0


def test_group_a_and_group_b_agree_everywhere(client, auth):
    summaries = client.get("/api/corridors", headers=auth).get_json()
    full = ok_json(client, "/api/poc/full")["corridors"]
    assert [s["from_currency"] + "_" + s["to_currency"] for s in summaries] == [c["key"] for c in full]
    for summary, item in zip(summaries, full, strict=True):
        ranked_a = client.get(f"/api/providers?corridor={item['key']}", headers=auth).get_json()
        ranked_b = item["providers"]
        assert [(a["rank"], a["provider"]) for a in ranked_a] == [(b["rank"], b["provider"]) for b in ranked_b]
        for a, b in zip(ranked_a, ranked_b, strict=True):
            assert (a["rate"], a["flat_fee"], a["settlement"], a["payout_methods"], a["svc_score"]) == (
                b["rate"],
                b["fee"],
                b["settlement"],
                b["payoutMethods"],
                b["score"],
            )
            assert f"{a['true_cost_pct']:.2f}%" == b["trueCostPct"]
            assert f"{a['fee_pct']:.2f}%" == b["feePct"] and f"{a['spread_pct']:.2f}%" == b["spreadPct"]
        costs = [float(b["trueCostPct"].rstrip("%")) for b in ranked_b]
        assert item["bestCost"] == ranked_b[0]["trueCostPct"] == f"{summary['true_cost_pct']:.2f}%"
        assert float(item["bestCost"].rstrip("%")) == min(costs)
        assert abs(float(item["avgCost"].rstrip("%")) - sum(costs) / len(costs)) <= 0.01
        quickest = min(minutes(b["settlement"]) for b in ranked_b)
        assert item["settlement"] == next(b["settlement"] for b in ranked_b if minutes(b["settlement"]) == quickest)
        assert item["compliance"] == summary["compliance"]
