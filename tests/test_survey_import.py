"""`flask --app app prices import-rpw`: the World Bank's survey into the database, on SQLite and PostgreSQL. One
transaction; the same file again changes nothing; a revised period replaces its rows; a file that cannot be imported
is refused whole, naming why, and a row that cannot be read is skipped and counted."""

import os
import pty
import subprocess
import sys
import zipfile

import pytest
import sqlalchemy as sa
from conftest import build_app, command_app, empty_survey, import_rpw
from harness import ROOT, gunicorn_env
from survey_rows import NEW_SHEET, SHIPPED_RPW, rpw_row, write_csv, write_workbook

from corridor.data.database import engine_url
from corridor.state import current_service


def stored(url):
    """(observations by period, periods, imports, corridor ids by pair) as the database holds them."""
    engine = sa.create_engine(engine_url(url))
    try:
        with engine.connect() as connection:
            by_period = dict(
                connection.execute(sa.text("SELECT period, count(*) FROM survey_observations GROUP BY period")).all()
            )
            periods = dict(
                connection.execute(sa.text("SELECT period, sum(rows) FROM survey_periods GROUP BY period")).all()
            )
            imports = connection.execute(sa.text("SELECT count(*) FROM survey_imports")).scalar()
            ids = {
                f"{a}-{b}": i
                for i, a, b in connection.execute(
                    sa.text("SELECT id, source_country, destination_country FROM survey_corridors")
                )
            }
    finally:
        engine.dispose()
    return by_period, periods, imports, ids


@pytest.fixture
def shipped_url(survey_database):
    """`survey_database` holding the shipped rows, imported once: the tests that leave them as they are share them."""
    if stored(survey_database)[:3] != ({"2025Q1": 82, "2025Q3": 80}, {"2025Q1": 82, "2025Q3": 80}, 1):
        empty_survey(survey_database)
        assert import_rpw(survey_database, SHIPPED_RPW)[0] == 0
    return survey_database


def test_the_shipped_rows_import_with_a_summary_per_period(survey_url):
    code, output = import_rpw(survey_url, SHIPPED_RPW)
    assert code == 0, output
    lines = output.splitlines()
    assert (
        lines[0] == "rpw-east-africa-2025.csv (CSV): 162 rows read, 162 imported, 0 skipped; import "
        f"{lines[0].rsplit(' ', 1)[1]}"
    )
    assert lines[1:3] == ["  2025Q1: 82 rows, new", "  2025Q3: 80 rows, new"]
    assert lines[3] == (
        "8 country pairs, 21 firms; new corridors: KEN-RWA (id 1001), KEN-SSD (id 1002), "
        "KEN-TZA (id 1003), KEN-UGA (id 1004), RWA-KEN (id 1005), TZA-KEN (id 1006), "
        "TZA-RWA (id 1007), TZA-UGA (id 1008)."
    )
    by_period, periods, imports, ids = stored(survey_url)
    assert by_period == periods == {"2025Q1": 82, "2025Q3": 80} and imports == 1
    assert ids["KEN-TZA"] == 1003


def test_each_observation_keeps_the_rows_own_figures(shipped_url):
    engine = sa.create_engine(engine_url(shipped_url))
    with engine.connect() as connection:
        row = connection.execute(
            sa.text(
                "SELECT period, row, firm, firm_type, speed, pickup, currency, cc1_amount, cc1_denomination, cc1_fee, "
                "cc1_margin, cc1_total, cc2_amount, cc2_fee, cc2_margin, cc2_total, interbank, transparent, collected "
                "FROM survey_observations WHERE row = 2"
            )
        ).one()
    engine.dispose()
    # the file's first row: Western Union, Kenya → Rwanda, 2025 Q1
    assert tuple(row)[:7] == ("2025Q1", 2, "Western Union", "Money Transfer Operator", "Same day", "Cash", "KES")
    assert tuple(row)[7:17] == (18000, 200, 207, 5.76, 6.91, 45000, 517, 5.76, 6.91, 10.940038685)
    assert bool(row.transparent) is True and str(row.collected) == "2025-02-18"


