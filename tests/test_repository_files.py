"""The repository's own attributes keep every pinned byte (RFC 0019 §3 "Digests": digests over stored bytes)."""

from __future__ import annotations

import subprocess

from .support.paths import REPO


def test_no_checkout_converts_line_endings_of_pinned_files():
    paths = ["manifest.json", "releases.json", "skips.json", "verifier-pin.json", "entries/README.md",
             "docs/demo-catalog/manifest.json"]
    out = subprocess.run(["git", "check-attr", "text", "--", *paths], cwd=REPO, capture_output=True, text=True,
                         check=True).stdout
    states = {line.rsplit(": ", 1)[-1] for line in out.splitlines()}
    assert states == {"unset"}, out  # `-text`: git treats the file as binary, whatever core.autocrlf says
