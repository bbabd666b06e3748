"""upgrade-diff a reviewer can decide from (RFC 0019 §7; issue #10 item 6; docs/release-contract.md).

Expected digests are hashlib over the bytes the test wrote; author text that breaks its grammar is
described, never printed.
"""

from __future__ import annotations

import json

from judgment_exchange.cli import main
from judgment_exchange.consumer import upgrade_diff

from ..support.catalog import stdlib_canon
from .conftest import sha256


def run(argv, capsys):
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_upgrade_diff_readme_only_change_lists_the_file(releases):
    old = (releases.entry / "README.md").read_bytes()
    new = b"# Vendors\n\nA clearer README; nothing pinned changes.\n"
    (releases.entry / "README.md").write_bytes(new)
    releases.release("v0.4.0")
    diff = upgrade_diff(releases.location, "v0.3.0", "v0.4.0")
    assert diff["result"] == "changes", diff
    [change] = diff["changes"]
    assert change["files"] == {"added": [], "removed": [], "changed": [
        {"path": "entries/acme/vendors/README.md", "from": {"blobDigest": sha256(old)},
         "to": {"blobDigest": sha256(new)}}]}
    assert change["from"]["entryDigest"] == change["to"]["entryDigest"] and "flags" not in change


def test_upgrade_diff_lists_removed_and_added_files_with_their_digests(releases):
    fixture = next(p for p in (releases.entry / "fixtures").iterdir() if p.is_dir())
    stray = fixture.parent / "notes.txt"
    stray.write_bytes(b"a stray file\n")
    releases.release("v0.4.0")  # fails its own check (a file no fixture lists); it is only the FROM side
    stray.unlink()
    releases.release("v0.5.0")
    [change] = upgrade_diff(releases.location, "v0.4.0", "v0.5.0", history=None)["changes"]
    # a name outside the grammar is not shown, even of the release being left (issue #16 item 4)
    assert change["files"] == {"added": [], "changed": [], "removed": [
        {"path": "entries/acme/vendors/fixtures/<a name of 9 characters>", "blobDigest": sha256(b"a stray file\n")}]}
    [added] = upgrade_diff(releases.location, "v0.1.0", "v0.2.0")["changes"]
    readme = (releases.entry / "README.md").read_bytes()
    assert added["change"] == "added"
    assert {"path": "entries/acme/vendors/README.md", "blobDigest": sha256(readme)} in added["files"]["added"]


def test_upgrade_diff_never_reviews_a_target_with_a_stray_file(releases):
    fixture = next(p for p in (releases.entry / "fixtures").iterdir() if p.is_dir())
    (fixture.parent / "notes.txt").write_bytes(b"a stray file\n")
    releases.release("v0.4.0")
    diff = upgrade_diff(releases.location, "v0.3.0", "v0.4.0", history=None)
    assert diff["result"] == "refused" and "changes" not in diff
    assert "fixture-unexpected" in [r["code"] for r in diff["refusals"]]


def test_upgrade_diff_refuses_to_review_a_failing_target(releases, capsys):
    entry = json.loads((releases.entry / "entry.json").read_bytes())
    entry["title"] = "x" * 201  # over §3's bound: the target release fails its own check
    (releases.entry / "entry.json").write_text(json.dumps(entry, indent=2) + "\n")
    releases.release("v0.4.0")
    diff = upgrade_diff(releases.location, "v0.3.0", "v0.4.0")
    assert diff["result"] == "refused" and diff["target"]["result"] == "fail"
    assert "entry-member-invalid" in [r["code"] for r in diff["refusals"]] and "changes" not in diff
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.3.0", "v0.4.0"], capsys)
    assert rc == 1 and "nothing here is reviewable" in out and "x" * 201 not in out


def test_upgrade_diff_flags_a_changed_entry_without_a_note(releases, capsys):
    releases.edit_entry(description="Changed without a note.", upgrade=None)
    releases.release("v0.4.0")
    [change] = upgrade_diff(releases.location, "v0.3.0", "v0.4.0")["changes"]
    assert change["flags"] == ["upgrade-note-missing"] and "upgradeNote" not in change
    assert change["fields"]["description"] == {"from": None, "to": "Changed without a note."}
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.3.0", "v0.4.0"], capsys)
    assert rc == 0 and "flagged: no upgrade note" in out


def test_upgrade_diff_shows_fields_and_the_note_keyed_by_the_imported_digest(releases):
    [change] = upgrade_diff(releases.location, "v0.2.0", "v0.3.0")["changes"]
    assert change["fields"]["title"]["to"] == "Vendors, retitled"
    assert change["upgradeNote"] == "Title only; the dialect is unchanged."
    assert change["importedEntryDigest"] == change["from"]["entryDigest"]
    assert not change["kindChanged"] and not change["directionChanged"]
    changed = {f["path"] for f in change["files"]["changed"]}
    assert changed == {"entries/acme/vendors/entry.json"}


