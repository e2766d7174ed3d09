"""During the drain on TERM every answer closes its connection (`Connection: close`), so that kept-alive clients
reconnect through the router to an instance still ready, and none is left for the stop to reset."""

import http.client
import signal
import socket
import threading
import time

from conftest import RAW_KEY, running_gunicorn

CLIENTS = 32
DRAIN = 3
PAUSE_S = 0.02


def keep_asking(host, port, until, outcome):
    """One kept-alive client: a request every PAUSE_S on one connection, until an answer says the connection closes
    (it would then reconnect elsewhere) or fails; what ended it, and when, in `outcome`."""
    connection = http.client.HTTPConnection(host, port, timeout=10)
    asked = 0
    try:
        while time.monotonic() < until:
            connection.request("GET", f"/api/poc/corridors/{1 + asked % 3}")
            answer = connection.getresponse()
            body = answer.read()
            asked += 1
            if answer.getheader("Connection", "").lower() == "close":
                outcome.append(("close", time.monotonic(), answer.status, len(body) > 0))
                return
            time.sleep(PAUSE_S)
        outcome.append(("never told", time.monotonic(), None, None))
    except OSError as err:
        outcome.append((type(err).__name__, time.monotonic(), None, None))
    finally:
        connection.close()


def first_answer_and_then(host, port):
    """A connection opened during the drain: its first answer's status and Connection header, and what the server
    sends after it (b"" once it has closed the connection)."""
    with socket.create_connection((host, port), timeout=5) as raw:
        raw.sendall(f"GET /api/poc/corridors/1 HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        response = http.client.HTTPResponse(raw)
        response.begin()
        response.read()
        return response.status, response.getheader("Connection"), raw.recv(1)


def test_during_the_drain_each_answer_closes_its_connection_and_no_kept_alive_client_is_reset(tmp_path):
    with running_gunicorn(
        tmp_path / "gunicorn.log", API_KEYS=RAW_KEY, DRAIN_SECONDS=str(DRAIN), WEB_CONCURRENCY="2"
    ) as server:
        host, port = server.base.removeprefix("http://").split(":")
        outcomes = [[] for _ in range(CLIENTS)]
        clients = [
            threading.Thread(target=keep_asking, args=(host, int(port), time.monotonic() + 30, outcome))
            for outcome in outcomes
        ]
        for client in clients:
            client.start()
        time.sleep(0.5)  # every client has its connection, kept alive
        assert not any(outcomes), outcomes
        termed = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        for client in clients:
            client.join(timeout=30)
        late = first_answer_and_then(host, int(port))
        server.process.wait(timeout=30)
        stopped = time.monotonic() - termed
        log = server.log.read_text()
    ended = [outcome[0] for outcome in outcomes]
    assert [(what, status, body) for what, _, status, body in ended] == [("close", 200, True)] * CLIENTS, log[-3000:]
    # each told at its next request, long before the drain ends: with the router's next choice, it goes elsewhere
    assert max(at - termed for _, at, _, _ in ended) < 1, [round(at - termed, 2) for _, at, _, _ in ended]
    assert late == (200, "close", b"")
    assert DRAIN <= stopped < DRAIN + 1 + 2  # the drain, gunicorn's graceful timeout (1 s in the tests), a margin
    assert "Worker graceful timeout" not in log  # nothing was left for the stop to cut
