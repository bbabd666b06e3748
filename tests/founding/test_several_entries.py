"""`exchange check --base … --several-entries` (issue #33 item 1; docs/init.md, "Which refusals a catalog may
drop"): RFC 0019 §6's one entry per pull request is a default a catalog may drop; the trust boundary's rules
(`gate-change-with-entry`, `entry-change-with-other-file`) are the gate and stay on. Each pull request is a
throwaway repository of the demonstration catalog (tests/repository/repos.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..repository.repos import (
    HTTP,
    HTTP_DIR,
    OTHER,
    OTHER_DIR,
    check,
    codes,
    commit,
    demo_repository,
    edit_readme,
    repin,
)
from .support import run


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "catalog"
    return root, demo_repository(root)


def _two_entries(root: Path) -> None:
    for entry_dir in (OTHER_DIR, HTTP_DIR):
        readme = root / entry_dir / "README.md"
        readme.write_text(readme.read_text(encoding="utf-8") + "\nA second paragraph.\n", encoding="utf-8")
    repin(root)


def test_two_entries_are_refused_without_the_option_and_pass_with_it(repo, capsys):
    root, git = repo
    _two_entries(root)
    commit(git)
    refused = check(root)
    assert codes(refused) == ["one-entry-per-pull-request"]
    passed = check(root, several_entries=True)
    assert passed.passed, codes(passed)
    assert passed.touched == sorted([HTTP, OTHER])
    status, out, err = run(capsys, "check", "--catalog", str(root), "--base", "main", "--no-history")
    assert status == 1 and "one-entry-per-pull-request" in out
    status, out, err = run(capsys, "check", "--catalog", str(root), "--base", "main", "--no-history",
                           "--several-entries")
    assert status == 0, out + err


@pytest.mark.parametrize("other, code", [("tools/refusal.py", "gate-change-with-entry"),
                                         ("README.md", "entry-change-with-other-file")])
def test_the_trust_boundarys_rules_still_refuse_with_the_option(repo, capsys, other, code):
    root, git = repo
    _two_entries(root)
    with open(root / other, "a", encoding="utf-8") as fh:
        fh.write("# changed with the entries\n")
    commit(git)
    report = check(root, several_entries=True)
    assert codes(report) == [code]
    status, out, _ = run(capsys, "check", "--catalog", str(root), "--base", "main", "--no-history",
                         "--several-entries")
    assert status == 1 and code in out and "one-entry-per-pull-request" not in out


def test_near_miss_one_entry_with_the_option_passes_as_without(repo):
    root, git = repo
    edit_readme(root)
    commit(git)
    assert check(root).passed and check(root, several_entries=True).passed


def test_the_option_without_base_is_a_bad_invocation(repo, capsys):
    root, _ = repo
    status, _, err = run(capsys, "check", "--catalog", str(root), "--several-entries")
    assert status == 3 and "--base" in err
