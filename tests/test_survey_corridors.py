"""The two shipped survey files together: an import replaces rows per country pair and period, a country pair of the
data file joins its corridor, and every active corridor of the data file is served from the survey, each offer with
its payment instrument, pick-up method and speed as surveyed; on SQLite and PostgreSQL."""

import csv
import json

import pytest
import sqlalchemy as sa
from conftest import RAW_KEY, build_app, empty_survey, import_rpw, run_migration
from expected import half_up
from harness import ROOT
from survey_rows import SHIPPED_RPW, rpw_row, write_csv

from corridor.data.database import engine_url

AUTH = {"Authorization": f"Bearer {RAW_KEY}"}
SHIPPED_21 = ROOT / "data" / "rpw-2025q3-21-corridors.csv"
ROWS_21 = list(csv.DictReader(SHIPPED_21.open(encoding="utf-8")))
SEED = json.loads((ROOT / "seed_data.json").read_text(encoding="utf-8"))
COUNTRIES = {
    "United States": "USA",
    "Mexico": "MEX",
    "India": "IND",
    "United Arab Emirates": "ARE",
    "United Kingdom": "GBR",
    "Philippines": "PHL",
    "Guatemala": "GTM",
    "Saudi Arabia": "SAU",
    "Pakistan": "PAK",
    "Nigeria": "NGA",
    "Germany": "DEU",
    "Turkey": "TUR",
    "France": "FRA",
    "Morocco": "MAR",
    "Canada": "CAN",
    "Australia": "AUS",
    "Singapore": "SGP",
    "Indonesia": "IDN",
    "Vietnam": "VNM",
    "China": "CHN",
    "Dominican Republic": "DOM",
    "Honduras": "HND",
    "Egypt": "EGY",
    "Kenya": "KEN",
}
# the data file's corridors by country pair: (id, FROM_TO, active)
FILE_CORRIDORS = {
    f"{COUNTRIES[c['source']]}-{COUNTRIES[c['destination']]}": (
        c["id"],
        f"{c['from_currency']}_{c['to_currency']}",
        c["active"],
    )
    for c in SEED["corridors"]
}


def stored(url):
    """(rows by period, rows by period and pair as the periods table says, survey corridor ids by pair)."""
    engine = sa.create_engine(engine_url(url))
    try:
        with engine.connect() as connection:
            by_period = dict(
                connection.execute(sa.text("SELECT period, count(*) FROM survey_observations GROUP BY period")).all()
            )
            periods = {
                (p, f"{a}-{b}"): n
                for p, a, b, n in connection.execute(
                    sa.text("SELECT period, source_country, destination_country, rows FROM survey_periods")
                )
            }
            ids = {
                f"{a}-{b}": i
                for i, a, b in connection.execute(
                    sa.text("SELECT id, source_country, destination_country FROM survey_corridors")
                )
            }
    finally:
        engine.dispose()
    return by_period, periods, ids


def published_rows(path):
    """The file's rows by (period, pair) counted, as the periods table should hold them."""
    counts = {}
    for row in csv.DictReader(path.open(encoding="utf-8")):
        key = (f"{row['PERIOD'][:4]}Q{row['PERIOD'][5]}", f"{row['SOURCE_CODE']}-{row['DESTINATION_CODE']}")
        counts[key] = counts.get(key, 0) + 1
    return counts


@pytest.mark.parametrize(
    "order", [(SHIPPED_RPW, SHIPPED_21), (SHIPPED_21, SHIPPED_RPW)], ids=["east-africa-first", "21-corridors-first"]
)
def test_both_shipped_files_keep_each_others_rows_in_either_order(survey_url, order):
    for path in order:
        code, output = import_rpw(survey_url, path)
        assert code == 0, output
    by_period, periods, _ = stored(survey_url)
    assert by_period == {"2025Q1": 82, "2025Q3": 80 + 648}
    assert periods == {**published_rows(SHIPPED_RPW), **published_rows(SHIPPED_21)}
    for path, rows, periods_said in ((SHIPPED_RPW, 162, "2025Q1 and 2025Q3 are"), (SHIPPED_21, 648, "2025Q3 is")):
        code, output = import_rpw(survey_url, path)
        assert (code, output) == (
            0,
            f"{path.name} (CSV): {rows} rows read. Nothing changed: {periods_said} imported "
            "already with these very rows.\n",
        )
    assert stored(survey_url)[:2] == (by_period, periods)


