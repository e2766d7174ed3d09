"""Under gunicorn the whole lists of a data version are built, plain and compressed, before any worker serves it (at
start and after a HUP): at 2,000 corridors one takes a worker over a second to build, and no request may wait for it."""

import json
import signal
import time

import pytest
import requests
from conftest import RAW_KEY, build_app, running_gunicorn
from prometheus_client.parser import text_string_to_metric_families

from bench.generate import generate
from bench.load import workers_of

TOKEN = "metrics-token-for-the-tests-0123"
CORRIDORS = 200  # enough that building a whole list takes a worker a noticeable time, few enough to load fast
AUTH = {"Authorization": f"Bearer {RAW_KEY}"}
WHOLE_LISTS = ["/api/corridors", "/api/poc/corridors", "/api/poc/providers", "/api/poc/full"]


def lookups(base):
    """http_request_duration_seconds_count by (route, cache), every status, as /metrics adds them up."""
    text = requests.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=5).text
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "http_request_duration_seconds_count":
                key = sample.labels["route"], sample.labels.get("cache", "")
                found[key] = found.get(key, 0) + sample.value
    return found


def only_new_workers(master, before):
    """Whether the master's two workers are both new (not while one of its children is being reaped)."""
    try:
        workers = set(workers_of(master))
    except FileNotFoundError:
        return False
    return len(workers) == 2 and workers.isdisjoint(before)


@pytest.fixture(scope="module")
def large_data(tmp_path_factory):
    path = tmp_path_factory.mktemp("large") / "seed.json"
    path.write_text(json.dumps(generate(CORRIDORS)), encoding="utf-8")
    return path


def test_after_a_hup_every_whole_list_is_answered_kept_by_every_new_worker(tmp_path, large_data):
    with running_gunicorn(
        tmp_path / "gunicorn.log", API_KEYS=RAW_KEY, SEED_DATA=str(large_data), WEB_CONCURRENCY="2", METRICS_TOKEN=TOKEN
    ) as server:
        before = set(workers_of(server.process.pid))
        server.process.send_signal(signal.SIGHUP)  # a new data version, served by new workers
        deadline = time.monotonic() + 30
        while not only_new_workers(server.process.pid, before):
            assert time.monotonic() < deadline, server.log.read_text()[-3000:]
            time.sleep(0.1)
        time.sleep(0.5)  # the new workers are listening
        # what a request builds, in a process of its own on the same data
        own = build_app(SEED_DATA=str(large_data)).test_client()
        for url in WHOLE_LISTS:
            built = own.get(url, headers=AUTH)
            for encoding in ("gzip", "identity", "gzip", "identity"):  # a connection each: both workers are asked
                answer = requests.get(server.base + url, timeout=30, headers={**AUTH, "Accept-Encoding": encoding})
                assert answer.status_code == 200
                assert answer.headers.get("Content-Encoding", "identity") == encoding
                assert answer.content == built.data  # requests inflates a gzip body
                etag = built.headers["ETag"]
                assert answer.headers["ETag"] == (f'{etag[:-1]}-gzip"' if encoding == "gzip" else etag)
        found = lookups(server.base)
    assert {url: found.get((url, "miss"), 0) for url in WHOLE_LISTS} == dict.fromkeys(WHOLE_LISTS, 0)
    assert {url: found.get((url, "hit"), 0) for url in WHOLE_LISTS} == dict.fromkeys(WHOLE_LISTS, 4)
