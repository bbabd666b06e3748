"""The demonstration catalog released twice, as `exchange release` makes releases (issue #18's done-when):
a throwaway repository whose root is a copy of docs/demo-catalog, v0.1.0, one README changed, v0.2.0, made by the
history simulator (tests/support/simulator.py).
Expectations in the tests are read from the repository with git and json, never from browse/."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from ..support.demo import ROOT as DEMO
from ..support.gitrepo import GitRepo
from ..support.gitrepo import git_identity as shared_identity
from ..support.simulator import CatalogSimulator

CHANGED = "entries/gateway/fx-exposure/README.md"
ADDED_PARAGRAPH = "A second paragraph, added for the second release."


def git_identity(monkeypatch) -> None:
    """The shared clean git environment, with this package's identity (tests/support/gitrepo.py)."""
    shared_identity(monkeypatch, "Browse Test", "browse-test@example.invalid")


def _released(root: Path) -> CatalogSimulator:
    """The demonstration catalog's history (tests/support/simulator.py): its work a copy of docs/demo-catalog,
    the repository at `root`, v0.1.0 released by `exchange release`."""
    catalog = CatalogSimulator(root, start=DEMO, files={"releases.json": b"[]\n"})
    catalog.release_by_command("v0.1.0", message="the demonstration catalog")
    return catalog


def released_once(root: Path) -> GitRepo:
    """The demonstration catalog at the root of a repository, released as v0.1.0 by `exchange release`."""
    return _released(root).repo


def released_twice_history(root: Path) -> CatalogSimulator:
    """`released_once`'s history, then one README changed (a paragraph added) and v0.2.0 released."""
    catalog = _released(root)
    readme = catalog.work / CHANGED
    catalog.write(CHANGED, (readme.read_text(encoding="utf-8") + f"\n{ADDED_PARAGRAPH}\n").encode("utf-8"))
    catalog.release_by_command("v0.2.0", message="fx-exposure: a second paragraph")
    return catalog


def released_twice(root: Path) -> GitRepo:
    return released_twice_history(root).repo


def show(root: Path, rev: str, path: str) -> bytes:
    return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=root, capture_output=True, check=True).stdout


def rows(root: Path, rev: str) -> list[dict]:
    return json.loads(show(root, rev, "manifest.json"))
