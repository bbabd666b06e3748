"""An entry is only `pass` when it was checked (issue #25 item 4; docs/release-contract.md, "Each entry's
record").

A refusal that stops the entry checks — a manifest that cannot be read (its pins are never compared), a
history that cannot be read (pairs and upgrade keys are never held to it) — leaves every entry without a
refusal of its own `not-checked`, in the JSON `results` and in the text, never `pass`: a desk reading
`results` must not offer them. Expected records are written by hand.
"""

from __future__ import annotations

import json

import pytest

from judgment_exchange.cli import main

from ..support.catalog import CatalogBuilder, pretty
from ..support.gitrepo import GitRepo, files_of
from ..support.simulator import CatalogSimulator

WRITEBACK, OTHER = "acme.writeback", "acme.writeback-b"
MALFORMED = b'[{"id": "acme.writeback",\n'


def catalog(tmp_path, *ids: str) -> dict[str, bytes]:
    builder = CatalogBuilder(tmp_path / "work")
    for entry_id in ids:
        builder.add_output_entry(entry_id)
    builder.write_manifest()
    return files_of(builder.root)


def released(tmp_path, *snapshots: dict[str, bytes]) -> str:
    """A repository whose commits are the snapshots, tagged v0.1.0, v0.2.0, ... (tags alone, no ledger)."""
    history = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "repo-work")
    for number, files in enumerate(snapshots, 1):
        history.release(f"v0.{number}.0", message=f"release {number}", tree=files)
    return history.location


def check(location: str, tag: str, capsys, fmt: str = "json"):
    rc = main(["release-check", location, tag, "--format", fmt])
    out = capsys.readouterr().out
    return rc, (json.loads(out) if fmt == "json" else out)


def test_attack_malformed_manifest_leaves_entries_marked_pass(tmp_path, capsys):
    location = released(tmp_path, catalog(tmp_path, WRITEBACK) | {"manifest.json": MALFORMED})
    rc, report = check(location, "v0.1.0", capsys)
    assert rc == 1 and [r["code"] for r in report["refusals"]] == ["manifest-malformed"]
    [record] = report["results"]
    assert record["id"] == WRITEBACK and record["result"] == "not-checked"
    assert record["stoppedBy"] == ["manifest-malformed"] and "manifest pins" in record["reason"]
    rc, text = check(location, "v0.1.0", capsys, "text")
    assert rc == 1 and f"entry {WRITEBACK}: not checked (manifest-malformed: " in text
    assert f"entry {WRITEBACK}: pass" not in text


def test_a_manifest_over_its_row_bound_leaves_entries_not_checked(tmp_path, capsys):
    files = catalog(tmp_path, WRITEBACK)
    rows = json.loads(files["manifest.json"])
    location = released(tmp_path, files | {"manifest.json": pretty(rows * 1025)})
    rc, report = check(location, "v0.1.0", capsys)
    assert rc == 1 and "manifest-over-bound" in [r["code"] for r in report["refusals"]]
    assert [(r["id"], r["result"], r["stoppedBy"]) for r in report["results"]] == \
        [(WRITEBACK, "not-checked", ["manifest-over-bound"])]


def test_attack_unreadable_history_leaves_entries_marked_pass(tmp_path, capsys):
    good = catalog(tmp_path, WRITEBACK)
    location = released(tmp_path, good | {"manifest.json": MALFORMED}, good)  # v0.1.0's manifest is not JSON
    rc, report = check(location, "v0.2.0", capsys)
    assert rc == 1 and [r["code"] for r in report["refusals"]] == ["artifact-history-invalid"]
    assert report["results"] == [{"id": WRITEBACK, "result": "not-checked", "stoppedBy": ["artifact-history-invalid"],
                                  "reason": "the release history could not be read whole: this entry's artifact "
                                            "pair and upgrade keys were not held to the previous releases"}]
    rc, text = check(location, "v0.2.0", capsys, "text")
    assert f"entry {WRITEBACK}: not checked (artifact-history-invalid: " in text


