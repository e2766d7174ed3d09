"""No import stops the service from starting: the importer skips values no survey can hold, naming the row and the
bound; a sending currency nothing else gives takes its rate from the rows; a stored row or corridor that still cannot
be served is left out with a logged reason, and the rest is served. On SQLite and PostgreSQL."""

import datetime as dt
import json
import logging
import shutil

import pytest
import sqlalchemy as sa
from conftest import RAW_KEY, build_app, empty_survey, import_rpw
from expected import SEED
from survey_rows import rpw_row, write_csv

from corridor.data.database import engine_url
from corridor.state import current_service

AUTH = {"Authorization": f"Bearer {RAW_KEY}"}
_QUARTER = (dt.date.today().month - 1) // 3 + 1
LAST = f"{dt.date.today().year + _QUARTER // 4}Q{_QUARTER % 4 + 1}"  # the quarter after today's
PERIODS = f"period is not from 2000Q1 to {LAST}, the quarter after today"
PERCENT = "is not from -100 to 1,000"

OUT_OF_BOUNDS = [
    ({"cc1 total cost %": "1e308"}, f"cc1 total cost % {PERCENT}"),
    ({"cc1 total cost %": -100.5}, f"cc1 total cost % {PERCENT}"),
    ({"cc1 fx margin": 1000.01}, f"cc1 fx margin {PERCENT}"),
    ({"cc2 total cost %": "1e308"}, f"cc2 total cost % {PERCENT}"),
    ({"cc1 lcu amount": 1e12}, "cc1 lcu amount is not above 0 and below 10^12"),
    ({"cc2 lcu amount": "1e300"}, "cc2 lcu amount is not above 0 and below 10^12"),
    ({"cc1 lcu fee": "1e308"}, "cc1 lcu fee is not from 0 to 100 times cc1 lcu amount"),
    ({"cc1 lcu fee": -1}, "cc1 lcu fee is not from 0 to 100 times cc1 lcu amount"),
    ({"cc2 lcu fee": 4_500_001}, "cc2 lcu fee is not from 0 to 100 times cc2 lcu amount"),
    ({"period": "2099_1Q"}, PERIODS),
    ({"period": "1999_4Q"}, PERIODS),
    ({"period": "0000_1Q"}, PERIODS),
]


@pytest.fixture(scope="module")
def one_kind_database(migrated_sqlite, tmp_path_factory):
    """A migrated SQLite database the module's tests of skipped values share: the app that imports into it
    (conftest's `command_app`) is built once, not once per test."""
    path = tmp_path_factory.mktemp("one-kind") / "survey.sqlite3"
    shutil.copyfile(migrated_sqlite, path)
    return f"sqlite:///{path}"


@pytest.fixture
def one_kind_url(one_kind_database):
    """conftest's, but `one_kind_database` with nothing imported, rather than a new database for each test."""
    empty_survey(one_kind_database)
    return one_kind_database


def get(client, url):
    response = client.get(url, headers=AUTH)
    assert response.status_code == 200, (url, response.get_data(as_text=True))
    return response.get_json()


def sql(url, statement, **values):
    engine = sa.create_engine(engine_url(url))
    try:
        with engine.begin() as connection:
            result = connection.execute(sa.text(statement), values)
            return result.all() if result.returns_rows else None
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("bad", "reason"), OUT_OF_BOUNDS, ids=[f"{k}={v}" for b, _ in OUT_OF_BOUNDS for k, v in b.items()]
)
def test_a_value_no_survey_can_hold_is_skipped_naming_the_row_and_the_bound(one_kind_url, tmp_path, bad, reason):
    rows = [rpw_row(firm=f"Firm {n}") for n in range(3)] + [rpw_row(firm=f"Bad {n}", **bad) for n in range(2)]
    code, output = import_rpw(one_kind_url, write_csv(tmp_path / "rows.csv", rows))
    assert code == 0, output
    assert output.splitlines()[0].startswith("rows.csv (CSV): 5 rows read, 3 imported, 2 skipped;")
    assert f"  skipped, {reason}: 2 rows (row 5, row 6)" in output.splitlines()
    assert sql(one_kind_url, "SELECT period, count(*) FROM survey_observations GROUP BY period") == [("2025Q3", 3)]


