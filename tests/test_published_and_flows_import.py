"""`flask --app app prices import-published` (the World Bank's published averages, a DataBank export) and `flows import`
(the KNOMAD bilateral remittance matrix), on SQLite and PostgreSQL: one transaction, idempotent, odd rows skipped with
their reason, an unknown layout or country refused whole."""

import csv
import zipfile

import pytest
import sqlalchemy as sa
from conftest import run_command as run
from harness import ROOT

from corridor.data.database import engine_url
from corridor.imports.flows import read_latest_flows

PUBLISHED = ROOT / "data" / "wb-rpw-corridor-average-cost-2011q1-2020q3.csv"
MATRIX = ROOT / "data" / "knomad-bilateral-remittance-matrix-2021.xlsx"
SERIES = ("Average Total Cost to remit in corridor", "ATCR.CORR")
HEADER = (
    "Sending Countries Name",
    "Sending Countries Code",
    "Series Name",
    "Series Code",
    "Receiving Countries  Name",
    "Receiving Countries  Code",
    "2011Q1 [YR2011Q1]",
    "2011Q3 [YR2011Q3]",
    "2013Q2 [YR2013Q2]",
)
NOTES = [(), ("Data from database: Remittance Prices Worldwide (Corridors)",), ("Last Updated: 12/07/2020",)]


def query(survey_url, sql):
    engine = sa.create_engine(engine_url(survey_url))
    try:
        with engine.connect() as connection:
            return connection.execute(sa.text(sql)).all()
    finally:
        engine.dispose()


def export(path, rows, header=HEADER):
    with open(path, "w", newline="", encoding="utf-8-sig") as handle:
        csv.writer(handle).writerows([header, *rows, *NOTES])
    return path


def pair(src, dst, *figures, names=("Sender", "Receiver")):
    return (names[0], src, *SERIES, names[1], dst, *figures)


def test_the_shipped_export_imports_377_corridors_then_nothing_changes(survey_url):
    code, output = run(survey_url, "prices", "import-published", str(PUBLISHED))
    assert code == 0, output
    lines = output.splitlines()
    number = lines[0].split("import ")[1].split(":")[0]
    assert lines[0] == (
        "wb-rpw-corridor-average-cost-2011q1-2020q3.csv: 5,333 rows read, 10,417 figures of 377 "
        f"corridors, 2011Q1 to 2020Q3; import {number}: 10,417 new, 0 revised, 0 withdrawn."
    )
    assert lines[1] == (
        "  skipped, no country codes (a blank line or the export's notes): 5 (line 5330, line 5331, "
        "line 5332, line 5333, line 5334)"
    )
    assert query(
        survey_url, "SELECT count(*), count(DISTINCT source_country || destination_country) FROM published_costs"
    ) == [(10417, 377)]
    usa_mex = query(
        survey_url,
        "SELECT period, cost, source_name, destination_name FROM published_costs "
        "WHERE source_country = 'USA' AND destination_country = 'MEX' ORDER BY period",
    )
    assert usa_mex[0] == ("2011Q1", pytest.approx(5.00611114501953), "United States of America", "Mexico")
    assert (
        query(
            survey_url,
            "SELECT count(*) FROM published_costs WHERE source_country = 'KSV' OR destination_country "
            "IN ('KSV', 'ANT')",
        )[0][0]
        > 0
    )
    code, again = run(survey_url, "prices", "import-published", str(PUBLISHED))
    assert code == 0 and again.splitlines()[0].endswith(
        "2011Q1 to 2020Q3. Nothing changed: every figure is stored already."
    )
    assert query(survey_url, "SELECT count(*) FROM published_imports") == [(1,)]


def test_a_revised_export_replaces_its_corridors_figures_and_leaves_the_others(survey_url, tmp_path):
    first = export(
        tmp_path / "first.csv", [pair("USA", "MEX", "5.5", "6.25", ".."), pair("GBR", "IND", "8", "..", "7")]
    )
    assert run(survey_url, "prices", "import-published", str(first))[0] == 0
    revised = export(tmp_path / "revised.csv", [pair("USA", "MEX", "5.5", "..", "4.75")])
    code, output = run(survey_url, "prices", "import-published", str(revised))
    assert code == 0, output
    assert output.splitlines()[0].endswith(": 1 new, 0 revised, 1 withdrawn.")
    assert query(survey_url, "SELECT source_country, period, cost FROM published_costs ORDER BY 1, 2") == [
        ("GBR", "2011Q1", 8.0),
        ("GBR", "2013Q2", 7.0),
        ("USA", "2011Q1", 5.5),
        ("USA", "2013Q2", 4.75),
    ]


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        (pair("USA", "MEX", "cheap", "..", ".."), "a figure that is not a number (line 2, 2011Q1)"),
        (pair("USA", "MEX", "1e308", "..", ".."), "a figure outside -100 to 1000 % (line 2, 2011Q1)"),
        (pair("US", "MEX", "5", "..", ".."), "not two different three-letter country codes (line 2)"),
        (
            ("Sender", "USA", "Average cost", "ATCR.OTHER", "Receiver", "MEX", "5", "..", ".."),
            "not series ATCR.CORR (line 2)",
        ),
    ],
)
def test_an_odd_row_is_skipped_with_its_reason_and_the_rest_imports(one_kind_url, tmp_path, row, reason):
    path = export(tmp_path / "odd.csv", [row, pair("GBR", "IND", "8", "..", "..")])
    code, output = run(one_kind_url, "prices", "import-published", str(path))
    assert code == 0, output
    assert f"  skipped, {reason.replace(' (', ': 1 (', 1)}" in output.splitlines()
    assert query(one_kind_url, "SELECT source_country, destination_country, period, cost FROM published_costs") == [
        ("GBR", "IND", "2011Q1", 8.0)
    ]


