"""The interactive docs at /api/docs and the guide in a real browser, as a newcomer uses them: Selenium drives Debian's
chromium.

With a key authorised, "Execute" on every operation of both groups, opened and nothing edited, must be answered 2xx:
an opened operation is ready to try (no "Try it out" click first), every parameter filled in with its example, so the
examples must go together. On a phone (a mobile viewport 375 px wide) both pages are laid out for it and nothing
scrolls sideways.
"""

import json
import os

import pytest
from conftest import RAW_KEY
from harness import DIRECT, requires
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as arrived
from selenium.webdriver.support.ui import WebDriverWait

from scripts.page_screenshots import SIZES, phone

pytestmark = requires("chromium", "chromedriver")

# set it to a file's path to keep the list of operations and what each answered (the closing note of issue 43)
REPORT = os.environ.get("TRY_IT_OUT_REPORT")


@pytest.fixture(scope="module")
def base(surveyed_server):
    """gunicorn as `make run` serves (conftest's): its base URL."""
    return surveyed_server


def operations(base):
    """Every (method, path) of the served document, in its order."""
    with DIRECT.open(f"{base}/api/openapi.json", timeout=10) as response:
        document = json.load(response)
    return [
        (method.upper(), path)
        for path, item in document["paths"].items()
        for method in item
        if method in ("get", "head", "post", "put", "patch", "delete")
    ]


def wait(driver, seconds=20):
    return WebDriverWait(driver, seconds, poll_frequency=0.05)  # not its 0.5 s: each operation waits three times


def click(driver, element):
    """Scroll `element` to the middle of the window, then click it as a person would."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def press(driver, element):
    """Scroll `element` to the middle of the window and click it, in one script rather than WebDriver's several commands
    a click: trying every operation opens and closes each of them."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].click()", element)


def authorize(driver, key):
    """Authorize with `key` through Swagger UI's dialog, then close it."""
    click(driver, wait(driver).until(arrived.element_to_be_clickable((By.CSS_SELECTOR, ".auth-wrapper .authorize"))))
    field = wait(driver).until(arrived.visibility_of_element_located((By.CSS_SELECTOR, ".modal-ux input")))
    field.send_keys(key)
    driver.find_element(By.CSS_SELECTOR, ".modal-ux .auth-btn-wrapper button.authorize").click()
    click(driver, wait(driver).until(arrived.element_to_be_clickable((By.CSS_SELECTOR, ".modal-ux .btn-done"))))
    wait(driver).until(arrived.invisibility_of_element_located((By.CSS_SELECTOR, ".modal-ux")))


def try_it_out(driver, method, path):
    """Open the operation and Execute it without editing anything: (status, the URL Swagger UI requested)."""
    block = driver.find_element(
        By.XPATH,
        f"//div[contains(@class, 'opblock-{method.lower()}')]"
        f"[.//*[contains(@class, 'opblock-summary-path') and @data-path='{path}']]",
    )
    press(driver, block.find_element(By.CSS_SELECTOR, ".opblock-summary-control"))
    # WebDriver's own click here: it waits for the button to be in place and able to take it, where a script's click
    # on a button React has just drawn again can be lost (one run in several under load)
    click(driver, wait(driver).until(lambda _: block.find_element(By.CSS_SELECTOR, "button.execute")))
    status = (
        wait(driver, 30)
        .until(lambda _: block.find_element(By.CSS_SELECTOR, ".live-responses-table .response .response-col_status"))
        .text.split()[0]
    )
    url = block.find_element(By.CSS_SELECTOR, ".request-url pre").text
    press(driver, block.find_element(By.CSS_SELECTOR, ".opblock-summary-control"))  # closed again: the page stays light
    return int(status), url


