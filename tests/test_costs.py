"""Cost over time: each corridor's survey averages by period and the global ones, by the World Bank's method (SDG
10.c.1), checked on hand-made rows that each exercise one rule, and on the shipped real rows recomputed straight from
the file; served as JSON and CSV by both groups, on SQLite and PostgreSQL."""

import csv
from collections import defaultdict
from statistics import fmean

import pytest
from conftest import RAW_KEY
from expected import half_up, pct
from survey_rows import SHIPPED_RPW, rpw_row

from corridor.api.costs import CSV_COLUMNS
from corridor.domain.costs import CostRow, cost_history, period_costs
from corridor.domain.published import COMPUTED_SOURCE

COMPUTED = {"computed_source": COMPUTED_SOURCE}  # every period with computed figures says where they come from

AUTH = {"Authorization": f"Bearer {RAW_KEY}"}
ROWS = list(csv.DictReader(SHIPPED_RPW.open(encoding="utf-8")))
FAST = {"Less than one hour", "Same day", "Next day", "2 days", "3-5 days"}  # RPW's speeds within 5 days


def get(client, url, status=200):
    response = client.get(url, headers=AUTH)
    assert response.status_code == status, response.get_data(as_text=True)
    return response


def row(total, transparent=True, speed="Same day", **given):
    return CostRow(
        given.pop("period", "2025Q3"),
        given.pop("source", "KEN"),
        given.pop("destination", "TZA"),
        total,
        transparent,
        speed=speed,
        **given,
    )


# --- the method, rule by rule ------------------------------------------------------------------------------------


def test_an_undisclosed_margin_is_left_out_of_every_figure_but_the_count():
    costs = period_costs("2025Q3", [row(4.0), row(6.0), row(0.5, transparent=False)])
    assert (costs.observations, costs.transparent_observations) == (3, 2)
    assert (costs.average, costs.lowest, costs.smart) == (5.0, 4.0, 5.0)


def test_two_products_of_one_firm_count_once_each():
    costs = period_costs(
        "2025Q3",
        [row(2.0, firm_type="Bank"), row(4.0, firm_type="Bank"), row(9.0, firm_type="Money Transfer Operator")],
    )
    assert costs.average == 5.0
    assert dict(costs.by_firm_type) == {"Bank": 3.0, "Money Transfer Operator": 9.0}


def test_a_negative_total_from_a_promotion_is_kept():
    costs = period_costs("2025Q3", [row(-1.0), row(5.0)])
    assert (costs.average, costs.lowest, costs.smart) == (2.0, -1.0, 2.0)


def test_a_period_with_only_undisclosed_rows_has_no_figures():
    costs = period_costs("2025Q3", [row(1.0, transparent=False, total_500=0.5, firm_type="Bank")])
    assert (costs.observations, costs.transparent_observations) == (1, 0)
    assert (costs.average, costs.average_500, costs.smart, costs.lowest, dict(costs.by_firm_type)) == (
        None,
        None,
        None,
        None,
        {},
    )


def test_smart_is_the_mean_of_the_three_cheapest_that_deliver_within_five_days():
    rows = [
        row(1.0, speed="6 days or more"),
        row(2.0, speed="3-5 days"),
        row(3.0, speed="Less than one hour"),
        row(4.0, speed="Next day"),
        row(5.0, speed="Same day"),
        row(0.1, speed=None),
    ]
    assert period_costs("2025Q3", rows).smart == 3.0
    assert period_costs("2025Q3", rows[:2]).smart == 2.0  # fewer than three: those there are
    assert period_costs("2025Q3", [row(1.0, speed="6 days or more")]).smart is None


def test_the_usd_500_average_is_over_the_rows_that_give_that_point():
    costs = period_costs("2025Q3", [row(4.0, total_500=2.0), row(6.0)])
    assert (costs.average, costs.average_500) == (5.0, 2.0)


