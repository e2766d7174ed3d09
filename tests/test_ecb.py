"""`flask rates import-ecb`: the ECB's real formats, re-basing, atomic write only when valid."""

import errno
import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from corridor.data.load import load_dataset

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ECB_USD = 1.1620


@pytest.fixture
def data_copy(tmp_path):
    path = tmp_path / "seed_data.json"
    shutil.copy(FIXTURES.parent.parent / "seed_data.json", path)
    return path


@pytest.fixture
def ecb_zip(tmp_path):
    path = tmp_path / "eurofxref.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(FIXTURES / "eurofxref.csv", "eurofxref.csv")
    return path


def run(app, *args):
    return app.test_cli_runner().invoke(args=["rates", "import-ecb", *map(str, args)])


def test_a_file_older_than_the_data_s_ecb_rates_is_refused_and_nothing_is_written(app, data_copy, tmp_path):
    assert run(app, FIXTURES / "eurofxref-daily.xml", "--data", data_copy).exit_code == 0  # the ECB's of 2026-11-21
    newer = data_copy.read_bytes()
    older = tmp_path / "older.xml"
    older.write_text((FIXTURES / "eurofxref-daily.xml").read_text().replace("2026-11-21", "2026-11-19"))
    result = run(app, older, "--data", data_copy)
    assert (result.exit_code, result.output) == (
        1,
        f"Error: {older} holds the ECB's rates of 2026-11-19, older than the data file's (2026-11-21): nothing was "
        "written.\n",
    )
    assert data_copy.read_bytes() == newer
    same_day = run(app, FIXTURES / "eurofxref-daily.xml", "--data", data_copy)  # the same day again is taken
    assert same_day.exit_code == 0 and "changed: 0" in same_day.output, same_day.output


@pytest.fixture
def xml_with_bom(tmp_path_factory):
    path = tmp_path_factory.mktemp("bom") / "eurofxref-daily.xml"
    path.write_bytes(b"\xef\xbb\xbf" + (FIXTURES / "eurofxref-daily.xml").read_bytes())  # as some editors save it
    return path


@pytest.mark.parametrize("source", ["xml", "xml-bom", "csv", "zip"])
def test_import_rebases_to_usd_and_writes_a_valid_file(app, data_copy, ecb_zip, xml_with_bom, source):
    file = {
        "xml": FIXTURES / "eurofxref-daily.xml",
        "xml-bom": xml_with_bom,
        "csv": FIXTURES / "eurofxref.csv",
        "zip": ecb_zip,
    }[source]
    before = json.loads(data_copy.read_text())
    result = run(app, file, "--data", data_copy)
    assert result.exit_code == 0, result.output
    after = json.loads(data_copy.read_text())
    table = after["rates"]["interbank"]
    assert after["as_of"] == "2026-11-21"
    assert table["USD"] == 1
    assert table["EUR"] == float(f"{1 / ECB_USD:.6g}") == 0.860585
    assert table["JPY"] == float(f"{178.42 / ECB_USD:.6g}")
    assert table["MXN"] == float(f"{21.4280 / ECB_USD:.6g}")
    assert table["AED"] == before["rates"]["interbank"]["AED"]  # not in the ECB file: kept
    consumer, was = after["rates"]["consumer"], before["rates"]["consumer"]
    assert consumer["EUR"] == float(
        f"{was['EUR'] * table['EUR'] / before['rates']['interbank']['EUR']:.6g}"
    )  # its margin
    assert consumer["AED"] == was["AED"] and consumer["USD"] == 1
    assert (
        after["rates"]["sources"]["EUR"] == after["rates"]["sources"]["MXN"] == {"source": "ECB", "date": "2026-11-21"}
    )
    # still the data file's, of the day before as_of moved
    assert after["rates"]["sources"]["AED"] == {"source": "data file", "date": "2026-11-20"}
    assert after["corridors"] == before["corridors"] and after["providers"] == before["providers"]
    assert "BGN" not in table
    dataset = load_dataset(str(data_copy))
    assert dataset.as_of.isoformat() == "2026-11-21"
    lines = result.output.splitlines()
    assert f"changed  EUR: {before['rates']['interbank']['EUR']} -> 0.860585 (ECB, 2026-11-21)" in lines
    assert any(line.startswith("kept their old rates (no feed gives them): AED, BDT") for line in lines)
    assert any(line.startswith("given but not in the data, ignored: BGN") for line in lines)
    assert lines[-2:] == [f"wrote {data_copy}. Send gunicorn HUP to serve it.", "as_of: 2026-11-20 -> 2026-11-21"]
    assert sorted(p.name for p in data_copy.parent.iterdir()) == sorted({"seed_data.json", "eurofxref.zip"})


def test_written_file_keeps_the_reviewable_layout(app, data_copy):
    run(app, FIXTURES / "eurofxref-daily.xml", "--data", data_copy)
    text = data_copy.read_text()
    offers = sum(len(c["offers"]) for c in json.loads(text)["corridors"])
    assert sum(1 for line in text.splitlines() if line.strip().startswith('{"provider": ')) == offers
    assert '    "interbank": {\n      "USD": 1, "EUR": 0.860585, ' in text


