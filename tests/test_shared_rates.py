"""Instances on one PostgreSQL database share the feeds: each feed is asked once per interval in all, and every instance
serves what that one fetch brought within seconds."""

import time

import sqlalchemy as sa
from conftest import RAW_KEY, forget_rates, running_gunicorn
from test_live_rates_gunicorn import get_json, wait_for

from corridor.data.database import engine_url
from corridor.serving.refresher import POLL_S


def usd_per_eur(base):
    """The USD→EUR rate every worker answering serves, if they all serve the same (ten connections, ten answers)."""
    rates = {get_json(base, "/api/midrate?from=USD&to=EUR", RAW_KEY)["ref_rate_b"] for _ in range(10)}
    return rates.pop() if len(rates) == 1 else None


def taken_up(servers, feeds, expected, since, seconds):
    """Seconds from `since` until each server served `expected`; the feeds' count of ECB asks checked meanwhile."""
    seen = {}
    deadline = since + seconds
    while len(seen) < len(servers):
        for name, server in servers.items():
            if name not in seen and usd_per_eur(server.base) == expected:
                seen[name] = round(time.monotonic() - since, 2)
        assert time.monotonic() < deadline, (seen, feeds.asked)
        time.sleep(0.05)
    return seen


def pass_the_interval(url, seconds):
    """The database at `url` as it will be `seconds` after now, to the refreshers: the last fetch started that much
    longer ago (they compare the interval with it, not with a clock of their own)."""
    engine = sa.create_engine(engine_url(url))
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.text("UPDATE data_stamp SET fetch_started_at = fetch_started_at - :seconds"), {"seconds": seconds}
            )
    finally:
        engine.dispose()


def test_two_instances_on_one_postgresql_fetch_each_feed_once_per_interval_in_all(postgres_url, feeds, tmp_path):
    forget_rates(postgres_url)
    env = {
        "API_KEYS": RAW_KEY,
        "DATABASE_URL": postgres_url,
        "WEB_CONCURRENCY": "2",
        "RATES_REFRESH_MINUTES": "1",
        "ECB_RATES_URL": feeds.ecb_url,
        "FRANKFURTER_URL": feeds.frankfurter_url,
    }
    with (
        running_gunicorn(tmp_path / "one.log", **env) as one,
        running_gunicorn(tmp_path / "two.log", **env) as two,
    ):
        servers = {"one": one, "two": two}
        started = time.monotonic()
        wait_for(lambda: feeds.count("/ecb.xml") == 1, 20, one.log)
        first = taken_up(servers, feeds, round(1 / feeds.ecb_rates["USD"], 6), started, 20)
        time.sleep(2 * POLL_S)  # every worker of both has read the stamp since: none asks again within the interval
        assert (feeds.count("/ecb.xml"), feeds.count("/v2/rates")) == (1, 1)
        # the next interval's fetch: one in all, whichever worker of either instance makes it
        feeds.ecb_rates = {**feeds.ecb_rates, "USD": 1.25}
        pass_the_interval(postgres_url, 60)
        wait_for(lambda: feeds.count("/ecb.xml") == 2, 10, one.log)
        fetched = time.monotonic()
        second = taken_up(servers, feeds, round(1 / 1.25, 6), fetched, 10)
        time.sleep(2 * POLL_S)
        assert (feeds.count("/ecb.xml"), feeds.count("/v2/rates")) == (2, 2)
    print(f"served from start: {first}; served after the interval's fetch: {second}")
