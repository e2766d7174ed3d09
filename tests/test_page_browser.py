"""The comparison page at / in a real browser: Selenium drives Debian's chromium through chromedriver.

One gunicorn and one headless Chromium serve the module. A change of any control must update
#results in place (no page load) and the URL with it, ranked as the API ranks; the console must stay
clean; axe-core, from the npm registry (pinned by version and integrity, cached in .cache/axe-core/),
must find nothing serious or critical. WebDriver's scripts run through the DevTools protocol, which the
page's Content-Security-Policy does not govern, so axe runs on the page as served.
"""

import base64
import hashlib
import json
import os
import subprocess
import tarfile
import tempfile
import time
import urllib.parse

import pytest
from harness import DIRECT, ROOT, requires, skip_without
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from scripts.page_screenshots import SHOTS, SIZES, chrome, screenshot

pytestmark = requires("chromium", "chromedriver")

AXE_VERSION = "4.14.1"
AXE_INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
AXE_FILE = ROOT / ".cache" / "axe-core" / AXE_VERSION / "axe.min.js"

# what #results and the address bar show at one moment, read in one go (the script replaces #results
# whole and then the address, in one task)
SNAPSHOT = """
const results = document.getElementById("results");
return {url: location.search.slice(1), samePage: window.samePage === true,
        rows: Array.from(results.querySelectorAll("#providers tbody tr[data-provider]"), row => row.dataset.provider),
        bars: results.querySelectorAll("#cost-chart rect.bar").length,
        rates: results.querySelectorAll("#rate-chart polyline, p.no-history").length};
"""

RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(
  results => done(results.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary}))}))),
  error => done({error: String(error)}));
