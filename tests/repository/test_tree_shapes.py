"""Issue #25 item 1: the pull request is judged as its head commit. The invariant, one test per tree shape: when
the head includes the base tip, the pull request's gate (`exchange check --commit HEAD --base BASE`, as
gate.yml runs it in the base's clone) refuses the shape exactly when `exchange release` refuses it on that
tree. Shapes are written with git's plumbing, as a hostile pull request would: a gitlink and a symlink at
`entries/`, `entries/P`, `entries/P/N` and a fixture folder; mode 100755; two names differing only in case;
a newline in a name. The near miss (a commit that changes nothing) passes both.

The attack: a gitlink at `entries/<publisher>` is checked out by actions/checkout as an empty folder, so
the gate that read the checkout saw a publisher with no entries and passed; what merged was the gitlink,
and every later `exchange release` refused `catalog-stray-file`."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.releasing.release import make_release
from judgment_exchange.tree import WorkingTree

from ..support.gitrepo import git_identity
from .repos import OTHER_DIR, commit, demo_repository

ENTRY = OTHER_DIR.as_posix()
SHAPES = [("gitlink", "entries"), ("gitlink", "entries/newpub"), ("gitlink", "entries/runner/newentry"),
          ("gitlink", f"{ENTRY}/fixtures/newfix"), ("symlink", "entries"), ("symlink", "entries/newpub"),
          ("symlink", "entries/runner/newentry"), ("symlink", f"{ENTRY}/fixtures/newfix"),
          ("mode 100755", f"{ENTRY}/README.md"), ("case", f"{ENTRY}/Readme.md"), ("newline", f"{ENTRY}/a\nb.md")]


@pytest.fixture(autouse=True)
def identity(monkeypatch) -> None:
    git_identity(monkeypatch)


def _base(tmp_path):
    root = tmp_path / "catalog"
    git = demo_repository(root)
    shutil.rmtree(root / "tools")
    (root / "releases.json").write_text("[]\n")
    git.git("add", "-A")
    git.git("commit", "-q", "-m", "the base: a catalog with a ledger and no release yet")
    git.git("branch", "-q", "-f", "main", "HEAD")
    return root, git


def _plant(git, kind: str, path: str) -> str:
    """A commit on top of the base holding the shape at `path`, written into the index by plumbing."""
    if path == "entries":
        git.git("rm", "-r", "-q", "--cached", "entries")
    if kind == "gitlink":
        git.git("update-index", "--add", "--cacheinfo", f"160000,{git.git('rev-parse', 'HEAD')},{path}")
    elif kind == "symlink":
        target = git.git("hash-object", "-w", "--stdin", input=b"../elsewhere")
        git.git("update-index", "--add", "--cacheinfo", f"120000,{target},{path}")
    elif kind == "mode 100755":
        git.git("update-index", "--chmod=+x", path)
    else:  # a second name for the README's bytes: differing only in case, or holding a newline
        readme = git.git("rev-parse", f"HEAD:{ENTRY}/README.md")
        git.git("update-index", "--add", "--cacheinfo", f"100644,{readme},{path}")
    git.git("commit", "-q", "-m", f"a {kind} at a path")
    return git.git("rev-parse", "HEAD")


def _pull_request(root, head: str, capsys) -> tuple[int, list[str]]:
    from judgment_exchange.cli import main

    status = main(["check", "--catalog", str(root), "--commit", head, "--base", "main", "--format", "json"])
    out = capsys.readouterr().out
    return status, [r["code"] for r in json.loads(out)["refusals"]]


def _release(root, git, head: str):
    git.git("checkout", "-q", "-f", "main")
    git.git("reset", "-q", "--hard", head)  # the head includes the base tip: main fast-forwards to it
    return make_release(str(root), "v0.1.0")


@pytest.mark.parametrize("kind, path", SHAPES, ids=[f"{k} at {p!r}" for k, p in SHAPES])
def test_the_pull_request_gate_refuses_a_shape_exactly_when_the_release_does(tmp_path, capsys, kind, path):
    root, git = _base(tmp_path)
    head = _plant(git, kind, path)
    status, codes = _pull_request(root, head, capsys)
    released = _release(root, git, head)
    assert (status != 0) == (released.status != 0), (codes, released.lines)
    assert status == 1 and released.status == 1, (status, codes, released.lines)  # a named refusal, both
    first = released.lines[1].split(":")[0].strip()  # the release's first refusal's code
    assert first in codes, (first, codes)


def test_near_miss_a_head_that_changes_nothing_passes_both(tmp_path, capsys):
    root, git = _base(tmp_path)
    head = commit(git, "nothing")
    assert _pull_request(root, head, capsys) == (0, [])
    assert _release(root, git, head).status == 0


def test_attack_gitlink_at_a_publisher_passes_the_pull_request_gate(tmp_path, capsys):
    """Read from a checkout (as gate.yml once read `change/`), the gitlink is an empty folder and the gate
    passes; read as the head commit it is refused, as the release refuses it."""
    root, git = _base(tmp_path)
    head = _plant(git, "gitlink", "entries/newpub")
    checkout = tmp_path / "change"
    subprocess.run(["git", "-C", str(root), "worktree", "add", "-q", "--detach", str(checkout), head], check=True,
                   capture_output=True)
    assert (checkout / "entries" / "newpub").is_dir() and not any((checkout / "entries" / "newpub").iterdir())
    old = check_catalog(WorkingTree(str(checkout)), GateOptions(base="main", repository=str(checkout)))
    assert old.passed, [r.code for r in old.refusals]  # what the checkout-reading gate said
    assert _pull_request(root, head, capsys) == (1, ["catalog-stray-file"])
