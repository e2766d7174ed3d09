"""The World Bank's published averages and the money flows, served: every one of the 377 corridors by its country pair,
each period's published and computed figures apart, the global means over corridors, the list of every corridor with
a figure, and each corridor's flow. On SQLite and PostgreSQL, the expected figures read from the shipped files here."""

import csv
import functools
from collections import defaultdict
from statistics import fmean

import pytest
from conftest import RAW_KEY, build_app, empty_survey, import_rpw, run_command
from expected import half_up, pct
from harness import ROOT
from openpyxl import load_workbook
from survey_rows import SHIPPED_RPW, rpw_row, write_csv

from corridor.domain.costs import COMPUTED_SOURCE, PUBLISHED_SOURCE
from corridor.imports.flows import read_flows
from corridor.state import current_service

AUTH = {"Authorization": f"Bearer {RAW_KEY}"}
PUBLISHED = ROOT / "data" / "wb-rpw-corridor-average-cost-2011q1-2020q3.csv"
MATRIX = ROOT / "data" / "knomad-bilateral-remittance-matrix-2021.xlsx"


def published_figures():
    """{pair: {period: figure}} straight from the export, read here with the csv module."""
    with open(PUBLISHED, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    header = rows[0]
    quarters = {i: name.split(" ")[0] for i, name in enumerate(header) if name[:4].isdigit()}
    figures = defaultdict(dict)
    for row in rows[1:]:
        if len(row) > 5 and row[3] == "ATCR.CORR":
            for i, period in quarters.items():
                if row[i] not in ("..", ""):
                    figures[f"{row[1]}-{row[5]}"][period] = float(row[i])
    return figures


FIGURES = published_figures()


def run(url, *args):
    code, output = run_command(url, *args)
    assert code == 0, output


@pytest.fixture(scope="module")
def client(survey_database):
    """The shipped data, survey rows, published averages and flows, as `make run` imports them."""
    empty_survey(survey_database)
    assert import_rpw(survey_database, SHIPPED_RPW)[0] == 0
    run(survey_database, "prices", "import-published", str(PUBLISHED))
    run(survey_database, "flows", "import", str(MATRIX))
    yield build_app(DATABASE_URL=survey_database).test_client()
    empty_survey(survey_database)


def get(client, url, status=200):
    response = client.get(url, headers=AUTH)
    assert response.status_code == status, response.get_data(as_text=True)
    return response


def test_the_export_holds_377_corridors():
    assert len(FIGURES) == 377 and sum(map(len, FIGURES.values())) == 10417


def test_united_states_to_mexico_gives_every_published_period_to_2_decimals(client):
    body = get(client, "/api/costs?corridor=USA-MEX").get_json()
    assert {
        k: body[k]
        for k in ("corridor", "source_country_name", "destination_country_name", "from_currency", "to_currency")
    } == {
        "corridor": "USA-MEX",
        "source_country_name": "United States",
        "destination_country_name": "Mexico",
        "from_currency": "USD",
        "to_currency": "MXN",
    }
    assert body["periods"] == [
        {"period": period, "published_average_total_cost_pct": half_up(figure), "published_source": PUBLISHED_SOURCE}
        for period, figure in sorted(FIGURES["USA-MEX"].items())
    ]
    assert body["periods"][0] == {
        "period": "2011Q1",
        "published_average_total_cost_pct": 5.01,
        "published_source": PUBLISHED_SOURCE,
    }
    poc = get(client, "/api/poc/costs?corridor=usa-mex&start=2020Q3").get_json()
    assert poc["periods"] == [
        {
            "period": "2020Q3",
            "publishedAverageTotalCostPct": pct(FIGURES["USA-MEX"]["2020Q3"]),
            "publishedSource": PUBLISHED_SOURCE,
        }
    ]
    lines = get(client, "/api/costs.csv?corridor=USA-MEX&start=2020Q3").get_data(as_text=True).splitlines()
    assert lines[1:] == [f"2020Q3,{half_up(FIGURES['USA-MEX']['2020Q3'])},,,,,,"]


def test_every_one_of_the_377_corridors_answers_its_costs_by_country_pair(client):
    for pair, figures in FIGURES.items():
        body = get(client, f"/api/costs?corridor={pair}").get_json()
        published = {
            p["period"]: p["published_average_total_cost_pct"]
            for p in body["periods"]
            if "published_average_total_cost_pct" in p
        }
        assert published == {period: half_up(figure) for period, figure in figures.items()}, pair
        assert get(client, f"/api/poc/costs?corridor={pair}").get_json()["count"] == len(body["periods"])


@pytest.mark.parametrize(
    ("pair", "names", "currencies"),
    [
        ("DEU-SRB", ("Germany", "Serbia"), ("EUR", "RSD")),
        ("AUT-KSV", ("Austria", "Kosovo"), ("EUR", "EUR")),  # KSV: the World Bank's code, not ISO 3166's
    ],
)
def test_a_corridor_only_the_published_averages_hold_is_served_by_its_pair(client, pair, names, currencies):
    body = get(client, f"/api/costs?corridor={pair}").get_json()
    assert (body["source_country_name"], body["destination_country_name"]) == names
    assert (body["from_currency"], body["to_currency"]) == currencies
    assert len(body["periods"]) == len(FIGURES[pair])


@pytest.mark.parametrize(
    "url",
    [
        "/api/providers?corridor=DEU-SRB",
        "/api/poc/providers?corridor=DEU-SRB",
        "/api/providers?corridor=deu-srb&amount=100",
    ],
)
def test_a_corridor_without_offers_answers_no_offers_saying_what_it_has(client, url):
    body = get(client, url, 404).get_json()
    assert (body["code"], body["detail"]) == (
        "no_offers",
        (
            "DEU-SRB (Germany → Serbia) has no offers in this service: only the World Bank's published average cost, "
            "2011Q1 to 2020Q3; ask /api/costs?corridor=DEU-SRB."
        ),
    )


def test_a_pair_nobody_holds_is_still_an_unknown_corridor(client):
    assert get(client, "/api/costs?corridor=ZZZ-MEX", 404).get_json()["code"] == "unknown_corridor"
    assert get(client, "/api/providers?corridor=ZZZ-MEX", 404).get_json()["code"] == "unknown_corridor"


def test_the_global_figures_give_each_published_periods_mean_over_corridors(client):
    by_period = defaultdict(list)
    for figures in FIGURES.values():
        for period, figure in figures.items():
            by_period[period].append(figure)
    served = {p["period"]: p for p in get(client, "/api/costs/global").get_json()["periods"]}
    for period, figures in by_period.items():
        assert served[period] == {
            "period": period,
            "published_mean_of_corridors_pct": half_up(fmean(figures)),
            "published_corridors": len(figures),
            "published_source": PUBLISHED_SOURCE,
        }
    assert served["2025Q3"]["computed_source"] == COMPUTED_SOURCE and "published_source" not in served["2025Q3"]
    assert sorted(served)[0] == "2011Q1"


def test_the_list_of_corridors_names_every_pair_with_a_figure(client):
    listed = get(client, "/api/costs/corridors").get_json()
    surveyed = {"KEN-RWA", "KEN-SSD", "KEN-TZA", "KEN-UGA", "RWA-KEN", "TZA-KEN", "TZA-RWA", "TZA-UGA"}
    assert [c["corridor"] for c in listed] == sorted(set(FIGURES) | surveyed)
    usa_mex = next(c for c in listed if c["corridor"] == "USA-MEX")
    assert usa_mex == {
        "corridor": "USA-MEX",
        "source_country": "USA",
        "destination_country": "MEX",
        "source_country_name": "United States",
        "destination_country_name": "Mexico",
        "from_currency": "USD",
        "to_currency": "MXN",
        "latest_period": "2020Q3",
        "latest_published_period": "2020Q3",
        "latest_published_average_total_cost_pct": half_up(FIGURES["USA-MEX"]["2020Q3"]),
        "latest_computed_period": None,
        "latest_computed_average_total_cost_pct": None,
        "annual_flow_bn": 52.6,
        "flow_year": 2021,
        "flow_source": "KNOMAD/World Bank Bilateral Remittance Matrix",
    }
    ken_tza = next(c for c in listed if c["corridor"] == "KEN-TZA")
    assert (
        ken_tza["latest_period"],
        ken_tza["latest_computed_period"],
        ken_tza["latest_computed_average_total_cost_pct"],
    ) == ("2025Q3", "2025Q3", 12.16)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("from_country=usa", lambda pair: pair.startswith("USA-")),
        ("to_country=IND", lambda pair: pair.endswith("-IND")),
        ("from_country=GBR&to_country=IND", lambda pair: pair == "GBR-IND"),
    ],
)
def test_the_list_is_filtered_by_country_and_paged_with_links(client, query, expected):
    whole = [c["corridor"] for c in get(client, f"/api/costs/corridors?{query}").get_json()]
    assert whole == sorted(pair for pair in FIGURES if expected(pair))
    walked, url = [], f"/api/poc/costs/corridors?{query}&limit=7"
    while url:
        response = get(client, url)
        body = response.get_json()
        walked += [c["corridor"] for c in body["corridors"]]
        assert body["count"] == len(body["corridors"]) <= 7
        assert (body["next"] is None) == ('rel="next"' not in response.headers["Link"])
        url = body["next"]
    assert walked == whole


