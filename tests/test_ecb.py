"""`flask rates import-ecb`: the ECB's real formats, re-basing, atomic write only when valid."""

import errno
import json
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


@pytest.mark.parametrize("source", ["xml", "csv", "zip"])
def test_import_rebases_to_usd_and_writes_a_valid_file(app, data_copy, ecb_zip, source):
    file = {"xml": FIXTURES / "eurofxref-daily.xml", "csv": FIXTURES / "eurofxref.csv", "zip": ecb_zip}[source]
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
    ],
)
def test_unusable_ecb_files_are_refused_and_nothing_is_written(app, data_copy, tmp_path, content, message):
    bad = tmp_path / "eurofxref.csv"
    bad.write_bytes(content)
    original = data_copy.read_bytes()
    result = run(app, bad, "--data", data_copy)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
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
