"""A survey file is read whole and within bounds: a workbook to its last row whatever its <dimension> says, one that
would take too much memory or time refused, and a CSV that cannot be read named by file and line; nothing is stored
from a refused file. On SQLite and PostgreSQL."""

import os
import zipfile

import pytest
import sqlalchemy as sa
from conftest import import_rpw
from harness import flask_command
from survey_rows import rpw_row, write_csv, write_workbook

from corridor.data.database import engine_url
from corridor.imports import tabular

NEW_SHEET_PART = "xl/worksheets/sheet6.xml"  # write_workbook's sixth sheet: "Dataset (from Q2 2016)"


def nothing_stored(url):
    engine = sa.create_engine(engine_url(url))
    try:
        with engine.connect() as connection:
            return [
                connection.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar()
                for table in ("survey_observations", "survey_imports")
            ] == [0, 0]
    finally:
        engine.dispose()


def rezip(path, parts):
    """The workbook at `path` with each part `parts` names changed by its function of the part's bytes, or added if it
    gives bytes."""
    source = path.with_name("in-" + path.name)
    path.rename(source)
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for item in old.infolist():
            change = parts.get(item.filename)
            new.writestr(item.filename, change(old.read(item)) if callable(change) else old.read(item))
        for name, data in parts.items():
            if isinstance(data, bytes):
                new.writestr(name, data)
    source.unlink()
    return path


def with_dimension(ref, last=b""):
    """A sheet whose <dimension> says `ref`, with `last` after its rows."""
    return lambda xml: xml.replace(b"<sheetViews>", f'<dimension ref="{ref}"/><sheetViews>'.encode(), 1).replace(
        b"</sheetData>", last + b"</sheetData>"
    )


def imported_by_the_command(url, book):
    """The real command, in a process of its own: a sheet padded to its claimed size would run for minutes."""
    result = flask_command("prices", "import-rpw", str(book), DATABASE_URL=url, timeout=60)
    return result.returncode, result.stdout + result.stderr


def test_a_sheet_whose_dimension_is_stale_is_read_to_its_last_row(survey_url, tmp_path):
    assert_read_whole(survey_url, tmp_path, with_dimension("A1:AP3"), import_rpw)  # in this process


def test_a_sheet_claiming_excel_s_every_cell_is_read_to_its_last_row_in_bounded_time(one_kind_url, tmp_path):
    # Excel's last cell, empty but styled: padded to the claimed size, the rows before it are 17 billion cells. Reading
    # is the same whatever the database, so this is checked on one
    last = b'<row r="1048576"><c r="XFD1048576" s="1"/></row>'
    assert_read_whole(one_kind_url, tmp_path, with_dimension("A1:XFD1048576", last), imported_by_the_command)


def assert_read_whole(url, tmp_path, sheet, run):
    """Twelve rows in a sheet that `sheet` changes, imported by `run`: all twelve read and imported."""
    book = write_workbook(tmp_path / "rpw.xlsx", new_rows=[rpw_row(firm=f"Firm {n}") for n in range(12)])
    rezip(book, {NEW_SHEET_PART: sheet})
    code, output = run(url, book)
    assert code == 0, output
    assert output.splitlines()[:2] == [
        "rpw.xlsx (workbook, sheets 'Dataset (from Q2 2016)', 'Dataset (up to Q1 2016)'): 12 rows read, 12 imported, "
        f"0 skipped; import {output.split('import ')[1].split('.')[0]}.",
        "  2025Q3: 12 rows, new",
    ]


SST = b'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'


