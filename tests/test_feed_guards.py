"""What a hostile or broken feed cannot do: move the rates far unconfirmed, date itself in the future, lead the fetch to
another host, or keep a connection open after its answer was given up."""

import datetime as dt
import json
import socket
import threading
import time

import pytest
from conftest import FEEDS_NOW, RAW_KEY, refresh, reread
from feeds import ECB_DAY, ECB_RATES, FRANKFURTER_RATES, Reply, ecb_xml
from harness import unused_port

from corridor.rates.fetch import FeedError, get

NEXT_DAY = ECB_DAY + dt.timedelta(days=1)


def served(app):
    """What a client sees of the rates: every figure, the history's last day, and Last-Modified."""
    client = app.test_client()
    full = client.get("/api/poc/full")
    return full.get_json(), client.get("/api/poc/health").get_json()["historyEnd"], full.headers["Last-Modified"]


def feed_health(app, index):
    return app.test_client().get("/api/poc/health").get_json()["rates"][index]


def warnings(caplog):
    return [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]


def usd_gbp(app):
    """The USD→GBP mid-market rate served."""
    answer = app.test_client().get("/api/midrate?from=USD&to=GBP", headers={"Authorization": f"Bearer {RAW_KEY}"})
    return answer.get_json()["ref_rate_b"]


FIFTY_FOLD = {code: rate * 50 for code, rate in ECB_RATES.items() if code != "USD"} | {"USD": ECB_RATES["USD"]}
A_THIRD_UP = {code: rate * 1.3 for code, rate in ECB_RATES.items() if code != "USD"} | {"USD": ECB_RATES["USD"]}


@pytest.mark.parametrize(
    "rates, move",
    [
        (FIFTY_FOLD, "moves the USD→AUD rate 50-fold (1.52586 → 76.2931)"),
        (A_THIRD_UP, "moves 26 of its 27 rates by more than 25%"),  # all but EUR, the feed's base
    ],
    ids=["one rate 50-fold", "most rates by a third"],
)
def test_an_ecb_day_that_moves_the_rates_too_far_is_held_back_and_the_next_genuine_day_served(
    live_app, feeds, caplog, rates, move
):
    refresh(live_app)
    before = served(live_app)
    feeds.ecb_day, feeds.ecb_rates = NEXT_DAY, rates
    caplog.clear()
    refresh(live_app)
    assert served(live_app) == before  # no figure, no history day, no validator moved
    health = feed_health(live_app, 0)
    reason = (
        f"held back: its day {NEXT_DAY} {move}; if it is right, take it with "
        "`.venv/bin/flask --app app rates fetch --accept`, then HUP"
    )
    assert health == {**health, "status": "held", "date": ECB_DAY.isoformat(), "error": reason}
    assert warnings(caplog) == [f"Rates feed ECB ({feeds.ecb_url}) {reason}; keeping the rates of {ECB_DAY}."]
    feeds.ecb_day, feeds.ecb_rates = NEXT_DAY + dt.timedelta(days=1), dict(ECB_RATES)
    refresh(live_app)
    assert feed_health(live_app, 0)["status"] == "ok"
    assert served(live_app)[1] == (NEXT_DAY + dt.timedelta(days=1)).isoformat()


def test_one_frankfurter_rate_moved_three_fold_holds_back_the_whole_answer(live_app, feeds):
    refresh(live_app)
    before = served(live_app)
    feeds.replies["/v2/rates"] = Reply(
        body=json.dumps(
            [
                {"date": "2026-11-26", "base": "USD", "quote": code, "rate": rate * (3 if code == "PKR" else 1)}
                for code, rate in FRANKFURTER_RATES.items()
            ]
        ).encode()
    )
    refresh(live_app)
    assert served(live_app) == before
    health = feed_health(live_app, 1)
    assert health["status"] == "held" and "moves the USD→PKR rate 3-fold (283.4 → 850.2)" in health["error"]


