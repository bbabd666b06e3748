"""The pull-request path (issue #12 item 5; docs/performance.md, "The pull-request path"): with --base,
the touched entry gets every check and the others are held by their manifest pins; the verdict on the
touched entry and on the manifest is the full gate's. Each case runs both gates on one throwaway
repository and compares their refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgment_exchange.catalog.placeholders import README_TEXT
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from .support.catalog import CatalogBuilder, pretty
from .support.gitrepo import GitRepo

TOUCHED = "acme.vendors"
HELD = "acme.vendors-calc"


@pytest.fixture
def repo(tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry(TOUCHED, "mapping-v2-unsigned-parameters")
    builder.add_runner_entry(HELD, "mapping-v2-before-calculators")
    builder.add_output_entry("acme.writeback")
    builder.add_preset("acme.vendors-preset")
    builder.write_manifest()
    git = GitRepo(builder.root)
    git.git("add", "-A")
    git.git("commit", "-q", "-m", "base")
    git.git("checkout", "-q", "-b", "pr")
    return builder, git


def _commit(git: GitRepo, message: str = "the pull request") -> None:
    git.git("add", "-A")
    git.git("commit", "-q", "-m", message)


def _both(root: Path):
    """(the --base main report, the full gate's report) on the working tree at `root`."""
    pr = check_catalog(WorkingTree(str(root)), GateOptions(base="main", repository=str(root)))
    full = check_catalog(WorkingTree(str(root)), GateOptions(repository=str(root)))
    return pr, full


def _verdict(report) -> list[tuple]:
    return [(r.code, r.path, r.entry, r.detail) for r in report.refusals]


def _row(root: Path, entry_id: str) -> tuple[list, dict]:
    rows = json.loads((root / "manifest.json").read_bytes())
    return rows, next(r for r in rows if r["id"] == entry_id)


def test_a_valid_change_to_one_entry_passes_as_the_full_gate_does(repo):
    builder, git = repo
    readme = builder.entries[TOUCHED] / "README.md"
    readme.write_text(readme.read_text() + "\nA second paragraph.\n")
    _commit(git)
    pr, full = _both(builder.root)
    assert pr.touched == [TOUCHED]
    assert _verdict(pr) == _verdict(full) and pr.passed == full.passed
    # the path was taken: only the touched entry was replayed, every entry is still in the release
    assert "untouched entries held by their manifest pins" in pr.checks
    assert {r.entry for r in pr.replays} == {TOUCHED} and full.replayed > pr.replayed
    assert pr.checked == full.checked


def test_an_invalid_change_to_one_entry_is_refused_as_the_full_gate_refuses_it(repo):
    builder, git = repo
    path = builder.entries[TOUCHED]
    entry = json.loads((path / "entry.json").read_bytes())
    entry["title"] = "A changed title whose row was not rewritten"
    (path / "entry.json").write_bytes(pretty(entry))              # manifest-digest-mismatch
    (path / "notes.txt").write_text("a stray file\n")              # entry-file-unexpected
    (path / "fixtures" / "vendor-7" / "case.json").unlink()        # fixture-file-missing
    _commit(git)
    pr, full = _both(builder.root)
    codes = {r.code for r in pr.refusals}
    assert {"manifest-digest-mismatch", "entry-file-unexpected", "fixture-file-missing"} <= codes
    assert _verdict(pr) == _verdict(full)


@pytest.mark.parametrize("damage", ["entryDigest", "dialectDigest", "fixtures", "kind", "row-removed"])
def test_a_changed_manifest_row_of_an_untouched_entry_is_refused(repo, damage):
    builder, git = repo
    rows, row = _row(builder.root, HELD)
    if damage == "fixtures":
        row["fixtures"][0]["files"] = sorted(row["fixtures"][0]["files"] + ["binding.json"])
    elif damage == "kind":
        row["kind"] = "preset"
        row["fixtures"] = []
    elif damage == "row-removed":
        rows.remove(row)
    else:
        row[damage] = "sha256:" + "0" * 64
    (builder.root / "manifest.json").write_bytes(pretty(rows))
    _commit(git)
    pr, full = _both(builder.root)
    # a changed manifest row touches its entry (issue #16 item 2: the one-entry rule counts rows too)
    assert pr.touched == [HELD] and not pr.passed
    assert any(r.entry == HELD and r.path == "manifest.json" for r in pr.refusals)
    assert _verdict(pr) == _verdict(full)


def test_near_miss_a_rewritten_but_equal_manifest_passes(repo):
    builder, git = repo
    rows = json.loads((builder.root / "manifest.json").read_bytes())
    (builder.root / "manifest.json").write_bytes(json.dumps(rows, indent=4).encode() + b"\n")
    _commit(git)
    pr, full = _both(builder.root)
    assert pr.passed and full.passed and _verdict(pr) == _verdict(full)


def test_a_stray_file_touched_entries_cannot_attribute_is_refused(repo):
    builder, git = repo
    (builder.root / "entries" / "acme" / "stray.txt").write_text("not an entry\n")
    _commit(git)
    pr, full = _both(builder.root)
    assert pr.touched == [] and "catalog-stray-file" in {r.code for r in pr.refusals}
    assert _verdict(pr) == _verdict(full)


@pytest.mark.parametrize("where", ["entry.json.bak", "fixtures/vendor-7/case.json.bak"])
def test_an_ignored_file_in_an_untouched_entry_is_still_refused(repo, where):
    """git diff does not see an ignored file, so the entry reads as untouched; its pins read its
    directory, find a name an entry may not hold, and give the entry every check."""
    builder, git = repo
    (builder.root / ".gitignore").write_text("*.bak\n")
    _commit(git, "ignore backups")
    (builder.entries[HELD] / where).write_text("{}\n")
    pr, full = _both(builder.root)
    assert HELD not in pr.touched
    codes = {r.code for r in pr.refusals if r.entry == HELD}
    assert codes & {"entry-file-unexpected", "fixture-file-unexpected"}
    assert _verdict(pr) == _verdict(full)


def test_an_uncommitted_change_to_an_untouched_pin_is_refused(repo):
    """The working tree's own change (no commit) is touched too: the diff against the base reads it."""
    builder, git = repo
    dialect = builder.entries[HELD] / "dialect.json"
    dialect.write_bytes(dialect.read_bytes() + b"\n")
    pr, full = _both(builder.root)
    assert pr.touched == [HELD]
    assert _verdict(pr) == _verdict(full) and not pr.passed


def test_reading_an_untouched_entry_is_trusted_as_far_as_the_base_was_checked(repo):
    """The documented reading: an entry identical to the base is not form-checked again, so a defect
    its pins do not cover (here a README placeholder) that the base already carried is reported by the
    full gate on main, not by the pull request that did not touch it."""
    builder, git = repo
    git.git("checkout", "-q", "main")
    readme = builder.entries[HELD] / "README.md"
    readme.write_text(readme.read_text() + "\n" + README_TEXT + "\n")
    _commit(git, "a base that fails")
    full_on_base = check_catalog(WorkingTree(str(builder.root)), GateOptions(repository=str(builder.root)))
    git.git("checkout", "-q", "-b", "pr2")
    other = builder.entries[TOUCHED] / "README.md"
    other.write_text(other.read_text() + "\nA second paragraph.\n")
    _commit(git)
    pr, full = _both(builder.root)
    held_codes = {r.code for r in full_on_base.refusals if r.entry == HELD}
    assert held_codes == {"placeholder-value"}
    assert held_codes == {r.code for r in full.refusals if r.entry == HELD}
    assert not any(r.entry == HELD for r in pr.refusals)
    assert [v for v in _verdict(full) if v[2] != HELD] == _verdict(pr)


def test_an_untouched_entry_whose_row_changes_gets_every_check(repo):
    """A pin that no longer holds gives the entry every check, so even a defect the base carried is
    reported as the full gate reports it."""
    builder, git = repo
    git.git("checkout", "-q", "main")
    readme = builder.entries[HELD] / "README.md"
    readme.write_text(readme.read_text() + "\n" + README_TEXT + "\n")
    _commit(git, "a base that fails")
    git.git("checkout", "-q", "-b", "pr2")
    rows, row = _row(builder.root, HELD)
    row["entryDigest"] = "sha256:" + "0" * 64
    (builder.root / "manifest.json").write_bytes(pretty(rows))
    _commit(git)
    pr, full = _both(builder.root)
    assert {"placeholder-value", "manifest-digest-mismatch"} <= {r.code for r in pr.refusals if r.entry == HELD}
    assert _verdict(pr) == _verdict(full)


def test_an_untouched_directory_outside_the_id_grammar_gets_every_check(repo):
    """A directory whose path reads as no id of §3's grammar is never held by a row's pins."""
    builder, git = repo
    git.git("checkout", "-q", "main")
    (builder.root / "entries" / "acme" / "Bad_Name").mkdir()
    (builder.root / "entries" / "acme" / "Bad_Name" / "README.md").write_text("# not an entry\n")
    _commit(git, "a base that fails")
    git.git("checkout", "-q", "-b", "pr2")
    readme = builder.entries[TOUCHED] / "README.md"
    readme.write_text(readme.read_text() + "\nA second paragraph.\n")
    _commit(git)
    pr, full = _both(builder.root)
    assert "entry-id-path" in {r.code for r in pr.refusals}
    assert _verdict(pr) == _verdict(full)


def test_a_working_trees_kinds_are_its_listings_kinds(tmp_path):
    """pinned.py reads kinds from the directory listing alone (WorkingTree.kinds, no stat per entry):
    the same names, order and kinds as WorkingTree.list, for every kind a directory can hold."""
    import os

    root = tmp_path / "t"
    (root / "d" / "sub").mkdir(parents=True)
    (root / "d" / "file.json").write_bytes(b"{}")
    (root / "d" / "\u00e9t\u00e9").write_bytes(b"")
    os.symlink("file.json", root / "d" / "link")
    os.symlink("sub", root / "d" / "dirlink")
    os.mkfifo(root / "d" / "fifo")
    tree = WorkingTree(str(root))
    assert tree.kinds("d") == [(n.name, n.kind) for n in tree.list("d")]
    assert {kind for _, kind in tree.kinds("d")} == {"file", "directory", "symlink", "special"}
    demo = WorkingTree(str(Path(__file__).resolve().parents[1] / "docs" / "demo-catalog"))
    for directory in ("entries", "entries/kinds", "entries/gateway/company-research/fixtures"):
        if demo.stat(directory).kind == "directory":
            assert demo.kinds(directory) == [(n.name, n.kind) for n in demo.list(directory)]


def test_an_untracked_file_with_a_quoted_name_touches_its_entry_and_an_ignored_one_does_not(repo):
    """Untracked files come from `git ls-files -z --others --exclude-standard` (pullrequest.changed_paths):
    a name git status would quote (non-ASCII, a space) still names its entry; an ignored file names none."""
    from judgment_exchange.repository.pullrequest import touched_entries

    builder, git = repo
    (builder.root / ".gitignore").write_text("*.ignored\n")
    _commit(git, "ignore rule")
    git.git("branch", "-f", "main", "HEAD")  # the ignore rule is the base's (a change to it is another file's)
    (builder.entries[HELD] / "ignored by rule.ignored").write_text("x\n")
    assert touched_entries(str(builder.root), "main") == []
    (builder.entries[TOUCHED] / "notes \u00e9t\u00e9 \"quoted\".txt").write_text("an untracked file\n")
    assert touched_entries(str(builder.root), "main") == [TOUCHED]
    pr, full = _both(builder.root)
    assert pr.touched == [TOUCHED] and "entry-file-unexpected" in {r.code for r in pr.refusals}
    assert _verdict(pr) == _verdict(full)