def shared_strings(count):
    """A workbook part of `count` one-letter shared strings, and the references that make openpyxl read it."""
    return {
        "xl/sharedStrings.xml": SST + b"<si><t>a</t></si>" * count + b"</sst>",
        "[Content_Types].xml": lambda xml: xml.replace(
            b"</Types>",
            b'<Override PartName="/xl/sharedStrings.xml" '
            b'ContentType="application/vnd.openxmlformats-officedocument.'
            b'spreadsheetml.sharedStrings+xml"/></Types>',
        ),
        "xl/_rels/workbook.xml.rels": lambda xml: xml.replace(
            b"</Relationships>",
            b'<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/'
            b'2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        ),
    }


def test_shared_strings_that_would_take_more_than_512_mb_are_refused(one_kind_url, tmp_path):
    # 6,000,000 strings: 102 MB of XML in a 300 KB file, about 600 MB once openpyxl holds them
    book = rezip(write_workbook(tmp_path / "bomb.xlsx", new_rows=[rpw_row()]), shared_strings(6_000_000))
    assert book.stat().st_size < 1_000_000
    result = flask_command("prices", "import-rpw", str(book), DATABASE_URL=one_kind_url, timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == (
        f"Error: {book}: refused: reading it would take more than 512 MB of memory (its shared strings, styles or "
        "other parts hold too much); nothing of it was stored."
    )
    assert nothing_stored(one_kind_url)


@pytest.mark.parametrize("part", [NEW_SHEET_PART, "xl/sheet6.dat"], ids=["sheet", "sheet-by-another-name"])
def test_a_sheet_that_unpacks_over_a_hundred_times_is_refused_unread(one_kind_url, tmp_path, part):
    # one cell of 70 MB, packed into a few hundred KB: openpyxl would hold the cell's text whole; it finds the sheet
    # by the workbook's links, whatever the part's name
    cell = b'<row r="9"><c r="A9" t="inlineStr"><is><t>' + b"x" * (70 * 2**20) + b"</t></is></c></row>"
    book = write_workbook(tmp_path / "giant.xlsx", new_rows=[rpw_row()])
    with zipfile.ZipFile(book) as archive:
        sheet = archive.read(NEW_SHEET_PART).replace(b"</sheetData>", cell + b"</sheetData>")
    linked = {
        "xl/_rels/workbook.xml.rels": lambda rels: rels.replace(f"/{NEW_SHEET_PART}".encode(), f"/{part}".encode())
    }
    book = rezip(book, {**linked, part: sheet} if part != NEW_SHEET_PART else {part: lambda _: sheet})
    code, output = import_rpw(one_kind_url, book)
    assert code == 1 and output.startswith(f"Error: {book}: refused: its part {part} unpacks to 70 MB"), output
    assert output.endswith("(a cell that large would be held whole); nothing of it was stored.\n")
    assert nothing_stored(one_kind_url)


def test_shared_strings_within_the_bound_are_read(survey_url, tmp_path):
    book = rezip(write_workbook(tmp_path / "strings.xlsx", new_rows=[rpw_row()]), shared_strings(1000))
    code, output = import_rpw(survey_url, book)
    assert code == 0 and "1 rows read, 1 imported, 0 skipped" in output, output


def test_a_sheet_openpyxl_cannot_read_on_is_refused_naming_the_row(one_kind_url, tmp_path):
    not_a_number = {NEW_SHEET_PART: lambda xml: xml.replace(b"<v>", b"<v>NaN", 1)}  # a number cell's value
    book = rezip(write_workbook(tmp_path / "damaged.xlsx", new_rows=good_rows(10)), not_a_number)
    code, output = import_rpw(one_kind_url, book)
    assert code == 1 and output == (
        f"Error: {book}, sheet 'Dataset (from Q2 2016)', after row 1: the workbook is damaged and openpyxl cannot "
        "read on (ValueError: invalid literal for int() with base 10: 'NaN18000'); nothing of it was stored.\n"
    ), output
    assert nothing_stored(one_kind_url)


@pytest.fixture(scope="module")
def slow_book(tmp_path_factory):
    """A workbook of 3,000 rows, written once (1.8 CPU-seconds) for both kinds of database, as they only read it."""
    return write_workbook(
        tmp_path_factory.mktemp("slow") / "slow.xlsx", new_rows=[rpw_row(firm=f"Firm {n}") for n in range(3000)]
    )


def test_a_workbook_that_takes_longer_than_the_bound_to_read_is_refused(survey_url, slow_book, monkeypatch):
    book = slow_book
    monkeypatch.setattr(tabular, "READ_SECONDS", 0.12)  # 3,000 rows take 0.5 s to read on a fast machine
    code, output = import_rpw(survey_url, book)
    assert (code, output) == (
        1,
        f"Error: {book}: refused: reading it takes more than 0.002 minutes; nothing of it was stored.\n",
    )
    assert nothing_stored(survey_url)


def good_rows(count):
    return [rpw_row(firm=f"Firm {n}") for n in range(count)]


def windows_1252(path):
    """The CSV as a spreadsheet on Windows saves it."""
    path.write_bytes(path.read_text(encoding="utf-8").encode("cp1252"))
    return path


def with_line(path, raw):
    with open(path, "ab") as handle:
        handle.write(raw)
    return path


CSV_FAILURES = [
    (
        "field-over-the-limit",
        lambda p: write_csv(p, [*good_rows(2), rpw_row(firm="x" * 200_000)]),
        "line 4: a field is longer than 131,072 characters, the most the CSV reader takes.",
    ),
    (
        "not-utf-8-after-64-kb",
        lambda p: with_line(write_csv(p, good_rows(400)), b"2025_3Q,KEN,Caf\xe9\r\n"),
        "line 402: byte 0xe9 is not UTF-8 text; save the file as CSV UTF-8 and import that.",
    ),
    (
        "not-windows-1252-after-64-kb",
        lambda p: with_line(
            windows_1252(write_csv(p, [rpw_row(firm="Caf\xe9")] + good_rows(400))), b"2025_3Q,KEN,\x81\r\n"
        ),
        "line 403: byte 0x81 is not Windows-1252 text; save the file as CSV UTF-8 and import that.",
    ),
    (
        "utf-16",
        lambda p: p.write_bytes(write_csv(p, good_rows(2)).read_text().encode("utf-16")),
        "line 1: the file is UTF-16 text; save it as CSV UTF-8 and import that.",
    ),
    (
        "utf-16-without-its-mark",
        lambda p: p.write_bytes(write_csv(p, good_rows(2)).read_text().encode("utf-16-le")),
        "line 1: the file is UTF-16 text; save it as CSV UTF-8 and import that.",
    ),
]


def with_stray_quote(path):
    """A quote opened in line 3's firm and never closed: csv reads lines 3 to 6, the last, as one row of 15 cells."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[2] = lines[2].replace(",Firm 1,", ',"Firm 1,')
    path.write_text("".join(lines), encoding="utf-8")
    return path


CSV_FAILURES.append(
    (
        "stray-quote",
        lambda p: with_stray_quote(write_csv(p, good_rows(5))),
        "lines 3–6: a quoted field runs over several lines and leaves 15 cells where the line before has 42, as "
        'after a stray quote ("): fix the line and import again.',
    )
)


def test_a_cell_written_over_several_lines_is_read(one_kind_url, tmp_path):
    # as a spreadsheet saves a cell typed with line breaks: quoted, the row's cells as many as any other's
    path = write_csv(tmp_path / "rows.csv", [*good_rows(2), rpw_row(firm="Multi\nLine Remit")])
    assert len(path.read_text(encoding="utf-8").splitlines()) == 5
    code, output = import_rpw(one_kind_url, path)
    assert code == 0 and "3 rows read, 3 imported, 0 skipped" in output, output


@pytest.mark.parametrize(("write", "message"), [c[1:] for c in CSV_FAILURES], ids=[c[0] for c in CSV_FAILURES])
def test_a_csv_that_cannot_be_read_is_refused_naming_the_file_and_line(survey_url, tmp_path, write, message):
    path = tmp_path / "rows.csv"
    write(path)
    if "is not" in message:  # the first 64 KB decide the encoding: the bad byte comes after them
        assert path.read_bytes().index(bytes.fromhex(message.split("byte 0x")[1][:2])) > 65536
    code, output = import_rpw(survey_url, path)
    assert (code, output) == (1, f"Error: {path} {message}\n")
    assert nothing_stored(survey_url)


def test_a_csv_saved_with_carriage_returns_alone_is_read(survey_url, tmp_path):
    path = write_csv(tmp_path / "mac.csv", good_rows(3))
    path.write_bytes(path.read_bytes().replace(b"\r\n", b"\r"))
    code, output = import_rpw(survey_url, path)
    assert code == 0 and "3 rows read, 3 imported, 0 skipped" in output, output


def test_a_fifo_is_refused_at_once(one_kind_url, tmp_path):
    path = tmp_path / "rows.csv"
    os.mkfifo(path)
    result = flask_command("prices", "import-rpw", str(path), DATABASE_URL=one_kind_url, timeout=30)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == (
        f"Error: {path} is not a regular file (a FIFO, a device or a folder): import a saved file."
    )
    assert nothing_stored(one_kind_url)


def test_a_csv_cut_short_within_its_last_line_is_refused(one_kind_url, tmp_path):
    path = write_csv(tmp_path / "rows.csv", good_rows(3))
    whole = path.read_text(encoding="utf-8")
    last = whole.splitlines()[-1]
    cut = whole.rstrip("\r\n")[: -len(last) // 2]  # half the last line, with no line break after it
    path.write_text(cut, encoding="utf-8", newline="")
    code, output = import_rpw(one_kind_url, path)
    cells = len(last.split(","))
    assert (code, output) == (
        1,
        f"Error: {path} line 4: the file ends within it ({len(cut.splitlines()[-1].split(','))} of {cells} cells, and "
        "no line break): it looks cut short; nothing of it was stored. Import the whole file.\n",
    )
    assert nothing_stored(one_kind_url)


def test_a_csv_whose_last_line_has_no_line_break_is_read_whole(one_kind_url, tmp_path):
    path = write_csv(tmp_path / "rows.csv", good_rows(3))
    path.write_text(path.read_text(encoding="utf-8").rstrip("\r\n"), encoding="utf-8", newline="")
    code, output = import_rpw(one_kind_url, path)
    assert code == 0 and "3 rows read, 3 imported, 0 skipped" in output, output