def test_the_global_average_pools_observations_rather_than_averaging_corridors():
    rows = [
        row(1.0, destination="RWA", destination_region="Sub-Saharan Africa"),
        row(2.0, destination="TZA", destination_region="Sub-Saharan Africa"),
        row(3.0, destination="TZA", destination_region="Sub-Saharan Africa"),
        row(4.0, destination="TZA", destination_region="Sub-Saharan Africa"),
        row(30.0, destination="UGA", transparent=False),
    ]
    history = cost_history(rows)
    (period,) = history.periods
    assert period.average == 2.5  # (1 + 2 + 3 + 4) / 4, not (1 + 3) / 2
    assert (period.observations, period.transparent_observations, period.corridors) == (5, 4, 2)
    assert dict(period.by_region) == {"Sub-Saharan Africa": 2.5}
    assert period.smart == 2.0  # the mean of the corridors' SmaRT: (1 + 3) / 2
    assert set(history.corridors) == {"KEN-RWA", "KEN-TZA", "KEN-UGA"}
    assert history.corridors["KEN-UGA"][0].average is None


@pytest.mark.parametrize(
    ("averages", "at_5", "at_3"),
    [
        ((5.004, 5.005, 3.0, 2.999, 7.0), 3, 2),  # 5.004 shows as 5.00, so it meets the ceiling; 5.005 shows as 5.01
        ((6.0,), 0, 0),
    ],
)
def test_corridors_at_or_under_a_target_are_counted_as_their_averages_show(averages, at_5, at_3):
    rows = [row(a, destination=f"D{i:02d}") for i, a in enumerate(averages)]
    (period,) = cost_history(rows).periods
    assert (period.corridors_at_or_under_5_pct, period.corridors_at_or_under_3_pct) == (at_5, at_3)


def test_periods_come_oldest_first_whatever_order_the_rows_come_in():
    rows = [
        row(1.0, source="KEN", period="2025Q3"),
        row(2.0, source="KEN", period="2024Q1"),
        row(3.0, source="RWA", period="2024Q3"),
    ]
    history = cost_history(sorted(rows, key=lambda r: (r.source_country, r.destination_country, r.period)))
    assert [p.period for p in history.corridors["KEN-TZA"]] == ["2024Q1", "2025Q3"]
    assert [p.period for p in history.periods] == ["2024Q1", "2024Q3", "2025Q3"]


# --- the shipped real rows, recomputed from the file ----------------------------------------------------------------


def shipped_groups():
    """The shipped rows by (SRC-DST, 2025Qn)."""
    groups = defaultdict(list)
    for r in ROWS:
        year, quarter = r["PERIOD"].split("_")
        groups[(f"{r['SOURCE_CODE']}-{r['DESTINATION_CODE']}", f"{year}Q{quarter[0]}")].append(r)
    return groups


def unrounded(rows):
    """A group's figures straight from the file's rows, by the method as the World Bank states it."""
    disclosed = [r for r in rows if r["TRANSPARENT"].strip().lower() == "yes"]
    totals = [float(r["CC1 TOTAL COST %"]) for r in disclosed]
    fast = sorted(float(r["CC1 TOTAL COST %"]) for r in disclosed if r["SPEED ACTUAL"] in FAST)
    by_type = defaultdict(list)
    for r in disclosed:
        by_type[r["FIRM_TYPE"]].append(float(r["CC1 TOTAL COST %"]))
    return {
        "average_total_cost_pct": fmean(totals),
        "average_total_cost_pct_500": fmean(float(r["CC2 TOTAL COST %"]) for r in disclosed),
        "smart_pct": fmean(fast[:3]),
        "lowest_total_cost_pct": min(totals),
        "observations": len(rows),
        "transparent_observations": len(disclosed),
        "by_firm_type": {kind: fmean(values) for kind, values in by_type.items()},
    }


def figures_from_the_file(rows):
    figures = unrounded(rows)
    return (
        {name: half_up(value) if isinstance(value, float) else value for name, value in figures.items()}
        | {"by_firm_type": {kind: half_up(value) for kind, value in figures["by_firm_type"].items()}}
        | COMPUTED
    )


