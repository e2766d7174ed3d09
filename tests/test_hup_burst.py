"""A burst of HUPs under gunicorn: the feeds are asked at most twice for it (at once, and once more after it), however
long gunicorn takes to reload for each HUP in turn."""

import signal
import time

import pytest
from test_live_rates_gunicorn import live_server, wait_for  # noqa: F401 - the fixture, used by name

HUPS = 6
QUIET_S = 8  # longer than a burst must be quiet before its one more fetch (--graceful-timeout 1, plus 3 s), and a poll


def settled(server, feeds):
    """How many HUPs the master reloaded for, once neither it nor the feeds have seen anything for QUIET_S."""
    seen, since = None, time.monotonic()
    while time.monotonic() - since < QUIET_S:
        now = server.log.read_text().count("Hang up: the keys"), feeds.count("/")
        if now != seen:
            seen, since = now, time.monotonic()
        time.sleep(0.1)
    return seen[0]


@pytest.mark.parametrize("gap", [0.0, 0.01, 0.1], ids=["at once", "10 ms apart", "100 ms apart"])
def test_a_burst_of_hups_asks_the_feeds_at_most_twice(live_server, feeds, gap):  # noqa: F811
    assert feeds.count("/ecb.xml") == 1  # at start
    for _ in range(HUPS):
        live_server.process.send_signal(signal.SIGHUP)
        time.sleep(gap)
    wait_for(lambda: "Hang up: the keys" in live_server.log.read_text(), 10, live_server.log)
    reloads = settled(live_server, feeds)  # signals sent at once may reach gunicorn's handler as fewer
    assert reloads >= 1
    # the first HUP's refresh at once; the rest, if gunicorn saw any, merged into one more after the last
    assert (feeds.count("/ecb.xml"), feeds.count("/v2/rates")) == (1 + min(reloads, 2),) * 2
