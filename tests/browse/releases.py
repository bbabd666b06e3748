"""The demonstration catalog released twice, as `exchange release` makes releases (issue #18's done-when):
a throwaway repository whose root is a copy of docs/demo-catalog, v0.1.0, one README changed, v0.2.0.
Expectations in the tests are read from the repository with git and json, never from browse/."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from judgment_exchange.releasing.release import make_release

from ..support.demo import ROOT as DEMO
from ..support.gitrepo import GitRepo
from ..support.gitrepo import git_identity as shared_identity

CHANGED = "entries/gateway/fx-exposure/README.md"
ADDED_PARAGRAPH = "A second paragraph, added for the second release."


def git_identity(monkeypatch) -> None:
    """The shared clean git environment, with this package's identity (tests/support/gitrepo.py)."""
    shared_identity(monkeypatch, "Browse Test", "browse-test@example.invalid")


def released_once(root: Path) -> GitRepo:
    """The demonstration catalog at the root of a repository, released as v0.1.0 by `exchange release`."""
    shutil.copytree(DEMO, root)
    (root / "releases.json").write_bytes(b"[]\n")
    git = GitRepo(root)
    git.git("add", "-A")
    git.git("commit", "-q", "-m", "the demonstration catalog")
    outcome = make_release(str(root), "v0.1.0")
    assert outcome.status == 0, outcome.lines
    return git


def released_twice(root: Path) -> GitRepo:
    git = released_once(root)
    readme = root / CHANGED
    readme.write_text(readme.read_text(encoding="utf-8") + f"\n{ADDED_PARAGRAPH}\n", encoding="utf-8")
    git.git("commit", "-q", "-am", "fx-exposure: a second paragraph")
    assert make_release(str(root), "v0.2.0").status == 0
    return git


def show(root: Path, rev: str, path: str) -> bytes:
    return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=root, capture_output=True, check=True).stdout


def rows(root: Path, rev: str) -> list[dict]:
    return json.loads(show(root, rev, "manifest.json"))
