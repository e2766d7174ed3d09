"""Ctrl-C on `make run`: the terminal sends SIGINT to every process of its group, and gunicorn stops quietly."""

import http.client
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from harness import DIRECT, ROOT, gunicorn_env, unused_port


def make_run_command(port):
    """The command `make run` ends with (`exec $(BIN)/gunicorn …`), for this interpreter and `port`."""
    line = next(line for line in (ROOT / "Makefile").read_text().splitlines() if "exec $(BIN)/gunicorn" in line)
    arguments = line.split("exec $(BIN)/gunicorn", 1)[1].split()
    return [sys.executable, "-m", "gunicorn", *(a.replace("$(PORT)", str(port)) for a in arguments)]


def answering(base, process, seconds=60):
    deadline = time.monotonic() + seconds
    while True:
        try:
            with DIRECT.open(f"{base}/api/poc/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        assert process.poll() is None and time.monotonic() < deadline, "gunicorn did not start"
        time.sleep(0.1)


def group_is_gone(group, seconds=15):
    """Whether every process of the group has ended within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


# the traceback came from a race in each worker (its own INT against the master's QUIT), so the stop is tried a few
# times, with browsers' keep-alive connections open as after a look at the docs
@pytest.mark.parametrize("attempt", range(3))
def test_ctrl_c_on_make_run_stops_every_process_quietly(tmp_path, attempt):
    port = unused_port()
    base = f"http://127.0.0.1:{port}"
    with open(tmp_path / "stdout", "w") as stdout, open(tmp_path / "stderr", "w") as stderr:
        # a session of its own: the group a terminal's Ctrl-C reaches, gunicorn and its workers
        process = subprocess.Popen(
            make_run_command(port),
            cwd=ROOT,
            stdout=stdout,
            stderr=stderr,
            env=gunicorn_env(API_KEYS="ctrl-c-key-0123456789", WEB_CONCURRENCY="2"),
            start_new_session=True,
        )
    connections = []
    try:
        answering(base, process)
        for _ in range(6):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/api/docs")
            connection.getresponse().read()
            connections.append(connection)
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=30)
        assert group_is_gone(process.pid), "a process of gunicorn's group outlived the Ctrl-C"
    finally:
        for connection in connections:
            connection.close()
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    errors = (tmp_path / "stderr").read_text()
    assert process.returncode == 0, errors[-3000:]
    assert "Traceback" not in errors and "SystemExit" not in errors, errors[-3000:]
    assert re.search(r"\[INFO\] Handling signal: int\n", errors)
    assert errors.rstrip().endswith("[INFO] Shutting down: Master"), errors[-3000:]
