"""A burst of HUPs under gunicorn: the feeds are asked at most twice for it (at once, and once more after it), however
long gunicorn takes to reload for each HUP in turn."""

import os
import signal
import time

import pytest
from conftest import forget_rates
from feeds import FeedServer
from test_live_rates_gunicorn import serving_live, wait_for

HUPS = 6
QUIET_S = 8  # longer than a burst must be quiet before its one more fetch (--graceful-timeout 1, plus 3 s), and a poll
HUNG_UP = "Hang up: the keys"  # the master's line for each HUP it reloads for


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """The loopback feeds and a gunicorn of two workers they feed (`serving_live`: each HUP forks them anew), shared
    by the bursts: each starts once the one before it has settled, and counts from there."""
    forget_rates(os.environ["DATABASE_URL"])
    log = tmp_path_factory.mktemp("burst") / "gunicorn.log"
    with FeedServer() as feeds, serving_live(log, feeds, workers=2) as server:
        yield feeds, server


def settled(server, feeds):
    """How many HUPs the master has reloaded for, once neither it nor the feeds have seen anything for QUIET_S."""
    seen, since = None, time.monotonic()
    while time.monotonic() - since < QUIET_S:
        now = server.log.read_text().count(HUNG_UP), feeds.count("/")
        if now != seen:
            seen, since = now, time.monotonic()
        time.sleep(0.1)
    return seen[0]


# six HUPs in 60 ms, as operators were seen to send, and spread over half a second, across gunicorn's reloads
@pytest.mark.parametrize("gap", [0.01, 0.1], ids=["10 ms apart", "100 ms apart"])
def test_a_burst_of_hups_asks_the_feeds_at_most_twice(live, gap):
    feeds, server = live
    asked = feeds.count("/ecb.xml"), feeds.count("/v2/rates")
    assert asked[0] == asked[1]  # once at start, then once or twice for each burst before this one
    hung_up = server.log.read_text().count(HUNG_UP)
    for _ in range(HUPS):
        server.process.send_signal(signal.SIGHUP)
        time.sleep(gap)
    wait_for(lambda: server.log.read_text().count(HUNG_UP) > hung_up, 10, server.log)
    reloads = settled(server, feeds) - hung_up  # signals close together may reach gunicorn's handler as fewer
    assert reloads >= 1
    # the first HUP's refresh at once; the rest, if gunicorn saw any, merged into one more after the last
    assert (feeds.count("/ecb.xml") - asked[0], feeds.count("/v2/rates") - asked[1]) == (min(reloads, 2),) * 2
