"""Data refresh on HUP: built in the master while the old workers serve; no data file can stop it."""

import gc
import json
import os
import re
import signal
import subprocess
import sys
import time
import weakref
from contextlib import contextmanager

import pytest
from conftest import RAW_KEY, logged, reread, running_gunicorn
from harness import ROOT, curl, gunicorn_env, measured, paced_load, requires

from bench.generate import generate
from bench.load import workers_of
from corridor.serving.refresher import Refresher
from corridor.state import current_service

NESTED = "[" * 200_000 + "]" * 200_000
WORKERS = 2  # more than one: each answer comes from whichever takes the connection


def _health(base):
    return json.loads(curl(f"{base}/api/poc/health"))


def _write_atomically(path, data):
    temporary = path.with_suffix(".new")
    temporary.write_text(data if isinstance(data, str) else json.dumps(data))
    os.replace(temporary, path)


@contextmanager
def _refreshable(folder, raw_seed):
    data = folder / "seed.json"
    data.write_text(json.dumps(raw_seed))
    (folder / "tmp").mkdir()
    with running_gunicorn(
        folder / "gunicorn.log",
        API_KEYS=RAW_KEY,
        SEED_DATA=str(data),
        DATA_MAX_MB="8",
        TMPDIR=str(folder / "tmp"),
        WEB_CONCURRENCY=str(WORKERS),
    ) as (base, process, log):
        yield base, process, data, log


@pytest.fixture
def refreshable(tmp_path, raw_seed):
    """gunicorn serving a copy of the data that the test may replace; yields (base, process, data path, log)."""
    with _refreshable(tmp_path, raw_seed) as running:
        yield running


@pytest.fixture(scope="module")
def shared_refreshable(tmp_path_factory, raw_seed):
    """One gunicorn for the tests that leave it serving the shipped data from its file (a refused file's, and the swap
    to a large file and back): each puts the good file back."""
    with _refreshable(tmp_path_factory.mktemp("shared"), raw_seed) as running:
        yield running


@requires("curl", "wrk")
def test_refresh_under_load_loses_no_request(refreshable, raw_seed):
    base, process, data, log = refreshable
    load = paced_load(base, RAW_KEY, seconds=4)
    time.sleep(0.5)
    newer = dict(raw_seed, as_of="2026-11-21")
    newer["rates"] = dict(raw_seed["rates"], interbank=dict(raw_seed["rates"]["interbank"], MXN=18.5))
    _write_atomically(data, newer)
    booted = log.read_text().count("Booting worker with pid")
    process.send_signal(signal.SIGHUP)
    logged(log, "Booting worker with pid", seconds=30, times=booted + WORKERS)  # the first HUP's new workers are up
    process.send_signal(signal.SIGHUP)
    for figures in map(measured, load):
        assert figures["requests"] > 300 and figures["errors"] == 0, figures
    assert _health(base)["dataAsOf"] == "2026-11-21"
    mid = json.loads(curl("-H", f"Authorization: Bearer {RAW_KEY}", f"{base}/api/midrate?from=USD&to=MXN"))
    assert mid["ref_rate_b"] == 18.5
    assert log.read_text().count("Data refresh: ") == 2


INVALID = json.dumps({**json.loads((ROOT / "seed_data.json").read_text()), "as_of": "soon"})


@pytest.mark.parametrize(
    "content, reason",
    [
        ('{"as_of": "2026-12-01", "rates": ', "not valid JSON at line 1"),
        (INVALID, "is not valid corridor data (1 problem(s)):\n  $.as_of: Must be a date written YYYY-MM-DD."),
        (NESTED, "nested too deeply"),
        ("[" + "1," * 5_000_000 + "1]", "over 8,388,608 bytes, the limit DATA_MAX_MB sets"),
        (b"\xff\xfe not text", "not UTF-8 text"),
        (None, "cannot read the data file: No such file or directory"),
    ],
)
@requires("curl", "wrk")
def test_a_file_that_cannot_be_served_on_hup_keeps_the_master_and_the_last_good_data(
    shared_refreshable, raw_seed, content, reason
):
    base, process, data, log = shared_refreshable
    refusals = log.read_text().count("Data refresh refused; still serving")
    load = paced_load(base, RAW_KEY, seconds=1, connections=4)
    try:
        time.sleep(0.2)
        if content is None:
            data.unlink()
        elif isinstance(content, bytes):
            data.write_bytes(content)
        else:
            _write_atomically(data, content)
        process.send_signal(signal.SIGHUP)
        for figures in map(measured, load):
            assert figures["requests"] > 10 and figures["errors"] == 0, figures  # served throughout, however busy
    finally:
        _write_atomically(data, raw_seed)
    assert process.poll() is None
    assert _health(base)["dataAsOf"] == "2026-11-20"
    text = log.read_text()
    assert text.count("Data refresh refused; still serving") == refusals + 1 and reason in text
    assert "Traceback" not in text and "Worker failed to boot" not in text


