"""A release whose one entry's README is hostile Markdown (issue #18 item 4): a script element, images
with an `onerror` handler (one an `<img src="http://…">` on the second local listener, which records every
request), a `javascript:` link, a Markdown image on that listener and a raw anchor with `onclick`. The
catalog's gate passes it (make_release runs the whole gate, scan included). The one adaptation: the issue's
`<img src=x onerror=…>` names `entry.json` instead of `x`, since the scan refuses a relative link to no
file of the entry (`readme-link-missing`), and the scan is never weakened for a test.
"""

from __future__ import annotations

from pathlib import Path

from ..support.gitrepo import GitRepo
from .releases import released_twice_history

HOSTILE_ENTRY = "gateway.ticket-status"
HOSTILE_README = "entries/gateway/ticket-status/README.md"
HOSTILE_TAG = "v0.3.0"
MARKER = "A README that tries to run and to fetch."


def hostile_markdown(tracker: str) -> str:
    """The README: each payload on its own line, so each is seen in the page's text."""
    return (f"# Ticket status, hostile README\n\n{MARKER}\n\n"
            "<script>alert(1)</script>\n\n"
            '<img src="entry.json" onerror="alert(2)">\n\n'
            f'<img src="{tracker}/raw-image.png" onerror="alert(4)">\n\n'
            "[click](javascript:alert(3))\n\n"
            f"![pic]({tracker}/tracker.png)\n\n"
            f'<a href="{tracker}/raw-anchor" onclick="alert(5)">raw anchor</a>\n\n'
            "[the entry's record](entry.json)\n")


def released_hostile(root: Path, tracker: str) -> GitRepo:
    """The demonstration catalog released twice, then v0.3.0 with the hostile README (its gate passed)."""
    catalog = released_twice_history(root)
    catalog.write(HOSTILE_README, hostile_markdown(tracker).encode("utf-8"))
    catalog.release_by_command(HOSTILE_TAG, message="ticket-status: a hostile README")
    return catalog.repo