def test_the_summary_names_the_data_files_corridor_each_pair_joins(survey_url):
    code, output = import_rpw(survey_url, SHIPPED_21)
    assert code == 0, output
    lines = output.splitlines()
    assert lines[1] == "  2025Q3: 648 rows, new"
    joined = ", ".join(
        f"{pair} (id {FILE_CORRIDORS[pair][0]}, {FILE_CORRIDORS[pair][1]})" for pair in sorted(FILE_CORRIDORS)
    )
    assert lines[2] == f"21 country pairs, 92 firms; joined the data file's corridors: {joined}."
    assert "USA-MEX (id 1, USD_MXN)" in lines[2]
    assert stored(survey_url)[2] == {}  # the data file's pairs take no survey id
    code, output = import_rpw(survey_url, SHIPPED_RPW)
    assert code == 0, output
    assert output.splitlines()[3] == (
        "8 country pairs, 21 firms; new corridors: KEN-RWA (id 1001), KEN-SSD (id 1002), "
        "KEN-TZA (id 1003), KEN-UGA (id 1004), RWA-KEN (id 1005), TZA-KEN (id 1006), "
        "TZA-RWA (id 1007), TZA-UGA (id 1008)."
    )


UGANDA = {"destination_code": "UGA", "destination_name": "Uganda", "corridor": "KENUGA"}
RWANDA = {"destination_code": "RWA", "destination_name": "Rwanda", "corridor": "KENRWA"}


@pytest.mark.parametrize(
    ("second", "line"),
    [
        ([rpw_row(**{"cc1 lcu fee": 150})], "  2025Q3: 1 row, revised: replaces the 2 rows imported before"),
        ([rpw_row(**UGANDA)], None),  # nothing changed at all
        ([rpw_row(**RWANDA)], "  2025Q3: 1 row, new"),
        (
            [rpw_row(**{"cc1 lcu fee": 150}), rpw_row(**UGANDA), rpw_row(**RWANDA)],
            "  2025Q3: 3 rows of 3 country pairs: 1 pair (1 row) new; "
            "1 pair (1 row) revised: replaces the 2 rows imported before; 1 pair (1 row) unchanged, kept",
        ),
    ],
    ids=["revised", "unchanged", "new", "all-three"],
)
def test_an_import_replaces_only_the_pairs_it_holds_in_a_period(survey_url, tmp_path, second, line):
    first = write_csv(tmp_path / "first.csv", [rpw_row(), rpw_row(firm="Other Remit"), rpw_row(**UGANDA)])
    assert import_rpw(survey_url, first)[0] == 0
    code, output = import_rpw(survey_url, write_csv(tmp_path / "second.csv", second))
    assert code == 0, output
    nothing = "second.csv (CSV): 1 rows read. Nothing changed: 2025Q3 is imported already with these very rows."
    assert output.splitlines()[1 if line else 0] == (line or nothing)
    engine = sa.create_engine(engine_url(survey_url))
    with engine.connect() as connection:
        held = sorted(
            connection.execute(sa.text("SELECT destination_country, firm, cc1_fee FROM survey_observations")).all()
        )
    engine.dispose()
    revised = any(r["cc1 lcu fee"] == 150 for r in second)
    tanzania = (
        [("TZA", "Test Remit", 150.0)] if revised else [("TZA", "Other Remit", 180.0), ("TZA", "Test Remit", 180.0)]
    )
    rwanda = [("RWA", "Test Remit", 180.0)] if any(r["destination_code"] == "RWA" for r in second) else []
    assert held == sorted([*rwanda, *tanzania, ("UGA", "Test Remit", 180.0)])


@pytest.fixture(scope="module")
def both(survey_database):
    """An app on the shipped data file and both shipped survey files."""
    empty_survey(survey_database)
    for path in (SHIPPED_RPW, SHIPPED_21):
        code, output = import_rpw(survey_database, path)
        assert code == 0, output
    return build_app(DATABASE_URL=survey_database).test_client()


def get(client, url):
    response = client.get(url, headers=AUTH)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


ACTIVE = sorted(pair for pair, (_, _, active) in FILE_CORRIDORS.items() if active)


