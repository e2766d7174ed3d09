"""GET for the rate feeds: a deadline for the whole answer, a size bound, redirects only to the same host."""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import urllib.parse
from typing import NamedTuple

from corridor import __version__

TIMEOUT_S = 10.0  # for a whole answer, however slowly it trickles in
MAX_BYTES = 2 * 2**20
MAX_REDIRECTS = 3
REDIRECTS = (301, 302, 303, 307, 308)


class FeedError(Exception):
    """A feed's answer that cannot be used; the message is the reason, for a log line and for health."""


def shown_url(url: str) -> str:
    """The URL as a log line may show it: no query, where a credential could be."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


class Answer(NamedTuple):
    body: bytes
    url: str  # after any redirect


def get(url: str, timeout: float | None = None) -> Answer:
    """Redirects are followed only to the same scheme, host and port: a feed is trusted where it is configured."""
    # a thread of its own, so that the deadline covers the name lookup and an answer that trickles in too; one that
    # misses it has its connection closed under it, which ends it at once
    fetch = _Fetch(url, TIMEOUT_S if timeout is None else timeout)
    worker = threading.Thread(target=fetch.run, daemon=True)  # looked up now: gevent's, once a worker has patched it
    worker.start()
    worker.join(fetch.timeout)
    if worker.is_alive():
        fetch.abandon()
        raise FeedError(fetch.late)
    if fetch.error is not None:
        raise FeedError(fetch.error)
    return Answer(fetch.body, fetch.url)


class _Fetch:
    def __init__(self, url: str, timeout: float) -> None:
        self.url, self.timeout, self.late = url, timeout, f"no whole answer within {timeout:g} s"
        self.body = b""
        self.error: str | None = None  # why there is no body
        self._connection: http.client.HTTPConnection | None = None
        self._abandoned = False

    def run(self) -> None:
        try:
            self.body = self._get()
        except FeedError as err:
            self.error = str(err)
        except TimeoutError:
            self.error = self.late
        except http.client.IncompleteRead:
            self.error = "the answer was cut short"
        except Exception as err:  # a malformed answer, a reset connection: said by kind, never with the URL
            self.error = f"cannot read the answer ({type(err).__name__})"
        finally:
            self._close()

    def abandon(self) -> None:
        """Close the connection under the thread: its read fails, and it ends."""
        self._abandoned = True
        self._close()

    def _close(self) -> None:
        connection = self._connection
        if connection is not None and connection.sock is not None:
            with contextlib.suppress(OSError):
                connection.sock.shutdown(socket.SHUT_RDWR)  # wakes a read blocked in another thread
        if connection is not None:
            connection.close()

    def _get(self) -> bytes:
        for _ in range(MAX_REDIRECTS + 1):
            parts = urllib.parse.urlsplit(self.url)
            kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
            assert parts.hostname is not None, "feed_url refuses a URL without one, and redirects keep it"
            self._connection = kind(parts.hostname, parts.port, timeout=self.timeout)
            if self._abandoned:
                raise FeedError(self.late)
            target = urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, ""))
            try:
                self._connection.request(
                    "GET", target, headers={"User-Agent": f"corridor-api/{__version__}", "Accept-Encoding": "identity"}
                )
            except TimeoutError:
                raise
            except OSError as err:
                reason = "connection refused" if isinstance(err, ConnectionRefusedError) else err.strerror
                raise FeedError(f"cannot connect: {reason or type(err).__name__}") from None
            answer = self._connection.getresponse()
            if answer.status in REDIRECTS:
                self.url = _redirect_target(self.url, answer.getheader("Location") or "")
                self._close()
                continue
            if answer.status != 200:
                raise FeedError(f"HTTP {answer.status} instead of 200")
            body = answer.read(MAX_BYTES + 1)
            if len(body) > MAX_BYTES:
                raise FeedError(f"the answer is over {MAX_BYTES:,} bytes")
            if answer.length:  # bytes its Content-Length promised that never came
                raise FeedError("the answer was cut short")
            return body
        raise FeedError(f"more than {MAX_REDIRECTS} redirects")


def _redirect_target(url: str, location: str) -> str:
    target = urllib.parse.urljoin(url, location.strip())
    before, after = urllib.parse.urlsplit(url), urllib.parse.urlsplit(target)
    try:
        same = (after.scheme, after.hostname, after.port) == (before.scheme, before.hostname, before.port)
    except ValueError:  # a port that is not a number
        same = False
    if not location.strip() or not same:
        raise FeedError(f"redirected to {shown_url(target)[:100]}, not the configured scheme, host and port: refused")
    return target