def test_an_unreadable_ledger_leaves_entries_not_checked(tmp_path, capsys):
    location = released(tmp_path, catalog(tmp_path, WRITEBACK) | {"releases.json": b"[{\"tag\": \n"})
    rc, report = check(location, "v0.1.0", capsys)
    assert rc == 1 and [r["code"] for r in report["refusals"]] == ["release-ledger-invalid"]
    assert [(r["id"], r["result"], r["stoppedBy"]) for r in report["results"]] == \
        [(WRITEBACK, "not-checked", ["release-ledger-invalid"])]


def test_an_entry_refused_on_its_own_stays_refused_beside_a_stopping_refusal(tmp_path, capsys):
    files = catalog(tmp_path, WRITEBACK, OTHER)
    path = f"entries/acme/{OTHER.split('.')[1]}/entry.json"
    entry = json.loads(files[path])
    entry["assertion"] = "The author asserts this works."
    location = released(tmp_path, files | {path: pretty(entry), "manifest.json": MALFORMED})
    rc, report = check(location, "v0.1.0", capsys)
    assert rc == 1 and "assertion-mismatch" in [r["code"] for r in report["refusals"]]
    assert [(r["id"], r["result"]) for r in report["results"]] == [(WRITEBACK, "not-checked"), (OTHER, "refused")]


@pytest.mark.parametrize("tag", ["v0.1.0", "v0.2.0"])
def test_near_miss_a_readable_manifest_and_history_leave_entries_pass(tmp_path, capsys, tag):
    good = catalog(tmp_path, WRITEBACK)
    location = released(tmp_path, good, good | {"README.md": b"# A catalog\n"})
    rc, report = check(location, tag, capsys)
    assert rc == 0 and report["results"] == [{"id": WRITEBACK, "result": "pass"}]
    rc, text = check(location, tag, capsys, "text")
    assert f"entry {WRITEBACK}: pass" in text


def test_near_miss_a_refusal_that_leaves_the_entry_checks_whole_keeps_pass(tmp_path, capsys):
    """Rows out of id order refuse the import, but every row is still read and held to its entry: each
    entry's own checks are whole, so its record says what they found (docs/release-contract.md)."""
    files = catalog(tmp_path, WRITEBACK, OTHER)
    rows = json.loads(files["manifest.json"])
    location = released(tmp_path, files | {"manifest.json": pretty(rows[::-1])})
    rc, report = check(location, "v0.1.0", capsys)
    assert rc == 1 and "manifest-order" in [r["code"] for r in report["refusals"]]
    # the row out of order names its entry (refused); the other entry's checks were whole
    assert {r["id"]: r["result"] for r in report["results"]} == {WRITEBACK: "refused", OTHER: "pass"}


# --- issue #34 item 5: manifest.json not a file, and skips.json unread --------------------------------------

def _data(text: str) -> str:
    return f"data {len(text.encode())}\n{text}\n"


SHAPES = {"tree": "M 100644 inline manifest.json/inside\n" + _data("[]\n"),
          "symlink": "M 120000 inline manifest.json\n" + _data("elsewhere.json"),
          "gitlink": "M 160000 {commit} manifest.json\n"}


def shaped(tmp_path, kind: str) -> str:
    """v0.1.0: a catalog whose manifest.json is committed as `kind` (fast-import writes the mode git keeps)."""
    repo = GitRepo(tmp_path / "repo")
    first = repo.snapshot(catalog(tmp_path, WRITEBACK), "the catalog")
    what = SHAPES[kind].format(commit=first)
    repo.fast_import((f"commit refs/heads/main\ncommitter T <t@example.invalid> 1760443200 +0000\ndata 9\n"
                      f"shape it\nfrom {first}\nD manifest.json\n{what}\ndone\n").encode())
    repo.git("reset", "-q", "--hard", "main")
    repo.tag("v0.1.0")
    return str(repo.path)


