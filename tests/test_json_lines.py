"""`make run` on a new database: migrated, served, its key working; with LOG_FORMAT=json every line it and the
service's commands write is one JSON object, as the service's logs."""

import json
import os
import signal
import subprocess
import time

import pytest
from conftest import _answers
from harness import ROOT, flask_command, gunicorn_env, unused_port
from holders import HttpHolder
from survey_rows import SHIPPED_RPW

FIELDS = {"time", "level", "logger", "message"}


def objects(text):
    """Each line of `text` as the JSON object it must be."""
    lines = text.splitlines()
    assert lines, "nothing was written"
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            pytest.fail(f"not a JSON object: {line!r}")
        assert isinstance(entry, dict) and FIELDS <= entry.keys(), line
    return [json.loads(line) for line in lines]


def said(entries, logger):
    return [(entry["level"], entry["message"]) for entry in entries if entry["logger"] == logger]


def test_make_run_migrates_a_new_database_prints_a_working_key_and_writes_json_lines(tmp_path):
    # one `make run` for both (it imports every shipped file): a key it printed in JSON works as one printed as text
    port = unused_port()
    log = tmp_path / "make-run.log"
    env = gunicorn_env(
        LOG_FORMAT="json",
        DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}",
        PORT=str(port),
        WEB_CONCURRENCY="1",
        SECRET_KEY="k" * 32,
    )
    with open(log, "w") as output:  # the venv's install step taken as done: a test installs nothing
        process = subprocess.Popen(
            ["make", "--no-print-directory", "-o", ".venv/.runtime", "run"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 90
        while not _answers(f"http://127.0.0.1:{port}"):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        written = log.read_text()
        key = said(objects(written), "corridor.run")[0][1].removeprefix("Development API key: ")
        holder = HttpHolder(f"http://127.0.0.1:{port}")
        assert holder.api(key).status_code == 200
        assert holder.sign_up("ana@example.com").status_code == 303
        assert holder.api(holder.make_key()).status_code == 200
    finally:
        if process.poll() is None:  # make, and gunicorn under it
            os.killpg(process.pid, signal.SIGQUIT)
        process.wait(timeout=30)
    entries = objects(written)
    migrations = said(entries, "alembic.runtime.migration")
    assert ("info", "Running upgrade  -> 0001_accounts, Accounts and their API keys.") in migrations
    imported = said(entries, "corridor.cli")
    assert imported[0] == ("info", "rpw-east-africa-2025.csv (CSV): 162 rows read, 162 imported, 0 skipped; import 1.")
    assert (
        "info",
        "A running service serves it within seconds: every process reads the database's version stamp every 2 s.",
    ) in imported
    [(level, key_line), (_, try_line), (_, docs_line)] = said(entries, "corridor.run")
    key = key_line.removeprefix("Development API key: ")
    assert level == "info" and len(key) == 32 and key != key_line
    assert try_line == f"Try: curl -H 'Authorization: Bearer {key}' http://127.0.0.1:{port}/api/corridors"
    assert docs_line == (
        f"Docs: http://127.0.0.1:{port}/api/docs  Your own keys: http://127.0.0.1:{port}/account/signup"
    )
    assert any(entry["logger"] == "gunicorn.error" for entry in entries)


def test_make_run_prints_the_key_it_made_as_text_by_default():
    result = subprocess.run(
        [".venv/bin/python", "-m", "corridor.serving.banner", "--port", "8123", "--made-key"],
        cwd=ROOT,
        env=gunicorn_env(API_KEYS="made-key-0123"),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "Development API key: made-key-0123",
        "Try: curl -H 'Authorization: Bearer made-key-0123' http://127.0.0.1:8123/api/corridors",
        "Docs: http://127.0.0.1:8123/api/docs  Your own keys: http://127.0.0.1:8123/account/signup",
    ]


def test_make_run_with_keys_of_ones_own_says_so_in_json(tmp_path):
    result = subprocess.run(
        [".venv/bin/python", "-m", "corridor.serving.banner", "--port", "8123"],
        cwd=ROOT,
        env=gunicorn_env(LOG_FORMAT="json", API_KEYS="mine"),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0 and result.stderr == ""
    assert said(objects(result.stdout), "corridor.run") == [
        ("info", "Using the keys in API_KEYS."),
        ("info", "Docs: http://127.0.0.1:8123/api/docs  Your own keys: http://127.0.0.1:8123/account/signup"),
    ]


@pytest.fixture
def database(tmp_path):
    return f"sqlite:///{tmp_path / 'commands.sqlite3'}"


@pytest.mark.parametrize(
    "args, code, stdout_lines, stderr_lines",
    [
        (["db", "upgrade"], 0, [], [("info", "Running upgrade  -> 0001_accounts, Accounts and their API keys.")]),
        (
            ["keys", "generate"],
            0,
            [("info", "key:"), ("info", "entry: sha256:")],
            [("info", "Give the key to the client; put the key or, better, the entry in API_KEYS on the server.")],
        ),
        (["prices", "import-rpw", "missing.csv"], 1, None, [("error", "missing.csv: ")]),
        (["data", "check", "missing.json"], 1, None, [("error", "missing.json: cannot read the data file")]),
    ],
)
def test_each_line_a_command_writes_is_a_json_object(database, args, code, stdout_lines, stderr_lines):
    result = flask_command(*args, LOG_FORMAT="json", DATABASE_URL=database)
    assert result.returncode == code, result.stdout + result.stderr
    for text, expected in ((result.stdout, stdout_lines), (result.stderr, stderr_lines)):
        if not expected:
            assert text == "" or objects(text)
            continue
        entries = objects(text)
        for level, start in expected:
            assert any(entry["level"] == level and entry["message"].startswith(start) for entry in entries), text


def test_the_import_summary_is_one_json_object_a_line(one_kind_url):
    result = flask_command("prices", "import-rpw", str(SHIPPED_RPW), LOG_FORMAT="json", DATABASE_URL=one_kind_url)
    assert result.returncode == 0, result.stderr
    assert said(objects(result.stdout), "corridor.cli")[:3] == [
        ("info", "rpw-east-africa-2025.csv (CSV): 162 rows read, 162 imported, 0 skipped; import 1."),
        ("info", "2025Q1: 82 rows, new"),
        ("info", "2025Q3: 80 rows, new"),
    ]


def test_a_library_s_warning_is_a_json_object_too(migrated_sqlite):
    script = "import warnings; from app import create_app; create_app(); warnings.warn('a library said so')"
    result = subprocess.run(
        [".venv/bin/python", "-c", script],
        cwd=ROOT,
        env=gunicorn_env(LOG_FORMAT="json"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    [warned] = [entry for entry in objects(result.stderr) if entry["logger"] == "py.warnings"]
    assert warned["level"] == "warning" and "UserWarning: a library said so" in warned["message"]
