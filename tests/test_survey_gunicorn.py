"""A running service takes up an import: on HUP, with the same swap of workers as a new data file, losing no request
under load; and without a HUP within seconds, every instance on the same database."""

import json
import signal
import time

import pytest
from conftest import RAW_KEY, empty_survey, import_rpw, logged, run_command, running_gunicorn
from harness import curl, measured, paced_load, requires
from survey_rows import SHIPPED_FILES, SHIPPED_RPW


def corridors(base):
    return json.loads(curl(f"{base}/api/poc/health"))["corridors"]


def wait_for(base, count, log, seconds=60):
    deadline = time.monotonic() + seconds
    while corridors(base) != count:
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.2)


def stopped(loads):
    """What each paced_wrk of `loads` measured, once stopped (SIGINT: it prints what it measured)."""
    for wrk in loads:
        wrk.send_signal(signal.SIGINT)
    return [measured(wrk) for wrk in loads]


@requires("curl", "wrk")
def test_a_hup_serves_an_import_under_load_and_loses_no_request(survey_url, tmp_path, raw_seed):
    # two loads: one while the master reads and builds the import's version (the old workers serving), stopped once it
    # forks the new workers; one through gunicorn's swap of workers, until the import is served
    active = len([c for c in raw_seed["corridors"] if c["active"]])
    with running_gunicorn(
        tmp_path / "gunicorn.log", API_KEYS=RAW_KEY, DATABASE_URL=survey_url, WEB_CONCURRENCY="2"
    ) as (base, master, log):
        assert corridors(base) == active
        building, swapping = paced_load(base, RAW_KEY, seconds=120), []
        try:
            time.sleep(1)
            assert import_rpw(survey_url, SHIPPED_RPW)[0] == 0
            booted = log.read_text().count("Booting worker with pid")
            master.send_signal(signal.SIGHUP)
            logged(log, "Booting worker with pid", seconds=30, times=booted + 1)  # built: the first new one forks
            swapping = paced_load(base, RAW_KEY, seconds=120)
            while_built = stopped(building)
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
        finally:
            for wrk in (*building, *swapping):
                if wrk.poll() is None:
                    wrk.send_signal(signal.SIGINT)
        while_swapped = stopped(swapping)
    for built, swapped in zip(while_built, while_swapped, strict=True):
        assert built["requests"] + swapped["requests"] > 300, (built, swapped)
        # no request waits a second for the new version's build: the old workers serve while the master builds it
        assert built["errors"] == 0 and built["max"] < 1000, built
        # none is lost as gunicorn swaps the workers; the new ones start listening once booted, and new connections
        # wait for them meanwhile, however long a loaded machine makes that (a frozen worker would hold its requests
        # until gunicorn's 30 s timeout)
        assert swapped["errors"] == 0 and swapped["max"] < 5000, swapped


@pytest.fixture(scope="module")
def instances(survey_database, tmp_path_factory):
    """Two instances of two workers each on the module's database of each kind, nothing imported when they start;
    shared by the imports that must reach them, which never HUP them. Each test compares what they serve after its
    import with what they served before it."""
    empty_survey(survey_database)
    folder = tmp_path_factory.mktemp("instances")
    settings = {"API_KEYS": RAW_KEY, "DATABASE_URL": survey_database, "WEB_CONCURRENCY": "2"}
    with (
        running_gunicorn(folder / "a.log", **settings) as one,
        running_gunicorn(folder / "b.log", **settings) as two,
    ):
        yield {"one": one, "two": two}


@pytest.mark.parametrize("command", ["prices import-rpw", "prices import-published"])
def test_an_import_reaches_every_running_instance_within_10_s_without_a_hup(instances, survey_url, raw_seed, command):
    active = len([c for c in raw_seed["corridors"] if c["active"]])

    def served(server):  # what the import changes: the corridors, or the published figures
        return curl(f"{server.base}/api/poc/costs/corridors") if "published" in command else corridors(server.base)

    def imported_by(name, answer):  # the import's answer: its 8 more corridors, or other published figures
        return answer == active + 8 if "rpw" in command else answer != before[name]

    before = {name: served(server) for name, server in instances.items()}
    path = SHIPPED_FILES[2][1] if "published" in command else SHIPPED_RPW
    code, output = run_command(survey_url, *command.split(), path)  # the database is what the instances share
    assert code == 0, output
    imported = time.monotonic()
    for name, server in instances.items():
        # every worker: each answer comes from whichever worker takes the connection, so ten in a row must all have
        # the import (one check after the first such ten failed once: a worker still building the new version)
        while not all(imported_by(name, served(server)) for _ in range(10)):
            assert time.monotonic() < imported + 10, server.log.read_text()[-3000:]
            time.sleep(0.2)
    assert not any("Hang up" in server.log.read_text() for server in instances.values())