def test_try_it_out_answers_2xx_on_every_operation_of_both_groups(driver, base):
    """Authorize with a key, then open and Execute every operation of the served document, each rendered, nothing
    edited: every answer is 2xx."""
    driver.get(f"{base}/api/docs")
    wait(driver).until(arrived.presence_of_element_located((By.CSS_SELECTOR, ".opblock")))
    assert "Corridor API" in driver.title
    authorize(driver, RAW_KEY)
    seen = [(method, path, *try_it_out(driver, method, path)) for method, path in operations(base)]
    lines = [f"{status} {method} {path}  ({url.removeprefix(base)})" for method, path, status, url in seen]
    print("\n".join(["Try it out, every operation:", *lines]))
    if REPORT:
        with open(REPORT, "w", encoding="utf-8") as report:
            report.write("\n".join(lines) + "\n")
    assert {path for _, path, _, _ in seen} >= {
        "/api/providers",
        "/api/poc/providers",
        "/api/history",
        "/api/poc/history",
    }
    assert [line for line, (_, _, status, _) in zip(lines, seen, strict=True) if not 200 <= status < 300] == []


# what a person sees: the headings of a table shown as cards are clipped to nothing, kept for screen readers
LAID_OUT = """
const clipped = element => element && (getComputedStyle(element).clipPath !== "none" || clipped(element.parentElement));
const wide = Array.from(document.querySelectorAll("body *"), element => [element, element.getBoundingClientRect()])
  .filter(([element, box]) => box.width > 0 && box.right > innerWidth + 0.5 && !clipped(element))
  .map(([element, box]) => element.tagName.toLowerCase() + "." + element.getAttribute("class") + " ends at "
                           + Math.round(box.right));
return {layout: innerWidth, scrolls: document.documentElement.scrollWidth - innerWidth, wide: wide.slice(0, 10),
        text: parseFloat(getComputedStyle(document.querySelector("main, #swagger-ui p, body")).fontSize)};
"""


def visible_link(driver, href):
    """The text of the link to `href` a person sees, or None."""
    found = [link for link in driver.find_elements(By.CSS_SELECTOR, f"a[href='{href}']") if link.is_displayed()]
    return found[0].text if found else None


@pytest.mark.parametrize(
    "path, opened",
    [
        ("/api/docs", ["/api/providers", "/api/poc/history"]),
        ("/api/docs/guide", []),
    ],
)
def test_the_docs_are_laid_out_for_a_phone_without_sideways_scroll(driver, base, path, opened):
    """At 375 px the page takes the phone's width (its viewport meta), with operations opened and executed too (their
    curl command and request URL), and no element runs past the window."""
    with phone(driver):
        driver.get(base + path)
        if path == "/api/docs":
            wait(driver).until(arrived.presence_of_element_located((By.CSS_SELECTOR, ".opblock")))
            for operation in opened:
                block = driver.find_element(
                    By.XPATH, f"//div[contains(@class, 'opblock')][.//*[@data-path='{operation}']]"
                )
                click(driver, block.find_element(By.CSS_SELECTOR, ".opblock-summary"))
                click(driver, wait(driver).until(lambda _, b=block: b.find_element(By.CSS_SELECTOR, "button.execute")))
                wait(driver, 30).until(lambda _, b=block: b.find_element(By.CSS_SELECTOR, ".live-responses-table"))
        seen = driver.execute_script(LAID_OUT)
    assert seen["layout"] == SIZES[1][0], f"laid out {seen['layout']} px wide: no viewport meta?"
    assert seen["scrolls"] <= 0 and seen["wide"] == [], seen
    assert seen["text"] >= 14


def test_the_docs_page_links_to_sign_up_and_to_the_guide_at_both_widths(driver, base):
    driver.get(f"{base}/api/docs")
    for width, height in SIZES:
        driver.set_window_size(width, height)
        assert visible_link(driver, "/account/signup") == "Get an API key"
        assert visible_link(driver, "/api/docs/guide") == "Guide: how every figure is computed"


def test_the_page_links_to_sign_up_and_to_the_docs_at_both_widths(driver, base):
    driver.get(f"{base}/")
    for width, height in SIZES:
        driver.set_window_size(width, height)
        assert visible_link(driver, "/account/signup") == "Get an API key"
        assert visible_link(driver, "/api/docs") == "API documentation"
