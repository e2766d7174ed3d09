"""What an operator runs, under real gunicorn with its gevent workers: metrics added up over every process, a drain on
TERM that loses no queued connection, and logs in JSON."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
import requests
from conftest import RAW_KEY, logged, running_gunicorn
from harness import DIRECT, unused_port
from prometheus_client.parser import text_string_to_metric_families

from bench.load import workers_of

TOKEN = "metrics-token-for-the-tests-0123"
ROUTE = "/api/poc/corridors/{corridor_id}"
QUEUED = 30
WORKERS = 2  # the metrics' test: counts added up over more than one, one of them killed, every one swapped by a HUP


def counted(text, route=ROUTE):
    """http_requests_total of `route`, every status, in a scrape's text."""
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "http_requests_total" and sample.labels["route"] == route
    )


def scrape(base):
    response = requests.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=5)
    assert response.status_code == 200, response.text
    return response.text


def ask(base, times):
    for n in range(times):  # a connection each: gunicorn's workers take them in turn
        assert requests.get(f"{base}/api/poc/corridors/{1 + n % 3}", timeout=5).status_code == 200


def settled_workers(master):
    """The master's workers, or None while one of its children is being reaped."""
    try:
        return workers_of(master)
    except FileNotFoundError:
        return None


def counting_workers(folder, master):
    """The master's workers that have counted a request: each writes its timings to a file named by its pid."""
    return [pid for pid in workers_of(master) if (folder / f"histogram_{pid}.db").exists()]


def wait_until(condition, seconds, log):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.05)


def test_metrics_add_up_every_worker_and_go_on_through_a_killed_worker_and_a_hup(tmp_path):
    folder = tmp_path / "metrics"
    folder.mkdir()
    # a previous run's counts in the folder: emptied at start, not added in
    stale = f"""import os; os.environ["PROMETHEUS_MULTIPROC_DIR"] = {str(folder)!r}
from prometheus_client import Histogram
Histogram("http_request_duration_seconds", "", ["method", "route", "status"]).labels("GET", {ROUTE!r}, "200").observe(1)
"""
    subprocess.run([sys.executable, "-c", stale], check=True)
    assert list(folder.glob("*.db"))
    port = unused_port()
    with running_gunicorn(
        tmp_path / "gunicorn.log",
        API_KEYS=RAW_KEY,
        METRICS_TOKEN=TOKEN,
        WEB_CONCURRENCY=str(WORKERS),
        METRICS_PORT=f"127.0.0.1:{port}",
        PROMETHEUS_MULTIPROC_DIR=str(folder),
    ) as server:
        assert "Using worker: gevent" in server.log.read_text()
        # the kernel hands each connection to whichever worker it wakes, so ask until two workers have counted some
        asked = 0
        while len(counting := counting_workers(folder, server.process.pid)) < 2 and asked < 600:
            ask(server.base, 20)
            asked += 20
        assert len(counting) >= 2, asked
        assert counted(scrape(server.base)) == asked
        own_port = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
        assert counted(own_port) == asked
        assert "corridor_rates_age_seconds" in own_port

        victim = counting[0]
        os.kill(victim, signal.SIGKILL)
        wait_until(
            lambda: (
                (workers := settled_workers(server.process.pid)) and victim not in workers and len(workers) == WORKERS
            ),
            10,
            server.log,
        )
        assert counted(scrape(server.base)) == asked  # the killed worker's counts stay

        booted = server.log.read_text().count("Booting worker")
        server.process.send_signal(signal.SIGHUP)
        wait_until(lambda: server.log.read_text().count("Booting worker") >= booted + WORKERS, 10, server.log)
        ask(server.base, 6)
        assert counted(scrape(server.base)) == asked + 6