@pytest.mark.parametrize(
    "edge",
    [
        {"cc1 lcu fee": 1_800_000, "cc1 total cost %": 1000, "cc1 fx margin": -100},
        {"cc1 lcu fee": 0, "cc1 lcu amount": 999_999_999_999, "cc2 lcu amount": 999_999_999_999},
        {"period": "2000_1Q"},
        {"period": LAST},
    ],
    ids=["fee-100-times", "amount-below-10^12", "first-period", "quarter-after-today"],
)
def test_a_value_at_its_bound_is_imported(survey_url, tmp_path, edge):
    code, output = import_rpw(survey_url, write_csv(tmp_path / "edge.csv", [rpw_row(**edge)]))
    assert code == 0, output
    assert "1 rows read, 1 imported, 0 skipped" in output


@pytest.mark.parametrize("column", ["inter lcu bank fx", "cc1 denomination amount"])
@pytest.mark.parametrize("value", ["1e308", 0, -5])
def test_an_optional_figure_out_of_bounds_is_left_empty(survey_url, tmp_path, column, value):
    code, output = import_rpw(survey_url, write_csv(tmp_path / "rows.csv", [rpw_row(**{column: value})]))
    assert code == 0 and "1 imported, 0 skipped" in output, output
    stored = sql(survey_url, "SELECT interbank, cc1_denomination FROM survey_observations")
    assert stored == [(None, 200)] if column == "inter lcu bank fx" else stored == [(19.6, None)]


@pytest.mark.parametrize(
    ("day", "kept"),
    [("1990-01-01", None), ("9999-12-31", None), ("2024-07-01", "2024-07-01"), ("2026-09-30", "2026-09-30")],
)
def test_a_collection_day_more_than_a_year_from_its_quarter_is_left_empty(one_kind_url, tmp_path, day, kept):
    code, output = import_rpw(one_kind_url, write_csv(tmp_path / "rows.csv", [rpw_row(date=day)]))  # of 2025 Q3
    assert code == 0 and "1 imported, 0 skipped" in output, output
    [(stored,)] = sql(one_kind_url, "SELECT collected FROM survey_observations")
    assert (stored if stored is None else str(stored)) == kept


def two_pairs(survey_url, tmp_path):
    """Kenya → Tanzania and Kenya → Uganda imported, a row each."""
    rows = [rpw_row(), rpw_row(destination_code="UGA", destination_name="Uganda", **{"inter lcu bank fx": 28.5})]
    code, output = import_rpw(survey_url, write_csv(tmp_path / "rows.csv", rows))
    assert code == 0, output


SERVED = [
    "/api/corridors",
    "/api/providers?corridor=KEN-TZA",
    "/api/providers?corridor=KEN-TZA&amount=50000",
    "/api/poc/corridors",
    "/api/poc/providers?corridor=KES_TZS",
    "/api/poc/full",
    "/api/benchmark",
    "/api/costs?corridor=KEN-TZA",
    "/api/costs/global",
    "/api/currencies",
    "/",
]


@pytest.mark.parametrize(
    ("column", "value", "reason"),
    [
        ("period", "2025Q9", PERIODS),
        ("cc1_total", 1e308, f"cc1 total cost % {PERCENT}"),
        ("cc1_fee", 1e308, "cc1 lcu fee is not from 0 to 100 times cc1 lcu amount"),
        ("cc2_margin", -1e308, f"cc2 fx margin {PERCENT}"),
        ("cc1_amount", 1e300, "cc1 lcu amount is not above 0 and below 10^12"),
    ],
)
def test_a_stored_row_out_of_bounds_is_left_out_and_the_rest_served(
    survey_url, tmp_path, caplog, column, value, reason
):
    two_pairs(survey_url, tmp_path)
    # as an import before the bounds stored it
    sql(survey_url, f"UPDATE survey_observations SET {column} = :value WHERE destination_country = 'UGA'", value=value)
    with caplog.at_level(logging.WARNING):
        client = build_app(DATABASE_URL=survey_url).test_client()
    assert f"Survey: KEN-UGA: 1 row(s) left out: {reason}." in [r.getMessage() for r in caplog.records]
    served = {(c["source_country"], c["destination_country"]) for c in get(client, "/api/corridors")}
    assert ("KEN", "TZA") in served and ("KEN", "UGA") not in served
    for url in SERVED:
        get(client, url)
    assert [p["observations"] for p in get(client, "/api/costs/global")["periods"]] == [1]  # the averages too


