"""docs/images/index.png: the demonstration catalog's index, its main page at a wide screen's width
(issue #18 item 3). Run from the repository's root: `python -m tests.browse.screenshot [OUT.png]`.

The catalog is released twice as the tests release it (releases.py), its v0.2.0 indexed by `exchange
index`, served on http://127.0.0.1 and photographed by headless Chromium (browser.py) at 1440 CSS pixels
wide, the whole page's height."""

from __future__ import annotations

import base64
import os
import sys
import tempfile
from pathlib import Path

from judgment_exchange.cli import main as exchange

from . import browser
from .releases import released_twice

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "docs" / "images" / "index.png"
IDENTITY = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Browse Test",
            "GIT_AUTHOR_EMAIL": "browse-test@example.invalid", "GIT_COMMITTER_NAME": "Browse Test",
            "GIT_COMMITTER_EMAIL": "browse-test@example.invalid"}


def demo_site(work: Path) -> Path:
    """The demonstration catalog released twice as `work`/demo-catalog, and its v0.2.0 index's directory
    (indexed from `work`, so the location the pages show is `demo-catalog`)."""
    released_twice(work / "demo-catalog")
    site = work / "site"
    here = os.getcwd()
    os.chdir(work)
    try:
        assert exchange(["index", "demo-catalog", "v0.2.0", "--out", "site"]) == 0
    finally:
        os.chdir(here)
    return site


def screenshot(site: Path) -> bytes:
    """The site's main page as a PNG, 1440 CSS pixels wide and as tall as the page."""
    with browser.served(site) as (origin, _), browser.chromium() as driver:
        browser.viewport(driver, browser.WIDE)
        driver.get(f"{origin}/index.html")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": browser.WIDE[0], "height": height, "scale": 1}})
    return base64.b64decode(shot["data"])


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else OUT
    reason = browser.missing_reason()
    if reason:
        print(reason, file=sys.stderr)
        return 1
    os.environ.update(IDENTITY)
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        os.environ.pop(key, None)
    with tempfile.TemporaryDirectory(prefix="exchange-screenshot-") as work:
        data = screenshot(demo_site(Path(work)))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    print(f"wrote {out} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
