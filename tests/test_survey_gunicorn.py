"""A running service takes up an import: on HUP, with the same swap of workers as a new data file, losing no request
under load; and without a HUP within seconds, every instance on the same database."""

import json
import signal
import time

import pytest
from conftest import RAW_KEY, empty_survey, import_rpw, run_command, running_gunicorn
from harness import curl, measured, paced_load, requires
from survey_rows import SHIPPED_FILES, SHIPPED_RPW


def corridors(base):
    return json.loads(curl(f"{base}/api/poc/health"))["corridors"]


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

    before = {name: served(server) for name, server in instances.items()}
    path = SHIPPED_FILES[2][1] if "published" in command else SHIPPED_RPW
    code, output = run_command(survey_url, *command.split(), path)  # the database is what the instances share
    assert code == 0, output
    imported = time.monotonic()
    for name, server in instances.items():
        # every worker: each answer comes from whichever worker takes the connection
        while any(served(server) == before[name] for _ in range(10)):
            assert time.monotonic() < imported + 10, server.log.read_text()[-3000:]
            time.sleep(0.2)
    if "rpw" in command:
        assert {corridors(server.base) for server in instances.values()} == {active + 8}
    assert not any("Hang up" in server.log.read_text() for server in instances.values())
