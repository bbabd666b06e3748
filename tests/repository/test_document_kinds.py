"""Issue #38 item 2, second half: a document (README.md, CONTRIBUTING.md, LICENSE, .gitignore, entries/README.md,
docs/*.md) that a pull request may change alone, on any approval, is held to be a regular, non-executable file
with a plain name, like every file the gate reads: a symlink, a submodule (gitlink), an executable bit or a
newline in a docs/ name passed before. Each case is a pull request on a throwaway repository of the
demonstration catalog; the near misses change the same documents as plain files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import GitTree

from .repos import check, codes, commit, demo_repository


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "catalog"
    return root, demo_repository(root)


def _check_commit(root: Path, commit_id: str):
    """The gate on the committed tree, as the trusted job judges a pull request's head (`--commit`)."""
    return check_catalog(GitTree(str(root), commit_id), GateOptions(repository=str(root), base="main", history=False))


def test_attack_document_symlink_passes_as_a_document(repo):
    root, git = repo
    (root / "README.md").unlink()
    os.symlink("/etc/passwd", root / "README.md")
    commit(git)
    assert codes(check(root)) == ["document-not-regular"]


def test_attack_document_with_the_executable_bit(repo):
    root, git = repo
    (root / "CONTRIBUTING.md").write_text("#!/bin/sh\necho run me\n")
    (root / "CONTRIBUTING.md").chmod(0o755)
    head = commit(git)
    assert codes(check(root)) == ["document-not-regular"]
    assert codes(_check_commit(root, head)) == ["document-not-regular"]


def test_attack_document_as_a_submodule(repo):
    """A gitlink at docs/guide.md, committed (a working tree cannot hold one as a file): the trusted job's view."""
    root, git = repo
    some_commit = git.git("rev-parse", "HEAD")
    git.git("update-index", "--add", "--cacheinfo", f"160000,{some_commit},docs/guide.md")
    git.git("commit", "-q", "-m", "a submodule named like a document")
    head = git.git("rev-parse", "HEAD")
    report = _check_commit(root, head)
    assert codes(report) == ["document-not-regular"], codes(report)


def test_attack_newline_in_a_docs_name(repo):
    root, git = repo
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "guide\n::error::forged.md").write_text("# A guide\n")
    commit(git)
    report = check(root)
    assert codes(report) == ["document-not-regular"]
    assert "\n" not in (report.refusals[0].path or "") and "forged" not in report.refusals[0].detail


@pytest.mark.parametrize("path", ["README.md", "CONTRIBUTING.md", "LICENSE", ".gitignore", "docs/new-guide.md"])
def test_near_miss_a_plain_document_passes(repo, path):
    root, git = repo
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("# A document\n\nPlain text.\n")
    commit(git)
    report = check(root)
    assert report.passed, codes(report)


def test_near_miss_a_removed_document_passes(repo):
    root, git = repo
    (root / "README.md").unlink()  # the demonstration catalog's one document: its removal is no file kind
    commit(git)
    assert "document-not-regular" not in codes(check(root))
