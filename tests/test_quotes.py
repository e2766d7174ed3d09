"""Quotes: amount, payout and sort on both providers endpoints, and the quote figures."""

import pytest
from expected import active, group_a_entries, half_up, key, pct, ranked, reference_amount, shipped_seed

ACTIVE = active(shipped_seed())
USD_MXN = next(c for c in ACTIVE if key(c) == "USD_MXN")


def group_a(client, auth, query):
    response = client.get(f"/api/providers?{query}", headers=auth)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def group_b(client, query):
    response = client.get(f"/api/poc/providers?{query}")
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


@pytest.mark.parametrize("corridor", ACTIVE, ids=key)
@pytest.mark.parametrize(
    "query, options",
    [
        ("amount=1000", {"amount": 1000.0}),
        ("amount=25.5&sort=speed", {"amount": 25.5, "sort": "speed"}),
        ("payout=cash_pickup", {"payout": "cash_pickup"}),
        (
            "sort=score&payout=bank_deposit&amount=999999999.99",
            {"sort": "score", "payout": "bank_deposit", "amount": 999999999.99},
        ),
        ("sort=cost", {}),
    ],
)
def test_group_a_quotes_match_the_data(client, auth, raw_seed, corridor, query, options):
    assert group_a(client, auth, f"corridor={key(corridor)}&{query}") == group_a_entries(raw_seed, corridor, **options)


@pytest.mark.parametrize(
    "query, options",
    [
        ("amount=5000&payout=mobile_wallet", {"amount": 5000.0, "payout": "mobile_wallet"}),
        ("sort=speed", {"sort": "speed"}),
    ],
)
@pytest.mark.parametrize("corridor", ACTIVE[:6], ids=key)
def test_group_b_quotes_agree_with_group_a(client, auth, raw_seed, corridor, query, options):
    a = group_a(client, auth, f"corridor={key(corridor)}&{query}")
    b = group_b(client, f"corridor={key(corridor)}&{query}")
    assert (b["corridor"], b["count"]) == (key(corridor), len(a))
    assert [
        (
            e["rank"],
            e["provider"],
            e["rate"],
            e["fee"],
            e["trueCostPct"],
            e["sendAmount"],
            e["feeTotal"],
            e["recipientGets"],
            e["settlementMinutes"],
        )
        for e in b["providers"]
    ] == [
        (
            e["rank"],
            e["provider"],
            e["rate"],
            e["flat_fee"],
            pct(r["cost"]),
            e["send_amount"],
            e["fee_total"],
            e["recipient_gets"],
            e["settlement_minutes"],
        )
        for e, r in zip(a, ranked(raw_seed, corridor, **options), strict=True)
    ]


def test_a_flat_fee_weighs_more_on_a_small_amount(client, auth):
    small = group_a(client, auth, "corridor=USD_MXN&amount=200")
    large = group_a(client, auth, "corridor=USD_MXN&amount=5000")
    assert small[0]["provider"] == "Remitly" and large[0]["provider"] == "Wise"
    wise_small = next(p for p in small if p["provider"] == "Wise")
    assert wise_small["rank"] > 1 and wise_small["true_cost_pct"] > large[0]["true_cost_pct"]


def test_default_is_the_reference_amount(client, auth, raw_seed):
    default = group_a(client, auth, "corridor=AED_INR")
    corridor = next(c for c in ACTIVE if key(c) == "AED_INR")
    assert {p["send_amount"] for p in default} == {half_up(reference_amount(raw_seed, corridor))}
    explicit = group_a(client, auth, f"corridor=AED_INR&amount={half_up(reference_amount(raw_seed, corridor))}")
    assert [p["provider"] for p in explicit] == [p["provider"] for p in default]


def test_ranks_are_renumbered_after_filtering(client, auth):
    everyone = group_a(client, auth, "corridor=USD_MXN")
    cash = group_a(client, auth, "corridor=USD_MXN&payout=cash_pickup")
    assert 0 < len(cash) < len(everyone)
    assert [p["rank"] for p in cash] == list(range(1, len(cash) + 1))
    assert all("cash_pickup" in p["payout_methods"] for p in cash)
    assert [p["provider"] for p in cash] == [p["provider"] for p in everyone if "cash_pickup" in p["payout_methods"]]


