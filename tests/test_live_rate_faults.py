"""What a faulty feed answer does: the last good rates stay served, health says why, one log line names it."""

import datetime as dt
import shutil

import pytest
import sqlalchemy as sa
from conftest import build_app, refresh
from feeds import ECB_DAY, ECB_RATES, FeedServer, Reply, ecb_xml

from corridor.data.database import engine_url
from corridor.rates import fetch as feed_module
from corridor.state import current_service

STORED = ("feed_states", "data_stamp")  # what a fetch writes to the database


def _good_then(app, feeds, path, reply):
    refresh(app)
    return _served_then(app, feeds, path, reply)


def _served_then(app, feeds, path, reply):
    assert [feed["status"] for feed in app.test_client().get("/api/poc/health").get_json()["rates"]] == ["ok", "ok"]
    served = app.test_client().get("/api/poc/full").get_json()
    feeds.replies[path] = reply
    return served


class Fed:
    """An app whose feeds are `feeds`, as one good fetch of both left it: the version it served then, and the rows the
    fetch stored."""

    def __init__(self, app, feeds, url):
        self.app, self.feeds, self.engine = app, feeds, sa.create_engine(engine_url(url))
        refresh(app)
        self.version = current_service(app).data
        with self.engine.connect() as connection:
            self.rows = {
                table: connection.execute(sa.text(f"SELECT * FROM {table}")).mappings().all() for table in STORED
            }

    def good_then(self, path, reply):
        """`_good_then` without fetching again: the database and the app back to the good fetch's, the feeds answering
        normally but for `reply` at `path`."""
        self.feeds.replies.clear()
        with self.engine.begin() as connection:
            for table, rows in self.rows.items():
                connection.execute(sa.text(f"DELETE FROM {table}"))
                for row in rows:
                    columns = ", ".join(row)
                    connection.execute(sa.text(f"INSERT INTO {table} ({columns}) VALUES (:{', :'.join(row)})"), row)
        current_service(self.app).serve(self.version)
        return _served_then(self.app, self.feeds, path, reply)


@pytest.fixture(scope="module")
def fed(migrated_sqlite, tmp_path_factory):
    """A `Fed` app on the shipped data and a database of the module's own, shared by the faults that leave its feeds
    answering: each test puts it back as the good fetch left it."""
    path = tmp_path_factory.mktemp("faults") / "faults.sqlite3"
    shutil.copyfile(migrated_sqlite, path)
    url = f"sqlite:///{path}"
    with FeedServer() as feeds:
        fed = Fed(
            build_app(DATABASE_URL=url, ECB_RATES_URL=feeds.ecb_url, FRANKFURTER_URL=feeds.frankfurter_url), feeds, url
        )
        try:
            yield fed
        finally:
            fed.engine.dispose()


