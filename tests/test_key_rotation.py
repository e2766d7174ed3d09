"""API_KEYS_FILE beside API_KEYS: read at start-up, re-read on HUP, the last good keys kept."""

import hashlib
import signal
import subprocess
import sys
import time

import pytest
from conftest import RAW_KEY, logged, reread, running_gunicorn
from harness import ROOT, curl, gunicorn_env, requires, unused_port

from corridor.settings import ConfigError

WORKERS = 2

OLD_KEY = "rotation-old-key-0123456789"
NEW_KEY = "rotation-new-key-9876543210"


@pytest.fixture
def keys_app(make_app):
    """An app with the keys of `keys_file` and of `api_keys`."""
    return lambda keys_file, api_keys="": make_app(API_KEYS=api_keys, API_KEYS_FILE=str(keys_file))


def _status(client, key):
    return client.get("/api/corridors", headers={"Authorization": f"Bearer {key}"}).status_code


def test_keys_file_entries_are_live_with_comments_and_blank_lines_skipped(keys_app, tmp_path):
    keys_file = tmp_path / "keys"
    digest = hashlib.sha256(NEW_KEY.encode()).hexdigest()
    keys_file.write_text(f"# rotation of 2026-11\n\n  {OLD_KEY}  \nsha256:{digest}\n#{RAW_KEY}\n")
    client = keys_app(keys_file).test_client()
    assert (_status(client, OLD_KEY), _status(client, NEW_KEY), _status(client, RAW_KEY)) == (200, 200, 401)


def test_a_keys_file_saved_with_a_byte_order_mark_is_read(keys_app, tmp_path):
    keys_file = tmp_path / "keys"
    keys_file.write_text(OLD_KEY + "\n", encoding="utf-8-sig")  # as some Windows editors save it
    assert _status(keys_app(keys_file).test_client(), OLD_KEY) == 200


def test_keys_file_adds_to_api_keys(keys_app, tmp_path):
    keys_file = tmp_path / "keys"
    keys_file.write_text(NEW_KEY + "\n")
    client = keys_app(keys_file, api_keys=OLD_KEY).test_client()
    assert (_status(client, OLD_KEY), _status(client, NEW_KEY)) == (200, 200)


def test_a_keys_file_that_is_not_a_regular_file_or_too_large_is_refused(keys_app, tmp_path):
    with pytest.raises(ConfigError, match="cannot be read: not a regular file"):
        keys_app(tmp_path, api_keys=OLD_KEY)
    big = tmp_path / "big"
    big.write_text("# padding\n" * 200_000)
    with pytest.raises(ConfigError, match="cannot be read: over 1,048,576 bytes"):
        keys_app(big, api_keys=OLD_KEY)


@pytest.mark.parametrize(
    "content, reason",
    [
        (None, "cannot be read: No such file or directory."),
        ("# only a comment\n\n", "holds no key: give one entry per line."),
        (b"\xff\xfe\n", "cannot be read: not UTF-8 text."),
    ],
)
def test_unusable_keys_file_refuses_start_up_in_one_line(keys_app, tmp_path, content, reason):
    keys_file = tmp_path / "keys"
    if content is not None:
        keys_file.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(ConfigError) as caught:
        keys_app(keys_file, api_keys=OLD_KEY)
    assert caught.value.format_message() == f"API_KEYS_FILE {keys_file} {reason}"


def test_bad_entry_names_its_line_without_echoing_it(keys_app, tmp_path):
    keys_file = tmp_path / "keys"
    keys_file.write_text(f"{OLD_KEY}\n# comment\nhas space\n")
    with pytest.raises(ConfigError) as caught:
        keys_app(keys_file)
    message = caught.value.format_message()
    assert message.startswith(f"API_KEYS_FILE {keys_file} line 3 is not usable") and "has space" not in message


def test_short_raw_keys_are_warned_about_without_showing_them(keys_app, tmp_path, caplog):
    keys_file = tmp_path / "keys"
    keys_file.write_text(f"{OLD_KEY}\nshort-key\n")
    caplog.set_level("WARNING")
    keys_app(keys_file, api_keys="tiny,sha256:" + "ab" * 32)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert [w.split(" is a raw key")[0] for w in warnings] == ["API_KEYS entry 1", f"API_KEYS_FILE {keys_file} line 2"]
    assert all("shorter than 16 characters" in w and "tiny" not in w and "short-key" not in w for w in warnings)


def test_refresh_serves_the_new_file_and_keeps_the_last_good_keys(keys_app, tmp_path):
    keys_file = tmp_path / "keys"
    keys_file.write_text(OLD_KEY + "\n")
    app = keys_app(keys_file)
    client = app.test_client()
    keys_file.write_text(NEW_KEY + "\n")
    assert reread(app) == []
    assert (_status(client, OLD_KEY), _status(client, NEW_KEY)) == (401, 200)
    keys_file.write_text("# emptied by mistake\n")
    (error,) = reread(app)
    assert error.startswith("Keys refresh refused; the live keys stay.") and "holds no key" in error
    assert _status(client, NEW_KEY) == 200


def test_flask_run_refuses_an_unreadable_keys_file_without_a_traceback(tmp_path):
    env = gunicorn_env(API_KEYS_FILE=str(tmp_path / "missing"))
    result = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", "run", "--port", str(unused_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode != 0
    assert f"Error: API_KEYS_FILE {tmp_path / 'missing'} cannot be read" in result.stderr
    assert "Traceback" not in result.stderr


def _curl_status(base, key):
    return curl("-o", "/dev/null", "-w", "%{http_code}", "-H", f"Authorization: Bearer {key}", f"{base}/api/corridors")


@requires("curl")
def test_hup_rotates_keys_from_the_file_and_a_broken_file_keeps_them(tmp_path):
    keys_file = tmp_path / "keys"
    keys_file.write_text(OLD_KEY + "\n")
    log = tmp_path / "gunicorn.log"
    with running_gunicorn(log, API_KEYS_FILE=str(keys_file), WEB_CONCURRENCY=str(WORKERS)) as (base, process, _):
        assert (_curl_status(base, OLD_KEY), _curl_status(base, NEW_KEY)) == ("200", "401")
        keys_file.write_text(f"{NEW_KEY}\n")
        process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 60
        # until the old workers, which keep the old keys, have retired
        while (_curl_status(base, OLD_KEY), _curl_status(base, NEW_KEY)) != ("401", "200"):
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        keys_file.unlink()
        text = log.read_text()
        booted, retired = text.count("Booting worker with pid"), text.count("Worker exiting")
        process.send_signal(signal.SIGHUP)
        logged(log, "Keys refresh refused", seconds=60)
        # the HUP's new workers have taken over from the old ones
        logged(log, "Booting worker with pid", seconds=30, times=booted + WORKERS)
        logged(log, "Worker exiting", seconds=30, times=retired + WORKERS)
        assert _curl_status(base, NEW_KEY) == "200"
        assert process.poll() is None
    text = log.read_text()
    assert f"Keys refresh refused; the live keys stay. API_KEYS_FILE {keys_file} cannot be read: No such file" in text
    assert OLD_KEY not in text and NEW_KEY not in text