@pytest.fixture(scope="module")
def client(surveyed_app):
    return surveyed_app.test_client()


@pytest.mark.parametrize("pair", sorted({pair for pair, _ in shipped_groups()}))
def test_every_shipped_corridor_average_is_the_mean_of_its_rows(client, pair):
    body = get(client, f"/api/costs?corridor={pair}").get_json()
    expected = [
        {"period": period, **figures_from_the_file(rows)}
        for (p, period), rows in sorted(shipped_groups().items())
        if p == pair
    ]
    assert body["periods"] == expected


def test_the_global_figures_pool_every_shipped_row_of_a_period(client):
    body = get(client, "/api/costs/global").get_json()
    assert body["source"] == "World Bank RPW"
    for served in body["periods"]:
        groups = {pair: rows for (pair, period), rows in shipped_groups().items() if period == served["period"]}
        rows = [r for group in groups.values() for r in group]
        averages = [figures_from_the_file(group)["average_total_cost_pct"] for group in groups.values()]
        smarts = [unrounded(group)["smart_pct"] for group in groups.values()]
        assert (
            served
            == {
                "period": served["period"],
                "average_total_cost_pct": half_up(fmean(float(r["CC1 TOTAL COST %"]) for r in rows)),
                "smart_pct": half_up(fmean(smarts)),
                "observations": len(rows),
                "transparent_observations": len(rows),
                "corridors": len(groups),
                "corridors_at_or_under_5_pct": sum(a <= 5 for a in averages),
                "corridors_at_or_under_3_pct": sum(a <= 3 for a in averages),
                "by_region": {},
            }
            | COMPUTED
        )
    assert [p["period"] for p in body["periods"]] == ["2025Q1", "2025Q3"]
    assert [p["observations"] for p in body["periods"]] == [82, 80]


def test_kenya_to_tanzania_as_served(client):
    response = get(client, "/api/costs?corridor=KEN-TZA")
    assert response.headers["Content-Type"] == "application/json"
    assert response.get_json() == {
        "corridor": "KEN-TZA",
        "source": "World Bank RPW",
        "source_country_name": "Kenya",
        "destination_country_name": "Tanzania",
        "from_currency": "KES",
        "to_currency": "TZS",
        "periods": [
            {
                "period": "2025Q1",
                "average_total_cost_pct": 11.14,
                "average_total_cost_pct_500": 6.03,
                "smart_pct": 2.31,
                "lowest_total_cost_pct": 1.98,
                "observations": 16,
                "transparent_observations": 16,
                "by_firm_type": {"Bank": 14.49, "Mobile Operator": 1.98, "Money Transfer Operator": 4.97},
                **COMPUTED,
            },
            {
                "period": "2025Q3",
                "average_total_cost_pct": 12.16,
                "average_total_cost_pct_500": 7.4,
                "smart_pct": 3.28,
                "lowest_total_cost_pct": 0.46,
                "observations": 14,
                "transparent_observations": 14,
                "by_firm_type": figures_from_the_file(shipped_groups()["KEN-TZA", "2025Q3"])["by_firm_type"],
                **COMPUTED,
            },
        ],
    }


# --- the API ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query, periods",
    [
        ("&start=2025Q3", ["2025Q3"]),
        ("&end=2025q1", ["2025Q1"]),
        ("&start=2025Q1&end=2025Q3", ["2025Q1", "2025Q3"]),
        ("&start=2025Q2&end=2025Q2", []),
        ("&start=2030Q1", []),
    ],
)
def test_start_and_end_narrow_the_periods(client, query, periods):
    for url in ("/api/costs?corridor=KEN-TZA", "/api/poc/costs?corridor=KEN-TZA", "/api/costs/global?x=1"):
        body = get(client, url.replace("?x=1", "?") + query if "x=1" in url else url + query).get_json()
        assert [p["period"] for p in body["periods"]] == periods


