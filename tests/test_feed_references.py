"""What a feed's day is judged against: the data file's rates, which no answer of a feed changes, so that a feed
cannot walk a rate far in steps; and every day that enters the history, not only the newest."""

import datetime as dt
import json

import pytest
from conftest import FEEDS_NOW, RAW_KEY
from feeds import ECB_DAY, ECB_RATES, Reply, frankfurter_rows

from corridor.rates.live import ACCEPT
from corridor.serving.refresher import Refresher

WALKED = ("GBP", "INR", "MXN")
STEPS = [min(1.95**step, 50.0) for step in range(1, 7)]  # 1.95, 3.8, 7.4, 14.5, 28.2, 50


def refresh_on(app, day):
    refresher = Refresher(app)
    refresher.fetch(dt.datetime.combine(day, dt.time(12), dt.UTC))
    refresher.serve()


def midrate(app, to):
    answer = app.test_client().get(f"/api/midrate?from=USD&to={to}", headers={"Authorization": f"Bearer {RAW_KEY}"})
    return answer.get_json()["ref_rate_b"]


def feed_health(app, index):
    return app.test_client().get("/api/poc/health").get_json()["rates"][index]


def test_a_feed_cannot_walk_rates_far_one_accepted_day_at_a_time(live_app, feeds, raw_seed):
    refresh_on(live_app, ECB_DAY)
    genuine = midrate(live_app, "GBP")
    held = []
    for step, factor in enumerate(STEPS, start=1):
        feeds.ecb_day = ECB_DAY + dt.timedelta(days=step)
        feeds.ecb_rates = {code: rate * (factor if code in WALKED else 1) for code, rate in ECB_RATES.items()}
        refresh_on(live_app, feeds.ecb_day)
        health = feed_health(live_app, 0)
        held.append((health["status"], health["date"], health["error"] and health["error"].split(";")[0]))
        assert midrate(live_app, "GBP") == pytest.approx(genuine * 1.95, rel=1e-5)  # the first step, under 2-fold
    assert held[:3] == [
        ("ok", "2026-11-25", None),
        (
            "held",
            "2026-11-25",
            "held back: its day 2026-11-26 moves the USD→GBP rate 3.87-fold (0.74633 → 2.89154)"
            " from the data file's rates",
        ),
        ("held", "2026-11-25", "held back: its day 2026-11-27 moves the USD→GBP rate 3.8-fold (1.48284 → 5.6385)"),
    ]
    assert held[-1] == (
        "held",
        "2026-11-25",
        "held back: its day 2026-11-30 moves the USD→GBP rate 25.6-fold (1.48284 → 38.0216)",
    )


def kes_series(day, factor):
    """Frankfurter's year of rows with USD→KES on `day` moved `factor`-fold."""
    rows = frankfurter_rows({"base": "USD", "from": "2025-11-24"})
    return json.dumps(
        [{**row, "rate": row["rate"] * factor} if (row["date"], row["quote"]) == (day, "KES") else row for row in rows]
    ).encode()


@pytest.mark.parametrize(
    "factor, moved",
    [(50, "49.1-fold (129.24 → 6340.75)"), (0.02, "0.0196-fold (129.24 → 2.5363)")],
    ids=["50-fold", "a fiftieth"],
)
def test_a_past_frankfurter_day_moved_far_holds_back_the_whole_answer(live_app, feeds, factor, moved):
    feeds.replies["/v2/rates"] = Reply(body=kes_series("2026-06-01", factor))
    refresh_on(live_app, FEEDS_NOW.date())
    client = live_app.test_client()
    assert client.get("/api/poc/history?from=USD&to=KES").status_code == 404  # no day of the answer entered it
    health = feed_health(live_app, 1)
    reason = f"held back: its day 2026-06-01 moves the USD→KES rate {moved}; if it is right, take it with `{ACCEPT}`"
    reason += ", then HUP"
    assert health == {**health, "status": "held", "error": reason}
    del feeds.replies["/v2/rates"]
    refresh_on(live_app, FEEDS_NOW.date())
    assert feed_health(live_app, 1)["status"] == "ok"
    series = client.get("/api/poc/history?from=USD&to=KES&start=2026-05-29&end=2026-06-02").get_json()
    genuine = {
        row["date"]: round(row["rate"], 3)
        for row in frankfurter_rows({"base": "USD", "from": "2025-11-24"})
        if row["quote"] == "KES"
    }
    assert [(p["date"], p["rate"]) for p in series["points"]] == [
        (day, genuine[day]) for day in ("2026-05-29", "2026-06-01", "2026-06-02")
    ]
