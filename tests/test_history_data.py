"""The rate-history file: the ECB's CSV as well as its zip; a bad one refused with its reason, the last good kept."""

import io
import zipfile
from dataclasses import replace

import pytest
from conftest import reread

from corridor.settings import current_settings
from corridor.state import current_service


def test_history_data_may_be_the_ecb_csv(make_app, tmp_path, auth):
    csv_path = tmp_path / "eurofxref-hist.csv"
    csv_path.write_text("Date,USD,MXN,\n2026-11-20,1.1,20.35,\n2026-11-19,1.2,N/A,\n")
    client = make_app(HISTORY_DATA=str(csv_path)).test_client()
    body = client.get("/api/poc/history?from=USD&to=MXN", headers=auth).get_json()
    assert body["points"] == [{"date": "2026-11-20", "rate": 18.5}]
    assert client.get("/api/poc/health").get_json()["historyStart"] == "2026-11-19"


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"", "line 1 must be the ECB header, Date followed by currency codes."),
        (b"Date,USD,\n2026-11-31,1.1,\n", "line 2: '2026-11-31' is not a date written YYYY-MM-DD."),
        (b"Date,USD,\n2026-11-20,-1,\n", "line 2: the USD rate '-1' is not a number from 0.000001 to 1000000000."),
        (
            b"Date,USD,MXN,\n2026-11-20,1e-300,1e300,\n",
            "line 2: the USD rate '1e-300' is not a number from 0.000001 to 1000000000.",
        ),
        (b"Date,USD,\n20261120,1.1,\n", "line 2: '20261120' is not a date written YYYY-MM-DD."),
        (b'Date,USD,\n2026-11-20,"1.1\r2",\n' + b"x" * 10, None),
        (
            b"Date,USD,\n2026-11-20," + b"9" * 140_000 + b",\n",
            "not CSV as the ECB writes it: field larger than field limit (131072).",
        ),
        (b"Date,USD,\n2026-11-20,1,\n2026-11-20,1,\n", "line 3: the date 2026-11-20 is given twice."),
        (b"Date,US Dollar,\n", "line 1: 'US Dollar' is not a currency code, or is given twice."),
        (b"PK\x03\x04 not really a zip", "not a readable zip file: File is not a zip file."),
    ],
)
def test_a_bad_history_is_refused_with_its_reason_and_a_refresh_keeps_the_last_good(
    make_app, tmp_path, content, reason
):
    served_app = make_app()
    path = tmp_path / "history.csv"
    path.write_bytes(content)
    served = current_service(served_app).data
    served_app.config["SETTINGS"] = replace(current_settings(served_app), history_data=str(path))
    errors = reread(served_app)
    assert len(errors) == 1 and errors[0].startswith("Data refresh refused; still serving")
    assert f"{path}: {reason or ''}" in errors[0]
    assert current_service(served_app).data.sources is served.sources


def test_a_corrupt_zip_is_refused_naming_the_history(make_app, tmp_path):
    served_app = make_app()
    good = io.BytesIO()
    with zipfile.ZipFile(good, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("eurofxref-hist.csv", "Date,USD,\n" + "2026-11-20,1.1,\n" * 2000)
    data = bytearray(good.getvalue())
    data[60:80] = b"\x00" * 20  # inside the compressed stream
    path = tmp_path / "eurofxref-hist.zip"
    path.write_bytes(bytes(data))
    served_app.config["SETTINGS"] = replace(current_settings(served_app), history_data=str(path))
    errors = reread(served_app)
    assert len(errors) == 1 and f" {path}: " in errors[0]