@pytest.mark.parametrize("kind", sorted(SHAPES))
def test_attack_manifest_committed_as_no_file_leaves_entries_marked_pass(tmp_path, capsys, kind):
    location = shaped(tmp_path, kind)
    rc, report = check(location, "v0.1.0", capsys)
    assert rc == 1 and ("file-unreadable", "manifest.json") in [(r["code"], r.get("path")) for r in report["refusals"]]
    [record] = report["results"]
    assert (record["id"], record["result"], record["stoppedBy"]) == (WRITEBACK, "not-checked", ["file-unreadable"])
    assert record["reason"].startswith("manifest.json is not a file that could be read")
    rc, text = check(location, "v0.1.0", capsys, "text")
    assert rc == 1 and f"entry {WRITEBACK}: not checked (file-unreadable: manifest.json is not a file" in text
    assert f"entry {WRITEBACK}: pass" not in text


def test_near_miss_an_entry_file_unreadable_refuses_that_entry_only():
    """file-unreadable of an entry's own file (a fixture directory whose tree cannot be read) names that entry,
    which is refused; it stops no other entry's checks. Only manifest.json's stops them all."""
    from judgment_exchange.consumer.check import entry_results
    from judgment_exchange.refusal import Refusal, Report

    fixture = f"entries/acme/{OTHER.split('.')[1]}/fixtures/one"
    report = Report(refusals=[Refusal("file-unreadable", fixture, "its tree is missing", OTHER)],
                    checked=[WRITEBACK, OTHER])
    assert entry_results(report) == [{"id": WRITEBACK, "result": "pass"}, {"id": OTHER, "result": "refused"}]
    report.refusals.append(Refusal("file-unreadable", "manifest.json", "manifest.json is a tree"))
    assert [(r["id"], r["result"]) for r in entry_results(report)] == [(WRITEBACK, "not-checked"), (OTHER, "refused")]


def skips_catalog(tmp_path, skips: bytes | None) -> str:
    builder = CatalogBuilder(tmp_path / "work")
    builder.add_output_entry(WRITEBACK)
    builder.add_http_entry()
    builder.write_manifest()
    files = files_of(builder.root) | ({"skips.json": skips} if skips is not None else {})
    return released(tmp_path, files)


HTTP = "acme.vendors-http"
ACKNOWLEDGED = pretty([{"entry": HTTP, "fixture": "vendor-7", "why": "http is read by no reader yet"}])


def test_attack_malformed_skips_leaves_the_skipped_entry_marked_pass(tmp_path, capsys):
    """skips.json unread: the acknowledgement of the http entry's skipped fixture was never read, so that entry
    is not checked; the output entry, with no skipped fixture, needed none and keeps pass."""
    location = skips_catalog(tmp_path, b'[{"entry": \n')
    rc, report = check(location, "v0.1.0", capsys)
    assert rc == 1 and [r["code"] for r in report["refusals"]] == ["skips-malformed"]
    assert report["results"] == [
        {"id": HTTP, "result": "not-checked", "stoppedBy": ["skips-malformed"],
         "reason": "skips.json could not be read: the acknowledgement of this entry's skipped fixture was not read"},
        {"id": WRITEBACK, "result": "pass"}]
    rc, text = check(location, "v0.1.0", capsys, "text")
    assert f"entry {HTTP}: not checked (skips-malformed: skips.json could not be read" in text
    assert f"entry {WRITEBACK}: pass" in text and f"entry {HTTP}: pass" not in text


def test_near_miss_read_skips_acknowledging_the_fixture_leave_both_pass(tmp_path, capsys):
    location = skips_catalog(tmp_path, ACKNOWLEDGED)
    rc, report = check(location, "v0.1.0", capsys)
    assert rc == 0, report["refusals"]
    assert report["results"] == [{"id": HTTP, "result": "pass"}, {"id": WRITEBACK, "result": "pass"}]