def test_the_same_file_again_changes_nothing_and_says_so(shipped_url):
    before = stored(shipped_url)
    code, output = import_rpw(shipped_url, SHIPPED_RPW)
    assert code == 0
    assert output == (
        "rpw-east-africa-2025.csv (CSV): 162 rows read. Nothing changed: 2025Q1 and 2025Q3 are imported "
        "already with these very rows.\n"
    )
    assert stored(shipped_url) == before


def test_a_newer_release_adds_its_periods_and_replaces_a_revised_one(survey_url, tmp_path):
    first = write_csv(
        tmp_path / "first.csv",
        [rpw_row(period="2025_1Q"), rpw_row(period="2025_3Q"), rpw_row(period="2025_3Q", firm="Other Remit")],
    )
    assert import_rpw(survey_url, first)[0] == 0
    revised = write_csv(
        tmp_path / "revised.csv",
        [
            rpw_row(period="2025_1Q"),  # unchanged
            rpw_row(period="2025_3Q", **{"cc1 lcu fee": 150}),  # revised: one row now, with another fee
            rpw_row(period="2025_4Q"),
        ],
    )  # new
    code, output = import_rpw(survey_url, revised)
    assert code == 0, output
    assert output.splitlines()[1:4] == [
        "  2025Q1: 1 row, unchanged, kept",
        "  2025Q3: 1 row, revised: replaces the 2 rows imported before",
        "  2025Q4: 1 row, new",
    ]
    by_period, periods, imports, _ = stored(survey_url)
    assert by_period == periods == {"2025Q1": 1, "2025Q3": 1, "2025Q4": 1} and imports == 2
    engine = sa.create_engine(engine_url(survey_url))
    with engine.connect() as connection:
        fees = connection.execute(sa.text("SELECT cc1_fee FROM survey_observations WHERE period = '2025Q3'")).all()
    engine.dispose()
    assert fees == [(150,)]


def test_a_workbook_in_the_published_layout_is_read_from_both_dataset_sheets(survey_url, tmp_path):
    book = write_workbook(
        tmp_path / "rpw.xlsx",
        new_rows=[rpw_row(), rpw_row(firm="Other Remit", **{"pickup method": "Mobile wallet"})],
        old_rows=[rpw_row(period="2015_4Q", **{"pickup method": "Bank account"})],
    )
    code, output = import_rpw(survey_url, book)
    assert code == 0, output
    assert output.splitlines()[:3] == [
        "rpw.xlsx (workbook, sheets 'Dataset (from Q2 2016)', 'Dataset (up to Q1 2016)'): 3 rows read, 3 imported, "
        f"0 skipped; import {output.split('import ')[1].split('.')[0]}.",
        "  2015Q4: 1 row, new",
        "  2025Q3: 2 rows, new",
    ]
    engine = sa.create_engine(engine_url(survey_url))
    with engine.connect() as connection:
        pickups = dict(
            connection.execute(
                sa.text("SELECT period, pickup FROM survey_observations WHERE firm = 'Test Remit'")
            ).all()
        )
    engine.dispose()
    assert pickups == {"2015Q4": "Bank account", "2025Q3": "Cash"}  # the older sheet's `pick-up method` too


SKIPPED = [
    ({"cc1 lcu fee": "n/a"}, "cc1 lcu fee is not a number"),
    ({"cc1 fx margin": ""}, "cc1 fx margin is not a number"),
    ({"period": "Q5 2025"}, "unreadable period"),
    ({"cc1 lcu amount": 0}, "cc1 lcu amount is not above 0"),
    ({"cc1 lcu amount": -18000}, "cc1 lcu amount is not above 0"),
    ({"transparent": "maybe"}, "transparent is neither yes nor no"),
    ({"source_code": "XYZ"}, "source code is not an ISO 3166-1 alpha-3 country"),
    ({"cc1 lcu code": "KESH"}, "cc1 lcu code is not an ISO 4217 currency"),
    ({"destination_code": "KEN"}, "source code and destination code are the same country"),
    ({"cc1 fx margin": "1,81"}, "cc1 fx margin is not a number"),  # a decimal comma: not 181
    ({"cc1 lcu amount": "18.000,50"}, "cc1 lcu amount is not a number"),
]


