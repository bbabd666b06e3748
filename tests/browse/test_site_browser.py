"""The static index in a real browser (issue #18 item 4): headless Chromium (Debian's chromium and
chromium-driver, through Selenium with both paths given) over the generated site served on
http://127.0.0.1. The list shows every entry; the search and a filter narrow it; an entry page shows its
card and README at a phone's and a wide screen's width; and a README carrying a script element, an
`onerror` attribute, a `javascript:` link and an image on a second local listener executes nothing (no
dialog, no console error) and requests nothing beyond the site itself (the requests recorded by the
browser's DevTools protocol, by the site's server and by the listener). Chromium's own background traffic
is switched off (browser.FLAGS). `.ci/run` installs the browser where none is, so CI never skips here."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from . import browser
from .hostile import HOSTILE_ENTRY, HOSTILE_TAG, MARKER, released_hostile
from .releases import rows, show
from .sites import git_identity, index

pytestmark = pytest.mark.skipif(browser.missing_reason() is not None, reason=browser.missing_reason() or "")


@pytest.fixture(scope="module")
def tracker(tmp_path_factory):
    """The second listener: an empty directory served, every request it gets recorded."""
    with browser.served(tmp_path_factory.mktemp("tracker")) as (origin, seen):
        yield origin, seen


@pytest.fixture(scope="module")
def catalog(tmp_path_factory, tracker) -> Path:
    with git_identity():
        root = tmp_path_factory.mktemp("browser") / "catalog"
        released_hostile(root, tracker[0])
    return root


@pytest.fixture(scope="module")
def site(catalog, tmp_path_factory):
    out = tmp_path_factory.mktemp("served") / "site"
    with git_identity():
        assert index(catalog, HOSTILE_TAG, out) == 0
    with browser.served(out) as (origin, seen):
        yield origin, seen


@pytest.fixture(scope="module")
def driver():
    with browser.chromium() as chromium:
        yield chromium


@pytest.fixture(autouse=True)
def _fresh_logs(driver):
    driver.get_log("browser")
    driver.get_log("performance")


def _entries(catalog: Path) -> list[dict]:
    """Each entry of the release as git holds it: its row and its entry.json."""
    return [row | {"entry": json.loads(show(catalog, HOSTILE_TAG, f"{row['path']}/entry.json"))}
            for row in rows(catalog, HOSTILE_TAG)]


def _visible(driver) -> list[str]:
    return [li.find_element("css selector", ".id code").text
            for li in driver.find_elements("css selector", "li.entry") if li.is_displayed()]


def _requested(driver) -> list[str]:
    """Every URL the page asked the network for, from DevTools' Network.requestWillBeSent events."""
    urls = []
    for item in driver.get_log("performance"):
        message = json.loads(item["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def _severe(driver) -> list[dict]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def _no_dialog(driver) -> bool:
    from selenium.common.exceptions import NoAlertPresentException

    try:
        driver.switch_to.alert
    except NoAlertPresentException:
        return True
    return False


@pytest.mark.parametrize("size", [browser.PHONE, browser.WIDE], ids=["phone", "wide"])
def test_the_list_shows_every_entry(driver, site, catalog, size):
    origin, _ = site
    browser.viewport(driver, size)
    driver.get(f"{origin}/index.html")
    wanted = [item["id"] for item in _entries(catalog)]
    assert _visible(driver) == wanted
    assert driver.find_element("id", "count").text == f"{len(wanted)} entries"
    assert driver.find_element("id", "filters").is_displayed()
    width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width == [size[0], size[0]]  # nothing wider than the screen
    assert _no_dialog(driver) and _severe(driver) == []


def test_the_search_and_a_filter_narrow_the_list(driver, site, catalog):
    from selenium.webdriver.support.ui import Select

    origin, _ = site
    browser.viewport(driver, browser.WIDE)
    driver.get(f"{origin}/index.html")
    entries = _entries(catalog)
    search = driver.find_element("id", "search")
    search.send_keys("gateway.fx-exposure")
    assert _visible(driver) == ["gateway.fx-exposure"]
    assert driver.find_element("id", "count").text == f"1 of {len(entries)} entries shown"
    search.clear()
    search.send_keys("no entry has these words")
    assert _visible(driver) == [] and driver.find_element("id", "none-match").is_displayed()
    search.clear()
    search.send_keys(" ")  # clear() sends no input event; a space is no word and matches every entry
    assert len(_visible(driver)) == len(entries)
    Select(driver.find_element("id", "filter-kind")).select_by_value("preset")
    presets = [e["id"] for e in entries if e["entry"]["kind"] == "preset"]
    assert _visible(driver) == presets and 0 < len(presets) < len(entries)
    Select(driver.find_element("id", "filter-kind")).select_by_value("")
    Select(driver.find_element("id", "filter-source")).select_by_value("research")
    research = [e["id"] for e in entries if "research" in e["entry"]["sourceKinds"]]
    assert _visible(driver) == research and 0 < len(research) < len(entries)
    Select(driver.find_element("id", "filter-direction")).select_by_value("output")
    assert _visible(driver) == [e["id"] for e in entries if "research" in e["entry"]["sourceKinds"]
                                and e["entry"]["direction"] == "output"] == []
    Select(driver.find_element("id", "filter-source")).select_by_value("")
    assert _visible(driver) == [e["id"] for e in entries if e["entry"]["direction"] == "output"]
    assert _severe(driver) == []


@pytest.mark.parametrize("size", [browser.PHONE, browser.WIDE], ids=["phone", "wide"])
def test_an_entry_page_shows_its_card_and_readme(driver, site, catalog, size):
    origin, _ = site
    browser.viewport(driver, size)
    driver.get(f"{origin}/index.html")
    driver.find_element("link text", "Currency exposure from a calculator").click()
    assert driver.current_url == f"{origin}/entries/gateway.fx-exposure.html"
    entry = json.loads(show(catalog, HOSTILE_TAG, "entries/gateway/fx-exposure/entry.json"))
    card = driver.find_element("css selector", "article.card")
    text = " ".join(card.text.split())
    for value in (entry["title"], entry["licence"], entry["author"], entry["assertion"],
                  *(f["name"] for f in entry["fixtures"])):
        assert value in text, value
    readme = driver.find_element("css selector", ".readme").text
    assert "A second paragraph, added for the second release." in readme
    assert "converts an amount to euros" in readme
    width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width == [size[0], size[0]]
    assert _no_dialog(driver) and _severe(driver) == []


def test_a_hostile_readme_executes_nothing_and_requests_nothing_beyond_the_site(driver, site, tracker):
    origin, seen = site
    tracker_origin, tracker_seen = tracker
    browser.viewport(driver, browser.WIDE)
    before = len(seen)
    driver.get(f"{origin}/entries/{HOSTILE_ENTRY}.html")
    time.sleep(0.5)  # time for an image or a handler to have fired, were one there
    readme = driver.find_element("css selector", ".readme")
    text = readme.text
    assert MARKER in text
    assert "<script>alert(1)</script>" in text and 'onerror="alert(2)"' in text  # shown as text
    assert f'<img src="{tracker_origin}/raw-image.png" onerror="alert(4)">' in text
    assert _no_dialog(driver)
    assert driver.find_elements("css selector", "img") == []
    assert readme.find_elements("css selector", "script") == []
    assert driver.execute_script("return document.querySelectorAll('[onerror],[onclick]').length") == 0
    hrefs = [a.get_attribute("href") for a in readme.find_elements("css selector", "a")]
    assert hrefs == [f"{tracker_origin}/tracker.png"]  # the image as a link to its address, not loaded
    assert "click" in text and not any(h.lower().startswith("javascript:") for h in hrefs)
    assert _severe(driver) == []
    requested = _requested(driver)
    assert requested and all(url.startswith(origin + "/") for url in requested), requested
    assert tracker_seen == []
    assert set(seen[before:]) <= {f"/entries/{HOSTILE_ENTRY}.html", "/assets/style.css", "/assets/icon.svg"}