def test_invalid_result_is_not_written(app, data_copy):
    broken = json.loads(data_copy.read_text())
    broken["corridors"][0]["offers"][0]["settlement"] = "soon"
    data_copy.write_text(json.dumps(broken))
    original = data_copy.read_bytes()
    result = run(app, FIXTURES / "eurofxref-daily.xml", "--data", data_copy)
    assert result.exit_code == 1
    assert "$.corridors[0].offers[0].settlement" in result.output
    assert data_copy.read_bytes() == original
    assert [p.name for p in data_copy.parent.iterdir()] == ["seed_data.json"]


@pytest.mark.parametrize(
    "content, message",
    [
        (b"not a rate file", "not an ECB reference-rate file"),
        (b"<Envelope><Cube/></Envelope>", "not an ECB reference-rate file"),
        (b"Date, USD, \n32 Smarch 2026, 1.16, \n", "not an ECB reference-rate file"),
        (b"Date, JPY, \n21 November 2026, 178.42, \n", "No feed gives a USD rate"),
        (b"Date, USD, GBP, \n21 November 2026, 1.16, -0.88, \n", "unusable rate GBP=-0.88"),
        (b"Date, USD, \n21 November 2026, N/A, \n", "holds no rates"),
        (b"Date, USD, \n", "not an ECB reference-rate file in a known format (no day under the header)"),
        (b"Date, USD, JPY, USD, \n21 November 2026, 1.16, 178.4, 1.2, \n", "USD is given twice"),
        (
            b'<Envelope xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><Cube><Cube time="2026-11-21">'
            b'<Cube currency="USD" rate="1.16"/><Cube currency="JPY" rate="178"/><Cube currency="JPY" rate="894"/>'
            b"</Cube></Cube></Envelope>",
            "JPY is given twice",
        ),
        (b"Date, USD, \n31 December 9999, 1.16, \n", "its day 9999-12-31 is after tomorrow"),
    ],
)
def test_unusable_ecb_files_are_refused_and_nothing_is_written(app, data_copy, tmp_path, content, message):
    bad = tmp_path / "eurofxref.csv"
    bad.write_bytes(content)
    original = data_copy.read_bytes()
    result = run(app, bad, "--data", data_copy)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
    assert data_copy.read_bytes() == original


def test_a_same_day_file_leaves_as_of_when_the_data_is_newer(app, data_copy):
    data = json.loads(data_copy.read_text())
    data["as_of"] = "2026-11-25"  # newer than the ECB file's day, 2026-11-21, as another feed's rates can make it
    data_copy.write_text(json.dumps(data))
    result = run(app, FIXTURES / "eurofxref-daily.xml", "--data", data_copy)
    assert result.exit_code == 0, result.output
    after = json.loads(data_copy.read_text())
    assert after["as_of"] == "2026-11-25" and result.output.endswith("as_of: 2026-11-25, kept: not older\n")
    assert after["rates"]["sources"]["EUR"] == {"source": "ECB", "date": "2026-11-21"}
    assert "AED" not in after["rates"]["sources"]  # no "data file" entries: as_of did not move


def test_the_newest_day_of_a_history_is_taken_in_any_row_order(app, data_copy, tmp_path):
    rows = (FIXTURES / "eurofxref.csv").read_text().splitlines()
    header, values = rows[0], rows[1].split(",")
    older = ",".join(["2026-11-20", *(value if value.strip() in ("", "N/A") else "1.5" for value in values[1:])])
    history = tmp_path / "hist.csv"
    history.write_text("\n".join([header, older, ",".join(["2026-11-21", *values[1:]])]) + "\n")
    assert run(app, history, "--data", data_copy).exit_code == 0
    assert json.loads(data_copy.read_text())["rates"]["sources"]["MXN"] == {"source": "ECB", "date": "2026-11-21"}


def test_a_file_too_large_or_not_regular_is_refused_unread(app, data_copy, tmp_path):
    big = tmp_path / "big.zip"
    with zipfile.ZipFile(big, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("eurofxref.csv", "Date, USD, \n" + "21 November 2026, 1.16, \n" * 800_000)  # 20 MB
    assert big.stat().st_size < 1_000_000
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    original = data_copy.read_bytes()
    huge = tmp_path / "huge.zip"
    huge.write_bytes(b"PK\x03\x04" + os.urandom(17 * 2**20))  # over the bound packed, as no ECB file is
    for path, says in [
        (big, "refused: it holds more than 16 MB"),
        (huge, "refused: it holds more than 16 MB"),
        (fifo, "is not a regular file"),
    ]:
        result = run(app, path, "--data", data_copy)
        assert result.exit_code == 1 and says in result.output, result.output
    assert data_copy.read_bytes() == original


def test_import_then_serve(app, make_app, data_copy, auth):
    run(app, FIXTURES / "eurofxref-daily.xml", "--data", data_copy)
    client = make_app(SEED_DATA=str(data_copy)).test_client()
    body = client.get("/api/midrate?from=USD&to=EUR", headers=auth).get_json()
    assert (body["ref_rate_b"], body["updated"]) == (0.860585, "Nov 21, 2026")


def test_a_data_file_that_cannot_be_written_is_said_in_one_line_and_kept(app, data_copy, monkeypatch):
    def full_disk(**kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    before = data_copy.read_bytes()
    monkeypatch.setattr("corridor.data.write.tempfile.mkstemp", full_disk)
    result = run(app, FIXTURES / "eurofxref-daily.xml", "--data", data_copy)
    assert result.exit_code == 1
    assert result.output == f"Error: {data_copy}: cannot write the data file: No space left on device.\n"
    assert data_copy.read_bytes() == before