@pytest.mark.parametrize("pair", ACTIVE)
def test_every_active_corridor_of_the_data_file_is_served_from_the_survey(both, pair):
    rows = [r for r in ROWS_21 if f"{r['SOURCE_CODE']}-{r['DESTINATION_CODE']}" == pair]
    amount = rows[0]["CC1 LCU AMOUNT"]  # one per corridor: the survey's USD 200 in the sending currency
    served = get(both, f"/api/providers?corridor={pair}&amount={amount}")
    assert {(p["source"], p["period"]) for p in served} == {("World Bank RPW", "2025Q3")}
    assert all(p["collected"] is not None and p["svc_score"] is None for p in served)
    for offer in served:
        # rows alike in all else are one offer: each of their instruments and methods as surveyed, the newest day
        instruments, methods = offer["payment_instrument"].split("; "), offer["pickup_method"].split("; ")
        alike = [
            r
            for r in rows
            if (r["FIRM"], r["SPEED ACTUAL"], half_up(float(r["CC1 LCU FEE"])))
            == (offer["provider"], offer["speed"], offer["fee_total"])
            and r["PAYMENT INSTRUMENT"] in instruments
            and r["PICK-UP METHOD"] in methods
            and abs(float(r["CC1 TOTAL COST %"]) - offer["true_cost_pct"]) < 0.0101
        ]
        assert set(instruments) <= {r["PAYMENT INSTRUMENT"] for r in alike}
        assert set(methods) <= {r["PICK-UP METHOD"] for r in alike}
        assert offer["collected"] in {r["DATE"] for r in alike}
    assert {(r["FIRM"], r["SPEED ACTUAL"]) for r in rows} == {(p["provider"], p["speed"]) for p in served}
    corridor = get(both, f"/api/poc/corridors/{FILE_CORRIDORS[pair][0]}")["corridor"]
    assert (corridor["prices"], corridor["corridor"]) == ("2025Q3", FILE_CORRIDORS[pair][1].replace("_", "\u2192"))


def test_usa_to_mexico_is_corridor_1_with_the_surveyed_terms(both):
    served = get(both, "/api/providers?corridor=USD_MXN&amount=200")
    ria = [
        {
            k: p[k]
            for k in (
                "provider",
                "fee_total",
                "true_cost_pct",
                "payment_instrument",
                "pickup_method",
                "speed",
                "settlement",
                "payout_methods",
                "collected",
            )
        }
        for p in served
        if p["provider"] == "Ria" and p["payment_instrument"] == "Debit card"
    ]
    assert {
        "provider": "Ria",
        "fee_total": 1.99,
        "true_cost_pct": 2.24,
        "payment_instrument": "Debit card",
        "pickup_method": "Bank account",
        "speed": "Less than one hour",
        "settlement": "1 hour",
        "payout_methods": ["bank_deposit"],
        "collected": "2025-08-20",
    } in ria
    group_b = get(both, "/api/poc/providers?corridor=USA-MEX&amount=200")["providers"]
    assert {(p["provider"], p["paymentInstrument"], p["pickupMethod"], p["speed"]) for p in group_b} == {
        (p["provider"], p["payment_instrument"], p["pickup_method"], p["speed"]) for p in served
    }


ONE_POINT = [r for r in ROWS_21 if not r["CC2 LCU AMOUNT"]]


@pytest.mark.parametrize(
    "row",
    ONE_POINT,
    ids=[f"{r['CORRIDOR']}-{r['CC1 LCU FEE']}-{r['CC1 FX MARGIN']}-{r['PICK-UP METHOD']}" for r in ONE_POINT],
)
@pytest.mark.parametrize("times", [1, 2.5, 10])
def test_a_row_surveyed_at_one_amount_keeps_its_fee_and_margin_at_every_amount(both, row, times):
    amount = float(row["CC1 LCU AMOUNT"]) * times
    pair = f"{row['SOURCE_CODE']}-{row['DESTINATION_CODE']}"
    served = get(both, f"/api/providers?corridor={pair}&amount={amount}")
    fee, margin = float(row["CC1 LCU FEE"]), float(row["CC1 FX MARGIN"])
    offers = [
        p
        for p in served
        if (p["provider"], p["flat_fee"], p["fee_pct"], p["spread_pct"]) == (row["FIRM"], fee, 0.0, margin)
        and row["PAYMENT INSTRUMENT"] in p["payment_instrument"].split("; ")
        and row["PICK-UP METHOD"] in p["pickup_method"].split("; ")
    ]
    assert len(offers) == 1
    assert offers[0]["fee_total"] == fee
    assert offers[0]["true_cost_pct"] == half_up(fee / amount * 100 + margin)


