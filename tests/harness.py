"""Real programs for tests: the tools they need (a test skips without one), gunicorn on loopback, curl."""

import http.client
import multiprocessing
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from expected import SEED

ROOT = SEED.parent
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never through a proxy


def _missing(tools):
    """The ones of `tools` not on PATH. None in CI, which installs them all (.ci/run): there a missing one fails."""
    if os.environ.get("CI"):
        return []
    return [tool for tool in tools if shutil.which(tool) is None]


def _not_installed(missing):
    return f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed (Debian: apt-get install {' '.join(missing)})"


def requires(*tools):
    """Mark a test that runs these programs (curl, wrk, chromium): where one is missing it skips, saying which."""
    missing = _missing(tools)
    return pytest.mark.skipif(bool(missing), reason=_not_installed(missing))


def skip_without(*tools):
    """The same at run time, for the helpers that run a program: a test not marked still skips rather than fails."""
    missing = _missing(tools)
    if missing:
        pytest.skip(_not_installed(missing))


def unused_port():
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


_SERVICE_SETTINGS = {"API_KEYS", "API_KEYS_FILE", "HISTORY_DATA", "SEED_DATA", "PORT", "PROXY_HOPS", "WEB_CONCURRENCY", "LOG_LEVEL", "FLASK_DEBUG",
                     "GUNICORN_CMD_ARGS", "DATA_MAX_MB", "CACHE_MB"}


def gunicorn_env(**changes):
    """The test process's environment without the service's or gunicorn's settings, in UTC, plus `changes`."""
    env = {k: v for k, v in os.environ.items() if k not in _SERVICE_SETTINGS}
    env.update(TZ="UTC", **changes)  # the access line's time is local; the tests read +0000
    return env


def procfile_command():
    """The Procfile's web command, run with this interpreter."""
    command = (ROOT / "Procfile").read_text().split("web:", 1)[1].split()
    assert command[0] == "gunicorn"
    return [sys.executable, "-m", *command]


def gunicorn(port, env, log):
    """The Procfile's gunicorn, bound to 127.0.0.1:`port` only, its output in the file `log`."""
    with open(log, "w") as output:  # a file, not a pipe: a full pipe would stall the server
        return subprocess.Popen(
            [*procfile_command(), "--bind", f"127.0.0.1:{port}"],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
        )


def curl(*args):
    """Run curl; fail the test on a transport error."""
    skip_without("curl")
    result = subprocess.run(["curl", "-sS", "--max-time", "5", *args], capture_output=True, text=True, timeout=10)
    assert result.returncode == 0, result.stderr
    return result.stdout


@contextmanager
def running_gunicorn(port, env, log):
    """The Procfile's gunicorn on 127.0.0.1:`port`, every worker up and answering; always stopped."""
    process = gunicorn(port, env, log)
    base = f"http://127.0.0.1:{port}"
    workers = int(env.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() + 1)
    try:
        deadline = time.monotonic() + 60
        # a SIGTERM that lands while a worker boots is only acted on after the graceful timeout
        while Path(log).read_text().count("Booting worker with pid") < workers or not _answers(base):
            assert process.poll() is None and time.monotonic() < deadline, Path(log).read_text()
            time.sleep(0.1)
        yield base, process
    finally:
        process.terminate()
        process.wait(timeout=30)


def _answers(base):
    """Whether the health check answers 200 (in Python, so that serving needs no curl)."""
    try:
        with DIRECT.open(f"{base}/api/poc/health", timeout=2) as response:
            return response.status == 200
    except (OSError, http.client.HTTPException):
        return False
