"""A real browser on another origin: Group B's CORS lets its page read it, Group A's lack of CORS blocks it.

Headless Chromium (Debian's `chromium`) loads a page from a second loopback server, whose script fetches
the gunicorn under test; `--dump-dom` prints the page once the fetches settle, since virtual time stands
still while a fetch is in flight.
"""

import html
import json
import os
import re
import shutil
import signal
import subprocess
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import RAW_KEY, logged
from harness import requires

CHROMIUM = shutil.which("chromium")
pytestmark = requires("chromium")

# each probe's outcome as the page's script saw it: status, body and readable headers, or the error's name
PAGE = """<!doctype html>
<meta charset="utf-8">
<title>Corridor API from another origin</title>
<pre id="result">pending</pre>
<script>
const api = %(api)s, key = %(key)s;
async function probe(path, headers) {
  try {
    const response = await fetch(api + path, {headers});
    const seen = {status: response.status, requestId: response.headers.get("X-Request-ID"),
                  etag: response.headers.get("ETag"), nosniff: response.headers.get("X-Content-Type-Options")};
    seen.body = await response.json();
    return seen;
  } catch (error) {
    return {error: error.name};
  }
}
Promise.allSettled([
  probe("/api/poc/corridors?from=USD&to=MXN", {Authorization: "Bearer x", "X-Request-ID": "browser-1"}),
  probe("/api/poc/health", {"X-Request-ID": "browser-2"}),
  probe("/api/corridors", {Authorization: "Bearer " + key}),
]).then(([groupB, control, groupA]) => {
  const value = settled => settled.status === "fulfilled" ? settled.value : {error: String(settled.reason)};
  document.getElementById("result").textContent = JSON.stringify(
    {done: true, origin: location.origin, groupB: value(groupB), control: value(control), groupA: value(groupA)});
});
</script>
"""


@contextmanager
def page_origin(page):
    """`page` served at / by a second loopback server, a different origin from the API's; always shut down."""
    body = page.encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            found = self.path == "/"
            self.send_response(200 if found else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body) if found else 0))
            self.end_headers()
            if found:
                self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def dump_dom(url, profile):
    """The page's DOM once its script has settled, as headless Chromium prints it; stopped after 30 s."""
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-proxy-server",
        f"--user-data-dir={profile}",
        "--virtual-time-budget=10000",
        "--dump-dom",
        url,
    ]
    # a session of its own, so a hung browser goes with all of its helper processes
    browser = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        dom, errors = browser.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(browser.pid, signal.SIGKILL)
        browser.communicate()
        pytest.fail("chromium did not print the page within 30 s")
    assert browser.returncode == 0, errors[-2000:]
    return dom, errors


def browse(base, tmp_path):
    """Open the probe page from another origin against the API at `base`; what its script saw."""
    with page_origin(PAGE % {"api": json.dumps(base), "key": json.dumps(RAW_KEY)}) as url:
        dom, errors = dump_dom(url, tmp_path / "chromium-profile")
    found = re.search(r'<pre id="result">(.*?)</pre>', dom, re.DOTALL)
    assert found, f"no result in the page:\n{dom[:2000]}\n{errors[-2000:]}"
    text = html.unescape(found.group(1))
    assert text != "pending", "chromium printed the page before its fetches settled"
    result = json.loads(text)
    assert result["done"] is True
    assert result["origin"] == url.rstrip("/") != base, "the page must come from another origin than the API"
    return result


def test_page_on_another_origin_reads_group_b_with_an_authorization_header(server, tmp_path):
    """A cross-origin fetch to Group B with Authorization passes its preflight and reads body and exposed headers."""
    base, _, log = server
    since = len(log.read_text())  # the server is shared: only this test's lines
    seen = browse(base, tmp_path)["groupB"]
    assert "error" not in seen, f"the browser blocked it ({seen['error']}): the preflight must allow Authorization"
    assert seen["status"] == 200
    assert seen["body"]["ok"] is True
    assert seen["body"]["corridor"]["id"] == 1 and seen["body"]["corridor"]["corridor"] == "USD→MXN"
    assert seen["requestId"] == "browser-1"  # exposed, and the one the page sent
    assert re.fullmatch(r'(W/)?"[^"]+"', seen["etag"])  # exposed
    assert seen["nosniff"] is None  # present on the response, but not exposed: the browser hides it
    logged(log, '"OPTIONS /api/poc/corridors HTTP/1.1" 204', since)  # it was preflighted
    logged(log, 'rid=browser-1 "GET /api/poc/corridors HTTP/1.1" 200', since)


def test_page_on_another_origin_is_blocked_from_group_a(server, tmp_path):
    """A cross-origin fetch to Group A with a live key fails in the browser: its preflight answer has no CORS."""
    base, _, log = server
    since = len(log.read_text())
    result = browse(base, tmp_path)
    # the same page reads a preflighted Group B URL, so the block below is CORS, not an unreachable API
    assert result["control"]["status"] == 200 and result["control"]["requestId"] == "browser-2"
    assert result["groupA"] == {"error": "TypeError"}  # what fetch throws for a request CORS refuses
    served = logged(log, '"OPTIONS /api/corridors HTTP/1.1" 204', since)  # the server answered the preflight...
    assert '"GET /api/corridors' not in served  # ...and the browser never sent the request itself