def test_a_stored_future_period_hides_no_real_one(survey_url, tmp_path):
    two_pairs(survey_url, tmp_path)
    sql(
        survey_url,
        "INSERT INTO survey_observations (import_id, row, period, source_country, destination_country, "
        "firm, currency, cc1_amount, cc1_fee, cc1_margin, cc1_total, transparent) SELECT import_id, 9, "
        "'2099Q1', source_country, destination_country, 'Future Remit', currency, cc1_amount, cc1_fee, "
        "cc1_margin, cc1_total, transparent FROM survey_observations WHERE destination_country = 'UGA'",
    )
    client = build_app(DATABASE_URL=survey_url).test_client()
    served = get(client, "/api/providers?corridor=KEN-UGA")
    assert [(p["provider"], p["period"]) for p in served] == [("Test Remit", "2025Q3")]
    assert [p["period"] for p in get(client, "/api/costs/global")["periods"]] == ["2025Q3"]


def uganda(amount, date, **given):
    """A Uganda → Kenya row, sent in Uganda shillings, whose margin was not disclosed."""
    return rpw_row(
        source_code="UGA",
        source_name="Uganda",
        destination_code="KEN",
        destination_name="Kenya",
        date=date,
        **{
            "cc1 lcu code": "UGX",
            "cc2 lcu code": "UGX",
            "cc1 lcu amount": amount,
            "cc2 lcu amount": amount * 2.5,
            "cc1 lcu fee": 10_000,
            "cc2 lcu fee": 10_000,
            "transparent": "No",
            "inter lcu bank fx": "",
            **given,
        },
    )


def test_a_sending_currency_nothing_gives_takes_its_rate_from_the_rows_amounts(survey_url, tmp_path, raw_seed):
    assert "UGX" not in raw_seed["rates"]["interbank"]
    rows = [
        uganda(740_000, "2025-08-19"),
        uganda(760_000, "2025-08-19", firm="Other Remit"),
        uganda(1_000_000, "2025-08-01", firm="Older Remit"),
    ]
    code, output = import_rpw(survey_url, write_csv(tmp_path / "uganda.csv", rows))
    assert code == 0, output
    client = build_app(DATABASE_URL=survey_url).test_client()
    currencies = {c["code"]: c for c in get(client, "/api/currencies")}
    # of the newest day's rows, the median of 740,000 / 200 and 760,000 / 200 shillings per dollar
    assert (currencies["UGX"]["source"], currencies["UGX"]["date"]) == ("World Bank RPW", "2025-08-19")
    assert get(client, "/api/midrate?from=USD&to=UGX")["ref_rate_b"] == 3750.0
    served = get(client, "/api/providers?corridor=UGA-KEN&amount=750000")
    assert sorted((p["provider"], p["fee_total"]) for p in served) == [
        ("Older Remit", 10_000.0),
        ("Other Remit", 10_000.0),
        ("Test Remit", 10_000.0),
    ]


def test_a_survey_corridor_whose_id_the_data_file_took_is_left_out_and_the_rest_served(
    surveyed_database, tmp_path, caplog, raw_seed
):
    # the shipped rows give Kenya → Tanzania id 1003; a data file edited since gives it to a corridor of its own
    raw = json.loads(SEED.read_text())
    raw["corridors"][0]["id"] = 1003
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(raw))
    with caplog.at_level(logging.WARNING):
        catalog = current_service(build_app(DATABASE_URL=surveyed_database, SEED_DATA=str(edited))).data.catalog
    pair = f"{raw['corridors'][0]['from_currency']}\u2192{raw['corridors'][0]['to_currency']}"
    assert (
        f"Survey: KEN-TZA: left out: its id 1003 is the data file's corridor {pair}'s too; the data file's ids "
        "must leave the survey's to it: give the file's corridor another id (GET /api/corridors lists the ids "
        "served)."
    ) in [r.getMessage() for r in caplog.records]
    assert "KEN-TZA" not in catalog.by_countries and catalog.by_id["1003"].corridor.pair == pair
    assert {"KEN-RWA", "KEN-UGA", "TZA-KEN"} <= set(catalog.by_countries)


def test_the_shipped_rows_are_served_whole(surveyed_database, caplog):
    with caplog.at_level(logging.WARNING):
        catalog = current_service(build_app(DATABASE_URL=surveyed_database)).data.catalog
    assert not [r.getMessage() for r in caplog.records if "left out" in r.getMessage()]
    assert {"KEN-RWA", "KEN-SSD", "KEN-TZA", "KEN-UGA", "RWA-KEN", "TZA-KEN", "TZA-RWA", "TZA-UGA"} <= set(
        catalog.by_countries
    )