@pytest.mark.parametrize(
    "url",
    [
        "/api/costs/corridors?from_country=US",
        "/api/costs/corridors?limit=0",
        "/api/costs/corridors?format=xml",
        "/api/costs/corridors?cursor=abc",
        "/api/costs/corridors?to_country=%00%ff",
    ],
)
def test_a_bad_list_query_is_a_400_naming_the_parameter(client, url):
    assert get(client, url, 400).get_json()["code"] == "invalid_parameter"


@pytest.mark.parametrize("group", ["/api", "/api/poc"])
def test_the_links_of_a_csv_page_keep_the_format_and_the_filter(client, group):
    whole = get(client, f"{group}/costs/corridors?from_country=USA&format=csv").get_data(as_text=True).splitlines()
    first = url = f"{group}/costs/corridors?from_country=USA&format=csv&limit=2"
    walked = []
    while url:
        response = get(client, url)
        assert response.mimetype == "text/csv"
        lines = response.get_data(as_text=True).splitlines()
        assert lines[0] == whole[0] and len(lines) <= 3
        walked += lines[1:]
        links = dict(reversed(part.split("; ")) for part in response.headers["Link"].split(", "))
        assert links['rel="first"'] == f"<{first}>"
        url = links.get('rel="next"', "").strip("<>")
        assert not url or "from_country=USA&format=csv&limit=2&cursor=" in url
    assert walked == whole[1:]


