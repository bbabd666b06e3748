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
    repo = GitRepo(tmp_path / "repo")
    for number, files in enumerate(snapshots, 1):
        repo.snapshot(files, f"release {number}")
        repo.tag(f"v0.{number}.0")
    return str(repo.path)


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
