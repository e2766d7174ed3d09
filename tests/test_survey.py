"""The survey served: real rows priced as published, corridors as country pairs, offers that say where they come from,
US-dollar payouts, undisclosed margins, the rates the rows imply; on SQLite and PostgreSQL."""

import csv
import statistics
from collections import defaultdict

import feeds as feed_data
import pytest
from conftest import RAW_KEY, build_app, empty_survey, import_rpw, refresh
from expected import half_up, sig6
from survey_rows import SHIPPED_RPW, rpw_row, write_csv

AUTH = {"Authorization": f"Bearer {RAW_KEY}"}
ROWS = list(csv.DictReader(SHIPPED_RPW.open(encoding="utf-8")))


def latest(pair):
    """The shipped rows of a country pair's latest period, `KENTZA`."""
    rows = [r for r in ROWS if r["CORRIDOR"] == pair]
    period = max(r["PERIOD"] for r in rows)
    return [r for r in rows if r["PERIOD"] == period]


PAIRS = sorted({r["CORRIDOR"] for r in ROWS})


@pytest.fixture(scope="module")
def surveyed(survey_database):
    """An app on the shipped data file and the shipped survey rows."""
    empty_survey(survey_database)
    code, output = import_rpw(survey_database, SHIPPED_RPW)
    assert code == 0, output
    return build_app(DATABASE_URL=survey_database)


@pytest.fixture
def client(surveyed):
    return surveyed.test_client()


def get(client, url, status=200):
    response = client.get(url, headers=AUTH)
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


def test_the_survey_pairs_are_corridors_beside_the_data_files(client, raw_seed):
    corridors = get(client, "/api/corridors")
    assert len(corridors) == len([c for c in raw_seed["corridors"] if c["active"]]) + 8
    kenya_tanzania = next(c for c in corridors if c["source_country"] == "KEN" and c["destination_country"] == "TZA")
    assert {
        k: kenya_tanzania[k]
        for k in (
            "from_currency",
            "to_currency",
            "source",
            "destination",
            "compliance",
            "score",
            "key",
            "best_provider",
            "best_payout_currency",
        )
    } == {
        "from_currency": "KES",
        "to_currency": "TZS",
        "source": "Kenya",
        "destination": "Tanzania",
        "compliance": None,
        "score": None,
        "key": "KES_TZS",
        "best_provider": "Western Union",
        "best_payout_currency": "TZS",
    }
    poc = get(client, "/api/poc/corridors/1003")["corridor"]
    assert poc["corridor"] == "KES→TZS" and poc["annualFlowBn"] is None and poc["compliance"] is None
    assert (poc["sourceCountry"], poc["destinationCountry"]) == ("KEN", "TZA")


@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("point", ["CC1", "CC2"])
def test_a_quote_at_a_published_amount_reproduces_the_published_fee_and_total(client, pair, point):
    rows = [r for r in latest(pair) if float(r[f"{point} LCU AMOUNT"]) != float(r[f"{point} DENOMINATION AMOUNT"])]
    amount = rows[0][f"{point} LCU AMOUNT"]
    corridor = f"{pair[:3]}-{pair[3:]}"
    served = get(client, f"/api/providers?corridor={corridor}&amount={amount}")
    quoted = {(p["provider"], p["fee_total"], p["true_cost_pct"]) for p in served}
    published = {
        (r["FIRM"], half_up(float(r[f"{point} LCU FEE"])), half_up(float(r[f"{point} TOTAL COST %"]))) for r in rows
    }
    assert published <= quoted
    assert [p["rank"] for p in served] == list(range(1, len(served) + 1))
    costs = [(p["promotion"], p["true_cost_pct"]) for p in served]  # a promotion's after every regular price
    assert costs == sorted(costs)
    period = rows[0]["PERIOD"]  # 2025_3Q
    expected = ("World Bank RPW", f"{period[:4]}Q{period[5]}", None)
    assert {(p["source"], p["period"], p["svc_score"]) for p in served} == {expected}