@pytest.mark.parametrize(("broken", "reason"), SKIPPED, ids=[reason for _, reason in SKIPPED])
def test_a_row_that_cannot_be_read_is_skipped_and_counted_with_its_row_number(one_kind_url, tmp_path, broken, reason):
    rows = [rpw_row(firm=f"Firm {n}") for n in range(3)] + [rpw_row(firm=f"Bad {n}", **broken) for n in range(7)]
    code, output = import_rpw(one_kind_url, write_csv(tmp_path / "rows.csv", rows))
    assert code == 0, output
    assert output.splitlines()[0].startswith("rows.csv (CSV): 10 rows read, 3 imported, 7 skipped;")
    assert f"  skipped, {reason}: 7 rows (row 5, row 6, row 7, row 8, row 9, …)" in output.splitlines()
    assert stored(one_kind_url)[0] == {"2025Q3": 3}


def test_numbers_as_padded_text_and_headers_in_another_spelling_are_read(survey_url, tmp_path):
    columns = [c.upper().replace("_", " ").replace("PICKUP", "PICK-UP") for c in NEW_SHEET]
    row = {
        c.upper().replace("_", " ").replace("PICKUP", "PICK-UP"): v
        for c, v in rpw_row(**{"cc1 lcu fee": " 180 ", "cc1 total cost %": "3.00%", "cc1 lcu amount": "18,000"}).items()
    }
    code, output = import_rpw(survey_url, write_csv(tmp_path / "upper.csv", [row], columns))
    assert code == 0 and "1 imported, 0 skipped" in output, output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00\x01binary\x00", "is neither an Excel workbook (.xlsx) nor a CSV file: it holds binary data."),
        (
            b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64,
            "is an old Excel .xls workbook: open it in a spreadsheet and save it as .xlsx.",
        ),
        (
            b'{"period": "2025_3Q"}\n',
            "no header row with the required columns; missing: period, source code, "
            "destination code, firm, cc1 lcu amount, cc1 lcu code, cc1 lcu fee, "
            "cc1 fx margin, cc1 total cost %, transparent.",
        ),
        (
            b"period,source_code,destination_code,firm\n2025_3Q,KEN,TZA,X\n",
            "no header row with the required columns; missing: cc1 lcu amount, cc1 lcu code, cc1 lcu fee, "
            "cc1 fx margin, cc1 total cost %, transparent.",
        ),
    ],
    ids=["binary", "xls", "json", "columns-missing"],
)
def test_a_file_that_is_not_the_survey_is_refused_and_the_database_untouched(shipped_url, tmp_path, content, message):
    before = stored(shipped_url)
    path = tmp_path / "upload.bin"
    path.write_bytes(content)
    code, output = import_rpw(shipped_url, path)
    assert code == 1
    assert output == f"Error: {path} {message}\n" if message.startswith("is") else f"Error: {path}: {message}\n"
    assert stored(shipped_url) == before


def test_a_zip_that_is_not_a_workbook_and_a_workbook_without_the_columns_are_refused(survey_url, tmp_path):
    archive = tmp_path / "rates.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("eurofxref.csv", "Date,USD\n")
    code, output = import_rpw(survey_url, archive)
    assert code == 1 and "is a zip file but not an Excel workbook (.xlsx) openpyxl can read" in output
    from openpyxl import Workbook

    book = Workbook()
    book.active.title = "Dataset (from Q2 2016)"
    book.active.append(["period", "firm", "note"])
    book.save(tmp_path / "thin.xlsx")
    code, output = import_rpw(survey_url, tmp_path / "thin.xlsx")
    assert code == 1
    assert output == (
        f"Error: {tmp_path / 'thin.xlsx'}: no sheet has a header row with the required columns; "
        "'Dataset (from Q2 2016)' lacks source code, destination code, cc1 lcu amount, cc1 lcu code, "
        "cc1 lcu fee, cc1 fx margin, cc1 total cost %, transparent.\n"
    )
    assert stored(survey_url)[2] == 0


