"""Live rates from the loopback ECB and Frankfurter: precedence, provenance, every figure following, faults."""

import copy
import json
import os
import re
import shutil
from statistics import fmean

import pytest
from conftest import FEEDS_NOW, RAW_KEY, build_app, forget_rates, import_rpw, refresh
from expected import (
    active,
    corridor_costs,
    display_date,
    group_a_entries,
    group_b_entries,
    half_up,
    key,
    mid,
    sig6,
    tables,
)
from feeds import ECB_DAY, ECB_RATES, FRANKFURTER_DAY, FRANKFURTER_RATES, FeedServer, Reply
from harness import unused_port
from survey_rows import SHIPPED_RPW

from corridor.data.load import DataError
from corridor.serving.refresher import Refresher
from corridor.settings import ConfigError
from corridor.state import current_service, versions


@pytest.fixture(scope="module")
def module_feeds():
    """The loopback ECB and Frankfurter of the module's tests."""
    with FeedServer() as server:
        yield server


@pytest.fixture
def feeds(module_feeds):
    """conftest's, on the module's server: answering normally, asked nothing yet; the shared database holding no rates
    fetched and no ask for a fetch."""
    module_feeds.replies.clear()
    module_feeds.asked.clear()
    module_feeds.ecb_day, module_feeds.ecb_rates = ECB_DAY, dict(ECB_RATES)
    forget_rates(os.environ["DATABASE_URL"])
    return module_feeds


@pytest.fixture(scope="module")
def fed(module_feeds):
    """An app whose feeds are the module's, shared by its `live_app` tests, and the version it served at start."""
    forget_rates(os.environ["DATABASE_URL"])  # started on the data file's rates alone
    app = build_app(ECB_RATES_URL=module_feeds.ecb_url, FRANKFURTER_URL=module_feeds.frankfurter_url)
    return app, current_service(app).data


@pytest.fixture
def live_app(fed, feeds):
    """conftest's, shared by the module's tests: serving again the version it started with, the database holding no
    rates fetched (`feeds`); building an app took most of a test's CPU."""
    app, started = fed
    current_service(app).serve(started)
    return app


def live_seed(raw, ecb=True, frankfurter=True):
    """The data file as the feeds make it: the ECB's rate first, then Frankfurter's, each consumer rate at its
    margin."""
    live = copy.deepcopy(raw)
    interbank, consumer = tables(raw)
    sources = live["rates"].setdefault("sources", {})
    per_euro = {**ECB_RATES, "EUR": 1.0}
    for code in interbank:
        before = interbank[code]
        if code == "USD":
            continue
        if ecb and code in per_euro:
            interbank[code] = per_euro[code] / per_euro["USD"]
            sources[code] = {"source": "ECB", "date": ECB_DAY.isoformat()}
        elif frankfurter and code in FRANKFURTER_RATES:
            interbank[code] = round(FRANKFURTER_RATES[code], 6)
            sources[code] = {"source": "Frankfurter", "date": FRANKFURTER_DAY.isoformat()}
        consumer[code] *= interbank[code] / before
    live["rates"]["interbank"], live["rates"]["consumer"] = interbank, consumer
    return live


def currency_sources(client):
    return {c["code"]: (c["source"], c["date"]) for c in client.get("/api/poc/currencies").get_json()["currencies"]}


@pytest.mark.parametrize("ecb, frankfurter", [(True, True), (True, False), (False, True)])
def test_each_rate_comes_from_the_ecb_then_frankfurter_then_the_data_file(make_app, feeds, raw_seed, ecb, frankfurter):
    app = make_app(
        ECB_RATES_URL=feeds.ecb_url if ecb else "off", FRANKFURTER_URL=feeds.frankfurter_url if frankfurter else " OFF "
    )
    refresh(app)
    sources = currency_sources(app.test_client())
    ecb_entry, frankfurter_entry = ("ECB", ECB_DAY.isoformat()), ("Frankfurter", FRANKFURTER_DAY.isoformat())
    file_entry = ("data file", raw_seed["as_of"])
    assert sources["MXN"] == sources["EUR"] == (ecb_entry if ecb else frankfurter_entry)
    assert sources["PKR"] == sources["AED"] == (frankfurter_entry if frankfurter else file_entry)
    assert sources["USD"] == (frankfurter_entry if frankfurter else ecb_entry)  # the base: the newest rates'
    assert sum(s == file_entry for s in sources.values()) == (0 if frankfurter else len(FRANKFURTER_RATES))