def test_kenya_to_tanzania_at_18000_shillings(client):
    served = get(client, "/api/providers?corridor=KEN-TZA&amount=18000")
    first = [
        {
            k: p[k]
            for k in (
                "rank",
                "provider",
                "fee_total",
                "true_cost_pct",
                "payout_currency",
                "settlement",
                "payout_methods",
                "collected",
                "firm_type",
            )
        }
        for p in served[:3]
    ]
    assert first == [
        {
            "rank": 1,
            "provider": "Western Union",
            "fee_total": 207.0,
            "true_cost_pct": 0.46,
            "payout_currency": "TZS",
            "settlement": "1 hour",
            "payout_methods": ["cash_pickup"],
            "collected": "2025-08-19",
            "firm_type": "Money Transfer Operator",
        },
        {
            "rank": 2,
            "provider": "EcoBank Rapid Transfer",
            "fee_total": 517.5,
            "true_cost_pct": 4.69,
            "payout_currency": "USD",
            "settlement": "1 hour",
            "payout_methods": ["cash_pickup"],
            "collected": "2025-09-01",
            "firm_type": "Bank",
        },
        {
            "rank": 3,
            "provider": "MoneyGram",
            "fee_total": 350.0,
            "true_cost_pct": 6.26,
            "payout_currency": "TZS",
            "settlement": "1 hour",
            "payout_methods": ["cash_pickup", "mobile_wallet"],
            "collected": "2025-08-19",
            "firm_type": "Money Transfer Operator",
        },
    ]
    # the negative margin of a promotion, as published
    assert served[0]["spread_pct"] == -0.69 and served[0]["fx_margin_disclosed"] is True
    # two rows alike but for the pickup method, one offer with both; a row and its copy, one offer
    assert [p["provider"] for p in served].count("EcoBank Rapid Transfer") == 1
    assert len(served) == 11


def test_an_offer_in_dollars_is_priced_against_the_dollar(client, surveyed):
    served = get(client, "/api/providers?corridor=KEN-TZA&amount=18000")
    kcb = next(p for p in served if p["provider"] == "KCB Bank")
    mids = get(client, "/api/midrate?from=KES&to=USD")
    assert kcb["payout_currency"] == "USD"
    assert kcb["payout_rate"] == sig6(mids["ref_rate_b"] * (1 - 1.81 / 100))
    assert kcb["payout_amount"] == half_up(18000 * mids["ref_rate_b"] * (1 - 1.81 / 100))


def test_south_sudan_has_no_mid_market_rate_and_its_offers_pay_dollars(client):
    summary = next(c for c in get(client, "/api/corridors") if c["destination_country"] == "SSD")
    assert summary["to_currency"] == "SSP" and summary["mid_market"] is None
    # no SSP rate: nothing is said in SSP, what each pays is said in dollars
    assert summary["best_payout_currency"] == "USD" and summary["best_rate"] is None
    served = get(client, "/api/providers?corridor=KEN-SSD")
    assert served and {p["payout_currency"] for p in served} == {"USD"}
    assert all(p["recipient_gets"] is None and p["payout_amount"] > 0 for p in served)
    assert get(client, "/api/midrate?from=KES&to=SSP", 404)["code"] == "unknown_currency"
    poc = get(client, "/api/poc/providers?corridor=kes_ssp")
    assert poc["corridor"] == "KES_SSP" and {p["payoutCurrency"] for p in poc["providers"]} == {"USD"}


def test_currencies_no_feed_gives_take_the_rate_the_rows_imply(client, raw_seed):
    currencies = {c["code"]: c for c in get(client, "/api/currencies")}
    for code in ("TZS", "UGX", "RWF"):
        assert currencies[code]["source"] == "World Bank RPW"
    assert "SSP" not in currencies
    # TZS: the Tanzania → Kenya rows of the newest day that implies it, 27 Aug 2025, through the file's KES rate
    assert currencies["TZS"]["date"] == "2025-08-27"
    kes = raw_seed["rates"]["interbank"]["KES"]
    rows = [r for r in latest("TZAKEN") if r["DATE"] == "2025-08-27"]
    implied = statistics.median(kes / float(r["INTER LCU BANK FX"]) for r in rows)
    assert get(client, "/api/midrate?from=USD&to=TZS")["ref_rate_b"] == sig6(implied)


