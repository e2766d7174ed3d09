"""Real programs for tests: the tools they need (a test skips without one), curl, ports, environments."""

import os
import shutil
import subprocess
import sys
import urllib.request

import pytest
from expected import SEED

from bench.load import free_port as unused_port  # noqa: F401 (the tests' name for it)
from bench.load import parse_wrk

ROOT = SEED.parent
SECRET_KEY = "test-secret-key-for-sessions-0123456789"
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never through a proxy


def _missing(tools):
    """The ones of `tools` not on PATH. None in CI, which installs them all (.ci/run): there a missing one fails."""
    if os.environ.get("CI"):
        return []
    return [tool for tool in tools if shutil.which(tool) is None]


def _not_installed(missing):
    verb = "is" if len(missing) == 1 else "are"
    return f"{' and '.join(missing)} {verb} not installed (Debian: apt-get install {' '.join(missing)})"


def requires(*tools):
    """Mark a test that runs these programs (curl, wrk, chromium): where one is missing it skips, saying which."""
    missing = _missing(tools)
    return pytest.mark.skipif(bool(missing), reason=_not_installed(missing))


def skip_without(*tools):
    """The same at run time, for the helpers that run a program: a test not marked still skips rather than fails."""
    missing = _missing(tools)
    if missing:
        pytest.skip(_not_installed(missing))


_SERVICE_SETTINGS = {
    "API_KEYS",
    "API_KEYS_FILE",
    "HISTORY_DATA",
    "SEED_DATA",
    "PORT",
    "PROXY_HOPS",
    "WEB_CONCURRENCY",
    "LOG_LEVEL",
    "FLASK_DEBUG",
    "GUNICORN_CMD_ARGS",
    "DATA_MAX_MB",
    "CACHE_MB",
    "ECB_RATES_URL",
    "FRANKFURTER_URL",
    "RATES_REFRESH_MINUTES",
    "SECRET_KEY",
    "RATE_LIMITS",
    "RATE_LIMIT_API",
    "RATE_LIMIT_PUBLIC",
    "RATE_LIMIT_LOGIN",
    "RATE_LIMIT_STORAGE",
    "DRAIN_SECONDS",
    "KEY_TRUST_SECONDS",
    "LOG_FORMAT",
    "METRICS_TOKEN",
    "METRICS_PORT",
    "PROMETHEUS_MULTIPROC_DIR",
}


def gunicorn_env(**changes):
    """The test process's environment without the service's or gunicorn's settings, in UTC, feeds, rate limits and
    the drain on TERM off (tests stop servers often), plus `changes`."""
    env = {k: v for k, v in os.environ.items() if k not in _SERVICE_SETTINGS}
    env.update(
        {
            "TZ": "UTC",
            "ECB_RATES_URL": "off",
            "FRANKFURTER_URL": "off",
            "SECRET_KEY": SECRET_KEY,
            "RATE_LIMITS": "off",
            "DRAIN_SECONDS": "0",
            **changes,
        }
    )  # no test reaches the internet  # the access line's time is local; the tests read +0000
    return env


def flask_command(*args, timeout=60, **env):
    """`flask --app app …` in the checkout, with `env` over gunicorn_env's."""
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", *args],
        cwd=ROOT,
        env=gunicorn_env(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def migrate_database(url):
    """`flask db upgrade` on the database at `url`, as a release does."""
    result = flask_command("db", "upgrade", DATABASE_URL=url)
    assert result.returncode == 0, result.stderr


def paced_wrk(url, key, seconds, connections, pause_ms=50):
    """wrk for `seconds` (SIGINT stops it sooner), each of its `connections` pausing `pause_ms` between requests
    (tests/paced.lua): at most connections × 1000 / pause_ms requests a second, an answer's time aside. The tests check
    that loads are served, not how fast (`make bench` does), so they leave the other tests the machine's cores."""
    skip_without("wrk")
    return subprocess.Popen(
        [
            "wrk",
            "-t1",
            f"-c{connections}",
            f"-d{seconds}s",
            "--latency",
            "--timeout",
            "10s",
            "-s",
            str(ROOT / "tests/paced.lua"),
            "-H",
            f"Authorization: Bearer {key}",
            url,
            "--",
            str(pause_ms),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )


def paced_load(base, key, seconds, connections=8):
    """paced_wrk against a Group A and a Group B URL: the two processes."""
    return [
        paced_wrk(base + url, key, seconds, connections)
        for url in ("/api/providers?corridor=USD_MXN", "/api/poc/corridors")
    ]


def measured(load):
    """What a paced_wrk measured, once it has stopped: parse_wrk's figures (requests, errors, max in ms…)."""
    return parse_wrk(load.communicate(timeout=120)[0])


def curl(*args):
    """Run curl; fail the test on a transport error."""
    skip_without("curl")
    result = subprocess.run(["curl", "-sS", "--max-time", "5", *args], capture_output=True, text=True, timeout=10)
    assert result.returncode == 0, result.stderr
    return result.stdout