def test_the_list_as_csv_has_the_json_figures(client):
    response = get(client, "/api/costs/corridors?from_country=USA&format=csv")
    assert response.headers["Content-Disposition"] == 'attachment; filename="cost_corridors.csv"'
    rows = list(csv.DictReader(response.get_data(as_text=True).splitlines()))
    listed = get(client, "/api/costs/corridors?from_country=USA").get_json()
    assert [r["corridor"] for r in rows] == [c["corridor"] for c in listed]
    for row, entry in zip(rows, listed, strict=True):
        assert {name: row[name] for name in row} == {
            name: "" if entry[name] is None else str(entry[name]) for name in row
        }


@functools.cache
def matrix_flows():
    """{pair: US$ millions} of the shipped matrix, read here with openpyxl: every code is a three-letter code this
    test needs only for the pairs it looks at. Read once: the tests only look."""
    sheet = load_workbook(MATRIX, read_only=True).active
    rows = list(sheet.iter_rows(values_only=True))
    across = rows[1]
    wanted = {
        "United States": "USA",
        "Mexico": "MEX",
        "United Arab Emirates": "ARE",
        "India": "IND",
        "United Kingdom": "GBR",
        "Kenya": "KEN",
        "Tanzania": "TZA",
    }
    flows = {}
    for row in rows[2:]:
        if row[0] in wanted:
            for column, name in enumerate(across):
                if name in wanted and row[column]:
                    flows[f"{wanted[row[0]]}-{wanted[name]}"] = row[column]
    return flows


