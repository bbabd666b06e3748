"""The static index in a real browser (issues #18 item 4 and #27): headless Chromium (Debian's chromium and
chromium-driver, through Selenium with both paths given) over the generated site served on
http://127.0.0.1, at a phone's (390) and a wide screen's (1440) width. The list shows every entry under the
catalog's address and a complete release-check command, the first card on the first screen of a phone;
the search (by words, by a pack digest's and an entry digest's first characters) and a filter narrow it; an
entry page shows its card and README, and every link to one of its files resolves inside the site to the
bytes git holds, which the browser shows as text; no page scrolls sideways and no table hides a column; and
a README carrying a script element, an `onerror` attribute, a `javascript:` link and an image on a second
local listener executes nothing (no dialog, no console error) and requests nothing beyond the site itself
(the requests recorded by the browser's DevTools protocol, by the site's server and by the listener).
Chromium's own background traffic is switched off (browser.FLAGS). `.ci/run` installs the browser where none
is, so CI never skips here."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest

from . import browser
from .hostile import HOSTILE_ENTRY, HOSTILE_TAG, MARKER, released_hostile
from .releases import rows, show
from .sites import git_identity, index

pytestmark = pytest.mark.skipif(browser.missing_reason() is not None, reason=browser.missing_reason() or "")
ADDRESS = "https://github.com/acme/judgment-exchange"
SIZES = pytest.mark.parametrize("size", [browser.PHONE, browser.WIDE], ids=["phone", "wide"])


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
        assert index(catalog, HOSTILE_TAG, out, "--address", ADDRESS) == 0
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
        _ = driver.switch_to.alert  # reading it raises when no dialog is open
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


@SIZES
def test_a_hostile_readme_executes_nothing_and_requests_nothing_beyond_the_site(driver, site, tracker, size):
    origin, seen = site
    tracker_origin, tracker_seen = tracker
    browser.viewport(driver, size)
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
    # the image as a link to its address, not loaded; the link to entry.json leads to the site's copy of it
    assert hrefs == [f"{tracker_origin}/tracker.png", f"{origin}/entries/{HOSTILE_ENTRY}/entry.json"]
    assert "click" in text and not any(h.lower().startswith("javascript:") for h in hrefs)
    assert _severe(driver) == []
    requested = _requested(driver)
    assert requested and all(url.startswith(origin + "/") for url in requested), requested
    assert tracker_seen == []
    assert set(seen[before:]) <= {f"/entries/{HOSTILE_ENTRY}.html", "/assets/style.css", "/assets/icon.svg"}



# --- issue #27: the address, the documents, search by digest, small screens ------------------------------


def _no_sideways_scroll(driver, size) -> None:
    width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width == [size[0], size[0]], driver.current_url


def _tables_show_every_column(driver, size) -> None:
    """Every cell of every table is shown, inside the screen's width, and no table scrolls inside its box."""
    found = driver.execute_script("""
        var out = [];
        document.querySelectorAll('table').forEach(function (t, i) {
          if (t.scrollWidth > t.clientWidth + 1) { out.push(['table scrolls', i, t.scrollWidth, t.clientWidth]); }
          var p = t.parentElement;
          if (p.scrollWidth > p.clientWidth + 1) { out.push(['box scrolls', i, p.scrollWidth, p.clientWidth]); }
          t.querySelectorAll('td').forEach(function (c, j) {
            var r = c.getBoundingClientRect();
            if (r.width < 1 || r.height < 1 || r.left < -0.5 || r.right > window.innerWidth + 0.5 ||
                getComputedStyle(c).visibility === 'hidden' || getComputedStyle(c).display === 'none') {
              out.push(['cell hidden', i, j, r.left, r.right]);
            }
          });
        });
        return out;""")
    assert found == [], (driver.current_url, found)


@SIZES
def test_the_address_and_a_complete_release_check_command_are_shown(driver, site, size):
    origin, _ = site
    browser.viewport(driver, size)
    driver.get(f"{origin}/index.html")
    command = driver.find_element("id", "command")
    assert command.is_displayed() and command.text == f"exchange release-check {ADDRESS} {HOSTILE_TAG}"
    address = driver.find_element("css selector", ".release .where a.address")
    assert address.is_displayed() and address.text == ADDRESS and address.get_attribute("href") == ADDRESS
    top = driver.execute_script("return arguments[0].getBoundingClientRect().bottom", command)
    assert top <= size[1]  # the command is on the first screen too