def test_every_figure_follows_the_live_rates(live_app, raw_seed, auth):
    refresh(live_app)
    client, live = live_app.test_client(), live_seed(raw_seed)
    for corridor in active(raw_seed):
        query = f"corridor={key(corridor)}"
        assert client.get(f"/api/providers?{query}", headers=auth).get_json() == group_a_entries(live, corridor)
        assert client.get(f"/api/poc/providers?{query}").get_json()["providers"] == group_b_entries(live, corridor)
        at_1000 = client.get(f"/api/providers?{query}&amount=1000", headers=auth).get_json()
        assert at_1000 == group_a_entries(live, corridor, amount=1000)
    summaries = {s["key"]: s for s in client.get("/api/corridors", headers=auth).get_json()}
    assert summaries["GBP_INR"]["mid_market"] == sig6(mid(live, "GBP", "INR")) == sig6(102.50 / 0.88210)
    assert summaries["USD_NGN"]["mid_market"] == 1460.0 and summaries["SAR_PKR"]["mid_market"] == sig6(283.4 / 3.75)
    benchmark = client.get("/api/benchmark", headers=auth).get_json()
    costs = [corridor_costs(live, c) for c in active(raw_seed)]
    assert benchmark["avg_cost_pct"] == half_up(fmean(c["avg"] for c in costs))
    assert benchmark["smart_avg_cost_pct"] == half_up(fmean(c["smart"] for c in costs))


def test_the_consumer_rate_keeps_its_margin_over_the_interbank_rate(live_app, raw_seed, auth):
    before = live_app.test_client().get("/api/midrate?from=GBP&to=PKR", headers=auth).get_json()
    refresh(live_app)
    after = live_app.test_client().get("/api/midrate?from=GBP&to=PKR", headers=auth).get_json()
    live = live_seed(raw_seed)
    assert after["ref_rate_b"] == sig6(mid(live, "GBP", "PKR")) != before["ref_rate_b"]
    assert after["ref_rate_a"] == sig6(mid(live, "GBP", "PKR", "consumer"))
    margin = mid(raw_seed, "GBP", "PKR", "consumer") / mid(raw_seed, "GBP", "PKR")
    assert after["ref_rate_a"] / after["ref_rate_b"] == pytest.approx(margin, rel=1e-5)


@pytest.mark.parametrize(
    "frm, to, day",
    [
        ("GBP", "INR", ECB_DAY),
        ("USD", "PKR", FRANKFURTER_DAY),
        ("PKR", "GBP", ECB_DAY),
        ("AED", "SAR", FRANKFURTER_DAY),
    ],
)
def test_midrate_is_dated_by_the_older_of_its_two_rates(live_app, auth, frm, to, day):
    refresh(live_app)
    body = live_app.test_client().get(f"/api/midrate?from={frm}&to={to}", headers=auth).get_json()
    assert body["updated"] == display_date(day.isoformat())


@pytest.mark.parametrize(
    "url", ["/api/midrate?from=GBP&to=INR", "/api/poc/providers?corridor=USD_MXN", "/api/currencies"]
)
def test_last_modified_and_the_etag_change_with_the_rates(live_app, auth, url):
    client = live_app.test_client()
    before = client.get(url, headers=auth)
    refresh(live_app)
    after = client.get(url, headers=auth)
    assert after.headers["ETag"] != before.headers["ETag"]
    assert after.headers["Last-Modified"] != before.headers["Last-Modified"]
    assert client.get(url, headers={**auth, "If-None-Match": before.headers["ETag"]}).status_code == 200
    assert client.get(url, headers={**auth, "If-None-Match": after.headers["ETag"]}).status_code == 304
    refresh(live_app)  # the same answers again: nothing changed, so neither does a validator
    again = client.get(url, headers=auth)
    assert (again.headers["ETag"], again.headers["Last-Modified"]) == (
        after.headers["ETag"],
        after.headers["Last-Modified"],
    )


