"""Shared fixtures: apps on the shipped data (or a test's own) with two live keys, and gunicorn on loopback."""

import compileall
import copy
import datetime as dt
import functools
import gc
import hashlib
import http.client
import json
import logging
import logging.config
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest.mock
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import pytest
import sqlalchemy as sa
from expected import SEED, shipped_seed
from feeds import FeedServer
from harness import DIRECT, ROOT, SECRET_KEY, gunicorn_env, migrate_database, unused_port
from holders import Holder
from werkzeug.security import generate_password_hash

from app import create_app
from corridor.accounts import models as accounts
from corridor.accounts.keys import AccountKeys
from corridor.data.database import db
from corridor.serving.refresher import Refresher
from corridor.settings import current_settings
from corridor.state import current_service

RAW_KEY = "test-key-raw-0123456789"
HASHED_KEY = "test-key-hashed-9876543210"
API_KEYS = f" {RAW_KEY} , ,sha256:{hashlib.sha256(HASHED_KEY.encode()).hexdigest()} "


# every Group B URL whose body is data (not health, not an error)
GROUP_B_DATA_URLS = [
    "/api/poc/corridors",
    "/api/poc/corridors?from=USD&to=MXN",
    "/api/poc/corridors/1",
    "/api/poc/providers",
    "/api/poc/providers?corridor=USD_MXN",
    "/api/poc/full",
    "/api/poc/guide",
    "/api/poc/currencies",
    "/api/poc/providers?corridor=USD_MXN&amount=1000&payout=cash_pickup&sort=speed",
]


def ok_json(client, url):
    """A Group B 200: its cacheable JSON headers checked, its `ok` envelope first; the body."""
    response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    assert response.headers["Cache-Control"] == "public, max-age=60"
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    body = response.get_json()
    assert body["ok"] is True and list(body)[0] == "ok"
    return body


# --- apps ------------------------------------------------------------------------------------------


@pytest.fixture(scope="session", autouse=True)
def migrated_sqlite(request, tmp_path_factory):
    """A migrated SQLite database of this test process's own, the DATABASE_URL of every app, command and gunicorn a
    test starts unless it gives its own; and a SECRET_KEY, so that none makes one in the checkout's instance folder."""
    path = tmp_path_factory.mktemp("database") / "shared.sqlite3"
    shutil.copyfile(templates(request.config)["sqlite"], path)
    url = f"sqlite:///{path}"
    os.environ.update(DATABASE_URL=url, SECRET_KEY=SECRET_KEY)
    yield path
    for name in ("DATABASE_URL", "SECRET_KEY"):
        os.environ.pop(name, None)


def build_app(**config):
    # feeds off unless a test serves its own on loopback: no test reaches the internet; rate limits off
    # unless a test counts them, as the suite sends hundreds of requests from one address
    return create_app(
        {
            "TESTING": True,
            "API_KEYS": API_KEYS,
            "SEED_DATA": str(SEED),
            "ECB_RATES_URL": "off",
            "FRANKFURTER_URL": "off",
            "SECRET_KEY": SECRET_KEY,
            "RATE_LIMITS": "off",
            **config,
        }
    )


@pytest.fixture(scope="session")
def app():
    """The app on the shipped data with two live keys; shared, since serving never changes it."""
    return build_app()


POSTGRES_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=test connect_timeout=3"