def test_a_feed_that_gives_the_currency_wins(survey_database, feeds, monkeypatch):
    monkeypatch.setitem(feed_data.FRANKFURTER_RATES, "TZS", 2580.0)
    app = build_app(DATABASE_URL=survey_database, ECB_RATES_URL=feeds.ecb_url, FRANKFURTER_URL=feeds.frankfurter_url)
    refresh(app)
    currencies = {c["code"]: c for c in get(app.test_client(), "/api/currencies")}
    assert currencies["TZS"]["source"] == "Frankfurter" and currencies["UGX"]["source"] == "World Bank RPW"
    assert get(app.test_client(), "/api/midrate?from=USD&to=TZS")["ref_rate_b"] == 2580.0


def test_the_page_says_who_surveyed_the_prices_and_when(client):
    page = client.get("/?corridor=KEN-TZA").get_data(as_text=True)
    assert "Surveyed by the World Bank, 2025 Q3, collected 14 Aug – 1 Sep 2025" in page
    assert '<option value="KEN-TZA" selected>Kenya → Tanzania (KES→TZS)</option>' in page
    sample = client.get("/?corridor=USD_MXN").get_data(as_text=True)
    assert "Sample prices: the fees and margins here are illustrative, not surveyed." in sample
    south_sudan = client.get("/?corridor=KEN-SSD").get_data(as_text=True)
    assert "No mid-market rate for SSP is known" in south_sudan


def test_a_corridor_key_is_its_countries_or_its_currencies(client):
    by_countries = get(client, "/api/providers?corridor=ken-tza")
    assert get(client, "/api/providers?corridor=KES_TZS") == by_countries
    assert get(client, "/api/providers?corridor=TZA-KEN") != by_countries
    assert get(client, "/api/providers?corridor=KEN-MEX", 404)["code"] == "unknown_corridor"
    assert get(client, "/api/providers?corridor=KEN_TZA", 404)["code"] == "unknown_corridor"  # no such currencies
    assert get(client, "/api/providers?corridor=USA-MEX") == get(client, "/api/providers?corridor=USD_MXN")


# --- rows of the tests' own ----------------------------------------------------------------------------


def test_an_undisclosed_margin_ranks_last_and_counts_in_no_average(own_rows):
    client = own_rows(
        rpw_row(firm="Open Remit"),
        rpw_row(
            firm="Closed Remit",
            transparent="no",
            **{
                "cc1 lcu fee": 0,
                "cc1 fx margin": 0,
                "cc1 lcu fx rate": 1,
                "cc1 total cost %": 0,
                "cc2 lcu fee": 0,
                "cc2 fx margin": 0,
                "cc2 total cost %": 0,
                "inter lcu bank fx": 1,
            },
        ),
    )
    served = get(client, "/api/providers?corridor=KEN-TZA&amount=18000")
    assert [p["provider"] for p in served] == ["Open Remit", "Closed Remit"]
    closed = served[1]
    assert {
        k: closed[k]
        for k in ("rank", "rate", "spread_pct", "true_cost_pct", "recipient_gets", "fx_margin_disclosed", "fee_total")
    } == {
        "rank": 2,
        "rate": None,
        "spread_pct": None,
        "true_cost_pct": None,
        "recipient_gets": None,
        "fx_margin_disclosed": False,
        "fee_total": 0.0,
    }
    for sort in ("speed", "score"):
        assert get(client, f"/api/providers?corridor=KEN-TZA&sort={sort}")[-1]["provider"] == "Closed Remit"
    assert served[0]["true_cost_pct"] == 3.0
    summary = next(c for c in get(client, "/api/corridors") if c["key"] == "KES_TZS")
    at_reference = get(client, "/api/providers?corridor=KEN-TZA")
    assert summary["avg_cost_pct"] == summary["true_cost_pct"] == at_reference[0]["true_cost_pct"]
    poc = get(client, "/api/poc/providers?corridor=KEN-TZA&amount=18000")["providers"][1]
    assert (poc["trueCostPct"], poc["spreadPct"], poc["fxMarginDisclosed"]) == (None, None, False)
    receive = get(client, "/api/providers?corridor=KEN-TZA&receive_amount=300000")
    assert receive[-1]["provider"] == "Closed Remit" and receive[-1]["send_amount"] is None