FAULTS = [
    ("refused", None, "cannot connect: connection refused"),
    ("timeout", Reply(delay=4), "no whole answer within 3 s"),
    ("HTTP 500", Reply(status=500, body=b"oops"), "HTTP 500 instead of 200"),
    ("HTTP 204", Reply(status=204, body=b""), "HTTP 204 instead of 200"),
    ("not XML", Reply(body=b"<html><body>Maintenance</body>"), "not XML, or cut short"),
    ("cut short", Reply(body=ecb_xml()[:200]), "not XML, or cut short"),
    (
        "cut short by the connection",
        Reply(body=ecb_xml(), headers={"Content-Length": "99999"}),
        "the answer was cut short",
    ),
    ("no day", Reply(body=ecb_xml().replace(b"<Cube time='2026-11-24'>", b"<Cube>")), "no day in the file"),
    (
        "a zero rate",
        Reply(body=ecb_xml(rates={**ECB_RATES, "JPY": 0})),
        "refused whole: the JPY rate 0.0 is not a number above 0",
    ),
    ("a negative rate", Reply(body=ecb_xml(rates={**ECB_RATES, "INR": -1})), "refused whole: the INR rate -1.0"),
    ("NaN", Reply(body=ecb_xml(rates={**ECB_RATES, "MXN": "NaN"})), "refused whole: the MXN rate nan"),
    ("infinity", Reply(body=ecb_xml(rates={**ECB_RATES, "MXN": "INF"})), "refused whole: the MXN rate inf"),
    (
        "an older day",
        Reply(body=ecb_xml(dt.date(2026, 11, 23))),
        "ignored: its day 2026-11-23 is older than the rates in force (2026-11-24)",
    ),
    (
        "a rate beyond any currency's",
        Reply(body=ecb_xml(rates={**ECB_RATES, "IDR": 2e9})),
        "refused whole: the IDR rate 2000000000.0 is not from 1e-06 to 1e+09",
    ),
    (
        "a rate that re-based is beyond",
        Reply(body=ecb_xml(rates={**ECB_RATES, "USD": 1e-6, "IDR": 19400.0})),
        "refused whole: the IDR rate per USD, 1.94e+10, is not from 1e-06 to 1e+09",
    ),
    ("over 2 MB", Reply(body=b"<a>" + b" " * (2 * 2**20) + b"</a>"), "the answer is over 2,097,152 bytes"),
    (
        "entity expansion",
        Reply(body=b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><d>&b;</d>'),
        "no day in the file",
    ),
]


@pytest.mark.parametrize("fault, reply, reason", FAULTS, ids=[f[0] for f in FAULTS])
def test_a_faulty_ecb_answer_keeps_the_last_good_rates(request, monkeypatch, caplog, fault, reply, reason):
    if fault == "timeout":
        # not the service's 10 s, to keep the test short; and not 1 s, which the sound feed's loopback answer once took
        # under the whole suite's load
        monkeypatch.setattr(feed_module, "TIMEOUT_S", 3.0)
    if reply is None:  # the shared feeds must answer on: an ECB of the test's own, stopped
        feeds, make_app = request.getfixturevalue("feeds"), request.getfixturevalue("make_app")
        with FeedServer() as ecb:
            app = make_app(ECB_RATES_URL=ecb.ecb_url, FRANKFURTER_URL=feeds.frankfurter_url)
            served = _good_then(app, ecb, "/ecb.xml", reply)
            ecb.__exit__()  # its port now refuses connections
    else:
        fed = request.getfixturevalue("fed")
        app, served = fed.app, fed.good_then("/ecb.xml", reply)
    caplog.clear()
    refresh(app)
    client = app.test_client()
    assert client.get("/api/poc/full").get_json() == served  # every figure as before
    health = client.get("/api/poc/health").get_json()["rates"][0]
    assert (health["status"], health["date"]) == ("failing", ECB_DAY.isoformat()) and reason in health["error"]
    lines = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(lines) == 1 and lines[0].startswith("Rates feed ECB (http://127.0.0.1:") and reason in lines[0]
    assert lines[0].endswith("; keeping the rates of 2026-11-24.")


FRANKFURTER_FAULTS = [
    ("not JSON", b"<html>", "not JSON, or cut short"),
    ("not an array", b'{"status": 422, "message": "bad"}', "not a JSON array of rates"),
    (
        "a row without a rate",
        b'[{"date": "2026-11-25", "base": "USD", "quote": "PKR"}]',
        "a row is not {date, base, quote, rate}",
    ),
    (
        "another base",
        b'[{"date": "2026-11-25", "base": "EUR", "quote": "PKR", "rate": 300}]',
        "a row's base is 'EUR', not USD",
    ),
    (
        "a negative rate",
        b'[{"date": "2026-11-25", "base": "USD", "quote": "PKR", "rate": -3}]',
        "refused whole: the PKR rate -3",
    ),
    (
        "a rate as text",
        b'[{"date": "2026-11-25", "base": "USD", "quote": "PKR", "rate": "3"}]',
        "refused whole: the PKR rate 3",
    ),
    ("NaN", b'[{"date": "2026-11-25", "base": "USD", "quote": "PKR", "rate": NaN}]', "not JSON, or cut short"),
    (
        "a bad date",
        b'[{"date": "25.11.2026", "base": "USD", "quote": "PKR", "rate": 3}]',
        "a row's date '25.11.2026' is not YYYY-MM-DD",
    ),
    ("no rows", b"[]", "no rates in the answer"),
    (
        "a rate of 400 digits",
        b'[{"date": "2026-11-25", "base": "USD", "quote": "PKR", "rate": 1' + b"0" * 400 + b"}]",
        "refused whole: the PKR rate inf is not a number above 0",
    ),
    (
        "an older day",
        b'[{"date": "2026-11-20", "base": "USD", "quote": "PKR", "rate": 3}]',
        "ignored: its day 2026-11-20 is older than the rates in force (2026-11-25)",
    ),
]


@pytest.mark.parametrize("fault, body, reason", FRANKFURTER_FAULTS, ids=[f[0] for f in FRANKFURTER_FAULTS])
def test_a_faulty_frankfurter_answer_keeps_the_last_good_rates(fed, caplog, fault, body, reason):
    served = fed.good_then("/v2/rates", Reply(body=body))
    caplog.clear()
    refresh(fed.app)
    client = fed.app.test_client()
    assert client.get("/api/poc/full").get_json() == served
    assert client.get("/api/poc/history?from=USD&to=PKR").get_json()["count"] >= 250  # the series held stays
    frankfurter = client.get("/api/poc/health").get_json()["rates"][1]
    assert frankfurter["status"] == "failing" and reason in frankfurter["error"]
    lines = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(lines) == 1 and lines[0].startswith("Rates feed Frankfurter (http://127.0.0.1:") and reason in lines[0]