@requires("curl")
def test_a_worker_killed_after_files_vanished_comes_back_with_the_data(refreshable, tmp_path):
    base, process, data, log = refreshable
    # what a temporary-file cleaner or an operator could do; workers read no file when they boot
    for path in [data, *(tmp_path / "tmp").rglob("*")]:
        subprocess.run(["rm", "-rf", str(path)], check=True)
    workers = workers_of(process.pid)
    os.kill(int(workers[0]), signal.SIGKILL)
    deadline = time.monotonic() + 20
    while log.read_text().count("Booting worker with pid") <= len(workers):
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
    answers = [_health(base)["dataAsOf"] for _ in range(30)]  # every worker, the new one among them
    assert process.poll() is None and set(answers) == {"2026-11-20"}
    assert "Worker failed to boot" not in log.read_text()


@requires("curl", "wrk")
def test_hup_to_a_large_file_and_back_under_load_loses_no_request_and_keeps_none_waiting(shared_refreshable, raw_seed):
    base, process, data, log = shared_refreshable
    large = json.dumps(generate(1000))
    load = paced_load(base, RAW_KEY, seconds=300)  # stopped once both swaps are seen
    swaps = []  # seconds from each HUP until the new file is served
    try:
        time.sleep(1)
        for served, corridors in ((large, 1000), (raw_seed, len([c for c in raw_seed["corridors"] if c["active"]]))):
            _write_atomically(data, served)
            started = time.monotonic()
            process.send_signal(signal.SIGHUP)
            while _health(base)["corridors"] != corridors:
                assert time.monotonic() < started + 90, log.read_text()
                time.sleep(0.2)
            swaps.append(time.monotonic() - started)
        time.sleep(1)
    finally:
        for wrk in load:
            wrk.send_signal(signal.SIGINT)  # wrk stops and prints what it measured
    # none waits out the swap to the large file: workers that stopped answering until it was served would hold
    # requests that long; the slowest answer's target (< 1 s) is make bench-scale's, as a test's neighbours on
    # the same cores stretch every wait
    for figures in map(measured, load):
        assert figures["requests"] > 300 and figures["errors"] == 0 and figures["max"] < swaps[0] * 1000, (
            figures,
            swaps,
        )


@pytest.mark.parametrize(
    "name, content, reason",
    [
        ("nested.json", NESTED, "arrays or objects nested too deeply to be corridor data."),
        ("broken.json", '{"as_of": ', "not valid JSON at line 1 column 11: Expecting value."),
        (
            "large.json",
            "[" + "1," * 1_100_000 + "1]",
            "the data file is over 2,097,152 bytes, the limit DATA_MAX_MB sets.",
        ),
    ],
)
def test_data_check_says_in_one_line_why_a_file_cannot_be_served(tmp_path, name, content, reason):
    (tmp_path / name).write_text(content)
    result = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", "data", "check", str(tmp_path / name)],
        cwd=ROOT,
        env=gunicorn_env(DATA_MAX_MB="2"),  # the shipped history's 1.9 MB fits: the app loads it first
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.endswith(f"\nError: {tmp_path / name}: {reason}\n")  # after what the app loaded at start
    assert "Traceback" not in result.stderr


def test_a_refresh_that_fails_while_building_keeps_the_data_and_says_why(make_app, monkeypatch, caplog):
    app = make_app()
    served = current_service(app).data

    def broken(*sources):
        raise ArithmeticError("a figure overflowed")

    monkeypatch.setattr("corridor.state.versions.Catalog", broken)
    refresher = Refresher(app)
    refresher.reread()
    refresher.serve()
    assert current_service(app).data is served
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and errors[0].startswith("Data refresh refused; still serving ")
    assert re.search(r"seed_data\.json: cannot be served: ArithmeticError: a figure overflowed$", errors[0])


def test_a_refresh_frees_the_version_it_replaces_at_once(make_app):
    fresh_app = make_app()
    reread(fresh_app)  # a version built as a refresh builds it, whole lists and all
    gc.collect()
    gc.disable()  # as for what gunicorn.conf.py's pre_fork freezes: reference counts alone must free it
    try:
        replaced = weakref.ref(current_service(fresh_app).data)
        assert reread(fresh_app) == []
        assert replaced() is None
    finally:
        gc.enable()