@pytest.mark.parametrize("point", ["CC1", "CC2"])
def test_rows_without_rates_are_priced_from_their_margins_at_the_published_amounts(both, point):
    assert all(not r["CC1 LCU FX RATE"] and not r["INTER LCU BANK FX"] for r in ROWS_21)
    for pair in ACTIVE:
        rows = [
            r for r in ROWS_21 if f"{r['SOURCE_CODE']}-{r['DESTINATION_CODE']}" == pair and r[f"{point} LCU AMOUNT"]
        ]
        amount = rows[0][f"{point} LCU AMOUNT"]
        quoted = get(both, f"/api/providers?corridor={pair}&amount={amount}")
        for row in (r for r in rows if r[f"{point} LCU AMOUNT"] == amount):
            fee, total = half_up(float(row[f"{point} LCU FEE"])), float(row[f"{point} TOTAL COST %"])
            # the survey's total is fee / amount × 100 + margin to 0.01, as it rounds
            assert any(
                (p["provider"], p["fee_total"]) == (row["FIRM"], fee) and abs(p["true_cost_pct"] - total) <= 0.0101
                for p in quoted
            ), (pair, row["FIRM"], fee, total)


def test_a_corridor_no_survey_covers_keeps_its_sample_offers(own_rows):
    client = own_rows(rpw_row())  # Kenya → Tanzania only
    served = get(client, "/api/providers?corridor=USD_MXN&amount=1000")
    assert {
        (p["source"], p["period"], p["collected"], p["payment_instrument"], p["pickup_method"], p["speed"])
        for p in served
    } == {("sample", None, None, None, None, None)}
    assert get(client, "/api/poc/corridors/1")["corridor"]["prices"] == "sample"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_at_0005(request, tmp_path):
    """A database of each kind migrated to 0005, before the survey was kept by country pair."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/old.sqlite3"
        yield _upgraded(url, "0005_published_and_flows")
        return
    request.getfixturevalue("postgres_url")  # skips where no PostgreSQL runs
    import psycopg
    from conftest import POSTGRES_ADMIN

    name = "corridor_survey_by_pair"
    with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield _upgraded(f"postgresql://postgres@127.0.0.1:5432/{name}", "0005_published_and_flows")
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _upgraded(url, revision):
    code, output = run_migration(url, "upgrade", revision)
    assert code == 0, output
    return url


def test_the_migration_keeps_each_pairs_rows_by_period_and_back(database_at_0005):
    engine = sa.create_engine(engine_url(database_at_0005))
    columns = (
        "import_id, row, period, source_country, destination_country, firm, currency, cc1_amount, cc1_fee, "
        "cc1_margin, cc1_total, transparent"
    )
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO survey_imports (id, file_name, file_sha256, imported_at) VALUES "
                "(1, 'a.csv', 'x', '2026-11-01'), (2, 'b.csv', 'y', '2026-11-02')"
            )
        )
        for import_id, period, destination in (
            (1, "2025Q1", "TZA"),
            (1, "2025Q3", "TZA"),
            (2, "2025Q3", "UGA"),
            (2, "2025Q3", "UGA"),
        ):
            connection.execute(
                sa.text(
                    f"INSERT INTO survey_observations ({columns}) VALUES (:i, 2, :p, 'KEN', :d, "
                    "'Test Remit', 'KES', 18000, 180, 2, 3, true)"
                ),
                {"i": import_id, "p": period, "d": destination},
            )
        connection.execute(
            sa.text(
                "INSERT INTO survey_periods (period, import_id, digest, rows) VALUES "
                "('2025Q1', 1, 'd1', 1), ('2025Q3', 2, 'd3', 3)"
            )
        )
    held = "SELECT * FROM survey_periods ORDER BY 1, 2, 3"
    try:
        _upgraded(database_at_0005, "head")
        with engine.connect() as connection:
            assert [
                tuple(r)
                for r in connection.execute(
                    sa.text(
                        "SELECT period, source_country, destination_country, import_id, digest, rows "
                        "FROM survey_periods ORDER BY 1, 2, 3"
                    )
                )
            ] == [
                ("2025Q1", "KEN", "TZA", 1, "", 1),
                ("2025Q3", "KEN", "TZA", 1, "", 1),
                ("2025Q3", "KEN", "UGA", 2, "", 2),
            ]
            assert connection.execute(sa.text("SELECT count(payment) FROM survey_observations")).scalar() == 0
        code, output = run_migration(database_at_0005, "downgrade", "0005_published_and_flows")
        assert code == 0, output
        with engine.connect() as connection:
            assert [tuple(r) for r in connection.execute(sa.text(held))] == [("2025Q1", 1, "", 1), ("2025Q3", 2, "", 3)]
    finally:
        engine.dispose()
