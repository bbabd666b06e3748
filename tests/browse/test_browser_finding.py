"""How the browser test finds its browser (issue #18 item 4; tests/browse/browser.py): the paths `.ci/run`
exports, else the names on PATH; with neither, the one reason it skips for, naming what is missing and how
CI installs it."""

from __future__ import annotations

import os
import stat

from . import browser


def _clear(monkeypatch, path: str) -> None:
    for key in ("EXCHANGE_CHROMIUM", "EXCHANGE_CHROMEDRIVER", "CHROMEWEBDRIVER"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PATH", path)


def _tool(directory, name: str) -> str:
    path = directory / name
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_nothing_found_is_the_one_skip_reason(monkeypatch, tmp_path):
    _clear(monkeypatch, str(tmp_path))
    assert browser.find() == (None, None)
    reason = browser.missing_reason()
    assert reason is not None and reason.startswith("a browser (chromium, chromium-browser, google-chrome) and "
                                                    "chromedriver not found on PATH")
    assert ".ci/run installs Debian's chromium and chromium-driver when it runs as root" in reason


def test_names_on_path_are_found_in_order(monkeypatch, tmp_path):
    _clear(monkeypatch, str(tmp_path))
    chrome = _tool(tmp_path, "google-chrome")
    assert browser.find() == (chrome, None) and browser.missing_reason().startswith("chromedriver not found")
    chromium = _tool(tmp_path, "chromium")
    driver = _tool(tmp_path, "chromedriver")
    assert browser.find() == (chromium, driver) and browser.missing_reason() is None


def test_the_paths_ci_exports_come_first(monkeypatch, tmp_path):
    _clear(monkeypatch, str(tmp_path))
    _tool(tmp_path, "chromium")
    monkeypatch.setenv("EXCHANGE_CHROMIUM", "/opt/x/chrome")
    monkeypatch.setenv("EXCHANGE_CHROMEDRIVER", "/opt/x/chromedriver")
    assert browser.find() == ("/opt/x/chrome", "/opt/x/chromedriver")


def test_a_hosted_runners_chromedriver_is_found(monkeypatch, tmp_path):
    _clear(monkeypatch, str(tmp_path / "empty"))
    monkeypatch.setenv("CHROMEWEBDRIVER", str(tmp_path))
    assert browser.find()[1] is None
    driver = _tool(tmp_path, "chromedriver")
    assert browser.find()[1] == driver == os.path.join(str(tmp_path), "chromedriver")