"""


@pytest.fixture(scope="module")
def base(surveyed_server):
    """gunicorn serving the shipped data and survey rows (conftest's); its base URL."""
    return surveyed_server


@pytest.fixture
def first_visit():
    """A browser of its own that has never seen the server (chromium asks an origin for /favicon.ico once)."""
    with chrome(*SIZES[0]) as driver:
        yield driver


@pytest.fixture(scope="session")
def axe_source():
    """axe.min.js of axe-core AXE_VERSION: `npm pack` once, checked against AXE_INTEGRITY, then cached."""
    if not AXE_FILE.exists():
        skip_without("npm")
        with tempfile.TemporaryDirectory() as tmp:
            packed = subprocess.run(
                ["npm", "pack", f"axe-core@{AXE_VERSION}", "--json", "--pack-destination", tmp],
                check=False,
                cwd=tmp,
                capture_output=True,
                text=True,
                timeout=180,
            )
            assert packed.returncode == 0, packed.stderr[-2000:]
            tarball = os.path.join(tmp, json.loads(packed.stdout)[0]["filename"])
            with open(tarball, "rb") as packed_file:
                digest = "sha512-" + base64.b64encode(hashlib.sha512(packed_file.read()).digest()).decode()
            assert digest == AXE_INTEGRITY, f"axe-core {AXE_VERSION} from npm is not the pinned tarball: {digest}"
            with tarfile.open(tarball) as archive:
                source = archive.extractfile("package/axe.min.js").read()
        AXE_FILE.parent.mkdir(parents=True, exist_ok=True)
        partial = AXE_FILE.with_suffix(".part")
        partial.write_bytes(source)
        os.replace(partial, AXE_FILE)  # whole or not at all, for the next run
    return AXE_FILE.read_text(encoding="utf-8")


def ranked(base, **params):
    """The provider names in the order GET /api/poc/providers ranks them for `params`."""
    with DIRECT.open(f"{base}/api/poc/providers?{urllib.parse.urlencode(params)}", timeout=10) as response:
        return [entry["provider"] for entry in json.load(response)["providers"]]


def shown(query):
    """A query string as the state it means: blank values and the default mode=send left out."""
    return {name: value for name, value in urllib.parse.parse_qsl(query or "") if (name, value) != ("mode", "send")}


def open_page(driver, base):
    """Load / and mark the window, so that a full page load later shows as a lost mark."""
    driver.get(f"{base}/")
    driver.execute_script("window.samePage = true;")


def settled(driver, **expected):
    """Wait until the URL shows `expected`, on the same page; what #results shows then."""
    deadline = time.monotonic() + 10
    while True:
        seen = driver.execute_script(SNAPSHOT)
        if shown(seen["url"]) == expected:
            break
        assert time.monotonic() < deadline, f"the URL never showed {expected}; last seen: {seen}"
        time.sleep(0.05)
    assert seen["samePage"], "the page was loaded anew: the script must update #results in place"
    return seen


def choose(driver, corridor, amount):
    """Pick `corridor` in #corridor and type `amount` into #amount, cleared first."""
    Select(driver.find_element(By.ID, "corridor")).select_by_value(corridor)
    field = driver.find_element(By.ID, "amount")
    field.clear()
    field.send_keys(amount)


def test_typing_an_amount_ranks_in_place_as_the_api_does(driver, base):
    """Picking a corridor and typing an amount updates the rows in place, in the API's order, URL in step."""
    open_page(driver, base)
    choose(driver, "GBR-IND", "1000")
    seen = settled(driver, corridor="GBR-IND", amount="1000")
    assert seen["rows"] == ranked(base, corridor="GBR-IND", amount="1000") != []


def test_they_receive_ranks_as_the_api_does_for_a_receive_amount(driver, base):
    """With "they receive" chosen, the amount is the one delivered: the API's receive_amount order."""
    open_page(driver, base)
    choose(driver, "GBR-IND", "1000")
    settled(driver, corridor="GBR-IND", amount="1000")
    driver.find_element(By.ID, "mode-receive").click()
    seen = settled(driver, corridor="GBR-IND", amount="1000", mode="receive")
    assert seen["rows"] == ranked(base, corridor="GBR-IND", receive_amount="1000") != []


AMOUNT_FIELD = """
const box = document.getElementById("amount");
return [document.getElementById("amount-label").textContent, document.getElementById("amount-hint").textContent,
        box.placeholder, box.value, document.activeElement === box,
        Array.from(document.querySelectorAll("#providers thead th"), th => th.textContent)];
"""


def test_the_amount_field_follows_a_corridor_and_mode_change_in_place(driver, base):
    """The label, hint and placeholder name the corridor's currency for the mode; what is typed stays, focused."""
    open_page(driver, base)
    choose(driver, "GBR-IND", "1000")
    settled(driver, corridor="GBR-IND", amount="1000")
    label, hint, placeholder, value, focused, columns = driver.execute_script(AMOUNT_FIELD)
    assert (label, hint, placeholder, value, focused) == (
        "You send (GBP)",
        "In GBP; empty: 149.27 GBP, the reference amount.",
        "149",
        "1000",
        True,
    )
    assert columns[2] == "They receive (INR)"
    driver.find_element(By.ID, "mode-receive").click()
    settled(driver, corridor="GBR-IND", amount="1000", mode="receive")
    label, hint, placeholder, value, _, columns = driver.execute_script(AMOUNT_FIELD)
    assert (label, hint, placeholder, value) == ("They receive (INR)", "In INR: what must arrive.", "18,991", "1000")
    assert columns[2:5] == ["You send (GBP)", "Fees (GBP)", "Total paid (GBP)"]
    caption = driver.find_element(By.CSS_SELECTOR, "#providers caption").text
    assert caption == "Ranked by total paid to deliver 1,000.00 INR"


def test_cost_chart_has_one_bar_per_provider_after_each_update(driver, base):
    """The cost chart is updated with the table: one bar per provider, also when a payout filter drops some."""
    open_page(driver, base)
    choose(driver, "GBR-IND", "1000")
    seen = settled(driver, corridor="GBR-IND", amount="1000")
    assert seen["bars"] == len(seen["rows"]) == len(ranked(base, corridor="GBR-IND", amount="1000"))
    assert seen["rates"] == 1, "the rate chart (a polyline) or p.no-history belongs in #results"
    Select(driver.find_element(By.ID, "payout")).select_by_value("cash_pickup")
    seen = settled(driver, corridor="GBR-IND", amount="1000", payout="cash_pickup")
    assert seen["rows"] == ranked(base, corridor="GBR-IND", amount="1000", payout="cash_pickup")
    assert seen["bars"] == len(seen["rows"])


def test_console_has_no_errors_through_every_control(first_visit, base):
    """A first visit and every control log no console error (a CSP refusal or a 404 would be one)."""
    driver = first_visit
    open_page(driver, base)
    choose(driver, "GBR-IND", "1000")
    settled(driver, corridor="GBR-IND", amount="1000")
    driver.find_element(By.ID, "mode-receive").click()
    settled(driver, corridor="GBR-IND", amount="1000", mode="receive")
    Select(driver.find_element(By.ID, "payout")).select_by_value("cash_pickup")
    settled(driver, corridor="GBR-IND", amount="1000", mode="receive", payout="cash_pickup")
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], "\n".join(f"{entry['source']}: {entry['message']}" for entry in errors)


