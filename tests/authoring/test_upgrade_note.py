"""Upgrade notes, prompted and written (issue #17 item 5; RFC 0019 §§3, 7).

A released entry's entry.json changed on a pull request without a note for its latest released
entryDigest draws a warning (never a refusal) naming `exchange upgrade-note`; the command writes the
note keyed by that digest — computed here by hashlib over `git show v0.1.0:…/entry.json`, never by the
code under test — and re-pins the manifest row; a consumer locked to v0.1.0 then upgrades without a
manual approval, and is refused without the note."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from judgment_exchange.cli import main as exchange
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.releasing.release import make_release
from judgment_exchange.tree import WorkingTree

from ..support.catalog import CatalogBuilder, pretty
from ..support.gitrepo import GitRepo, git_identity
from ..support.simulator import CatalogSimulator

ENTRY = "acme.vendors"
ENTRY_JSON = "entries/acme/vendors/entry.json"
NOTE = "The description now says which registry the vendor comes from; nothing the dialect reads changed."


@pytest.fixture(autouse=True)
def identity(monkeypatch) -> None:
    git_identity(monkeypatch, "Note Test", "note-test@example.invalid")


@pytest.fixture
def released(tmp_path) -> tuple[Path, GitRepo, str]:
    """acme.vendors released as v0.1.0; the branch `change` checked out. Its v0.1.0 entryDigest."""
    history = CatalogSimulator(tmp_path / "catalog", work_path=tmp_path / "catalog-work")
    history.builder.add_runner_entry(ENTRY, "mapping-v2-unsigned-parameters")
    history.release_by_command("v0.1.0", message="the catalog")
    bytes_at_release = subprocess.run(["git", "show", f"v0.1.0:{ENTRY_JSON}"], cwd=history.path,
                                      capture_output=True, check=True).stdout
    history.git("switch", "-q", "-c", "change")
    return history.path, history.repo, "sha256:" + hashlib.sha256(bytes_at_release).hexdigest()


def _describe_anew(root: Path) -> None:
    path = root / ENTRY_JSON
    entry = json.loads(path.read_bytes())
    entry["description"] = "Reads one vendor's record from the Acme vendor registry."
    path.write_bytes(pretty(entry))
    assert exchange(["fix", "--catalog", str(root)]) == 0


def _commit(git: GitRepo, message: str = "change") -> None:
    git.git("add", "-A")
    git.git("commit", "-q", "-m", message)


def _pr(root: Path):
    return check_catalog(WorkingTree(str(root)), GateOptions(repository=str(root), base="main"))


def test_a_changed_released_entry_without_a_note_is_warned_never_refused(released, capsys):
    root, git, digest = released
    _describe_anew(root)
    _commit(git)
    report = _pr(root)
    assert report.passed, [r.code for r in report.refusals]
    [warning] = report.warnings
    assert (warning.code, warning.entry, warning.path) == ("upgrade-note-missing", ENTRY, ENTRY_JSON)
    assert digest in warning.detail and "v0.1.0" in warning.detail
    assert f"exchange upgrade-note {ENTRY} TEXT" in warning.detail
    capsys.readouterr()
    assert exchange(["check", "--catalog", str(root), "--base", "main"]) == 0
    out = capsys.readouterr().out
    assert "warning upgrade-note-missing: acme.vendors entries/acme/vendors/entry.json:" in out
    assert "result: pass" in out
    assert exchange(["check", "--catalog", str(root), "--base", "main", "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [w["code"] for w in payload["warnings"]] == ["upgrade-note-missing"] and payload["result"] == "pass"


def test_the_warning_is_an_annotation_on_entry_json(released, capsys, tmp_path, monkeypatch):
    root, git, digest = released
    _describe_anew(root)
    _commit(git)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    assert exchange(["check", "--catalog", str(root), "--base", "main", "--format", "github"]) == 0
    out = capsys.readouterr().out
    lines = [x for x in out.splitlines() if "title=upgrade-note-missing" in x]
    assert len(lines) == 1 and lines[0].startswith("::warning file=entries/acme/vendors/entry.json"), out
    summary = (tmp_path / "summary.md").read_text()
    assert "### Warnings (never a refusal)" in summary and "upgrade\\-note\\-missing" in summary  # Markdown-escaped


def test_near_miss_a_readme_change_keeps_the_entry_digest_and_draws_no_warning(released):
    root, git, digest = released
    readme = root / "entries/acme/vendors/README.md"
    readme.write_text(readme.read_text() + "\nMore words for reviewers.\n")
    _commit(git)
    report = _pr(root)
    assert report.passed and report.warnings == []


def test_near_miss_a_new_entry_draws_no_warning(released):
    root, git, digest = released
    CatalogBuilder(root).add_runner_entry("acme.second", "mapping-v2-before-calculators")
    assert exchange(["fix", "--catalog", str(root)]) == 0
    _commit(git)
    report = _pr(root)
    assert report.warnings == [], [w.detail for w in report.warnings]


def test_upgrade_note_writes_the_note_keyed_by_the_released_digest(released, capsys):
    root, git, digest = released
    _describe_anew(root)
    assert exchange(["upgrade-note", ENTRY, NOTE, "--catalog", str(root)]) == 0
    out = capsys.readouterr().out
    assert digest in out and "v0.1.0" in out and "added" in out
    entry = json.loads((root / ENTRY_JSON).read_bytes())
    assert entry["upgrade"] == {digest: NOTE}
    row = next(r for r in json.loads((root / "manifest.json").read_bytes()) if r["id"] == ENTRY)
    assert row["entryDigest"] == "sha256:" + hashlib.sha256((root / ENTRY_JSON).read_bytes()).hexdigest()
    _commit(git)
    report = _pr(root)
    assert report.passed and report.warnings == [], [r.code for r in report.refusals]
    assert exchange(["upgrade-note", ENTRY, NOTE + " Again.", "--catalog", str(root)]) == 0
    assert "replaced" in capsys.readouterr().out
    assert json.loads((root / ENTRY_JSON).read_bytes())["upgrade"] == {digest: NOTE + " Again."}


def _lock_then_upgrade(root: Path, git: GitRepo, tmp_path: Path, with_note: bool):
    lock = tmp_path / "exchange.lock"
    assert exchange(["release-check", str(root), "v0.1.0", "--lock", str(lock), "--no-history"]) == 0
    assert lock.is_file()  # written by the passing check (docs/release-contract.md)
    _describe_anew(root)
    if with_note:
        assert exchange(["upgrade-note", ENTRY, NOTE, "--catalog", str(root)]) == 0
    _commit(git)
    git.git("switch", "-q", "main")
    git.git("merge", "-q", "--ff-only", "change")
    # without the note the release is refused unless the maintainer names the entry (issue #26 item 4)
    assert make_release(str(root), "v0.2.0").status == (0 if with_note else 1)
    if not with_note:
        assert make_release(str(root), "v0.2.0", approved=frozenset({ENTRY})).status == 0
    return lock


def test_a_locked_consumer_upgrades_with_the_note(released, tmp_path, capsys):
    root, git, digest = released
    lock = _lock_then_upgrade(root, git, tmp_path, with_note=True)
    assert exchange(["release-check", str(root), "v0.2.0", "--lock", str(lock), "--no-history"]) == 0, \
        capsys.readouterr().out


def test_near_miss_a_locked_consumer_is_refused_without_the_note(released, tmp_path, capsys):
    root, git, digest = released
    lock = _lock_then_upgrade(root, git, tmp_path, with_note=False)
    assert exchange(["release-check", str(root), "v0.2.0", "--lock", str(lock), "--no-history"]) == 1
    assert "entry-changed-without-upgrade" in capsys.readouterr().out


@pytest.mark.parametrize("argv, status, words", [
    (["acme.nothing", NOTE], 1, "entry-unknown"),
    ([ENTRY, NOTE, "--release", "v9.9.9"], 1, "is in no release v9.9.9"),
    ([ENTRY, NOTE, "--release", "9.9"], 3, "not a release tag"),
    ([ENTRY, "x" * 2049], 3, "1 to 2048 characters"),
    ([ENTRY, "   "], 3, "not only whitespace"),
    (["Not-An-Id", NOTE], 3, "not an entry id"),
])
def test_upgrade_note_refusals(released, capsys, argv, status, words):
    root, git, digest = released
    before = (root / ENTRY_JSON).read_bytes()
    assert exchange(["upgrade-note", *argv, "--catalog", str(root)]) == status
    assert words in capsys.readouterr().err
    assert (root / ENTRY_JSON).read_bytes() == before


def test_near_miss_a_note_of_2048_characters_is_written(released):
    root, git, digest = released
    assert exchange(["upgrade-note", ENTRY, "x" * 2048, "--catalog", str(root)]) == 0


def test_an_entry_in_no_release_needs_no_note(released, capsys):
    root, git, digest = released
    CatalogBuilder(root).add_runner_entry("acme.second", "mapping-v2-before-calculators")
    assert exchange(["fix", "--catalog", str(root)]) == 0
    assert exchange(["upgrade-note", "acme.second", NOTE, "--catalog", str(root)]) == 1
    assert "is in no release yet" in capsys.readouterr().err
