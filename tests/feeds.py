"""Loopback stand-ins for the ECB and Frankfurter: real HTTP on 127.0.0.1, answers and faults set by each test."""

from __future__ import annotations

import datetime as dt
import json
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ECB_DAY = dt.date(2026, 11, 24)
# euro rates of ECB_DAY: the ECB's of 2026-10-30 moved a little, so that every figure visibly follows
ECB_RATES = {
    "USD": 1.1600,
    "JPY": 178.20,
    "GBP": 0.88210,
    "CHF": 0.93000,
    "CAD": 1.6250,
    "AUD": 1.7700,
    "NZD": 2.0100,
    "CNY": 8.2500,
    "HKD": 9.0200,
    "SGD": 1.5100,
    "INR": 102.50,
    "PHP": 68.10,
    "IDR": 19400.0,
    "THB": 37.80,
    "MYR": 4.8300,
    "KRW": 1660.0,
    "MXN": 21.300,
    "BRL": 6.2100,
    "ZAR": 20.150,
    "TRY": 49.000,
    "ILS": 3.7500,
    "SEK": 10.950,
    "NOK": 11.700,
    "DKK": 7.4600,
    "PLN": 4.2400,
    "CZK": 24.200,
    "HUF": 385.00,
}
FRANKFURTER_DAY = dt.date(2026, 11, 25)
# units per USD of the currencies the ECB does not publish
FRANKFURTER_RATES = {
    "PKR": 283.40,
    "BDT": 121.90,
    "LKR": 301.10,
    "NPR": 140.20,
    "VND": 26310.0,
    "GTQ": 7.6700,
    "HNL": 26.400,
    "DOP": 63.900,
    "JMD": 160.10,
    "COP": 3850.0,
    "CLP": 941.00,
    "PEN": 3.3600,
    "NGN": 1460.0,
    "GHS": 11.100,
    "KES": 129.10,
    "EGP": 47.900,
    "MAD": 9.2100,
    "AED": 3.6725,
    "SAR": 3.7500,
    "QAR": 3.6400,
    "KWD": 0.30650,
    "UAH": 41.900,
}


def ecb_xml(day: dt.date = ECB_DAY, rates: dict | None = None) -> bytes:
    """eurofxref-daily.xml as the ECB writes it."""
    cubes = "".join(f"<Cube currency='{code}' rate='{rate}'/>" for code, rate in (rates or ECB_RATES).items())
    return (
        "<?xml version='1.0' encoding='UTF-8'?>\n<gesmes:Envelope xmlns:gesmes='http://www.gesmes.org/xml/2002-08-01'"
        " xmlns='http://www.ecb.int/vocabulary/2002-08-01/eurofxref'><gesmes:subject>Reference rates</gesmes:subject>"
        f"<Cube><Cube time='{day.isoformat()}'>{cubes}</Cube></Cube></gesmes:Envelope>"
    ).encode()


def frankfurter_rows(query: dict[str, str], day: dt.date = FRANKFURTER_DAY, rates: dict | None = None) -> list[dict]:
    """Frankfurter v2's answer to /rates?base=USD[&quotes=…][&from=…]: each weekday from `from`, or `day`."""
    table = rates or {
        **FRANKFURTER_RATES,
        **{c: r / ECB_RATES["USD"] for c, r in ECB_RATES.items() if c != "USD"},
        "EUR": 1 / ECB_RATES["USD"],
    }
    quotes = query["quotes"].split(",") if "quotes" in query else sorted(table)
    # a `from` after `day` (a run long after it) still gets the last week, as if the feed's day were today
    start = min(dt.date.fromisoformat(query["from"]), day - dt.timedelta(days=7)) if "from" in query else day
    days = [start + dt.timedelta(n) for n in range((day - start).days + 1)]
    return [
        {
            "date": d.isoformat(),
            "base": query.get("base", "USD"),
            "quote": code,
            "rate": round(table[code] * (1 + (d - day).days / 10_000), 6),
        }
        for d in days
        if d.weekday() < 5
        for code in quotes
        if code in table
    ]


@dataclass
class Reply:
    """What a path answers: status, body (None: the normal answer), a delay before it, headers; or held until `held` is
    set (30 s at most)."""

    status: int = 200
    body: bytes | None = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    held: threading.Event | None = None


class FeedServer:
    """Both feeds on one loopback port: GET /ecb.xml and GET /v2/rates; `replies` sets faults, `asked` counts."""

    def __init__(self) -> None:
        self.replies: dict[str, Reply] = {}
        self.asked: list[str] = []
        self.ecb_day, self.ecb_rates = ECB_DAY, dict(ECB_RATES)
        self.lock = threading.Lock()
        feeds = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # http.server's name
                path, _, query = self.path.partition("?")
                with feeds.lock:
                    feeds.asked.append(self.path)
                reply = feeds.replies.get(path, Reply())
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.held is not None:
                    reply.held.wait(30)
                body = reply.body if reply.body is not None else feeds.normal(path, dict(urllib.parse.parse_qsl(query)))
                try:
                    self.send_response(reply.status if body is not None else 404)
                    for name, value in {"Content-Length": str(len(body or b"")), **reply.headers}.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(body or b"")
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.ecb_url, self.frankfurter_url = f"{self.base}/ecb.xml", f"{self.base}/v2"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def normal(self, path: str, query: dict[str, str]) -> bytes | None:
        if path == "/ecb.xml":
            return ecb_xml(self.ecb_day, self.ecb_rates)
        if path == "/v2/rates":
            return json.dumps(frankfurter_rows(query)).encode()
        return None

    def count(self, prefix: str) -> int:
        """Requests so far whose path starts with `prefix`."""
        with self.lock:
            return sum(p.startswith(prefix) for p in self.asked)

    def __enter__(self) -> FeedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.httpd.socket.fileno() >= 0:  # a test may have stopped it already
            self.httpd.shutdown()
            self.httpd.server_close()