def test_a_file_with_no_usable_row_is_refused_naming_the_reasons(survey_url, tmp_path):
    rows = [rpw_row(**{"cc1 lcu fee": "?"}), rpw_row(period="soon")]
    path = write_csv(tmp_path / "none.csv", rows)
    code, output = import_rpw(survey_url, path)
    assert code == 1
    assert output == (
        f"Error: {path}: no row can be imported (2 skipped):\n"
        "  skipped, cc1 lcu fee is not a number: 1 row (row 2)\n"
        "  skipped, unreadable period: 1 row (row 3)\n"
    )
    assert stored(survey_url) == ({}, {}, 0, {})


def test_a_file_with_its_header_alone_is_refused_saying_so(one_kind_url, tmp_path):
    path = write_csv(tmp_path / "header.csv", [])
    code, output = import_rpw(one_kind_url, path)
    assert (code, output) == (1, f"Error: {path}: it holds no row under its header; nothing was stored.\n")
    assert stored(one_kind_url) == ({}, {}, 0, {})


def test_a_file_that_fails_halfway_changes_nothing(shipped_url, tmp_path, monkeypatch):
    before = stored(shipped_url)
    from corridor.imports import store, survey_db

    monkeypatch.setattr(store, "BATCH", 2)
    rows = [rpw_row(period="2026_1Q", firm=f"Firm {n}") for n in range(6)]
    rows[4]["firm"] = "x" * 100_000  # a value the database refuses, after four rows went in
    monkeypatch.setattr(survey_db, "_values", _refusing(survey_db._values))
    path = write_csv(tmp_path / "half.csv", rows)
    code, output = import_rpw(shipped_url, path)
    assert code == 1
    assert output == f"Error: {path}: the database refused the import, so nothing of it was stored: value too long\n"
    assert stored(shipped_url) == before


def _refusing(values):
    def refused(observation):
        if len(observation.firm) > 1000:
            raise sa.exc.DataError("INSERT", {}, Exception("value too long"))
        return values(observation)

    return refused


def test_the_command_exits_1_naming_the_cause(one_kind_url, tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("")
    result = command_app(one_kind_url).test_cli_runner().invoke(args=["prices", "import-rpw", str(path)])
    assert result.exit_code == 1
    assert result.stderr.strip().endswith(
        f"Error: {path}: no header row with the required columns; missing: period, "
        "source code, destination code, firm, cc1 lcu amount, cc1 lcu code, "
        "cc1 lcu fee, cc1 fx margin, cc1 total cost %, transparent."
    )


def test_on_a_terminal_the_import_shows_a_progress_bar(one_kind_url):
    leader, follower = pty.openpty()
    command = [sys.executable, "-m", "flask", "--app", "app", "prices", "import-rpw", str(SHIPPED_RPW)]
    process = subprocess.Popen(
        command, cwd=ROOT, env=gunicorn_env(DATABASE_URL=one_kind_url), stdout=follower, stderr=follower
    )
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert process.wait(timeout=60) == 0
    text = shown.decode()
    assert "Reading rows" in text and "162" in text  # click's bar, with the rows read so far
    assert "162 rows read, 162 imported, 0 skipped" in text


def test_a_relative_sqlite_path_is_the_same_file_for_the_import_and_the_service(migrated_sqlite):
    # Flask-SQLAlchemy puts a relative SQLite path in the instance folder: serving must read the file importing wrote
    name = f"relative-{os.getpid()}.sqlite3"
    path = ROOT / "instance" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(migrated_sqlite.read_bytes())
    try:
        assert import_rpw(f"sqlite:///{name}", SHIPPED_RPW)[0] == 0
        served = current_service(build_app(DATABASE_URL=f"sqlite:///{name}")).data.catalog
        assert "KEN-TZA" in served.by_countries
    finally:
        path.unlink()
    assert not (ROOT / name).exists()
