"""Live rates under real servers: one fetch in all, swaps that lose nothing, refreshes that never queue, and no process
but gunicorn's master and workers."""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest
import sqlalchemy as sa
from conftest import RAW_KEY, _answers, forget_rates, running_gunicorn
from feeds import ECB_DAY, ECB_RATES, FeedServer, Reply
from harness import DIRECT, ROOT, gunicorn_env, measured, paced_load, requires, unused_port

from bench.load import children_of, workers_of
from corridor.data.database import engine_url
from corridor.rates.store import fetch_lock, read_stamp
from corridor.serving.hooks import burst_quiet_s
from corridor.serving.refresher import POLL_S

WORKERS = 3
BURST_QUIET_S = burst_quiet_s(SimpleNamespace(graceful_timeout=1))  # the tests' gunicorn: --graceful-timeout 1


def get_json(base, path, key=None):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    request = urllib.request.Request(base + path, headers=headers)
    with DIRECT.open(request, timeout=5) as response:
        return json.load(response)


def wait_for(condition, seconds, log):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.05)


def feed_status(base):
    return [f["status"] for f in get_json(base, "/api/poc/health")["rates"]]


def serving_fetched_rates(base):
    """Whether the workers answering serve the fetched ECB day: each takes up a fetch within a poll of the database."""
    return all(get_json(base, "/api/poc/health")["historyEnd"] == ECB_DAY.isoformat() for _ in range(30))