@pytest.mark.parametrize(
    ("key", "pair"), [("USD_MXN", "USA-MEX"), ("AED_INR", "ARE-IND"), ("GBP_INR", "GBR-IND"), ("KES_TZS", "KEN-TZA")]
)
def test_each_corridors_flow_is_the_matrixs_with_its_year_and_source(client, key, pair):
    flow = matrix_flows()[pair]
    entry = next(
        c
        for c in get(client, "/api/corridors").get_json()
        if c["source_country"] + "-" + c["destination_country"] == pair
    )
    assert (entry["annual_flow_bn"], entry["flow_year"], entry["flow_source"]) == (
        half_up(flow / 1000, 1),
        2021,
        "KNOMAD/World Bank Bilateral Remittance Matrix",
    )
    poc = next(c for c in get(client, "/api/poc/corridors").get_json()["corridors"] if c["key"] == key)
    assert (poc["annualFlowBn"], poc["flowYear"]) == (f"${half_up(flow / 1000, 1):.1f}B", 2021)


def test_united_states_to_mexico_sends_52_6_billion(client):
    body = get(client, "/api/poc/corridors?from=USD&to=MXN").get_json()["corridor"]
    assert (body["annualFlowBn"], body["flowYear"]) == ("$52.6B", 2021)


def test_the_benchmark_weighs_each_surveyed_corridor_by_its_flow(client):
    flows = read_flows(str(MATRIX)).flows  # the reader is tested on its own; here, the weighing
    flows = {f"{src}-{dst}": amount for (src, dst), amount in flows.items()}
    served = current_service(client.application)
    benchmark = served.data.catalog.benchmark
    weighed = [
        (f.avg_cost, flows[f.corridor.countries] / 1000) for f in benchmark.corridors if f.corridor.countries in flows
    ]
    assert benchmark.prices == "surveyed" and weighed
    expected = sum(cost * flow for cost, flow in weighed) / sum(flow for _, flow in weighed)
    assert get(client, "/api/benchmark").get_json()["weighted_avg_cost_pct"] == half_up(expected)


@pytest.fixture
def own(survey_database, tmp_path):
    """An empty database of the module's kind, and a way to serve rows and an export of a test's own."""
    empty_survey(survey_database)

    def serve(rows, export_rows, header):
        assert import_rpw(survey_database, write_csv(tmp_path / "rows.csv", rows))[0] == 0
        path = tmp_path / "export.csv"
        with open(path, "w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows([header, *export_rows])
        run(survey_database, "prices", "import-published", str(path))
        return build_app(DATABASE_URL=survey_database).test_client()

    yield serve
    empty_survey(survey_database)


def test_a_period_with_both_figures_shows_both_each_with_its_source(own):
    header = (
        "Sending Countries Name",
        "Sending Countries Code",
        "Series Name",
        "Series Code",
        "Receiving Countries Name",
        "Receiving Countries Code",
        "2025Q1 [YR2025Q1]",
        "2025Q3 [YR2025Q3]",
    )
    client = own(
        [rpw_row(period="2025_3Q", **{"cc1 total cost %": 3.0})],
        [
            (
                "Kenya",
                "KEN",
                "Average Total Cost to remit in corridor",
                "ATCR.CORR",
                "Tanzania",
                "TZA",
                "4.5",
                "3.00000001",
            )
        ],
        header,
    )
    periods = get(client, "/api/costs?corridor=KEN-TZA").get_json()["periods"]
    assert periods == [
        {"period": "2025Q1", "published_average_total_cost_pct": 4.5, "published_source": PUBLISHED_SOURCE},
        {
            "period": "2025Q3",
            "published_average_total_cost_pct": 3.0,
            "published_source": PUBLISHED_SOURCE,
            "average_total_cost_pct": 3.0,
            "average_total_cost_pct_500": 1.8,
            "smart_pct": 3.0,
            "lowest_total_cost_pct": 3.0,
            "observations": 1,
            "transparent_observations": 1,
            "by_firm_type": {"Money Transfer Operator": 3.0},
            "computed_source": COMPUTED_SOURCE,
        },
    ]
    assert get(client, "/api/costs.csv?corridor=KEN-TZA").get_data(as_text=True).splitlines()[1:] == [
        "2025Q1,4.5,,,,,,",
        "2025Q3,3.0,3.0,1.8,3.0,3.0,1,1",
    ]