def test_upgrade_diff_json_keeps_dialect_digest_as_the_rfc_row_means_it(releases):
    """Re-indented dialect.json: the stored bytes' digest changes, the canonical digest does not, so the
    two names cannot be swapped unnoticed."""
    canonical_bytes = (releases.entry / "dialect.json").read_bytes()
    stored = json.dumps(json.loads(canonical_bytes), indent=3).encode() + b"\n"
    assert stored != canonical_bytes
    (releases.entry / "dialect.json").write_bytes(stored)
    releases.release("v0.4.0")
    [change] = upgrade_diff(releases.location, "v0.3.0", "v0.4.0")["changes"]
    canonical = sha256(stdlib_canon(json.loads(stored)))
    assert change["from"]["dialectDigest"] == sha256(canonical_bytes)
    assert change["to"]["dialectDigest"] == sha256(stored) != canonical  # the row: over the stored bytes
    assert change["to"]["dialectCanonicalDigest"] == change["from"]["dialectCanonicalDigest"] == canonical
    assert change["fields"] == {"dialectDigest": {"from": sha256(canonical_bytes), "to": sha256(stored)}}
    assert change["files"]["changed"][0]["path"] == "entries/acme/vendors/dialect.json"


def test_upgrade_diff_withholds_a_previous_title_over_its_bound(releases, capsys):
    # v0.4.0 carries a title over its bound (a release that fails; it is only the FROM side here),
    # v0.5.0 repairs it. The reviewer sees the old title described, never printed.
    releases.edit_entry(title="\x1b[2J" + "y" * 300)
    releases.release("v0.4.0")
    releases.edit_entry(title="Vendors\x1b[31m, coloured", upgrade=None)
    releases.release("v0.5.0")
    diff = upgrade_diff(releases.location, "v0.4.0", "v0.5.0", history=None)
    [change] = diff["changes"]
    assert change["from"]["title"] == {"withheld": "a string of 304 characters, outside 1 to 200"}
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.4.0", "v0.5.0", "--no-history"], capsys)
    assert "\x1b" not in out and "y" * 300 not in out and "\\x1b[31m" in out


def test_upgrade_diff_withholds_a_title_that_is_not_a_string(releases):
    releases.edit_entry(title={"text": "an object"})
    releases.release("v0.4.0")
    releases.edit_entry(title="Vendors again")
    releases.release("v0.5.0")
    diff = upgrade_diff(releases.location, "v0.4.0", "v0.5.0", history=None)
    assert diff["changes"][0]["from"]["title"] == {"withheld": "not a string (an object)"}
    assert '"text"' not in json.dumps(diff)


def test_upgrade_diff_from_the_lock(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    assert main(["release-check", releases.location, "v0.2.0", "--lock", str(lock)]) == 0
    capsys.readouterr()
    rc, out, _ = run(["upgrade-diff", releases.location, "--lock", str(lock), "v0.3.0", "--format", "json"], capsys)
    diff = json.loads(out)
    assert rc == 0 and diff["from"]["tag"] == "v0.2.0" and diff["changes"][0]["upgradeNote"]
    rc, _, err = run(["upgrade-diff", releases.location, "--lock", str(lock), "v0.1.0", "v0.3.0"], capsys)
    assert rc == 3 and "locked" in err  # FROM_TAG must be the locked one
    rc, _, _ = run(["upgrade-diff", releases.location, "--lock", str(lock), "v0.2.0", "v0.3.0"], capsys)
    assert rc == 0
    rc, _, err = run(["upgrade-diff", releases.location, "v0.3.0"], capsys)
    assert rc == 3  # one tag without a lock
    releases.repo.git("tag", "-f", "v0.2.0", "v0.1.0")
    rc, out, _ = run(["upgrade-diff", releases.location, "--lock", str(lock), "v0.3.0", "--format", "json"], capsys)
    assert rc == 1 and [r["code"] for r in json.loads(out)["refusals"]] == ["release-tag-moved"]


def test_upgrade_diff_from_the_lock_keys_notes_by_the_imported_digest(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    assert main(["release-check", releases.location, "v0.2.0", "--lock", str(lock)]) == 0
    v3 = releases.entry_digest()
    releases.edit_entry(description="Changed again.", upgrade={v3: "From v0.3.0 only."})
    releases.release("v0.4.0")
    capsys.readouterr()
    rc, out, _ = run(["upgrade-diff", releases.location, "--lock", str(lock), "v0.4.0", "--format", "json"], capsys)
    [change] = json.loads(out)["changes"]
    assert rc == 0 and change["flags"] == ["upgrade-note-missing"]  # the note is for v0.3.0, not what was imported
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.3.0", "v0.4.0", "--format", "json"], capsys)
    assert json.loads(out)["changes"][0]["upgradeNote"] == "From v0.3.0 only."  # near-miss