@pytest.mark.parametrize(
    ("header", "says"),
    [
        (("Country", "Code", "2011Q1 [YR2011Q1]"), "missing: sendingcountriescode"),
        (HEADER[:6], "no quarter column"),
    ],
)
def test_a_file_of_another_layout_is_refused_and_nothing_is_stored(one_kind_url, tmp_path, header, says):
    path = export(tmp_path / "other.csv", [pair("USA", "MEX", "5", "..", "..")], header=header)
    code, output = run(one_kind_url, "prices", "import-published", str(path))
    assert code == 1
    assert output.startswith(f"Error: {path} is not a DataBank export of the corridors' average cost")
    assert says in output
    assert query(one_kind_url, "SELECT count(*) FROM published_costs") == [(0,)]


@pytest.mark.parametrize(
    ("header", "says"),
    [
        ((*HEADER, "2011Q1 [YR2011Q1]"), "the column '2011Q1 [YR2011Q1]' twice"),
        ((*HEADER[:5], "Receiving Countries Code", *HEADER[5:]), "the column 'Receiving Countries Code' twice"),
    ],
    ids=["quarter", "code"],
)
def test_a_file_naming_a_column_twice_is_refused_and_nothing_is_stored(one_kind_url, tmp_path, header, says):
    path = export(tmp_path / "twice.csv", [pair("USA", "MEX", "5", "6", "7", "99")], header=header)
    code, output = run(one_kind_url, "prices", "import-published", str(path))
    assert (code, output) == (1, f"Error: {path}: its first line names {says}; nothing was stored.\n")
    assert query(one_kind_url, "SELECT count(*) FROM published_costs") == [(0,)]


def test_an_export_cut_within_its_last_figure_is_refused_and_nothing_is_stored(one_kind_url, tmp_path):
    path = export(tmp_path / "cut.csv", [pair("USA", "MEX", "5.25", "6.5", "7.125")], header=HEADER)
    text = path.read_text(encoding="utf-8-sig")
    path.write_text(text[: text.index("7.125") + 3], encoding="utf-8-sig")  # as a download cut off: "7.1"
    code, output = run(one_kind_url, "prices", "import-published", str(path))
    assert (code, output) == (
        1,
        f"Error: {path}: its last line has no line break, as a file cut short; nothing was stored.\n",
    )
    assert query(one_kind_url, "SELECT count(*) FROM published_costs") == [(0,)]


def test_the_quarter_columns_are_whichever_the_export_holds(survey_url, tmp_path):
    header = (*HEADER[:6], "2024Q4 [YR2024Q4]", "2025Q1 [YR2025Q1]")
    path = export(tmp_path / "later.csv", [pair("USA", "MEX", "..", "4.1")], header=header)
    assert run(survey_url, "prices", "import-published", str(path))[0] == 0
    assert query(survey_url, "SELECT period, cost FROM published_costs") == [("2025Q1", 4.1)]


def test_the_shipped_matrix_imports_each_non_zero_pair_of_2021_then_nothing_changes(survey_url):
    code, output = run(survey_url, "flows", "import", str(MATRIX))
    assert code == 0, output
    number = output.split("import ")[1].split(",")[0]
    assert output == (
        "knomad-bilateral-remittance-matrix-2021.xlsx: 2021, 214 countries, 10,227 non-zero pairs, "
        f"US$ 781,075.7 millions in all; import {number}, a new year.\n"
    )
    flows = dict(
        ((a, b), m)
        for a, b, m in query(
            survey_url,
            "SELECT source_country, destination_country, usd_millions FROM remittance_flows WHERE year = 2021",
        )
    )
    assert len(flows) == 10227
    assert round(flows["USA", "MEX"]) == 52595
    assert {"KSV", "CHI"} <= {code for pair in flows for code in pair}
    code, again = run(survey_url, "flows", "import", str(MATRIX))
    assert code == 0 and again.endswith("Nothing changed: 2021 is imported already with these very figures.\n")


def matrix(path, title, across, rows):
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append([title])
    sheet.append(["Remittance-receiving country (across) - Remittance-sending country (down)", *across])
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


TITLE = "Bilateral Remittance Estimates for 2023 using Migrant Stocks (millions of US$)"