def test_history_gains_the_ecb_day_and_frankfurter_series(live_app, auth):
    client = live_app.test_client()
    assert client.get("/api/history?from=USD&to=PKR", headers=auth).status_code == 404
    refresh(live_app)
    assert client.get("/api/poc/health").get_json()["historyEnd"] == ECB_DAY.isoformat()
    ecb = client.get("/api/history?from=GBP&to=INR&start=2026-10-29", headers=auth).get_json()
    assert ecb["source"] == "ECB" and [p["date"] for p in ecb["points"]] == ["2026-10-29", "2026-10-30", "2026-11-24"]
    mid_rate = client.get("/api/midrate?from=GBP&to=INR", headers=auth).get_json()["ref_rate_b"]
    assert ecb["points"][-1]["rate"] == mid_rate
    for frm, to in (("USD", "PKR"), ("PKR", "GBP"), ("EUR", "NGN")):
        series = client.get(f"/api/poc/history?from={frm}&to={to}").get_json()
        assert series["source"] == "Frankfurter" and series["end"] == FRANKFURTER_DAY.isoformat()
        assert series["count"] >= 250 and series["points"][0]["date"] >= "2025-11-24"  # a year of weekdays
        latest = client.get(f"/api/midrate?from={frm}&to={to}", headers=auth).get_json()
        if latest["updated"] == display_date(FRANKFURTER_DAY.isoformat()):  # the same day's rates: the same figure
            assert series["points"][-1]["rate"] == latest["ref_rate_b"]
    csv = client.get("/api/poc/history?from=USD&to=PKR&start=2026-11-24&format=csv").get_data(as_text=True)
    assert csv == "date,rate\r\n2026-11-24,283.372\r\n2026-11-25,283.4\r\n"


def test_on_the_data_file_s_rates_the_page_s_mid_is_the_chart_s_last_point(client, raw_seed):
    for corridor in active(raw_seed):
        html = client.get(f"/?corridor={key(corridor)}").get_data(as_text=True)
        shown = re.search(r"<strong>([\d.]+)</strong> \w+ \((?:\w+: ECB rate of Oct 30, 2026(?:; )?)+\)", html)
        if shown:  # both currencies the ECB's, of the chart's last day
            assert shown.group(1) == re.search(r", last ([\d.]+)\.</desc>", html).group(1), key(corridor)
            assert "2026-10-30" in html or "Oct 30" in html


def test_every_corridor_on_the_page_has_a_chart_that_ends_at_the_table_s_rate(live_app, raw_seed):
    refresh(live_app)
    client = live_app.test_client()
    for corridor in active(raw_seed):
        html = client.get(f"/?corridor={key(corridor)}").get_data(as_text=True)
        assert '<polyline class="rate" points="' in html, key(corridor)
        shown = re.search(
            r'<p id="mid-rate">Mid-market rate: 1 (\w+) = <strong>([\d.]+)</strong> (\w+) \(([^)]*)\)', html
        )
        latest = re.search(r", last ([\d.]+)\.</desc>", html).group(1)
        frm, to = corridor["from_currency"], corridor["to_currency"]
        day = {"ECB": display_date(ECB_DAY.isoformat()), "Frankfurter": display_date(FRANKFURTER_DAY.isoformat())}
        given = {code: "ECB" if code in {*ECB_RATES, "EUR"} else "Frankfurter" for code in (frm, to) if code != "USD"}
        assert shown.groups()[:3] == (frm, str(sig6(mid(live_seed(raw_seed), frm, to))), to)
        # each rate with its own source and day
        assert shown.group(4) == "; ".join(f"{code}: {source} rate of {day[source]}" for code, source in given.items())
        if len(set(given.values())) == 1:
            assert float(latest) == float(shown.group(2)), key(corridor)