def test_sort_orders(client, auth):
    speed = group_a(client, auth, "corridor=GBP_NGN&sort=speed")
    assert [p["settlement_minutes"] for p in speed] == sorted(p["settlement_minutes"] for p in speed)
    assert speed[0]["settlement"] == "20 hours"
    score = group_a(client, auth, "corridor=GBP_NGN&sort=score")
    assert [p["svc_score"] for p in score] == sorted((p["svc_score"] for p in score), reverse=True)


def test_no_offer_left_is_an_empty_list(client, auth):
    assert group_a(client, auth, "corridor=USD_MXN&payout=home_delivery&payout_x=1".replace("&payout_x=1", "")) != []
    empty_a = group_a(client, auth, "corridor=GBP_INR&payout=home_delivery")
    empty_b = group_b(client, "corridor=GBP_INR&payout=home_delivery")
    assert empty_a == [] and empty_b == {
        "ok": True,
        "corridor": "GBP_INR",
        "sourceCountry": "GBR",
        "destinationCountry": "IND",
        "count": 0,
        "providers": [],
    }


def test_corridor_summaries_stay_at_the_reference_amount(client, auth):
    before = client.get("/api/corridors", headers=auth).get_json()
    group_a(client, auth, "corridor=USD_MXN&amount=5000")
    assert client.get("/api/corridors", headers=auth).get_json() == before
    assert before[0]["best_provider"] == "Remitly"
    assert client.get("/api/poc/corridors/1").get_json()["corridor"]["bestCost"] == "2.38%"


@pytest.mark.parametrize(
    "value",
    [
        "0",
        "-1",
        "abc",
        "1e3",
        "1.234",
        "NaN",
        "Infinity",
        "-Infinity",
        "1000000000.01",
        "1000000001",
        "99999999999",
        "0.00",
        "0.0",
        "01",
        "1.",
        ".5",
        "+5",
        " 5",
        "5 ",
        "1,000",
        "1_000",
        "١٠٠",
        "１００",
        "5\n",
        "0x10",
        "inf",
    ],
)
@pytest.mark.parametrize("endpoint", ["/api/providers", "/api/poc/providers"])
def test_invalid_amounts(client, auth, endpoint, value):
    from urllib.parse import quote

    response = client.get(f"{endpoint}?corridor=USD_MXN&amount={quote(value)}", headers=auth)
    assert response.status_code == 400
    body = response.get_json()
    assert body["code"] == "invalid_parameter"
    assert body["detail"].startswith("Query parameter 'amount' must be a plain decimal above 0")


@pytest.mark.parametrize("value", ["0.01", "0.5", "1", "250.50", "1000000000", "1000000000.00", "999999999.99"])
def test_valid_amounts(client, auth, value):
    body = group_a(client, auth, f"corridor=USD_MXN&amount={value}")
    assert body[0]["send_amount"] == half_up(float(value))


@pytest.mark.parametrize(
    "query, name",
    [
        ("payout=crypto", "payout"),
        ("payout=CASH_PICKUP", "payout"),
        ("payout=", None),
        ("sort=cheapest", "sort"),
        ("sort=Cost", "sort"),
        ("sort=", None),
        ("amount=", None),
        ("sort=cost&sort=speed", "sort"),
    ],
)
def test_invalid_payout_and_sort(client, auth, query, name):
    for endpoint in ("/api/providers", "/api/poc/providers"):
        body = client.get(f"{endpoint}?corridor=USD_MXN&{query}", headers=auth).get_json()
        if name is None:
            assert body["code"] == "missing_parameter"
        else:
            assert body["code"] == "invalid_parameter" and f"'{name}'" in body["detail"]


def test_quote_responses_with_options_are_correct_when_served_again(client, auth):
    first = client.get("/api/providers?corridor=USD_MXN&amount=1234.5", headers=auth)
    again = client.get("/api/providers?corridor=USD_MXN&amount=1234.5", headers=auth)
    assert first.data == again.data and first.headers["ETag"] == again.headers["ETag"]