def test_a_matrix_is_read_up_to_its_world_row_and_column_and_replaces_its_year(survey_url, tmp_path):
    first = matrix(
        tmp_path / "m.xlsx",
        TITLE,
        ["Mexico", "Egypt, Arab Rep.", "WORLD", "Kenya"],
        [
            ["United States", 50000, None, 50000, 9],
            ["Kuwait", None, 1.5, 1.5, 9],
            ["WORLD", 50000, 1.5, 50001.5],
            ["Kenya", 999, 999],
        ],
    )
    code, output = run(survey_url, "flows", "import", str(first))
    assert code == 0, output
    assert output.startswith("m.xlsx: 2023, 2 countries, 2 non-zero pairs, US$ 50,001.5 millions in all; import ")
    second = matrix(tmp_path / "n.xlsx", TITLE, ["Mexico", "WORLD"], [["United States", 51000], ["WORLD", 51000]])
    assert run(survey_url, "flows", "import", str(second))[1].endswith("replaces the 2 figures imported before.\n")
    assert query(
        survey_url, "SELECT year, source_country, destination_country, usd_millions FROM remittance_flows"
    ) == [(2023, "USA", "MEX", 51000.0)]


@pytest.mark.parametrize(
    ("title", "across", "rows", "says"),
    [
        (
            TITLE,
            ["Mexico", "Atlantis", "WORLD"],
            [["WORLD", 1, 1]],
            "cell C2: 'Atlantis' is no country this import knows",
        ),
        (
            TITLE,
            ["Mexico", "WORLD"],
            [["Narnia", 5], ["WORLD", 5]],
            "cell A3: 'Narnia' is no country this import knows",
        ),
        (
            TITLE,
            ["Mexico", "WORLD"],
            [["United States", "many"], ["WORLD", 5]],
            "cell B3: 'many' is not a sum of money",
        ),
        (
            TITLE,
            ["Mexico", "WORLD"],
            [["United States", 1e308], ["WORLD", 5]],  # made 1e400, an infinity, below
            "cell B3: inf is not a sum of money from 0 to 1,000,000,000,000",
        ),
        (TITLE, ["Mexico", "WORLD"], [["United States", 2e12], ["WORLD", 5]], "cell B3: 2000000000000 is not a sum"),
        (TITLE, ["Mexico", "WORLD"], [["United States", True], ["WORLD", 5]], "cell B3: True is not a sum of money"),
        (TITLE, ["Turkey", "Türkiye", "WORLD"], [["WORLD", 5, 5]], "cell C2: TUR is named in cell B2 too"),
        (
            TITLE,
            ["Mexico", "WORLD"],
            [["Kenya", 5], ["Kenya", 6], ["WORLD", 11]],
            "cell A4: KEN is named in cell A3 too",
        ),
        ("Bilateral Remittance Estimates", ["Mexico", "WORLD"], [["WORLD", 5]], "its title (cell A1) names no year"),
        (TITLE, ["Mexico"], [["WORLD", 5]], "the second row has no WORLD column"),
    ],
)
def test_a_matrix_that_cannot_be_read_whole_is_refused_and_nothing_is_stored(
    one_kind_url, tmp_path, title, across, rows, says
):
    path = matrix(tmp_path / "bad.xlsx", title, across, rows)
    with zipfile.ZipFile(path) as book:  # a figure a spreadsheet reads as infinite: openpyxl writes none
        parts = {name: book.read(name) for name in book.namelist()}
    with zipfile.ZipFile(path, "w") as book:
        for name, part in parts.items():
            book.writestr(name, part.replace(b"<v>1e+308</v>", b"<v>1e400</v>"))
    code, output = run(one_kind_url, "flows", "import", str(path))
    assert code == 1 and says in output, output
    assert query(one_kind_url, "SELECT count(*) FROM remittance_flows") == [(0,)]


def test_the_world_row_and_column_are_found_in_any_case(one_kind_url, tmp_path):
    path = matrix(tmp_path / "m.xlsx", TITLE, ["Mexico", "World"], [["United States", 7], ["world", 7]])
    code, output = run(one_kind_url, "flows", "import", str(path))
    assert code == 0 and output.startswith("m.xlsx: 2023, 1 countries, 1 non-zero pairs"), output


def test_a_stored_figure_out_of_bounds_is_not_served(survey_url, tmp_path):
    # as an import before the bounds were checked could have stored it: the service must start, without that pair
    path = matrix(tmp_path / "m.xlsx", TITLE, ["Mexico", "Kenya", "WORLD"], [["United States", 7, 9], ["WORLD", 7, 9]])
    assert run(survey_url, "flows", "import", str(path))[0] == 0
    engine = sa.create_engine(engine_url(survey_url))
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.text("UPDATE remittance_flows SET usd_millions = :inf WHERE destination_country = 'MEX'"),
                {"inf": float("inf")},
            )
        assert dict(read_latest_flows(engine).by_pair) == {"USA-KEN": 9.0}
    finally:
        engine.dispose()