@pytest.mark.parametrize(
    "url",
    [
        "/api/costs?corridor=KEN-TZA&format=csv",
        "/api/costs.csv?corridor=KES_TZS",
        "/api/poc/costs?corridor=KES_TZS&format=csv",
        "/api/poc/costs.csv?corridor=ken-tza",
    ],
)
def test_csv_gives_one_line_per_period_with_the_json_figures(client, url):
    response = get(client, url)
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"] == 'attachment; filename="KEN-TZA_costs.csv"'
    lines = list(csv.DictReader(response.get_data(as_text=True).splitlines()))
    periods = get(client, "/api/costs?corridor=KEN-TZA").get_json()["periods"]
    assert lines == [{name: str(p.get(name, "")) for name in CSV_COLUMNS} for p in periods]


def test_a_period_without_a_figure_is_null_in_json_and_empty_in_csv(own_rows):
    client = own_rows(rpw_row(period="2025_1Q", transparent="no"), rpw_row(period="2025_3Q"))
    q1 = get(client, "/api/costs?corridor=KEN-TZA").get_json()["periods"][0]
    assert (
        q1
        == {
            "period": "2025Q1",
            "average_total_cost_pct": None,
            "average_total_cost_pct_500": None,
            "smart_pct": None,
            "lowest_total_cost_pct": None,
            "observations": 1,
            "transparent_observations": 0,
            "by_firm_type": {},
        }
        | COMPUTED
    )
    assert get(client, "/api/costs.csv?corridor=KEN-TZA").get_data(as_text=True).splitlines()[1] == "2025Q1,,,,,,1,0"
    assert get(client, "/api/poc/costs?corridor=KEN-TZA").get_json()["periods"][0]["averageTotalCostPct"] is None


def test_imported_rows_with_regions_give_regional_averages(own_rows):
    africa = {"source_region": "Sub-Saharan Africa", "destination_region": "Sub-Saharan Africa"}
    client = own_rows(
        rpw_row(firm="A", **africa, **{"cc1 total cost %": 2.0}),
        rpw_row(firm="B", **africa, **{"cc1 total cost %": 4.5}),
        rpw_row(firm="B", **africa, **{"cc1 total cost %": 4.0, "payment instrument": "Mobile money"}),
        rpw_row(
            firm="C",
            destination_code="UGA",
            destination_name="Uganda",
            corridor="KENUGA",
            source_region="Sub-Saharan Africa",
            destination_region="East Africa",
            **{"cc1 total cost %": 8.0},
        ),
    )
    (period,) = get(client, "/api/costs/global").get_json()["periods"]
    assert (
        period
        == {
            "period": "2025Q3",
            "average_total_cost_pct": 4.63,
            "smart_pct": 5.75,
            "observations": 4,
            "transparent_observations": 4,
            "corridors": 2,
            "corridors_at_or_under_5_pct": 1,
            "corridors_at_or_under_3_pct": 0,
            "by_region": {"East Africa": 8.0, "Sub-Saharan Africa": 3.5},
        }
        | COMPUTED
    )
    assert get(client, "/api/benchmark").get_json()["survey"] == {
        "period": "2025Q3",
        "average_total_cost_pct": 4.63,
        "smart_pct": 5.75,
        "corridors": 2,
        "corridors_at_or_under_5_pct": 1,
        "corridors_at_or_under_3_pct": 0,
        "source": "World Bank RPW",
    }
    assert get(client, "/api/poc/costs/global").get_json()["periods"][0]["byRegion"] == {
        "East Africa": "8.00%",
        "Sub-Saharan Africa": "3.50%",
    }