def test_a_feed_that_fails_at_start_leaves_the_data_file_s_rates(make_app, feeds, raw_seed, auth):
    feeds.replies["/ecb.xml"] = Reply(status=503, body=b"")
    app = make_app(ECB_RATES_URL=feeds.ecb_url, FRANKFURTER_URL="off")
    client = app.test_client()
    health = client.get("/api/poc/health").get_json()["rates"]
    assert health[0] == {
        "source": "ECB",
        "status": "failing",
        "date": "2026-10-30",
        "checkedAt": None,
        "error": "not fetched yet",
    }
    refresh(app)
    health = client.get("/api/poc/health").get_json()["rates"]
    assert health[0]["status"] == "failing" and health[0]["error"] == "HTTP 503 instead of 200"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", health[0]["checkedAt"])
    assert health[1] == {"source": "Frankfurter", "status": "off", "date": None, "checkedAt": None, "error": None}
    body = client.get("/api/midrate?from=GBP&to=INR", headers=auth).get_json()
    assert body["ref_rate_b"] == sig6(mid(raw_seed, "GBP", "INR")) and body["updated"] == "Oct 30, 2026"


def test_health_shows_each_feed_after_a_good_refresh(live_app):
    refresh(live_app)
    ecb, frankfurter = live_app.test_client().get("/api/poc/health").get_json()["rates"]
    assert {k: ecb[k] for k in ("source", "status", "date", "error")} == {
        "source": "ECB",
        "status": "ok",
        "date": "2026-11-24",
        "error": None,
    }
    assert {k: frankfurter[k] for k in ("source", "status", "date", "error")} == {
        "source": "Frankfurter",
        "status": "ok",
        "date": "2026-11-25",
        "error": None,
    }


def failing_once(read, error):
    """`read` that raises `error` the first time it is called (a database blip), then reads."""
    blips = [error]

    def blip_once(app):
        if blips:
            raise blips.pop()
        return read(app)

    return blip_once


def test_a_poll_whose_read_of_new_rates_fails_takes_them_up_at_the_next(live_app, monkeypatch):
    refresher = Refresher(live_app)
    refresher.fetch(FEEDS_NOW)  # as any process stores them
    monkeypatch.setattr(
        "corridor.serving.refresher.stored_rates",
        failing_once(versions.stored_rates, ConnectionError("the database went away")),
    )
    with pytest.raises(ConnectionError):
        refresher.poll()
    refresher.poll()
    health = live_app.test_client().get("/api/poc/health").get_json()["rates"]
    assert [(feed["status"], feed["date"]) for feed in health] == [("ok", "2026-11-24"), ("ok", "2026-11-25")]


def test_new_rates_are_served_with_the_data_last_read_when_it_cannot_be_read_again(live_app, monkeypatch, caplog):
    refresher = Refresher(live_app)
    refresher.fetch(FEEDS_NOW)
    summary = current_service(live_app).data.sources.summary

    def unreadable(app):
        raise DataError("survey_observations: the database went away")

    monkeypatch.setattr("corridor.serving.refresher.read_sources", unreadable)
    refresher.poll()
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING" and r.name == live_app.logger.name]
    assert warnings == [
        f"Data re-read failed; the stored rates are served with {summary} as last read, and it is tried again at "
        "each poll. survey_observations: the database went away"
    ]
    health = live_app.test_client().get("/api/poc/health").get_json()["rates"]
    assert [(feed["status"], feed["date"]) for feed in health] == [("ok", "2026-11-24"), ("ok", "2026-11-25")]
    served = current_service(live_app).data
    refresher.poll()  # still unreadable: said once, and nothing is built again
    assert len([r for r in caplog.records if r.levelname == "WARNING"]) == 1
    assert current_service(live_app).data.catalog is served.catalog