def test_the_fee_runs_through_both_published_points(own_rows):
    client = own_rows(rpw_row())  # 180 at 18000, 360 at 45000: 0.6667 % and a flat 60
    at = {
        amount: get(client, f"/api/providers?corridor=KEN-TZA&amount={amount}")[0]
        for amount in (18000, 45000, 30000, 35000, 100)
    }
    assert (at[18000]["fee_total"], at[18000]["true_cost_pct"], at[18000]["spread_pct"]) == (180.0, 3.0, 2.0)
    assert (at[45000]["fee_total"], at[45000]["true_cost_pct"], at[45000]["spread_pct"]) == (360.0, 1.8, 1.0)
    assert at[30000]["fee_total"] == 260.0 and at[30000]["spread_pct"] == 2.0  # nearer the first point
    assert at[35000]["fee_total"] == 293.33 and at[35000]["spread_pct"] == 1.0  # nearer the second
    assert at[100]["fee_total"] == half_up(60 + 100 * 0.4 / 60)
    assert (at[18000]["flat_fee"], at[18000]["fee_pct"]) == (60.0, 0.67)


def test_several_products_of_one_firm_are_offers_and_look_alike_rows_are_one(own_rows):
    client = own_rows(
        rpw_row(firm="Bank A", **{"payment instrument": "Cash", "pickup method": "Cash"}),
        rpw_row(firm="Bank A", **{"payment instrument": "Cash", "pickup method": "Mobile wallet"}),
        rpw_row(firm="Bank A", date="2025-08-25", **{"payment instrument": "Cash", "pickup method": "Cash"}),
        rpw_row(
            firm="Bank  A ",
            **{
                "speed actual": "2 days",
                "cc1 lcu fee": 400,
                "cc1 total cost %": 4.22,
                "pickup method": "Own/partner Bank account",
            },
        ),
    )
    served = get(client, "/api/providers?corridor=KEN-TZA&amount=18000")
    assert [(p["provider"], p["payout_methods"], p["settlement"], p["collected"]) for p in served] == [
        ("Bank A", ["cash_pickup", "mobile_wallet"], "1 hour", "2025-08-25"),
        ("Bank A", ["bank_deposit"], "2 days", "2025-08-19"),
    ]


def test_a_currency_pair_of_several_country_pairs_names_them(own_rows):
    client = own_rows(
        rpw_row(
            source_code="FRA",
            destination_code="SEN",
            **{
                "cc1 lcu code": "EUR",
                "cc2 lcu code": "EUR",
                "cc1 lcu amount": 180,
                "cc2 lcu amount": 450,
                "cc1 lcu fee": 5,
                "cc2 lcu fee": 8,
                "inter lcu bank fx": 655.957,
            },
        ),
        rpw_row(
            source_code="ITA",
            destination_code="SEN",
            **{
                "cc1 lcu code": "EUR",
                "cc2 lcu code": "EUR",
                "cc1 lcu amount": 180,
                "cc2 lcu amount": 450,
                "cc1 lcu fee": 6,
                "cc2 lcu fee": 9,
                "inter lcu bank fx": 655.957,
            },
        ),
    )
    ids = {c["sourceCountry"]: c["id"] for c in get(client, "/api/poc/corridors")["corridors"] if c["key"] == "EUR_XOF"}
    problem = get(client, "/api/providers?corridor=eur_xof", 400)
    assert problem["code"] == "ambiguous_corridor" and problem["title"] == "Bad Request"
    assert problem["detail"] == (
        f"2 active corridors have the currencies EUR→XOF: FRA-SEN (France → Senegal, id {ids['FRA']}), ITA-SEN "
        f"(Italy → Senegal, id {ids['ITA']}); name one by its countries, such as corridor=FRA-SEN, or by its id."
    )
    assert get(client, "/api/poc/corridors?from=EUR&to=XOF", 400)["code"] == "ambiguous_corridor"
    assert get(client, "/api/poc/providers?corridor=EUR_XOF", 400)["detail"] == problem["detail"]
    assert (
        get(client, "/api/providers?corridor=FRA-SEN")[0]["fee_total"]
        != get(client, "/api/providers?corridor=ITA-SEN")[0]["fee_total"]
    )
    page = client.get("/?corridor=EUR_XOF")
    assert page.status_code == 400 and "Pick a corridor from the list." in page.get_data(as_text=True)