def _queue_requests(base, count):
    """`count` connections, each with a request sent, waiting in the listening socket's queue."""
    host, port = base.removeprefix("http://").split(":")
    connections = []
    for _ in range(count):
        connection = socket.create_connection((host, int(port)), timeout=15)
        connection.sendall(f"GET /api/poc/corridors/1 HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        connections.append(connection)
    return connections


def _answered(connection):
    """Whether the connection got a 200 (not a reset or an empty close)."""
    try:
        with connection:
            return connection.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def _late_arrivals(base, seconds):
    """A request every 50 ms for `seconds`, each on a connection of its own, as a router still sends them before it
    has taken the instance out: how many were answered of how many."""
    answered = asked = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        asked += 1
        try:
            answered += _answered(_queue_requests(base, 1)[0])
        except OSError:  # refused: nobody listens any more
            pass
        time.sleep(0.05)
    return answered, asked


def _term_with_connections_queued(server, every_process):
    """Stop the workers (as if busy), queue QUEUED connections, send TERM (to the master, or to every process of the
    instance as a PaaS does), let the workers go on while new requests keep coming for 1.5 s: how many of the queued
    were answered, how many of the late ones of how many, how long the instance took to go, and what readiness said."""
    master = server.process.pid
    workers = workers_of(master)
    others = workers if every_process else []
    for worker in workers:
        os.kill(worker, signal.SIGSTOP)
    try:
        connections = _queue_requests(server.base, QUEUED)
        asked = time.monotonic()
        for pid in (master, *others):
            os.kill(pid, signal.SIGTERM)
        time.sleep(0.3)
    finally:
        for worker in workers:
            os.kill(worker, signal.SIGCONT)
    try:
        with DIRECT.open(f"{server.base}/api/poc/health", timeout=5) as response:
            readiness = response.status, json.load(response)
    except OSError as err:  # urllib raises HTTPError on a 503; a refusal once nobody listens
        readiness = getattr(err, "code", None), json.load(err) if hasattr(err, "read") else None
    answered = sum(_answered(connection) for connection in connections)
    late = _late_arrivals(server.base, 1.5)
    server.process.wait(timeout=30)
    return answered, late, time.monotonic() - asked, readiness


@pytest.mark.parametrize("every_process", [False, True], ids=["term-to-the-master", "term-to-every-process"])
def test_a_term_drains_loses_none_of_30_queued_connections_and_stops_in_time(tmp_path, every_process):
    with running_gunicorn(
        tmp_path / "gunicorn.log", API_KEYS=RAW_KEY, DRAIN_SECONDS="3", WEB_CONCURRENCY="2"
    ) as server:
        answered, (late, late_asked), took, readiness = _term_with_connections_queued(server, every_process)
        log = server.log.read_text()
    assert (answered, late) == (QUEUED, late_asked), log[-3000:]
    status, body = readiness
    assert (status, body["ok"], body["status"]) == (503, False, "draining")
    assert 3 <= took < 3 + 1 + 2  # DRAIN_SECONDS, then gunicorn's graceful timeout (1 s in the tests), and a margin
    assert "TERM: draining for 3 s" in log and "Shutting down: Master" in log


def test_without_a_drain_a_term_refuses_requests_that_come_after_it(tmp_path):
    """The loss the drain prevents: the instance stops listening within a second of the TERM, while a router may
    still send it requests."""
    with running_gunicorn(
        tmp_path / "gunicorn.log", API_KEYS=RAW_KEY, DRAIN_SECONDS="0", WEB_CONCURRENCY="2"
    ) as server:
        _, (late, late_asked), took, _ = _term_with_connections_queued(server, every_process=False)
    assert late < late_asked
    assert took < 1.5 + 1 + 2


def test_json_logs_are_one_object_per_line_with_the_request_and_nothing_secret(tmp_path):
    with running_gunicorn(
        tmp_path / "gunicorn.log", API_KEYS=RAW_KEY, LOG_FORMAT="json", PROXY_HOPS="1", WEB_CONCURRENCY="1"
    ) as server:
        answer = requests.get(
            f"{server.base}/api/providers?corridor=USD_MXN&amount=100",
            timeout=5,
            headers={
                "Authorization": f"Bearer {RAW_KEY}",
                "X-Request-ID": "trace-42",
                "X-Forwarded-For": "203.0.113.9",
                "Cookie": "session=sekrit-cookie",
            },
        )
        refused = requests.get(
            f"{server.base}/api/corridors",
            timeout=5,
            headers={"Authorization": "Bearer not-a-key-but-secret-all-the-same"},
        )
        assert (answer.status_code, refused.status_code) == (200, 401)
        logged(server.log, refused.headers["X-Request-ID"])  # the last access line is written
    text = server.log.read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    access = [line for line in lines if line["logger"] == "gunicorn.access"]
    (traced,) = [line for line in access if line["request_id"] == "trace-42"]
    assert traced["time"].endswith("+00:00") and traced["level"] == "info"
    assert {k: traced[k] for k in ("method", "route", "path", "status", "client")} == {
        "method": "GET",
        "route": "/api/providers",
        "path": "/api/providers",
        "status": 200,
        "client": "203.0.113.9",
    }
    assert traced["duration_ms"] > 0 and traced["bytes"] == int(answer.headers["Content-Length"])  # as sent: gzipped
    assert any(line["logger"] == "app" and line["message"].startswith("Loaded ") for line in lines)
    assert any(line["logger"] == "gunicorn.error" and line["message"].startswith("Booting worker") for line in lines)
    for secret in (RAW_KEY, "sekrit-cookie", "not-a-key-but-secret", "amount=100"):
        assert secret not in text
