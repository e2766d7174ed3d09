"""Figures a user cannot misread: one currency under each heading, each rate's own source and day, surveyed prices
told from sample ones, promotions marked and ranked after regular prices."""

import re

import pytest
from conftest import RAW_KEY, ok_json
from expected import half_up, sig6
from survey_rows import rpw_row

AUTH = {"Authorization": f"Bearer {RAW_KEY}"}
PROMOTION_NOTE = "Costs listed for a promotion/marketing campaign/discount rate"


@pytest.fixture
def client(surveyed_app):
    return surveyed_app.test_client()


def get(client, url):
    response = client.get(url, headers=AUTH)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def midrate(client, frm, to):
    return get(client, f"/api/midrate?from={frm}&to={to}")["ref_rate_b"]


# --- 1. one currency under each heading ----------------------------------------------------------------------------


@pytest.mark.parametrize("receive", [300000, 1000000])
def test_receive_mode_delivers_the_amount_in_the_destination_currency_from_every_offer(client, receive):
    served = get(client, f"/api/providers?corridor=KEN-TZA&receive_amount={receive}")
    tzs_to_usd = midrate(client, "TZS", "USD")
    in_dollars = [p for p in served if p["payout_currency"] == "USD"]
    assert in_dollars and len(in_dollars) < len(served)
    for entry in served:
        if entry["send_amount"] is None:
            continue
        assert entry["recipient_gets"] == receive  # in TZS, whatever the payout currency
        if entry["payout_currency"] == "USD":
            assert entry["payout_amount"] == pytest.approx(receive * tzs_to_usd, rel=1e-5, abs=0.01)
            # about as many shillings as the shilling offers take, not 39 million
            assert entry["send_amount"] < receive / midrate(client, "KES", "TZS") * 1.1
        else:
            assert (entry["payout_rate"], entry["payout_amount"]) == (None, None)


@pytest.mark.parametrize(
    "path, payout, rate, gets, paid_rate, paid",
    [
        (
            "/api/providers?corridor=KEN-TZA",
            "payout_currency",
            "rate",
            "recipient_gets",
            "payout_rate",
            "payout_amount",
        ),
        (
            "/api/poc/providers?corridor=KEN-TZA",
            "payoutCurrency",
            "rate",
            "recipientGets",
            "payoutRate",
            "payoutAmount",
        ),
    ],
)
def test_rates_and_amounts_received_are_in_the_destination_currency_in_both_groups(
    client, path, payout, rate, gets, paid_rate, paid
):
    body = get(client, path)
    entries = body if isinstance(body, list) else body["providers"]
    kes_tzs, kes_usd = midrate(client, "KES", "TZS"), midrate(client, "KES", "USD")
    bank = next(e for e in entries if e["provider"] == "KCB Bank")  # pays out in US dollars, margin 1.81 %
    assert bank[payout] == "USD"
    assert bank[rate] == sig6(kes_tzs * (1 - 1.81 / 100))
    assert bank[paid_rate] == sig6(kes_usd * (1 - 1.81 / 100))
    sent = bank["send_amount" if payout == "payout_currency" else "sendAmount"]
    assert bank[gets] == pytest.approx(sent * kes_tzs * (1 - 1.81 / 100), rel=1e-5)
    assert bank[paid] == pytest.approx(sent * kes_usd * (1 - 1.81 / 100), rel=1e-5)
    assert all(e[rate] is None or e[rate] < kes_tzs * 1.01 for e in entries)  # no dollar rate among shilling ones


def test_the_best_rate_of_every_corridor_is_in_its_destination_currency(client):
    for summary in get(client, "/api/corridors"):
        if summary["mid_market"] is None:
            assert summary["best_rate"] is None
            continue
        # a margin may be negative (a promotion), never 90 %
        assert summary["mid_market"] * 0.5 < summary["best_rate"] < summary["mid_market"] * 1.5, summary["key"]


@pytest.mark.parametrize("url", ["/?corridor=KEN-TZA", "/?corridor=KEN-TZA&mode=receive&amount=300000"])
def test_the_page_puts_one_currency_under_each_heading(client, url):
    html = client.get(url).get_data(as_text=True)
    headings = re.findall(r'<th scope="col">([^<]*)</th>', html.split('<table id="providers">')[1].split("</thead>")[0])
    assert "Paid in USD" in headings
    for cell in re.findall(r'<td data-label="(They receive|You send) \(([A-Z]{3})\)">([^<]*)</td>', html):
        assert not re.search(r"[A-Z]{3}", cell[2]), cell
    dollars = re.findall(r'<td data-label="Paid in USD">([^<]*)</td>', html)
    assert any(re.fullmatch(r"[\d,]+\.\d\d", d) for d in dollars) and "—" in dollars


# --- 2. each rate's own source and day -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "corridor, codes", [("KEN-TZA", ("KES", "TZS")), ("USD_MXN", ("MXN",)), ("GBP_INR", ("GBP", "INR"))]
)
def test_the_page_states_each_rates_source_and_day_as_currencies_has_them(client, corridor, codes):
    html = client.get(f"/?corridor={corridor}").get_data(as_text=True)
    sentence = re.search(r'<p id="mid-rate">(.*?)</p>', html, re.S).group(1)
    sources = {c["code"]: c for c in get(client, "/api/currencies")}
    months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
    said = []
    for code in codes:
        year, month, day = sources[code]["date"].split("-")
        said.append(f"{code}: {sources[code]['source']} rate of {months[int(month) - 1]} {int(day)}, {year}")
    assert f"({'; '.join(said)})" in sentence


