"""A running service takes up an import: on HUP, or at the rates refresher's next refresh, with the same swap of
workers as a new data file, losing no request under load."""

import json
import os
import signal
import time
from pathlib import Path

from conftest import RAW_KEY, import_rpw, running_gunicorn
from harness import curl, measured, paced_load, requires
from survey_rows import SHIPPED_RPW


def corridors(base):
    return json.loads(curl(f"{base}/api/poc/health"))["corridors"]


def refresher_pid(master):
    """The rates refresher: the master's child that is not a worker."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return next(int(pid) for pid in children if Path(f"/proc/{pid}/comm").read_text().strip() == "corridor-rates")


def wait_for(base, count, log, seconds=60):
    deadline = time.monotonic() + seconds
    while corridors(base) != count:
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.2)


@requires("curl", "wrk")
def test_a_hup_serves_an_import_under_load_and_loses_no_request(survey_url, tmp_path, raw_seed):
    active = len([c for c in raw_seed["corridors"] if c["active"]])
    with running_gunicorn(tmp_path / "gunicorn.log", API_KEYS=RAW_KEY, DATABASE_URL=survey_url) as (base, master, log):
        assert corridors(base) == active
        load = paced_load(base, RAW_KEY, seconds=120)
        time.sleep(1)
        assert import_rpw(survey_url, SHIPPED_RPW)[0] == 0
        master.send_signal(signal.SIGHUP)
        wait_for(base, active + 8, log)
        deadline = time.monotonic() + 30  # old workers answer until the master tells them to go
        while not isinstance(
            ranked := json.loads(
                curl("-H", f"Authorization: Bearer {RAW_KEY}", f"{base}/api/providers?corridor=KEN-TZA")
            ),
            list,
        ):
            assert time.monotonic() < deadline, ranked
            time.sleep(0.2)
        assert ranked[0]["source"] == "World Bank RPW"
        time.sleep(1)
        for wrk in load:
            wrk.send_signal(signal.SIGINT)
            figures = measured(wrk)
            assert figures["requests"] > 300 and figures["errors"] == 0 and figures["max"] < 1000, figures


def test_the_refresher_takes_up_an_import_at_its_next_refresh(survey_url, tmp_path, raw_seed):
    active = len([c for c in raw_seed["corridors"] if c["active"]])
    with running_gunicorn(tmp_path / "gunicorn.log", API_KEYS=RAW_KEY, DATABASE_URL=survey_url) as (base, master, log):
        assert import_rpw(survey_url, SHIPPED_RPW)[0] == 0
        os.kill(refresher_pid(master.pid), signal.SIGUSR1)  # what RATES_REFRESH_MINUTES does when it comes round
        wait_for(base, active + 8, log)
        assert "Serving the rates the refresher brought, with the keys and the data read anew." in log.read_text()