CRAMPED = """
const cut = [];
const regions = "#providers, #corridors, #cost-chart, #rate-chart, #trend-chart, .legend";
for (const region of document.querySelectorAll(regions)) {
  if (region.getBoundingClientRect().right > innerWidth + 0.5) cut.push(region.id + " ends past the window");
}
for (const caption of document.querySelectorAll("caption")) {
  const box = caption.getBoundingClientRect();
  if (box.left < -0.5 || box.right > innerWidth + 0.5) cut.push("caption '" + caption.textContent + "' is cut");
}
for (const text of document.querySelectorAll("svg text")) {
  const box = text.getBoundingClientRect();
  if (box.left < -0.5 || box.right > innerWidth + 0.5) cut.push("chart text '" + text.textContent + "' is cut");
}
const guides = Array.from(document.querySelectorAll("#cost-chart .guide-label"), t => t.getBoundingClientRect());
const sizes = Array.from(document.querySelectorAll("svg text"), t => t.getBoundingClientRect().height);
return {overflow: document.documentElement.scrollWidth - innerWidth, cut: cut, smallestText: Math.min(...sizes),
        guidesApart: guides.length === 2 && guides[0].right <= guides[1].left,
        tablesScroll: Array.from(document.querySelectorAll(".scroll"), area => area.scrollWidth - area.clientWidth)
                           .filter(extra => extra > 0)};
"""


@pytest.mark.parametrize("name", sorted(SHOTS))
def test_page_renders_at_desktop_and_phone_widths(driver, base, tmp_path, name):
    """Screenshots at 1280 and 375 wide come out at those widths; no width scrolls sideways, not even a table, no
    caption or chart text is cut, the cost chart's 3% and 5% stand apart, and the charts' text is at least 11 px
    tall."""
    driver.get(base + SHOTS[name])
    for width, height in SIZES:
        assert screenshot(driver, width, height, tmp_path / f"{name}-{width}.png")[0] == width
        seen = driver.execute_script(CRAMPED)
        assert seen["overflow"] <= 0, f"at {width} px the page is {seen['overflow']} px wider than the window"
        assert seen["tablesScroll"] == [] and seen["cut"] == [] and seen["guidesApart"], (width, seen)
        assert seen["smallestText"] >= 11, f"at {width} px the charts' smallest text is {seen['smallestText']:.1f} px"


def test_axe_finds_no_serious_or_critical_violation(driver, base, axe_source):
    """axe-core finds no serious or critical violation after an in-place update, at desktop or phone width."""
    open_page(driver, base)
    choose(driver, "GBR-IND", "1000")
    settled(driver, corridor="GBR-IND", amount="1000")
    driver.execute_script(axe_source)
    driver.set_script_timeout(30)
    found = []
    for width, height in SIZES:
        driver.set_window_size(width, height)
        violations = driver.execute_async_script(RUN_AXE)
        assert "error" not in violations, violations
        found += [
            f"at {width} px: {v['id']} ({v['impact']}): {v['help']}\n"
            + "\n".join(f"  {node['target']}: {node['summary']}" for node in v["nodes"])
            for v in violations
            if v["impact"] in ("serious", "critical")
        ]
    assert found == [], "\n".join(found)
