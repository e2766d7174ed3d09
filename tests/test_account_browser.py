"""A holder's path in a real browser: sign up, make a key, use it, revoke it (after a page that asks); the pages
accessible at both widths and laid out for a phone."""

import json
import urllib.error
import urllib.request

import pytest
from conftest import running_gunicorn
from harness import DIRECT, requires
from holders import KEY_FORMAT, PASSWORD
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as arrived
from selenium.webdriver.support.ui import Select, WebDriverWait
from test_page_browser import RUN_AXE, axe_source  # noqa: F401  (axe_source: the fixture)

from scripts.page_screenshots import SIZES, phone

pytestmark = requires("chromium", "chromedriver")

NO_SIDEWAYS_SCROLL = "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
# in a phone's viewport: as wide as the phone (a page without a viewport meta is laid out 980 px wide), not wider
LAID_OUT_FOR_A_PHONE = "return [innerWidth, document.documentElement.scrollWidth <= innerWidth]"


def status_of(base, key):
    request = urllib.request.Request(f"{base}/api/corridors", headers={"Authorization": f"Bearer {key}"})
    try:
        with DIRECT.open(request, timeout=5) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    log = tmp_path_factory.mktemp("account-browser") / "gunicorn.log"
    with running_gunicorn(log, API_KEYS="", WEB_CONCURRENCY="1") as (url, _, _):
        yield url


def loaded(driver, url):
    """Wait for the browser to show `url` (a click on a submit button returns before the next page loads)."""
    WebDriverWait(driver, 10).until(arrived.url_to_be(url), driver.page_source)


def fill(driver, **fields):
    for name, value in fields.items():
        field = driver.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)


@pytest.mark.parametrize("path", ["/account/signup", "/account/login"])
def test_the_forms_are_laid_out_for_a_phone(driver, base, path):
    with phone(driver):
        driver.get(base + path)
        assert driver.execute_script(LAID_OUT_FOR_A_PHONE) == [SIZES[1][0], True]


def test_a_holder_signs_up_makes_a_key_uses_it_and_revokes_it(driver, base, axe_source):  # noqa: F811
    driver.get(base + "/account")
    assert driver.current_url == base + "/account/login"
    driver.find_element(By.LINK_TEXT, "Create one").click()
    loaded(driver, base + "/account/signup")
    fill(driver, email="ana@example.com", password=PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    loaded(driver, base + "/account")

    fill(driver, name="checkout server")
    Select(driver.find_element(By.NAME, "expires_days")).select_by_value("365")
    driver.find_element(By.XPATH, "//button[text()='Make key']").click()
    key = WebDriverWait(driver, 10).until(arrived.presence_of_element_located((By.ID, "new-key"))).text
    assert KEY_FORMAT.fullmatch(key)
    status, body = status_of(base, key)
    assert status == 200 and body[0]["from_currency"] == "USD"

    driver.get(base + "/account")  # shown once: never again
    assert driver.find_elements(By.ID, "new-key") == [] and key not in driver.page_source
    cells = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#keys tbody tr > *")]
    assert cells[:2] == ["checkout server", key[:12] + "…"] and cells[3].endswith("UTC")  # used just now

    driver.execute_script(axe_source)
    driver.set_script_timeout(30)
    for width, height in SIZES:
        driver.set_window_size(width, height)
        assert driver.execute_script(NO_SIDEWAYS_SCROLL), f"the account page scrolls sideways at {width} px"
        violations = driver.execute_async_script(RUN_AXE)
        assert [v for v in violations if v["impact"] in ("serious", "critical")] == [], violations
    with phone(driver):
        assert driver.execute_script(LAID_OUT_FOR_A_PHONE) == [SIZES[1][0], True]

    driver.set_window_size(*SIZES[0])
    driver.find_element(By.CSS_SELECTOR, "#keys button").click()  # a page that asks first, no script needed
    WebDriverWait(driver, 10).until(arrived.title_is("Revoke this key? · Corridor API"))
    assert "Revoke checkout server (" in driver.find_element(By.TAG_NAME, "main").text
    assert status_of(base, key)[0] == 200  # asked, not yet revoked
    driver.find_element(By.LINK_TEXT, "Keep it and go back").click()
    loaded(driver, base + "/account")
    assert status_of(base, key)[0] == 200 and driver.find_elements(By.CSS_SELECTOR, "#keys tbody tr")
    driver.find_element(By.CSS_SELECTOR, "#keys button").click()
    WebDriverWait(driver, 10).until(arrived.title_is("Revoke this key? · Corridor API"))
    driver.find_element(By.XPATH, "//button[text()='Revoke checkout server']").click()
    notice = WebDriverWait(driver, 10).until(arrived.presence_of_element_located((By.CSS_SELECTOR, ".notice")))
    assert driver.current_url == base + "/account"
    assert "The key is revoked" in notice.text
    status, body = status_of(base, key)
    assert (status, body["code"]) == (401, "invalid_api_key")
    assert [entry["message"] for entry in driver.get_log("browser")] == []