@SIZES
def test_the_first_card_is_on_the_first_screen_and_the_filters_fold_on_a_phone(driver, site, size):
    origin, _ = site
    browser.viewport(driver, size)
    driver.get(f"{origin}/index.html")
    more = driver.find_element("id", "more-filters")
    assert (more.get_attribute("open") is not None) == (size == browser.WIDE)
    assert driver.find_element("id", "search").is_displayed()
    if size == browser.PHONE:
        heading = driver.find_element("css selector", "li.entry h3")
        bottom = driver.execute_script("return arguments[0].getBoundingClientRect().bottom", heading)
        assert 0 < bottom <= size[1], bottom  # the first card's title is read without scrolling
        assert not driver.find_element("id", "filter-kind").is_displayed()
        more.find_element("tag name", "summary").click()
        assert driver.find_element("id", "filter-kind").is_displayed()
    _no_sideways_scroll(driver, size)


def test_the_search_finds_entries_by_a_pack_digest_and_an_entry_digest_prefix(driver, site, catalog):
    origin, _ = site
    browser.viewport(driver, browser.PHONE)
    driver.get(f"{origin}/index.html")
    entries = _entries(catalog)
    packs = sorted({d for e in entries for d in e["entry"].get("pack", {}).get("digests", [])})
    assert packs, "the demonstration catalog has pack digests"
    search = driver.find_element("id", "search")
    for digest in packs:
        search.clear()
        search.send_keys(digest.removeprefix("sha256:")[:8])
        wanted = [e["id"] for e in entries if digest in e["entry"].get("pack", {}).get("digests", [])]
        assert _visible(driver) == wanted and 0 < len(wanted) < len(entries)
    one = entries[3]
    search.clear()
    search.send_keys(one["entryDigest"][:len("sha256:") + 10])
    assert _visible(driver) == [one["id"]]


@SIZES
def test_every_document_link_resolves_inside_the_site_to_the_released_bytes(driver, site, catalog, size):
    """On every entry page: each link in its files table and each README link to a file resolves (as the
    browser resolves it) to the site's origin, and the site answers with the bytes git holds at the tag;
    no page scrolls sideways and no table hides a column."""
    origin, _ = site
    browser.viewport(driver, size)
    for item in _entries(catalog):
        driver.get(f"{origin}/entries/{item['id']}.html")
        links = driver.find_elements("css selector", "table.files a, .readme a.entry-file")
        local = [a.get_attribute("href") for a in links if not a.get_attribute("href").startswith(ADDRESS)]
        forge = [a.get_attribute("href") for a in links if a.get_attribute("href").startswith(ADDRESS)]
        assert local and len(forge) == len(driver.find_elements("css selector", "table.files tbody tr"))
        for href in local:
            assert href.startswith(f"{origin}/entries/{item['id']}/"), href
            name = href.removeprefix(f"{origin}/entries/{item['id']}/")
            with urllib.request.urlopen(href) as answer:  # the site's own server, not the browser
                assert answer.read() == show(catalog, HOSTILE_TAG, f"{item['path']}/{name}"), href
        for cell in driver.find_elements("css selector", "table.files td"):
            assert cell.is_displayed()
        _no_sideways_scroll(driver, size)
        _tables_show_every_column(driver, size)
        assert _no_dialog(driver) and _severe(driver) == []


@SIZES
def test_a_copied_document_is_shown_as_text(driver, site, catalog, size):
    origin, _ = site
    browser.viewport(driver, size)
    for name in ("dialect.json", "README.md"):
        driver.get(f"{origin}/entries/{HOSTILE_ENTRY}/{name}")
        assert driver.execute_script("return document.contentType") in ("application/json", "text/markdown")
        body = driver.find_element("tag name", "body").text
        wanted = show(catalog, HOSTILE_TAG, f"entries/gateway/ticket-status/{name}").decode("utf-8")
        assert " ".join(body.split()) == " ".join(wanted.split())
        assert driver.find_elements("css selector", "script, img, a") == []  # the hostile README, inert text
    # a text document names no icon, so the browser asks the site for /favicon.ico (the site's own origin)
    assert _no_dialog(driver) and [e for e in _severe(driver) if "/favicon.ico " not in e["message"]] == []


@SIZES
def test_the_dialect_table_is_readable_at_every_width(driver, site, size):
    origin, _ = site
    browser.viewport(driver, size)
    driver.get(f"{origin}/entries/gateway.company-research.html")
    for css in ("table.sources", "table.admits", "table.fixtures"):
        table = driver.find_element("css selector", css)
        assert table.is_displayed()
        for cell in table.find_elements("css selector", "td"):
            label = driver.execute_script(
                "return getComputedStyle(arguments[0], '::before').content", cell)
            if size == browser.PHONE:  # each cell says its column's name
                assert label.strip('"') == cell.get_attribute("data-label"), (css, label)
    _tables_show_every_column(driver, size)
    _no_sideways_scroll(driver, size)
