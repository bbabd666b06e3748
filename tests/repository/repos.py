"""Throwaway repositories for the repository's rules (issue #16; docs/trust.md): the demonstration
catalog committed as a repository's `main`, a branch `change` for the pull request, and edits a
contributor makes. Expectations in the tests are refusal codes stated by hand, never values these
helpers compute."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from ..support.catalog import pretty
from ..support.demo import ROOT as DEMO
from ..support.gitrepo import GitRepo

HTTP = "kinds.intake-http-source"
HTTP_DIR = Path("entries/kinds/intake-http-source")
OTHER = "runner.intake-vendor-copy"
OTHER_DIR = Path("entries/runner/intake-vendor-copy")


def demo_repository(root: Path, *, skips: bool = True) -> GitRepo:
    """The demonstration catalog as the root of a repository on `main` (with or without its skips.json),
    a tools/ file standing for the gate's code, and the branch `change` checked out."""
    shutil.copytree(DEMO, root)
    if not skips:
        (root / "skips.json").unlink()
    (root / "tools").mkdir()
    (root / "tools" / "refusal.py").write_text("PASSED = 'not refusals'\n")
    git = GitRepo(root)
    commit(git, "base")
    git.git("checkout", "-q", "-b", "change")
    return git


def commit(git: GitRepo, message: str = "the pull request") -> str:
    git.git("add", "-A")
    git.git("commit", "-q", "--allow-empty", "-m", message)
    return git.git("rev-parse", "HEAD")


def check(root: Path, **options):
    """The gate on the working tree at `root` as a pull request against `main` (no history: the
    throwaway repository has no releases), or as given."""
    options.setdefault("base", "main")
    options.setdefault("history", False)
    return check_catalog(WorkingTree(str(root)), GateOptions(repository=str(root), **options))


def codes(report) -> list[str]:
    return [r.code for r in report.refusals]


def edit_readme(root: Path, entry_dir: Path = OTHER_DIR) -> None:
    """A valid change to an entry: a paragraph added to its README, its manifest row re-pinned."""
    readme = root / entry_dir / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + "\nA second paragraph for reviewers.\n", encoding="utf-8")
    repin(root)


def repin(root: Path) -> None:
    """Re-pin the derived digests (exchange fix: a contributor's step, not an expectation)."""
    from judgment_exchange.cli import main

    assert main(["fix", "--catalog", str(root)]) == 0


def add_skipped_fixture(root: Path, name: str = "vendor-8") -> None:
    """A second kind-unread fixture for the http entry: vendor-7's files under a new name, listed in
    entry.json, the manifest row re-pinned."""
    shutil.copytree(root / HTTP_DIR / "fixtures" / "vendor-7", root / HTTP_DIR / "fixtures" / name)
    path = root / HTTP_DIR / "entry.json"
    entry = json.loads(path.read_bytes())
    first = entry["fixtures"][0]
    entry["fixtures"].append({"name": name, "path": f"fixtures/{name}",
                              "preparationDigest": first["preparationDigest"]})
    path.write_bytes(pretty(entry))
    repin(root)


def acknowledgements(root: Path) -> list[dict]:
    return json.loads((root / "skips.json").read_bytes())


def write_acknowledgements(root: Path, items: list[dict]) -> None:
    (root / "skips.json").write_bytes(pretty(items))


def acknowledgement(entry: str = HTTP, fixture: str = "vendor-8") -> dict:
    return {"entry": entry, "fixture": fixture, "why": "No reader recomputes http sources yet; reviewed in #16."}