# --- 3. surveyed and sample prices told apart ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "key, prices", [("KEN-TZA", "2025Q3"), ("TZA-UGA", "2025Q3"), ("USA-MEX", "sample"), ("GBR-IND", "sample")]
)
def test_every_corridor_says_where_its_prices_come_from(client, key, prices):
    summary = next(
        s for s in get(client, "/api/corridors") if f"{s['source_country']}-{s['destination_country']}" == key
    )
    assert summary["prices"] == prices
    poc = next(
        c
        for c in ok_json(client, "/api/poc/corridors")["corridors"]
        if f"{c['sourceCountry']}-{c['destinationCountry']}" == key
    )
    assert poc["prices"] == prices
    html = client.get("/").get_data(as_text=True)
    row = re.search(rf'<a href="/\?corridor={key}">.*?</tr>', html).group(0)
    shown = "sample" if prices == "sample" else f"surveyed {prices[:4]} {prices[4:]}"
    assert f'<td data-label="Prices">{shown}</td>' in row


def test_a_data_file_offer_says_sample(client):
    entries = get(client, "/api/providers?corridor=USD_MXN")
    assert {(e["source"], e["period"]) for e in entries} == {("sample", None)}
    assert {e["source"] for e in ok_json(client, "/api/poc/providers?corridor=USD_MXN")["providers"]} == {"sample"}


def test_the_benchmark_headline_counts_surveyed_corridors_and_gives_the_sample_ones_apart(client):
    corridors = get(client, "/api/corridors")
    surveyed = [c["avg_cost_pct"] for c in corridors if c["prices"] != "sample" and c["avg_cost_pct"] is not None]
    sample = [c["avg_cost_pct"] for c in corridors if c["prices"] == "sample"]
    body = get(client, "/api/benchmark")
    assert (body["prices"], body["corridor_count"]) == ("surveyed", len(surveyed))
    assert body["avg_cost_pct"] == pytest.approx(sum(surveyed) / len(surveyed), abs=0.01)
    assert (body["sample"]["corridor_count"], body["sample"]["avg_cost_pct"]) == (
        len(sample),
        pytest.approx(sum(sample) / len(sample), abs=0.01),
    )
    assert body["sample"]["cheapest"]["key"] in {c["key"] for c in corridors if c["prices"] == "sample"}
    poc = ok_json(client, "/api/poc/benchmark")
    assert (poc["prices"], poc["corridorCount"], poc["sample"]["corridorCount"]) == (
        "surveyed",
        len(surveyed),
        len(sample),
    )


def test_without_a_survey_the_benchmark_headline_is_the_sample_corridors(app, auth):
    body = app.test_client().get("/api/benchmark", headers=auth).get_json()
    assert (body["prices"], body["sample"], body["corridor_count"]) == ("sample", None, 19)


# --- 4. promotions --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "note, promotion",
    [
        (PROMOTION_NOTE, True),
        ("Marketing campaign price", True),
        ("DISCOUNT for new customers", True),
        ("Account required for detailed price info", False),
        ("", False),
    ],
)
def test_a_row_noted_as_a_promotion_is_served_marked_and_ranked_after_regular_prices(own_rows, note, promotion):
    served = own_rows(
        rpw_row(
            firm="Cheap Promo",
            **{
                "Standard Note": note,
                "cc1 lcu fee": 0,
                "cc1 fx margin": 0.1,
                "cc1 total cost %": 0.1,
                "cc2 lcu fee": 0,
                "cc2 fx margin": 0.1,
            },
        ),
        rpw_row(firm="Regular Remit"),
    )
    entries = served.get("/api/providers?corridor=KEN-TZA", headers=AUTH).get_json()
    assert [(e["provider"], e["promotion"]) for e in entries] == (
        [("Regular Remit", False), ("Cheap Promo", True)]
        if promotion
        else [("Cheap Promo", False), ("Regular Remit", False)]
    )
    assert [e["rank"] for e in entries] == [1, 2]
    assert {e["provider"]: e["true_cost_pct"] for e in entries}["Cheap Promo"] == half_up(0.1)
    poc = ok_json(served, "/api/poc/providers?corridor=KEN-TZA")["providers"]
    assert [(e["provider"], e["promotion"]) for e in poc] == [(e["provider"], e["promotion"]) for e in entries]
    html = served.get("/?corridor=KEN-TZA").get_data(as_text=True)
    row = re.search(r'<tr data-provider="Cheap Promo">.*?</tr>', html).group(0)
    assert ('<span class="promotion">promotion</span>' in row) is promotion


def test_the_shipped_promotions_are_marked(client):
    entries = get(client, "/api/providers?corridor=TZA-KEN")
    marked = [e["provider"] for e in entries if e["promotion"]]
    assert marked == ["Western Union"]
    regular = [e["rank"] for e in entries if not e["promotion"] and e["true_cost_pct"] is not None]
    assert max(regular) < next(e["rank"] for e in entries if e["promotion"])