def test_group_b_serves_the_same_figures_as_display_text(client):
    body = get(client, "/api/poc/costs?corridor=TZA-UGA").get_json()
    plain = get(client, "/api/costs?corridor=TZA-UGA").get_json()
    assert {k: body[k] for k in ("ok", "corridor", "source", "from", "to", "count")} == {
        "ok": True,
        "corridor": "TZA-UGA",
        "source": "World Bank RPW",
        "from": "TZS",
        "to": "UGX",
        "count": 2,
    }
    assert body["periods"] == [
        {
            "period": p["period"],
            "averageTotalCostPct": pct(p["average_total_cost_pct"]),
            "averageTotalCostPct500": pct(p["average_total_cost_pct_500"]),
            "smartPct": pct(p["smart_pct"]),
            "lowestTotalCostPct": pct(p["lowest_total_cost_pct"]),
            "observations": p["observations"],
            "transparentObservations": p["transparent_observations"],
            "byFirmType": {kind: pct(value) for kind, value in p["by_firm_type"].items()},
            "computedSource": COMPUTED_SOURCE,
        }
        for p in plain["periods"]
    ]
    glob = get(client, "/api/poc/costs/global").get_json()
    assert (glob["ok"], glob["count"], glob["periods"][-1]["averageTotalCostPct"]) == (
        True,
        2,
        pct(get(client, "/api/costs/global").get_json()["periods"][-1]["average_total_cost_pct"]),
    )


def test_the_benchmark_carries_the_latest_survey_period(client, app):
    latest = get(client, "/api/costs/global").get_json()["periods"][-1]
    survey = get(client, "/api/benchmark").get_json()["survey"]
    assert survey == {k: latest[k] for k in survey if k != "source"} | {"source": "World Bank RPW"}
    assert survey["period"] == "2025Q3"
    assert get(client, "/api/poc/benchmark").get_json()["survey"]["averageTotalCostPct"] == pct(
        latest["average_total_cost_pct"]
    )
    unsurveyed = app.test_client()
    assert get(unsurveyed, "/api/benchmark").get_json()["survey"] is None
    assert get(unsurveyed, "/api/poc/benchmark").get_json()["survey"] is None


@pytest.mark.parametrize(
    "url, status, code, detail",
    [
        (
            "/api/costs?corridor=USD_MXN",
            404,
            "no_survey_data",
            "The World Bank's survey has no observation of USA-MEX (United States → Mexico) in this service.",
        ),
        ("/api/poc/costs?corridor=USA-MEX", 404, "no_survey_data", None),
        ("/api/costs?corridor=KEN-MEX", 404, "unknown_corridor", None),
        ("/api/costs", 400, "missing_parameter", None),
        ("/api/costs?corridor=KEN-TZA&start=2025Q5", 400, "invalid_parameter", None),
        ("/api/costs?corridor=KEN-TZA&start=2025-01", 400, "invalid_parameter", None),
        ("/api/costs?corridor=KEN-TZA&start=2025Q3&end=2025Q1", 400, "invalid_parameter", None),
        ("/api/costs?corridor=KEN-TZA&format=xml", 400, "invalid_parameter", None),
        ("/api/costs?corridor=" + "K" * 5000, 400, "invalid_parameter", None),
        ("/api/costs?corridor=KEN-TZA&start=%00%ff", 400, "invalid_parameter", None),
        ("/api/costs/global?end=Q3", 400, "invalid_parameter", None),
    ],
)
def test_bad_requests_get_a_problem_naming_what_is_wrong(client, url, status, code, detail):
    body = get(client, url, status).get_json()
    assert body["code"] == code
    if detail:
        assert body["detail"] == detail


def test_without_any_survey_the_global_figures_are_404(app):
    body = get(app.test_client(), "/api/costs/global", 404).get_json()
    assert (body["code"], body["detail"]) == ("no_survey_data", "This service holds no World Bank survey data yet.")


@pytest.mark.parametrize("url", ["/api/costs?corridor=KEN-TZA", "/api/costs.csv?corridor=KEN-TZA", "/api/costs/global"])
def test_group_a_cost_endpoints_need_a_key(client, url):
    assert client.get(url).status_code == 401