def test_an_import_whose_first_read_fails_is_served_at_the_next_poll(one_kind_url, monkeypatch):
    app = build_app(DATABASE_URL=one_kind_url)
    refresher = Refresher(app)
    assert import_rpw(one_kind_url, SHIPPED_RPW)[0] == 0
    monkeypatch.setattr(
        "corridor.serving.refresher.read_sources",
        failing_once(versions.read_sources, DataError("survey_observations: the database went away")),
    )

    def prices():
        answer = app.test_client().get("/api/corridors", headers={"Authorization": f"Bearer {RAW_KEY}"})
        return {corridor["prices"] for corridor in answer.get_json()}

    refresher.poll()
    assert prices() == {"sample"}
    refresher.poll()
    assert prices() == {"sample", "2025Q3"}


def test_a_feed_that_is_off_is_never_asked(make_app, feeds):
    app = make_app(ECB_RATES_URL="off", FRANKFURTER_URL="")
    refresh(app)
    assert feeds.asked == []
    assert [f["status"] for f in app.test_client().get("/api/poc/health").get_json()["rates"]] == ["off", "off"]


def test_one_refresh_asks_each_feed_once_and_frankfurter_from_the_last_day_held(live_app, feeds):
    refresh(live_app)
    (frankfurter,) = [p for p in feeds.asked if p.startswith("/v2")]
    assert feeds.count("/ecb.xml") == 1
    assert frankfurter.startswith("/v2/rates?base=USD&quotes=AED,AUD,BDT,") and frankfurter.endswith("&from=2025-11-24")
    refresh(live_app)
    assert feeds.asked[-1].endswith("&from=2026-11-25") and len(feeds.asked) == 4


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("ECB_RATES_URL", "ftp://example.org/rates.xml", "ECB_RATES_URL must be an http:// or https:// URL, or off."),
        ("ECB_RATES_URL", "eurofxref-daily.xml", "ECB_RATES_URL must be an http:// or https:// URL, or off."),
        ("FRANKFURTER_URL", "http://[::1/v2", "FRANKFURTER_URL must be an http:// or https:// URL, or off."),
        (
            "FRANKFURTER_URL",
            "https://user:secret@rates.example/v2",
            "FRANKFURTER_URL must not hold a user name or password: the feeds need none.",
        ),
    ],
)
def test_a_feed_setting_that_is_not_a_plain_web_address_stops_start_up(make_app, name, value, message):
    with pytest.raises(ConfigError) as caught:
        make_app(**{name: value})
    assert caught.value.format_message() == message and "secret" not in message


@pytest.mark.parametrize("value", ["-1", "1.5", "hourly", "100000"])
def test_a_refresh_interval_that_is_not_a_whole_number_of_minutes_stops_start_up(make_app, value):
    with pytest.raises(ConfigError, match="RATES_REFRESH_MINUTES must be a whole number from 0 to 10080"):
        make_app(RATES_REFRESH_MINUTES=value)


def run_fetch(app, *args):
    return app.test_cli_runner().invoke(args=["rates", "fetch", *map(str, args)])


def test_rates_fetch_merges_both_feeds_into_the_file_and_says_what_changed(live_app, feeds, seed_copy, write_seed):
    path = write_seed(seed_copy)
    result = run_fetch(live_app, "--data", path)
    assert result.exit_code == 0, result.output
    after = json.loads(open(path).read())
    assert after["rates"]["sources"]["MXN"] == {"source": "ECB", "date": "2026-11-24"}
    assert after["rates"]["sources"]["PKR"] == {"source": "Frankfurter", "date": "2026-11-25"}
    assert (
        after["rates"]["interbank"]["MXN"] == float(f"{21.3 / 1.16:.6g}")
        and after["rates"]["interbank"]["PKR"] == 283.4
    )
    assert after["as_of"] == seed_copy["as_of"] and after["corridors"] == seed_copy["corridors"]
    lines = result.output.splitlines()
    assert "ECB: ok" in lines and "Frankfurter: ok" in lines
    assert f"changed  PKR: {seed_copy['rates']['interbank']['PKR']} -> 283.4 (Frankfurter, 2026-11-25)" in lines
    assert "kept their old rates (no feed gives them): none" in lines
    assert run_fetch(live_app, "--data", path).output.splitlines()[2].startswith("changed: 0; unchanged: AED, AUD")