def test_an_operator_takes_a_held_day_into_the_file_and_a_hup_serves_it(make_app, feeds, seed_copy, write_seed):
    path = write_seed(seed_copy)
    app = make_app(SEED_DATA=path, ECB_RATES_URL=feeds.ecb_url, FRANKFURTER_URL=feeds.frankfurter_url)
    refresh(app)
    genuine = usd_gbp(app)
    feeds.ecb_day, feeds.ecb_rates = NEXT_DAY, FIFTY_FOLD
    refresh(app)
    fetched = app.test_cli_runner().invoke(args=["rates", "fetch", "--data", path])
    # judged as the service judges it, against the rates in force: the service's last fetch, stored in the database
    assert "ECB: held (held back: its day 2026-11-25 moves the USD→AUD rate 50-fold" in fetched.output
    kept = json.loads(open(path).read())["rates"]  # the rates in force written (the ECB's last good day), the held not
    assert kept["sources"]["GBP"] != {"source": "ECB", "date": NEXT_DAY.isoformat()}
    assert kept["interbank"]["GBP"] == pytest.approx(genuine, rel=1e-5)
    accepted = app.test_cli_runner().invoke(args=["rates", "fetch", "--accept", "--data", path])
    assert accepted.exit_code == 0 and "ECB: ok" in accepted.output, accepted.output
    assert json.loads(open(path).read())["rates"]["sources"]["GBP"] == {"source": "ECB", "date": NEXT_DAY.isoformat()}
    assert usd_gbp(app) == genuine  # the file alone serves nothing until the HUP
    assert reread(app) == []
    refresh(app)
    assert feed_health(app, 0)["status"] == "ok" and feed_health(app, 0)["date"] == NEXT_DAY.isoformat()
    assert app.test_client().get("/api/poc/health").get_json()["historyEnd"] == NEXT_DAY.isoformat()
    assert usd_gbp(app) == pytest.approx(50 * ECB_RATES["GBP"] / ECB_RATES["USD"], rel=1e-5)


def test_a_day_after_tomorrow_is_refused_and_leaves_no_mark(live_app, feeds, caplog):
    refresh(live_app)
    before = served(live_app)
    feeds.ecb_day = dt.date(2099, 12, 31)
    caplog.clear()
    refresh(live_app)
    assert served(live_app) == before
    reason = "its day 2099-12-31 is after tomorrow (2026-11-26, UTC)"
    assert feed_health(live_app, 0) == {**feed_health(live_app, 0), "status": "failing", "error": reason}
    assert warnings(caplog) == [f"Rates feed ECB ({feeds.ecb_url}) refused: {reason}; keeping the rates of {ECB_DAY}."]
    feeds.ecb_day = FEEDS_NOW.date()  # the genuine next day: served as usual
    refresh(live_app)
    assert feed_health(live_app, 0)["status"] == "ok"
    figures, history_end, last_modified = served(live_app)
    assert history_end == "2026-11-25" and "2099" not in last_modified


def test_a_redirect_to_another_port_is_refused(live_app, feeds, caplog):
    elsewhere = f"http://127.0.0.1:{unused_port()}/ecb.xml"
    feeds.replies["/ecb.xml"] = Reply(status=302, headers={"Location": elsewhere})
    refresh(live_app)
    reason = f"redirected to {elsewhere}, not the configured scheme, host and port: refused"
    assert feed_health(live_app, 0) == {**feed_health(live_app, 0), "status": "failing", "error": reason}


def test_a_redirect_on_the_same_host_is_followed_and_the_log_names_where_the_answer_came_from(live_app, feeds, caplog):
    feeds.replies["/ecb.xml"] = Reply(status=301, headers={"Location": "/moved/eurofxref-daily.xml?x=1"})
    feeds.replies["/moved/eurofxref-daily.xml"] = Reply(body=ecb_xml())
    caplog.set_level("INFO")
    refresh(live_app)
    assert feed_health(live_app, 0)["status"] == "ok"
    assert f"Rates feed ECB ({feeds.base}/moved/eurofxref-daily.xml): 27 rates of 2026-11-24." in caplog.messages


def test_a_redirect_loop_ends(live_app, feeds):
    feeds.replies["/ecb.xml"] = Reply(status=307, headers={"Location": "/ecb.xml"})
    refresh(live_app)
    assert feed_health(live_app, 0)["error"] == "more than 3 redirects"


class TricklingServer:
    """An HTTP answer that promises 10,000 bytes and sends one every 50 ms: when did the client let go?"""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/ecb.xml"
        self.closed_at: float | None = None
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        connection, _ = self.listener.accept()
        with connection:
            connection.recv(65536)
            try:
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 10000\r\n\r\n")
                for _ in range(10000):
                    connection.sendall(b"x")
                    time.sleep(0.05)
            except OSError:
                self.closed_at = time.monotonic()


def test_a_trickled_answer_given_up_at_the_deadline_has_its_connection_closed():
    trickle = TricklingServer()
    with pytest.raises(FeedError, match="no whole answer within 0.5 s"):
        get(trickle.url, timeout=0.5)
    given_up = time.monotonic()
    trickle.thread.join(timeout=2)
    assert trickle.closed_at is not None and trickle.closed_at - given_up < 1
