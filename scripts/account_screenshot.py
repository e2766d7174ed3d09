"""A screenshot of the account page's API keys section, for the docs: a holder's path in headless Chromium.

Usage: BASE_URL=… python scripts/account_screenshot.py [OUT_DIR]  (make screenshots starts a server)
Signs up a new account, makes two keys, calls /api/corridors with the first (so it shows a last use),
and writes OUT_DIR/account-keys.png (OUT_DIR: docs): the page right after the second key was made.
"""

from __future__ import annotations

import os
import secrets
import sys
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as arrived
from selenium.webdriver.support.ui import Select, WebDriverWait

from scripts.page_screenshots import chrome, png_size

DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def make_key(driver, name: str, expires: str) -> str:
    driver.find_element(By.NAME, "name").send_keys(name)
    Select(driver.find_element(By.NAME, "expires_days")).select_by_value(expires)
    driver.find_element(By.XPATH, "//button[text()='Make key']").click()
    return WebDriverWait(driver, 10).until(arrived.presence_of_element_located((By.ID, "new-key"))).text


def main(out_dir: str = "docs") -> None:
    base = os.environ["BASE_URL"].rstrip("/")
    with chrome(1280, 1300) as driver:
        driver.get(base + "/account/signup")
        driver.find_element(By.NAME, "email").send_keys(f"ana.{secrets.token_hex(3)}@example.com")
        driver.find_element(By.NAME, "password").send_keys(secrets.token_urlsafe(18))
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(driver, 10).until(arrived.url_to_be(base + "/account"))
        first = make_key(driver, "checkout server", "365")
        request = urllib.request.Request(base + "/api/corridors", headers={"Authorization": f"Bearer {first}"})
        with DIRECT.open(request, timeout=10) as response:
            assert response.status == 200
        driver.get(base + "/account")
        make_key(driver, "laptop (testing)", "30")
        path = Path(out_dir) / "account-keys.png"
        section = driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=keys-heading]")
        assert section.screenshot(str(path)), "chromium took no screenshot"
        width, height = png_size(path)
        print(f"wrote {path} ({width}x{height})")


if __name__ == "__main__":
    main(*sys.argv[1:2])
