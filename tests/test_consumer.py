"""A consumer's release check and upgrade review (RFC 0019 §7), on throwaway repositories."""

from __future__ import annotations

import json
import shutil

import pytest

from judgment_exchange.cli import main
from judgment_exchange.consumer import release_check, upgrade_diff

from .support.catalog import CatalogBuilder, pretty
from .support.gitrepo import GitRepo, files_of


@pytest.fixture
def releases(tmp_path):
    """v0.1.0: the empty manifest; v0.2.0: a Runner entry; v0.3.0: its title changed, with an upgrade note."""
    repo = GitRepo(tmp_path / "repo")
    work = CatalogBuilder(tmp_path / "work")
    repo.snapshot(files_of(work.root))
    repo.tag("v0.1.0")
    path = work.add_runner_entry()
    work.write_manifest()
    repo.snapshot(files_of(work.root))
    repo.tag("v0.2.0", annotated=True)
    previous = json.loads((work.root / "manifest.json").read_bytes())[0]["entryDigest"]
    entry = json.loads((path / "entry.json").read_bytes())
    entry["title"] = "Vendors, retitled"
    entry["upgrade"] = {previous: "Title only; the dialect is unchanged."}
    (path / "entry.json").write_bytes(pretty(entry))
    work.write_manifest()
    repo.snapshot(files_of(work.root))
    repo.tag("v0.3.0")
    return repo


def test_release_check_reads_blobs_at_the_tag(releases):
    result = release_check(str(releases.path), "v0.2.0")
    assert result.report.passed, result.report.as_json()
    assert result.commit == releases.rev("v0.2.0^{commit}")
    assert result.report.entries == 1 and result.report.replayed == 1 and result.report.history == "checked"


def test_release_check_of_the_empty_release(releases):
    result = release_check(str(releases.path), "v0.1.0")
    assert result.report.passed and result.report.entries == 0 and result.report.history == "no-releases"


def test_upgrade_key_of_a_previous_release_passes_history(releases):
    result = release_check(str(releases.path), "v0.3.0")
    assert result.report.passed, result.report.as_json()


def test_without_history_it_says_unchecked(releases):
    result = release_check(str(releases.path), "v0.3.0", history=None)
    assert result.report.history == "artifact-history-unchecked" and result.report.passed


def test_tag_rules(releases):
    assert [r.code for r in release_check(str(releases.path), "0.2.0").report.refusals] == ["release-tag-invalid"]
    assert [r.code for r in release_check(str(releases.path), "v9.9.9").report.refusals] == ["release-tag-invalid"]
    tree = releases.git("rev-parse", "v0.2.0^{tree}")
    releases.tag("v0.4.0", tree)
    assert [r.code for r in release_check(str(releases.path), "v0.4.0").report.refusals] == ["release-tag-invalid"]
    moved = release_check(str(releases.path), "v0.2.0", expect_commit="0" * 40)
    assert [r.code for r in moved.report.refusals] == ["release-tag-moved"]


def test_history_limit(releases):
    result = release_check(str(releases.path), "v0.3.0", history=1)
    assert "artifact-history-invalid" in [r.code for r in result.report.refusals]


def test_a_working_tree_change_does_not_reach_the_release(releases):
    (releases.path / "entries/acme/vendors/README.md").write_text("changed in the working tree\n")
    assert release_check(str(releases.path), "v0.2.0").report.passed


def test_upgrade_diff(releases):
    diff = upgrade_diff(str(releases.path), "v0.2.0", "v0.3.0")
    assert diff["result"] == "changes"
    [change] = diff["changes"]
    assert change["id"] == "acme.vendors" and change["change"] == "changed"
    assert change["upgradeNote"] == "Title only; the dialect is unchanged."
    assert not change["kindChanged"] and not change["directionChanged"]
    added = upgrade_diff(str(releases.path), "v0.1.0", "v0.2.0")["changes"]
    assert [(c["id"], c["change"]) for c in added] == [("acme.vendors", "added")]
    withdrawn = upgrade_diff(str(releases.path), "v0.3.0", "v0.1.0")
    assert withdrawn["result"] == "refused"
    assert [r["code"] for r in withdrawn["refusals"]] == ["upgrade-target-not-higher"]


def test_withdrawn_entry_is_shown(releases, tmp_path):
    work = tmp_path / "after"
    work.mkdir()
    (work / "manifest.json").write_bytes(b"[]\n")
    releases.snapshot(files_of(work))
    releases.tag("v0.5.0")
    changes = upgrade_diff(str(releases.path), "v0.3.0", "v0.5.0")["changes"]
    assert [(c["id"], c["change"]) for c in changes] == [("acme.vendors", "withdrawn")]


def test_cli(releases, capsys):
    assert main(["release-check", str(releases.path), "v0.2.0", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["commit"] == releases.rev("v0.2.0^{commit}") and out["result"] == "pass"
    assert main(["release-check", str(releases.path), "v0.2.0", "--history", "0"]) == 3
    assert main(["release-check", str(releases.path / "absent"), "v0.2.0"]) == 4
    assert main(["upgrade-diff", str(releases.path), "v0.3.0", "v0.2.0"]) == 1
    capsys.readouterr()
    assert main(["upgrade-diff", str(releases.path), "v0.2.0", "v0.3.0"]) == 0
    assert "changed acme.vendors" in capsys.readouterr().out


def test_pull_request_names_touched_entries(releases, capsys):
    path = releases.path / "entries/acme/vendors/README.md"
    path.write_text("A clearer README.\n")
    assert main(["check", "--catalog", str(releases.path), "--base", "v0.3.0", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["touched"] == ["acme.vendors"] and report["history"] == "checked"
    shutil.copytree(releases.path / "entries/acme/vendors", releases.path / "entries/acme/vendors-copy")
    assert main(["check", "--catalog", str(releases.path), "--base", "v0.3.0", "--format", "json"]) == 1
    codes = [r["code"] for r in json.loads(capsys.readouterr().out)["refusals"]]
    assert "one-entry-per-pull-request" in codes
    assert main(["check", "--catalog", str(releases.path), "--base", "no-such-rev", "--format", "json"]) == 1
    assert "base-unreadable" in [r["code"] for r in json.loads(capsys.readouterr().out)["refusals"]]