def test_rates_fetch_leaves_the_file_untouched_when_every_feed_fails(make_app, feeds, seed_copy, write_seed):
    path = write_seed(seed_copy)
    original = open(path, "rb").read()
    feeds.replies["/ecb.xml"] = Reply(status=500, body=b"")
    app = make_app(ECB_RATES_URL=feeds.ecb_url, FRANKFURTER_URL=f"http://127.0.0.1:{unused_port()}/v2")
    result = run_fetch(app, "--data", path)
    assert result.exit_code == 1 and f"Error: Every feed failed; {path} is untouched." in result.output
    assert "ECB: failing (HTTP 500 instead of 200)" in result.output
    assert open(path, "rb").read() == original
    assert run_fetch(make_app(), "--data", path).exit_code == 1  # both off: nothing to ask


def test_rates_fetch_on_an_unmigrated_database_is_refused_in_one_line_and_leaves_the_file(
    make_app, feeds, seed_copy, write_seed, tmp_path
):
    path = write_seed(seed_copy)
    original = open(path, "rb").read()
    url = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    app = make_app(DATABASE_URL=url, ECB_RATES_URL=feeds.ecb_url, FRANKFURTER_URL=feeds.frankfurter_url)
    result = run_fetch(app, "--data", path)
    assert (result.exit_code, type(result.exception)) == (1, SystemExit)  # a refusal, not a crash
    assert result.output.strip() == (
        f"Error: The database {url} has no tables yet: run `.venv/bin/flask --app app db upgrade` first."
    )
    assert open(path, "rb").read() == original and feeds.asked == []


def test_rates_fetch_that_the_database_refuses_to_store_leaves_the_file(
    make_app, feeds, seed_copy, write_seed, tmp_path, migrated_sqlite
):
    import sqlalchemy as sa

    path = write_seed(seed_copy)
    original = open(path, "rb").read()
    shutil.copyfile(migrated_sqlite, tmp_path / "full.sqlite3")
    url = f"sqlite:///{tmp_path / 'full.sqlite3'}"
    app = make_app(DATABASE_URL=url, ECB_RATES_URL=feeds.ecb_url, FRANKFURTER_URL=feeds.frankfurter_url)
    engine = sa.create_engine(url)
    with engine.begin() as connection:  # a database that refuses the write, as a full disk would
        connection.execute(
            sa.text("CREATE TRIGGER full BEFORE INSERT ON feed_states BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        )
    engine.dispose()
    result = run_fetch(app, "--data", path)
    assert (result.exit_code, type(result.exception)) == (1, SystemExit)
    assert result.output.splitlines()[-1] == (
        f"Error: The database refused the rates, so {path} is untouched: disk full"
    )
    assert open(path, "rb").read() == original


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_fetch_lock_is_one_holder_s_until_its_block_ends_even_when_it_raises(kind, tmp_path, request):
    import sqlalchemy as sa

    from corridor.data.database import engine_url
    from corridor.rates.store import fetch_lock

    url = f"sqlite:///{tmp_path / 'lock.sqlite3'}" if kind == "sqlite" else request.getfixturevalue("postgres_url")
    engine = sa.create_engine(engine_url(url), poolclass=sa.pool.NullPool)
    try:
        with fetch_lock(engine) as held:
            with fetch_lock(engine) as also:  # another open file, another session: another holder, never waiting
                assert (held, also) == (True, False)
        with pytest.raises(ArithmeticError), fetch_lock(engine) as held:
            assert held
            raise ArithmeticError
        with fetch_lock(engine) as held:
            assert held
    finally:
        engine.dispose()