def gone(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z")  # a zombie has stopped
    except FileNotFoundError:
        return True


@contextmanager
def serving_live(log, feeds, database_url=None, workers=WORKERS):
    """gunicorn with `workers` workers fed by the loopback `feeds`, refreshed only at start and on HUP, on the
    database at `database_url` (default the test process's); once every worker serves what the start's fetch
    brought."""
    with running_gunicorn(
        log,
        API_KEYS=RAW_KEY,
        DATABASE_URL=database_url or os.environ["DATABASE_URL"],
        WEB_CONCURRENCY=str(workers),
        RATES_REFRESH_MINUTES="0",
        ECB_RATES_URL=feeds.ecb_url,
        FRANKFURTER_URL=feeds.frankfurter_url,
    ) as server:
        wait_for(
            lambda: feed_status(server.base) == ["ok", "ok"] and serving_fetched_rates(server.base), 20, server.log
        )
        time.sleep(POLL_S + 1)  # every worker has read the stamp since, and built its version
        yield server


def asked(feeds):
    """How many times each feed has been asked so far: (ECB, Frankfurter)."""
    return feeds.count("/ecb.xml"), feeds.count("/v2/rates")


def settled(url):
    """Whether nothing an earlier test did is still under way at the database at `url`: no fetch (its lock is free),
    none asked for and not yet started, and the last ask older than a burst's quiet time, so that the next HUP starts a
    burst of its own."""
    engine = sa.create_engine(engine_url(url))
    try:
        with fetch_lock(engine) as free:
            if not free:
                return False
        with engine.connect() as connection:
            last = read_stamp(connection)
    finally:
        engine.dispose()
    return last.asked is None or (
        last.started is not None and last.asked <= last.started and time.time() - last.asked > BURST_QUIET_S
    )


@pytest.fixture(scope="module")
def live_feeds():
    """The loopback feeds of the module's shared server: answering normally unless a test sets `replies`."""
    with FeedServer() as feeds:
        yield feeds


@pytest.fixture(scope="module")
def live_database(migrated_sqlite, tmp_path_factory):
    """A migrated SQLite database of the shared server's own: the other tests' servers and feeds never touch it."""
    path = tmp_path_factory.mktemp("live") / "live.sqlite3"
    shutil.copyfile(migrated_sqlite, path)
    return f"sqlite:///{path}"


@pytest.fixture(scope="module")
def shared_live(tmp_path_factory, live_feeds, live_database):
    """`serving_live` on `live_database`, no rates fetched when it starts, shared by the module's tests that leave it
    serving; started anew if a test has stopped it. A function giving the server and how many times each feed was
    asked by the time it served."""
    with ExitStack() as stack:
        started = []

        def current():
            if not started or started[-1][0].process.poll() is not None:
                forget_rates(live_database)
                before = asked(live_feeds)
                log = tmp_path_factory.mktemp("live") / "gunicorn.log"
                server = stack.enter_context(serving_live(log, live_feeds, live_database))
                started.append((server, tuple(n - m for n, m in zip(asked(live_feeds), before, strict=True))))
            return started[-1]

        yield current


@pytest.fixture
def live_server(shared_live, live_feeds, live_database):
    """The module's shared server, once what the test before did has settled; the feeds answer normally again after."""
    server, _ = shared_live()
    wait_for(lambda: settled(live_database), 30, server.log)
    try:
        yield server
    finally:
        live_feeds.replies.clear()
        live_feeds.ecb_rates = dict(ECB_RATES)


def test_each_feed_is_asked_once_per_refresh_whatever_the_workers(shared_live, live_server, live_feeds):
    assert shared_live()[1] == (1, 1)  # at start
    # every worker serves the fetched rates
    dates = {get_json(live_server.base, "/api/midrate?from=GBP&to=INR", RAW_KEY)["updated"] for _ in range(30)}
    assert dates == {"Nov 24, 2026"}
    ecb, frankfurter = asked(live_feeds)
    live_server.process.send_signal(signal.SIGHUP)
    wait_for(lambda: live_feeds.count("/ecb.xml") == ecb + 1, 10, live_server.log)
    time.sleep(1)
    assert asked(live_feeds) == (ecb + 1, frankfurter + 1)


def test_serving_starts_on_the_data_file_while_a_feed_is_slow(tmp_path, feeds):
    # the feed answers only once the service has been seen ready without it: within the service's 10-s deadline
    # however long the start takes under load, where a fixed delay left 2 s for the answer to arrive
    answer = feeds.replies["/ecb.xml"] = Reply(held=threading.Event())
    with running_gunicorn(
        tmp_path / "gunicorn.log",
        API_KEYS=RAW_KEY,
        WEB_CONCURRENCY="2",
        ECB_RATES_URL=feeds.ecb_url,
        FRANKFURTER_URL="off",
    ) as server:
        health = get_json(server.base, "/api/poc/health")["rates"][0]  # readiness did not wait for the feed
        assert (health["status"], health["error"]) == ("failing", "not fetched yet")
        assert get_json(server.base, "/api/midrate?from=GBP&to=INR", RAW_KEY)["updated"] == "Oct 30, 2026"
        answer.held.set()

        def served_by_every_worker() -> bool:  # each takes the fetch up within a poll; under load one may be late
            dates = {get_json(server.base, "/api/midrate?from=GBP&to=INR", RAW_KEY)["updated"] for _ in range(20)}
            assert dates <= {"Oct 30, 2026", "Nov 24, 2026"}
            return dates == {"Nov 24, 2026"}

        wait_for(served_by_every_worker, 20, server.log)


def test_a_refused_feed_is_logged_in_one_line_and_the_service_serves_on(tmp_path):
    port = unused_port()
    with running_gunicorn(
        tmp_path / "gunicorn.log",
        API_KEYS=RAW_KEY,
        WEB_CONCURRENCY="1",
        ECB_RATES_URL=f"http://127.0.0.1:{port}/ecb.xml?key=hidden",
        FRANKFURTER_URL="off",
    ) as server:
        wait_for(lambda: "Rates feed ECB" in server.log.read_text(), 10, server.log)
        lines = [line for line in server.log.read_text().splitlines() if "Rates feed" in line]
        assert len(lines) == 1 and lines[0].endswith(
            f"Rates feed ECB (http://127.0.0.1:{port}/ecb.xml) refused: cannot connect: connection refused; "
            "keeping the rates of 2026-10-30."
        )
        assert "hidden" not in server.log.read_text()  # a query could hold a credential
        assert get_json(server.base, "/api/poc/health")["rates"][0]["error"] == "cannot connect: connection refused"


@requires("wrk")
def test_rates_swapped_under_load_lose_no_request_and_keep_none_waiting(live_server, live_feeds):
    feeds = live_feeds
    load = paced_load(live_server.base, RAW_KEY, seconds=300)
    try:
        time.sleep(1)
        for usd in (1.10, 1.12, 1.14):
            feeds.ecb_rates = {**feeds.ecb_rates, "USD": usd}
            live_server.process.send_signal(signal.SIGHUP)

            def served(expected: float = round(1 / usd, 6)) -> bool:
                return get_json(live_server.base, "/api/midrate?from=USD&to=EUR", RAW_KEY)["ref_rate_b"] == expected

            wait_for(served, 30, live_server.log)
        time.sleep(1)
    finally:
        for wrk in load:  # stopped whatever happens: the server serves the module's next tests
            wrk.send_signal(signal.SIGINT)
    for figures in map(measured, load):
        assert figures["requests"] > 300 and figures["errors"] == 0 and figures["max"] < 1000, figures


def test_hups_during_a_refresh_merge_into_one_next_refresh(live_server, live_feeds):
    feeds = live_feeds
    # each HUP is gunicorn's reload (new workers, the files read anew), which takes the master a moment: the feed is
    # slow enough for all five to come while the first HUP's refresh waits on it
    feeds.replies["/ecb.xml"] = Reply(delay=4)
    before = feeds.count("/ecb.xml")
    for _ in range(5):
        live_server.process.send_signal(signal.SIGHUP)
        time.sleep(0.1)
    wait_for(lambda: feeds.count("/ecb.xml") == before + 2, 20, live_server.log)  # the first HUP's, one for the rest
    time.sleep(4)
    assert feeds.count("/ecb.xml") == before + 2


def test_a_worker_killed_during_a_refresh_is_replaced_at_once(live_server, live_feeds):
    feeds = live_feeds

    def workers():
        return set(workers_of(live_server.process.pid))

    feeds.replies["/ecb.xml"] = Reply(delay=5)
    before_hup = workers()
    before = feeds.count("/ecb.xml")
    live_server.process.send_signal(signal.SIGHUP)
    wait_for(lambda: feeds.count("/ecb.xml") == before + 1, 5, live_server.log)
    # the HUP's own new workers have taken over from the old ones (all gone) while the refresh waits on the feed
    wait_for(lambda: len(workers()) == WORKERS and not workers() & before_hup, 3, live_server.log)
    serving = workers()
    victim = min(serving)
    killed = time.monotonic()
    os.kill(victim, signal.SIGKILL)
    wait_for(lambda: len(workers() - serving) == 1, 5, live_server.log)
    assert time.monotonic() - killed < 1.5
    wait_for(lambda: len(workers()) == WORKERS and victim not in workers(), 1, live_server.log)


def test_flask_run_fetches_the_feeds_in_a_thread_of_its_own(tmp_path, feeds):
    port = unused_port()
    env = gunicorn_env(API_KEYS=RAW_KEY, ECB_RATES_URL=feeds.ecb_url, FRANKFURTER_URL=feeds.frankfurter_url)
    with open(tmp_path / "flask.log", "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "app", "run", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _answers(base) and serving_fetched_rates(base), 20, tmp_path / "flask.log")
        assert get_json(base, "/api/midrate?from=USD&to=PKR", RAW_KEY)["ref_rate_b"] == 283.4
        assert feeds.count("/ecb.xml") == 1
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_an_instance_is_its_master_and_workers_alone(live_server, live_feeds):
    before = live_feeds.count("/ecb.xml")
    live_server.process.send_signal(signal.SIGHUP)
    wait_for(lambda: live_feeds.count("/ecb.xml") == before + 1, 10, live_server.log)
    master = live_server.process.pid
    wait_for(lambda: len(workers_of(master)) == WORKERS, 10, live_server.log)  # the old workers are gone
    for pid in children_of(master):
        assert Path(f"/proc/{pid}/cmdline").read_text().split("\0")[:2] == [sys.executable, "-m"]
        assert children_of(pid) == []  # a worker starts no process: its refresher is a greenlet


def test_term_during_a_refresh_stops_the_service_within_the_graceful_timeout(live_server, live_feeds):
    # the module's last use of the shared server, which it stops
    feeds = live_feeds
    feeds.replies["/ecb.xml"] = Reply(delay=8)
    before = feeds.count("/ecb.xml")
    live_server.process.send_signal(signal.SIGHUP)
    wait_for(lambda: feeds.count("/ecb.xml") == before + 1, 5, live_server.log)  # a worker waits on the slow feed
    processes = children_of(live_server.process.pid)
    asked = time.monotonic()
    live_server.process.send_signal(signal.SIGTERM)
    live_server.process.wait(timeout=10)
    assert time.monotonic() - asked < 2.5  # --graceful-timeout 1 in the tests
    wait_for(lambda: all(gone(pid) for pid in processes), 1, live_server.log)