@pytest.fixture(scope="session")
def postgres_url(request):
    """A migrated PostgreSQL database of this test process's own on 127.0.0.1:5432 (a copy of the run's template),
    dropped at the end; skips where none runs, except in CI."""
    import psycopg

    try:
        admin = psycopg.connect(POSTGRES_ADMIN, autocommit=True)
    except psycopg.OperationalError as err:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no PostgreSQL answers on 127.0.0.1:5432 ({str(err).strip().splitlines()[0]})")
    name = f"corridor_test_{os.getpid()}"
    template = templates(request.config)["postgresql"]
    with admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        url = f"postgresql://postgres@127.0.0.1:5432/{name}"
        try:
            if template is None:  # none answered when the run began
                migrate_database(url)
            yield url
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def redis_test_db():
    """This test process's own database of the machine's Redis (1 to 13 by xdist's worker number; bench/ uses 14): each
    test empties it, and a test emptying one another process counts in reset that one's budgets halfway."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    return f"redis://127.0.0.1:6379/{1 + worker % 13}"


@pytest.fixture
def redis_url():
    """An empty Redis database on 127.0.0.1:6379; skips where none runs, except in CI."""
    import redis

    url = redis_test_db()
    client = redis.Redis.from_url(url, socket_timeout=3, socket_connect_timeout=3)
    try:
        client.flushdb()
    except redis.RedisError as err:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no Redis answers on 127.0.0.1:6379 ({err})")
    try:
        yield url
    finally:
        client.flushdb()
        client.close()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def accounts_app(request, migrated_sqlite, tmp_path_factory):
    """An app on a migrated database of each kind in turn (a copy of the SQLite one, or this run's PostgreSQL), the
    operator's two keys live; one per module and kind, emptied before each test by `database_url`."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("accounts") / "accounts.sqlite3"
        shutil.copyfile(migrated_sqlite, path)
        url = f"sqlite:///{path}"
    else:
        url = request.getfixturevalue("postgres_url")
    return build_app(DATABASE_URL=url)


@pytest.fixture
def database_url(accounts_app):
    """`accounts_app`'s database with no account in it, and the app's memory of keys emptied too."""
    with accounts_app.app_context():
        if db.engine.dialect.name == "postgresql":
            db.session.execute(sa.text("TRUNCATE api_keys, accounts RESTART IDENTITY CASCADE"))
        else:
            db.session.execute(sa.text("DELETE FROM api_keys"))
            db.session.execute(sa.text("DELETE FROM accounts"))
        db.session.commit()
    current_service(accounts_app).account_keys = AccountKeys(current_settings(accounts_app).key_trust_seconds)
    return accounts_app.config["DATABASE_URL"]


QUICK_SCRYPT = "scrypt:1024:8:1"
QUICK_STAND_IN = generate_password_hash("a text nobody kept", method=QUICK_SCRYPT)


@pytest.fixture
def quick_hashes(monkeypatch):
    """Passwords hashed with scrypt at 1/32 of the shipped cost, and an unknown email checked against a stand-in of
    that cost (as long as a wrong password takes), for the tests about everything else: test_accounts' tests of the
    memory-hard hash and of the stand-in "as costly as a real one" check the shipped cost; gunicorn's tests use it."""
    monkeypatch.setattr(
        accounts, "generate_password_hash", functools.partial(generate_password_hash, method=QUICK_SCRYPT)
    )
    monkeypatch.setattr(accounts, "_STAND_IN_HASH", QUICK_STAND_IN)


@pytest.fixture
def holder(accounts_app, database_url):
    """A person in a browser on `accounts_app`, whose database has no account yet."""
    return Holder(accounts_app.test_client())


@pytest.fixture
def make_app(write_seed):
    """An app of the test's own: `data` (a dict or text) served instead of the shipped file, `config` over the
    defaults."""

    def make(data=None, **config):
        if data is not None:
            config["SEED_DATA"] = write_seed(data)
        return build_app(**config)

    return make


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def auth():
    """Headers with a live key."""
    return {"Authorization": f"Bearer {RAW_KEY}"}


@pytest.fixture(scope="session")
def raw_seed():
    """The shipped data file as plain JSON, for re-deriving expected figures."""
    return shipped_seed()


@pytest.fixture
def seed_copy(raw_seed):
    """A deep copy of the shipped data to break one rule at a time."""
    return copy.deepcopy(raw_seed)


@pytest.fixture
def write_seed(tmp_path):
    """Write data (a dict, or raw text) to a file and return its path."""

    def write(data, name="seed.json"):
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        return str(path)

    return write


# --- gunicorn --------------------------------------------------------------------------------------


class Server(NamedTuple):
    """A gunicorn on loopback: its base URL, process and log file."""

    base: str
    process: subprocess.Popen
    log: Path


def start_gunicorn(log, command=None, cwd=ROOT, **env):
    """gunicorn on a free 127.0.0.1 port, its output in `log`: `command` (default the Procfile's) run in `cwd`, with
    `env` over the test's environment."""
    command = command or (ROOT / "Procfile").read_text().split("web:", 1)[1].split()
    port = unused_port()
    with open(log, "w") as output:  # a file, not a pipe: a full pipe would stall the server
        # a second at most for the workers to finish at a stop, not the shipped 20: tests stop servers often
        process = subprocess.Popen(
            [sys.executable, "-m", *command, "--bind", f"127.0.0.1:{port}", "--graceful-timeout", "1"],
            cwd=cwd,
            env=gunicorn_env(**env),
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    return Server(f"http://127.0.0.1:{port}", process, Path(log))


def stop(process):
    """Stop gunicorn at once (SIGQUIT, its quick shutdown), and wait for it."""
    if process.poll() is None:
        process.send_signal(signal.SIGQUIT)
    process.wait(timeout=30)


@contextmanager
def running_gunicorn(log, command=None, cwd=ROOT, **env):
    """`start_gunicorn`, every worker up and answering; always stopped."""
    server = start_gunicorn(log, command, cwd, **env)
    workers = int(env.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() + 1)
    try:
        deadline = time.monotonic() + 60
        while server.log.read_text().count("Booting worker with pid") < workers or not _answers(server.base):
            assert server.process.poll() is None and time.monotonic() < deadline, server.log.read_text()
            time.sleep(0.05)
        yield server
    finally:
        stop(server.process)


def _answers(base):
    """Whether the health check answers 200 (in Python, so that serving needs no curl)."""
    try:
        with DIRECT.open(f"{base}/api/poc/health", timeout=2) as response:
            return response.status == 200
    except (OSError, http.client.HTTPException):
        return False


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """gunicorn serving the shipped data with RAW_KEY live, two workers, shared by every module of a test process: none
    may stop it, and a test reads its log from where it was before its requests, or by a request's own id."""
    log = tmp_path_factory.mktemp("server") / "gunicorn.log"
    with running_gunicorn(log, API_KEYS=RAW_KEY, WEB_CONCURRENCY="2") as running:
        yield running


@pytest.fixture(scope="session")
def surveyed_server(tmp_path_factory, surveyed_database):
    """gunicorn as `make run` serves: the shipped data and survey rows, RAW_KEY live, two workers; shared by the
    browser tests of a test process, which only read. Its base URL."""
    log = tmp_path_factory.mktemp("surveyed-server") / "gunicorn.log"
    with running_gunicorn(log, API_KEYS=RAW_KEY, WEB_CONCURRENCY="2", DATABASE_URL=surveyed_database) as running:
        yield running.base


@pytest.fixture(scope="session")
def browser():
    """Headless chromium, shared by the browser tests of a test process; always quit."""
    from scripts.page_screenshots import SIZES, chrome

    with chrome(*SIZES[0]) as driver:
        yield driver


@pytest.fixture
def driver(browser):
    """The shared browser at the desktop size, without the cookies of earlier tests and its console drained of their
    messages."""
    from scripts.page_screenshots import SIZES

    browser.execute_cdp_cmd("Network.clearBrowserCookies", {})
    browser.set_window_size(*SIZES[0])
    browser.get_log("browser")
    return browser


def logged(log, text, since=0, seconds=5, times=1):
    """What `log` holds after its first `since` characters, once `text` is among it `times` times: gunicorn writes a
    request's access line just after it answers."""
    deadline = time.monotonic() + seconds
    while (written := log.read_text()[since:]).count(text) < times:
        assert time.monotonic() < deadline, f"{text!r} not logged {times} time(s):\n{written[-3000:]}"
        time.sleep(0.02)
    return written


@pytest.fixture
def feeds():
    """The ECB and Frankfurter on loopback, answering normally until the test sets `replies`; the shared database
    holding no rates fetched and no ask for a fetch."""
    forget_rates(os.environ["DATABASE_URL"])
    with FeedServer() as server:
        yield server


def forget_rates(url):
    """The database at `url` as if no feed was ever asked."""
    from corridor.data.database import engine_url

    engine = sa.create_engine(engine_url(url))
    try:
        with engine.begin() as connection:
            connection.execute(sa.text("DELETE FROM feed_states"))
            connection.execute(
                sa.text("UPDATE data_stamp SET fetch_started_at = NULL, asked_at = NULL, burst_at = NULL")
            )
    finally:
        engine.dispose()


@pytest.fixture
def live_app(make_app, feeds):
    """An app on the shipped data whose feeds are the loopback ones; `refresh(app)` asks them."""
    return make_app(ECB_RATES_URL=feeds.ecb_url, FRANKFURTER_URL=feeds.frankfurter_url)


def reread(app):
    """What an operator's HUP does, in process: the keys and data files read anew and served; the errors logged."""
    errors = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = lambda record: errors.append(record.getMessage())
    app.logger.addHandler(handler)
    try:
        refresher = Refresher(app)
        refresher.reread()
        refresher.serve()
    finally:
        app.logger.removeHandler(handler)
    return errors


FEEDS_NOW = dt.datetime(2026, 11, 25, 12, tzinfo=dt.UTC)  # the day tests/feeds.py's stand-ins answer for


def refresh(app):
    """One fetch of the app's feeds, stored and served at once (what a worker's refresher takes up within seconds)."""
    refresher = Refresher(app)
    refresher.fetch(FEEDS_NOW)
    refresher.serve()


# --- the survey --------------------------------------------------------------------------------------

# every table an import fills: the survey's, the published averages' and the flows'
SURVEY_TABLES = (
    "survey_observations",
    "survey_periods",
    "survey_corridors",
    "survey_imports",
    "published_costs",
    "published_imports",
    "remittance_flows",
    "flow_imports",
)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def survey_database(request, migrated_sqlite, tmp_path_factory):
    """A migrated database of each kind in turn for a module's survey tests (a copy of the SQLite one, or this run's
    PostgreSQL, whose survey tables are emptied after the module)."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("survey") / "survey.sqlite3"
        shutil.copyfile(migrated_sqlite, path)
        yield f"sqlite:///{path}"
        return
    url = request.getfixturevalue("postgres_url")
    yield url
    empty_survey(url)


def empty_survey(url):
    """Delete every imported row; ids go on from where they were, as in production."""
    from corridor.data.database import engine_url

    engine = sa.create_engine(engine_url(url))
    try:
        with engine.begin() as connection:
            for table in SURVEY_TABLES:
                connection.execute(sa.text(f"DELETE FROM {table}"))
    finally:
        engine.dispose()


@pytest.fixture
def survey_url(survey_database):
    """`survey_database` with nothing imported."""
    empty_survey(survey_database)
    return survey_database


@pytest.fixture
def one_kind_url(migrated_sqlite, tmp_path):
    """A migrated SQLite database of the test's own, for what happens before an import reaches the database (a file
    refused unread, a row skipped, the command's exit code, its progress bar): the same on every kind, so checked on
    one."""
    path = tmp_path / "survey.sqlite3"
    shutil.copyfile(migrated_sqlite, path)
    return f"sqlite:///{path}"


@pytest.fixture
def own_rows(survey_url, tmp_path):
    """Import `rows` (rpw_row dicts) into an empty survey database; the app serving them."""

    from survey_rows import write_csv

    def serve(*rows):
        code, output = import_rpw(survey_url, write_csv(tmp_path / "rows.csv", rows))
        assert code == 0, output
        return build_app(DATABASE_URL=survey_url).test_client()

    return serve


@pytest.fixture(scope="session")
def surveyed_database(migrated_sqlite, tmp_path_factory):
    """The URL of a SQLite database of its own with the shipped survey rows imported; shared, as serving never
    changes it."""
    from survey_rows import SHIPPED_RPW

    path = tmp_path_factory.mktemp("surveyed") / "surveyed.sqlite3"
    shutil.copyfile(migrated_sqlite, path)
    code, output = import_rpw(f"sqlite:///{path}", SHIPPED_RPW)
    assert code == 0, output
    return f"sqlite:///{path}"


@pytest.fixture(scope="session")
def surveyed_app(surveyed_database):
    """An app on the shipped data and the shipped survey rows."""
    return build_app(DATABASE_URL=surveyed_database)


@pytest.fixture(scope="session")
def shipped_app(migrated_sqlite, tmp_path_factory):
    """An app on everything `make run` imports: both survey files, the published averages and the money flows."""
    from survey_rows import SHIPPED_FILES

    path = tmp_path_factory.mktemp("shipped") / "shipped.sqlite3"
    shutil.copyfile(migrated_sqlite, path)
    url = f"sqlite:///{path}"
    for command, file in SHIPPED_FILES:
        code, output = run_command(url, *command, file)
        assert code == 0, output
    return build_app(DATABASE_URL=url)


def run_command(url, *args):
    """`flask --app app ARGS…` on the database at `url`, in this process: (exit code, output)."""
    result = command_app(url).test_cli_runner().invoke(args=[str(arg) for arg in args])
    return result.exit_code, result.output


@functools.lru_cache(maxsize=1)
def command_app(url):
    """The app `run_command` runs a command in, kept for the next on the same database: an import reads only its file,
    the settings and the database, and making the app took most of its CPU."""
    return build_app(DATABASE_URL=url)


def run_migration(url, *args, **config):
    """`flask --app app db ARGS…` on the database at `url` (`config` over build_app's), in this process: (exit code,
    output). Alembic's env.py would hand the process's logging to alembic.ini's handler, taking it from pytest's
    capture: it is kept as it is. A real `flask db upgrade` runs in the tests of `make run`, gunicorn and the
    package."""
    app = build_app(DATABASE_URL=url, **config)
    app.extensions["migrate"].migrate.configure(_printing_to_the_runner)
    with unittest.mock.patch.object(logging.config, "fileConfig"):
        result = app.test_cli_runner().invoke(args=["db", *args])
    with app.app_context():
        db.engine.dispose()  # as the process would end: PostgreSQL copies no database while a session is on it
    return result.exit_code, result.output


def _printing_to_the_runner(config):
    config.stdout = sys.stdout  # Alembic's default is the sys.stdout of when it was imported, not the runner's
    return config


def import_rpw(url, path):
    """`flask --app app prices import-rpw PATH` on the database at `url`, in this process: (exit code, output)."""
    return run_command(url, "prices", "import-rpw", path)


# --- the order of the modules ------------------------------------------------------------------------

# `make test` hands each module to one of its processes (--dist loadscope), in the order of the collection: these go
# first, slowest first (their seconds, summed from `pytest --durations=0`, in this order), so that the many quick
# modules fill in behind them rather than the slow ones starting last and leaving the other processes idle at the
# end. pytest-xdist's own order (the modules with the most tests first) put every module that starts gunicorn or a
# browser at the end: 5 minutes of a 12-minute run, on a loaded machine, at 97 %.
SLOWEST_FIRST = [
    "test_live_rates_gunicorn.py",
    "test_docs_browser.py",
    "test_refresh.py",
    "test_hup_burst.py",
    "test_rate_limits_gunicorn.py",
    "test_survey_gunicorn.py",
    "test_operations_gunicorn.py",
    "test_json_lines.py",
    "test_page_browser.py",
    "test_accounts_gunicorn.py",
    "test_shared_rates.py",
    "test_caching.py",
    "test_live_rates.py",
    "test_accounts.py",
    "test_gunicorn.py",
    "test_survey_files.py",
    "test_packaging.py",
    "test_published_costs.py",
    "test_scale.py",
    "test_published_and_flows_import.py",
    "test_survey_bounds.py",
    "test_rate_limits.py",
    "test_account_browser.py",
    "test_keepalive.py",
    "test_survey.py",
    "test_generated_client.py",
    "test_account_keys.py",
    "test_interrupt.py",
    "test_whole_lists_built_before_serving.py",
    "test_key_rotation.py",
    "test_fuzz.py",
    "test_auth.py",
]


def pytest_configure(config):
    # xdist's --loadscope-reorder (its default) would sort the modules by their number of tests instead
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False
    if not hasattr(config, "workerinput"):  # the process that starts xdist's, or the only one
        compile_checkout()
        config.stash[TEMPLATES] = make_templates(Path(tempfile.mkdtemp(prefix="corridor-tests-")))


def pytest_unconfigure(config):
    made = config.stash.get(TEMPLATES, None)
    if made is None:
        return
    shutil.rmtree(Path(made["sqlite"]).parent, ignore_errors=True)
    if made["postgresql"] is not None:
        import psycopg

        with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{made["postgresql"]}" WITH (FORCE)')


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's: what a worker it starts is given
def pytest_configure_node(node):
    node.workerinput["templates"] = node.config.stash[TEMPLATES]


TEMPLATES = pytest.StashKey[dict]()


def templates(config):
    """The migrated databases of the run, made once, which each test process copies: SQLite's file, and PostgreSQL's
    database (None if none answered)."""
    return config.workerinput["templates"] if hasattr(config, "workerinput") else config.stash[TEMPLATES]


def make_templates(folder):
    """`flask db upgrade` into a new SQLite file in `folder` and a new PostgreSQL database if one answers, in this
    process (a `python -m flask` each took 1.7 CPU-seconds, most of it importing the app): `templates`."""
    upgrade(f"sqlite:///{folder / 'migrated.sqlite3'}")
    return {"sqlite": str(folder / "migrated.sqlite3"), "postgresql": postgres_template()}


def upgrade(url):
    # the app's warning that the new database has no tables yet is no news before the run's first test
    code, output = run_migration(url, "upgrade", LOG_LEVEL="ERROR")
    assert code == 0, output


def postgres_template():
    """The name of a new migrated PostgreSQL database, or None where none answers."""
    import psycopg

    name = f"corridor_template_{os.getpid()}"
    try:
        with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError:
        return None
    upgrade(f"postgresql://postgres@127.0.0.1:5432/{name}")
    return name


def compile_checkout():
    """Write the bytecode of the checkout's Python files, once for the run: every process the tests start (gunicorn,
    `flask`, `make run`) would otherwise compile the package anew where PYTHONDONTWRITEBYTECODE is set (the venv's is
    compiled when it is installed: the Makefile)."""
    for folder in ("corridor", "schemas", "bench", "scripts"):
        compileall.compile_dir(ROOT / folder, quiet=1)
    compileall.compile_dir(ROOT / "tests", maxlevels=0, rx=re.compile(r"/(conftest|test_[^/]*)\.py$"), quiet=1)
    for name in ("app.py", "wsgi.py", "gunicorn.conf.py"):
        compileall.compile_file(ROOT / name, quiet=1)


def pytest_collection_finish(session):
    # a test process holds some 130,000 objects once it has imported the app, and each app a test builds adds more,
    # many in cycles: at Python's default thresholds, full collections walked all of them again and again. What is
    # alive now lives to the end, so it is left out of them, and the rest is collected less often: 2.4 CPU-seconds of
    # collection rather than 5.6 in a 50-CPU-second sample of nine in-process modules
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


@pytest.hookimpl(trylast=True)  # after pytest's own order of a module's tests by their parametrized fixtures
def pytest_collection_modifyitems(items):
    rank = {name: n for n, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: a module's tests keep their order