def test_a_data_file_corridor_of_the_same_countries_takes_the_surveyed_offers(own_rows, raw_seed):
    client = own_rows(
        rpw_row(
            source_code="GBR",
            destination_code="IND",
            firm="Survey Bank",
            **{
                "cc1 lcu code": "GBP",
                "cc2 lcu code": "GBP",
                "cc1 lcu amount": 150,
                "cc2 lcu amount": 375,
                "cc1 lcu fee": 3,
                "cc2 lcu fee": 3,
                "inter lcu bank fx": 117.0,
            },
        )
    )
    gbp_inr = next(c for c in raw_seed["corridors"] if c["from_currency"] == "GBP" and c["to_currency"] == "INR")
    corridor = get(client, f"/api/poc/corridors/{gbp_inr['id']}")["corridor"]
    assert corridor["compliance"] == gbp_inr["compliance"]
    assert corridor["annualFlowBn"] == f"${half_up(gbp_inr['annual_flow_bn'], 1):.1f}B"
    served = get(client, "/api/providers?corridor=GBP_INR")
    assert [(p["provider"], p["source"], p["payout_currency"]) for p in served] == [
        ("Survey Bank", "World Bank RPW", "INR")
    ]


def test_corridor_ids_stay_across_imports_and_restarts(survey_url, tmp_path):
    assert import_rpw(survey_url, SHIPPED_RPW)[0] == 0
    first = {
        c["key"]: c["id"]
        for c in get(build_app(DATABASE_URL=survey_url).test_client(), "/api/poc/corridors")["corridors"]
    }
    newer = write_csv(
        tmp_path / "newer.csv",
        [
            rpw_row(
                period="2026_1Q",
                source_code="UGA",
                destination_code="KEN",
                **{
                    "cc1 lcu code": "UGX",
                    "cc2 lcu code": "UGX",
                    "cc1 lcu amount": 700000,
                    "cc2 lcu amount": 1750000,
                    "cc1 lcu fee": 7000,
                    "cc2 lcu fee": 9000,
                    "inter lcu bank fx": 0.036,
                },
            )
        ],
    )
    assert import_rpw(survey_url, newer)[0] == 0
    after = {
        c["key"]: c["id"]
        for c in get(build_app(DATABASE_URL=survey_url).test_client(), "/api/poc/corridors")["corridors"]
    }
    assert {k: after[k] for k in first} == first
    assert after["UGX_KES"] == max(first.values()) + 1


def test_a_country_in_rows_keeps_the_latest_period(own_rows):
    client = own_rows(rpw_row(period="2025_1Q", firm="Old Remit"), rpw_row(period="2025_3Q", firm="New Remit"))
    assert [p["provider"] for p in get(client, "/api/providers?corridor=KEN-TZA")] == ["New Remit"]


def test_the_survey_changes_nothing_where_no_row_was_imported(app, raw_seed):
    counts = defaultdict(int)
    for corridor in get(app.test_client(), "/api/corridors"):
        counts[corridor["best_payout_currency"] == corridor["to_currency"]] += 1
    assert counts == {True: len([c for c in raw_seed["corridors"] if c["active"]])}
