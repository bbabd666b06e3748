"""docs/images/: the demonstration catalog's index (issue #18 item 3, issue #27). Run from the repository's
root: `python -m tests.browse.screenshot [DIR]`.

The catalog is released twice as the tests release it (releases.py), its v0.2.0 indexed by `exchange
index --address` (the address release.yml would pass for the organisation's repository), served on
http://127.0.0.1 and photographed by headless Chromium (browser.py):

- index.png: the main page 1440 CSS pixels wide, the whole page's height;
- index-phone.png: the main page's first screen on a phone, 390 x 844;
- entry.png: an entry's page 1440 wide, the whole page's height (its files, its dialect's table, its card)."""

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
OUT = REPO / "docs" / "images"
ADDRESS = "https://github.com/Judgment-Pack/judgment-pack-exchange"
ENTRY = "entries/gateway.fx-exposure.html"
SHOTS = (("index.png", "index.html", browser.WIDE, True), ("index-phone.png", "index.html", browser.PHONE, False),
         ("entry.png", ENTRY, browser.WIDE, True))
"""Each picture: its file, the page, the viewport, and whether it is the whole page (else the first screen)."""
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
        assert exchange(["index", "demo-catalog", "v0.2.0", "--out", "site", "--address", ADDRESS]) == 0
    finally:
        os.chdir(here)
    return site


def screenshots(site: Path) -> dict[str, bytes]:
    """Each of SHOTS as a PNG."""
    out = {}
    with browser.served(site) as (origin, _), browser.chromium() as driver:
        for name, page, size, whole in SHOTS:
            browser.viewport(driver, size)
            driver.get(f"{origin}/{page}")
            height = driver.execute_script("return document.documentElement.scrollHeight") if whole else size[1]
            shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": whole,
                "clip": {"x": 0, "y": 0, "width": size[0], "height": height, "scale": 1}})
            out[name] = base64.b64decode(shot["data"])
    return out


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
        shots = screenshots(demo_site(Path(work)))
    out.mkdir(parents=True, exist_ok=True)
    for name, data in shots.items():
        (out / name).write_bytes(data)
        print(f"wrote {out / name} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
