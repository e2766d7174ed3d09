"""Screenshots of the comparison page at a desktop and a phone width, for the docs.

Usage: BASE_URL=… python scripts/page_screenshots.py [OUT_DIR]  (make screenshots starts a server)
Drives Debian's chromium through its chromedriver (packages chromium and chromium-driver) with
Selenium, headless, and writes OUT_DIR/page-1280.png and OUT_DIR/page-375.png (OUT_DIR: docs), and the same
of the "they receive" mode (page-receive-*.png), of an amount the page refuses (page-error-*.png), and of a surveyed
corridor's average cost by period, published and computed (page-trend-*.png: USA-MEX, scrolled to its chart; needs
the imports of make run).
tests/test_page_browser.py starts its browser with `chrome` and shoots with `screenshot` too.
"""

from __future__ import annotations

import os
import shutil
import struct
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

SIZES = ((1280, 1600), (375, 1400))  # browser window sizes: a desktop, a phone
PAGE = "/?corridor=GBP_INR&amount=1000"
SHOTS = {
    "page": PAGE,
    "page-receive": "/?corridor=USD_MXN&amount=5000&mode=receive",
    "page-error": "/?corridor=GBP_INR&amount=-5",
    "page-trend": "/?corridor=USA-MEX#trend-title",
}


def chrome(width: int = 1280, height: int = 1600) -> webdriver.Chrome:
    """Headless Debian chromium, its console kept for get_log("browser"); never Selenium Manager's downloads."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-proxy-server",
        "--hide-scrollbars",
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # a driver path of our own skips Selenium Manager, which would look for a driver online
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"))


@contextmanager
def phone(driver: webdriver.Chrome, width: int = SIZES[1][0], height: int = SIZES[1][1]) -> Iterator[webdriver.Chrome]:
    """The browser laid out as a phone's: a mobile viewport, where a page without a viewport meta is drawn 980 px wide
    and shrunk (a desktop window of the same width would not show it)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}
    )
    try:
        yield driver
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def png_size(path: Path) -> tuple[int, int]:
    """A PNG file's width and height, from its header."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is no PNG"
    return struct.unpack(">II", head[16:24])


def screenshot(driver: webdriver.Chrome, width: int, height: int, path: Path) -> tuple[int, int]:
    """Resize the window to `width` x `height`, save what the page shows as `path`; the image's size."""
    driver.set_window_size(width, height)
    assert driver.save_screenshot(str(path)), f"chromium took no screenshot for {path}"
    return png_size(path)


def main(out_dir: str = "docs") -> None:
    base = os.environ["BASE_URL"].rstrip("/")
    with chrome() as driver:  # quits chromium however the block ends
        for name, page in SHOTS.items():
            driver.get(base + page)
            for width, height in SIZES:
                path = Path(out_dir) / f"{name}-{width}.png"
                driver.set_window_size(width, height)
                if "#" in page:  # the fragment's element at the top, as a link to it shows it
                    driver.execute_script("document.getElementById(arguments[0]).scrollIntoView()", page.split("#")[1])
                shot = screenshot(driver, width, height, path)
                print(f"wrote {path} ({shot[0]}x{shot[1]})")


if __name__ == "__main__":
    main(*sys.argv[1:2])
