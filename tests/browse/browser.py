"""Headless Chromium for the site's tests (issue #18 item 4): the browser and its driver found (the paths
`.ci/run` exports as EXCHANGE_CHROMIUM and EXCHANGE_CHROMEDRIVER, else `chromium`, `chromium-browser`,
`google-chrome`, `google-chrome-stable` and `chromedriver` on PATH), started through Selenium with both
paths given (so Selenium Manager downloads nothing) and Chromium's own background traffic switched off;
and a directory served on http://127.0.0.1 by http.server in a thread, every request path recorded."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--no-default-browser-check", "--hide-scrollbars",
         "--disable-features=Translate,OptimizationHints,MediaRouter", "--force-device-scale-factor=1")
PHONE = (390, 844)
WIDE = (1440, 900)


def find() -> tuple[str | None, str | None]:
    """The browser's and the driver's paths, or None for what is not found."""
    browser = os.environ.get("EXCHANGE_CHROMIUM") or next(filter(None, map(shutil.which, BROWSERS)), None)
    driver = os.environ.get("EXCHANGE_CHROMEDRIVER") or shutil.which("chromedriver")
    runner = os.path.join(os.environ.get("CHROMEWEBDRIVER", ""), "chromedriver")  # a hosted runner's
    if driver is None and os.environ.get("CHROMEWEBDRIVER") and os.access(runner, os.X_OK):
        driver = runner
    return browser, driver


def missing_reason() -> str | None:
    """Why the browser test cannot run here (None when it can): `.ci/run` installs Debian's chromium and
    chromium-driver as root, so CI never skips."""
    browser, driver = find()
    if browser and driver:
        return None
    lacking = " and ".join(n for n, p in (("a browser (chromium, chromium-browser, google-chrome)", browser),
                                           ("chromedriver", driver)) if not p)
    return (f"{lacking} not found on PATH, and not installed: .ci/run installs Debian's chromium and "
            "chromium-driver when it runs as root; elsewhere install them (apt-get install chromium "
            "chromium-driver) or set EXCHANGE_CHROMIUM and EXCHANGE_CHROMEDRIVER")


@contextmanager
def chromium() -> Iterator:
    """A Selenium driver of headless Chromium with a fresh profile, its console and DevTools network events
    logged (goog:loggingPrefs browser and performance)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver_path = find()
    assert browser and driver_path, missing_reason()
    profile = tempfile.mkdtemp(prefix="exchange-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={WIDE[0]},{WIDE[1]}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    service = Service(executable_path=driver_path, log_output=os.devnull)
    driver = webdriver.Chrome(options=options, service=service)
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def viewport(driver, size: tuple[int, int]) -> None:
    """The page's viewport at `size` CSS pixels (a phone's is a mobile viewport)."""
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == PHONE})


class _Recorder(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, seen: list[str], **kwargs) -> None:
        self._seen = seen
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self._seen.append(self.path)
        super().do_GET()

    def do_HEAD(self) -> None:  # noqa: N802
        self._seen.append(self.path)
        super().do_HEAD()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (http.server's name)
        pass


@contextmanager
def served(directory: Path) -> Iterator[tuple[str, list[str]]]:
    """`directory` served on http://127.0.0.1:PORT in a thread: its origin and the paths requested, in order."""
    seen: list[str] = []
    handler = functools.partial(_Recorder, seen=seen, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
