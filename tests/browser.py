"""The headless Chromium the browser tests drive through Selenium: one per test run and worker
(tests/conftest.py's ``browser`` fixture), where each module used to start its own.

The browser is Debian's: ``/usr/bin/chromium`` and ``/usr/bin/chromedriver``, both paths always
given and ``SE_OFFLINE`` set, so Selenium never tries to download a driver. Without them the
browser tests skip, saying which is missing and how to install it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
INSTALL = "apt-get install chromium chromium-driver"
# The window every test starts with (tests that change it put it back; the fixture makes sure).
WINDOW = (1280, 900)


def browser_missing() -> str | None:
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        return f"no {' and no '.join(missing)}: install them with `{INSTALL}` to run this test"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (make setup installs the dev tools)"
    return None


def start_chromium(profile: Path) -> Any:
    """A headless Chromium with its own profile folder, the window at :data:`WINDOW`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager never downloads a driver
    options = Options()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--hide-scrollbars", "--force-device-scale-factor=1",
        f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}",
    ):  # fmt: skip
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    driver.set_page_load_timeout(60)
    return driver


def fresh(driver: Any) -> None:
    """The shared browser as a new one is, before the next test: no page, no cookie of any site
    (the servers of different modules are all 127.0.0.1, and cookies ignore the port), the
    window at :data:`WINDOW`."""
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.set_window_size(*WINDOW)
