"""Review of the CLI, the consumer and the gate's integration (RFC 0019 §§4, 6, 7; shared/design/interfaces.md).

Each test states the sentence it holds. Inputs are throwaway catalogs and repositories built with
tests/support (digests from hashlib and the standard library, never from the package under test).
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

from judgment_exchange.cli import main
from judgment_exchange.consumer import upgrade_diff
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import GitTree

from ..support.catalog import CatalogBuilder
from ..support.simulator import CatalogSimulator, runner_released

NO_WORK = dict(replay=False, scan=False)



def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """The command in-process; an exception escaping main() is itself the failure (never a traceback)."""
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture
def released(tmp_path) -> CatalogSimulator:
    return runner_released(tmp_path)


# 1. interfaces.md: "--entry ID ... check only this entry"; "Exit 0: no refusal" — an id that names no
#    entry checks nothing, so it must not come back as a pass.

def test_check_entry_naming_no_entry_is_not_a_pass(tmp_path, capsys):
    work = CatalogBuilder(tmp_path / "cat")
    work.add_runner_entry()
    work.write_manifest()
    rc, out, _ = run(["check", "--catalog", str(work.root), "--no-history", "--entry", "acme.vendor",
                      "--format", "json"], capsys)
    assert rc in (1, 3), out  # a refusal naming the unknown id, or a bad invocation; never exit 0 "pass"


def test_release_check_entry_naming_no_entry_is_not_a_pass(released, capsys):
    rc, out, _ = run(["release-check", str(released.path), "v0.2.0", "--entry", "acme.no-such", "--no-history",
                      "--format", "json"], capsys)
    assert rc in (1, 3), out


# 2. interfaces.md: "Exit 4: I/O failure"; the brief's "never a traceback".

def test_manifest_write_where_manifest_is_a_directory_is_io_failure(tmp_path, capsys):
    work = CatalogBuilder(tmp_path / "cat")
    work.add_runner_entry()
    (work.root / "manifest.json").unlink()
    (work.root / "manifest.json").mkdir()
    rc, _, err = run(["manifest", "--write", "--catalog", str(work.root)], capsys)
    assert rc == 4 and err.strip()


def test_manifest_write_to_a_missing_catalog_is_io_failure(tmp_path, capsys):
    rc, _, err = run(["manifest", "--write", "--catalog", str(tmp_path / "no" / "such")], capsys)
    assert rc == 4 and err


def test_manifest_check_of_a_missing_catalog_is_io_failure_not_a_diff(tmp_path, capsys):
    rc, out, _ = run(["manifest", "--catalog", str(tmp_path / "no-such")], capsys)
    assert rc == 4 and "+++" not in out  # as `exchange check --catalog <missing>` does


def test_manifest_with_a_non_utf8_directory_name_names_it_without_traceback(tmp_path, capsys):
    work = CatalogBuilder(tmp_path / "cat")
    work.add_runner_entry()
    work.write_manifest()
    shutil.copytree(work.root / "entries" / "acme" / "vendors",
                    os.fsdecode(os.fsencode(work.root / "entries" / "acme") + b"/\xff"))
    rc, _, err = run(["manifest", "--catalog", str(work.root)], capsys)
    assert rc == 1 and "entries/acme/" in err  # exchange check refuses it as entry-id-path; manifest must too


# 3. interfaces.md: `check` has "history (tags, upgrade keys, artifact history)" and "--base REV ... the
#    report names which entries the change touched"; the gate runs on a GitTree as on a WorkingTree
#    (docs/architecture.md, RFC 0019 §7: the same checks on a release's blobs).

def test_gate_on_a_gittree_reads_history_from_that_repository(released):
    report = check_catalog(GitTree(str(released.path), "v0.2.0"), GateOptions(release_tag="v0.2.0", **NO_WORK))
    assert report.passed and report.history == "checked", report.as_json()


def test_gate_on_a_gittree_with_base_names_the_entries_its_commit_touched(tmp_path):
    repo = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "work")
    empty = repo.files()
    repo.release("v0.1.0", message="snapshot", tree=empty)
    repo.builder.add_runner_entry("acme.vendors")
    repo.builder.add_runner_entry("acme.other")
    two = repo.commit("snapshot")
    repo.commit("snapshot", tree=empty)  # the working tree is back at the base; the commit under check is `two`
    report = check_catalog(GitTree(str(repo.path), two),
                           GateOptions(history=False, base="v0.1.0", repository=str(repo.path), **NO_WORK))
    assert report.touched == ["acme.other", "acme.vendors"], report.touched
    assert "one-entry-per-pull-request" in [r.code for r in report.refusals]


# 4. RFC 0019 §7 (checklist K7, O17): the consumer's own checks include manifest bounds and form, and
#    "manifest form errors refuse the catalog"; K16: only an entry *missing from the new release* is
#    withdrawn. interfaces.md: exit 4 for I/O failure, never a traceback.

def test_upgrade_diff_refuses_a_malformed_target_manifest_instead_of_withdrawing_everything(tmp_path):
    repo = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "work")
    repo.builder.add_runner_entry()
    repo.release("v0.1.0", message="snapshot")
    repo.release("v0.2.0", message="snapshot", files={"manifest.json": b"[{not json"})
    diff = upgrade_diff(str(repo.path), "v0.1.0", "v0.2.0")
    assert diff["result"] == "refused", diff
    assert "manifest-malformed" in [r["code"] for r in diff["refusals"]]
    assert not any(c.get("change") == "withdrawn" for c in diff.get("changes", []))


def _drop_object(repo: CatalogSimulator, rev: str) -> None:
    repo.drop_object(rev)


def test_upgrade_diff_with_an_unreadable_manifest_blob_is_io_failure(released, capsys):
    _drop_object(released, "v0.2.0:manifest.json")
    rc, _, err = run(["upgrade-diff", str(released.path), "v0.1.0", "v0.2.0"], capsys)
    assert rc == 4 and err.strip()


def test_release_check_with_an_unreadable_tree_object_is_io_failure(released, capsys):
    _drop_object(released, "v0.2.0^{commit}:entries/acme")
    rc, _, err = run(["release-check", str(released.path), "v0.2.0", "--no-history", "--format", "json"], capsys)
    assert rc == 4 and "entries/acme" in err


# 5. interfaces.md, release-check: "reports the resolved commit, each entry's result, fixtures not
#    recomputable with their reason".

def test_release_check_report_names_each_entry_and_its_result(released, capsys):
    rc, out, _ = run(["release-check", str(released.path), "v0.2.0", "--no-history", "--format", "json"], capsys)
    assert rc == 0
    assert "acme.vendors" in out, out  # a passing entry is named in the report, not only counted


# 6. The brief: "clear text messages naming file, member and fix"; RFC 0019 §4: one report. A file name
#    chosen by a contributor must not write lines of its own into the text report.

def test_text_report_escapes_line_breaks_in_file_names(tmp_path, capsys):
    work = CatalogBuilder(tmp_path / "cat")
    path = work.add_runner_entry()
    work.write_manifest()
    (path / "fixtures" / "vendor-7" / "x\nresult: pass\n").write_bytes(b"{}")
    rc, out, _ = run(["check", "--catalog", str(work.root), "--no-history"], capsys)
    assert rc == 1
    assert "result: pass" not in out.splitlines(), out


# 7. interfaces.md, upgrade-diff: "for review: changed entries ..., kind/direction changes, withdrawn
#    entries, compatibility statements and the upgrade note keyed by the previous entry digest"
#    (RFC 0019 §7, checklist K17/K18). The text form is what a reviewer reads.

def test_upgrade_diff_text_shows_the_compatibility_statement(tmp_path, capsys):
    repo = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "work")
    repo.builder.add_runner_entry()
    repo.release("v0.1.0", message="snapshot")
    previous = json.loads((repo.work / "manifest.json").read_bytes())[0]["entryDigest"]
    # §3: compatibility is a closed {desk, runner} object
    repo.change("acme.vendors", compatibility={"desk": ">=v0.4.0 <v0.5.0", "runner": "v0.1.0"},
                upgrade={previous: "Title only."})
    repo.release("v0.2.0", message="snapshot")
    rc, out, _ = run(["upgrade-diff", str(repo.path), "v0.1.0", "v0.2.0"], capsys)
    assert rc == 0 and "Title only." in out
    assert ">=v0.4.0 <v0.5.0" in out, out


# 8. interfaces.md: "a different verifier ... can be named instead with EXCHANGE_VERIFIER="<command>"";
#    exit 3 is a bad invocation, and a command that cannot run is the fixture's replay failing —
#    never a traceback (whose exit status 1 reads as an ordinary refusal).

def test_check_with_an_unparseable_exchange_verifier_gives_no_traceback(tmp_path, capsys, monkeypatch):
    work = CatalogBuilder(tmp_path / "cat")
    work.add_runner_entry()
    work.write_manifest()
    monkeypatch.setenv("EXCHANGE_VERIFIER", '"unterminated')
    rc, out, err = run(["check", "--catalog", str(work.root), "--no-history", "--format", "json"], capsys)
    assert rc in (1, 3)
    if rc == 1:
        assert "replay-failed" in [r["code"] for r in json.loads(out)["refusals"]]
    else:
        assert "EXCHANGE_VERIFIER" in err


# 9. docs/releasing.md: "A tag in the grammar that names a tree or a blob is not a release; the check
#    notes it." (checklist O11: ignored, not refused). history.check_history returns those notes; the
#    gate drops them, so neither the text nor the JSON report carries them.

def test_check_notes_a_release_tag_that_names_a_tree(tmp_path, capsys):
    repo = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "work")
    repo.release("v0.1.0", message="snapshot")
    repo.tag("v0.2.0", repo.rev("HEAD^{tree}"))
    rc, out, _ = run(["check", "--catalog", str(repo.path)], capsys)
    assert rc == 0, out  # ignored, never refused (O11)
    assert "v0.2.0" in out, out
    rc, out, _ = run(["check", "--catalog", str(repo.path), "--format", "json"], capsys)
    assert rc == 0 and "v0.2.0" in out, out


# 10. interfaces.md: "exchange manifest --write — compute every row ... and write manifest.json"; the
#     gate refuses a manifest.json that is not a regular file. Writing must not follow a symlink out of
#     the catalog (a checked-out pull request can hold one).

def test_manifest_write_does_not_write_through_a_symlink(tmp_path, capsys):
    work = CatalogBuilder(tmp_path / "cat")
    work.add_runner_entry()
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"precious\n")
    (work.root / "manifest.json").unlink()
    (work.root / "manifest.json").symlink_to(outside)
    rc, _, err = run(["manifest", "--write", "--catalog", str(work.root)], capsys)
    assert outside.read_bytes() == b"precious\n"
    assert rc != 0 or not (work.root / "manifest.json").is_symlink(), err
