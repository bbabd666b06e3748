"""The consumer's lock (RFC 0019 §7; issue #10 item 5; docs/release-contract.md, "The lock").

Tests are named after the attack they hold off; each refusal code has a case and a near-miss. Expected
digests come from hashlib over the bytes the test wrote or from git itself, never from the package.
"""

from __future__ import annotations

import json
import os
import subprocess

from judgment_exchange.cli import main

from .conftest import sha256


def run(argv, capsys):
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def check(releases, tag, lock, capsys, *extra):
    rc, out, err = run(["release-check", releases.location, tag, "--lock", str(lock), "--format", "json", *extra],
                       capsys)
    return rc, (json.loads(out) if out else None), err


def codes(report) -> list[str]:
    return [r["code"] for r in report["refusals"]]


def test_lock_records_what_was_imported_in_its_closed_form(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    rc, report, _ = check(releases, "v0.2.0", lock, capsys)
    assert rc == 0 and report["lock"] == {"file": str(lock), "action": "created"}
    blob = subprocess.run(["git", "-C", releases.location, "cat-file", "blob", "v0.2.0:manifest.json"],
                          capture_output=True, check=True).stdout
    rows = json.loads(blob)
    value = json.loads(lock.read_bytes())
    assert value == {
        "lockVersion": 2,  # issue #34 item 4: withdrawn entries kept (none yet)
        "location": os.path.abspath(releases.location),
        "tag": "v0.2.0",
        "commit": releases.repo.rev("v0.2.0^{commit}"),
        "manifestDigest": sha256(blob),
        "entries": {"acme.vendors": rows[0]["entryDigest"]},
        "withdrawn": {},
    }
    assert lock.read_bytes().endswith(b"\n") and list(value) == sorted(value)


def test_lock_passes_the_same_tag_at_the_same_commit(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    check(releases, "v0.2.0", lock, capsys)
    before = lock.read_bytes()
    rc, report, _ = check(releases, "v0.2.0", lock, capsys)
    assert rc == 0 and report["lock"]["action"] == "unchanged" and lock.read_bytes() == before


def test_lock_refuses_moved_tag(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    check(releases, "v0.2.0", lock, capsys)
    before = lock.read_bytes()
    releases.repo.git("tag", "-f", "-a", "-m", "moved", "v0.2.0", "v0.3.0^{commit}")
    rc, report, _ = check(releases, "v0.2.0", lock, capsys)
    assert rc == 1 and codes(report) == ["release-tag-moved"]
    rc, report, _ = check(releases, "v0.3.0", lock, capsys, "--update")  # the locked tag moved: no upgrade from it
    assert rc == 1 and codes(report) == ["release-tag-moved"] and lock.read_bytes() == before


def test_lock_refuses_deleted_locked_tag(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    check(releases, "v0.2.0", lock, capsys)
    releases.repo.git("tag", "-d", "v0.2.0")
    rc, report, _ = check(releases, "v0.3.0", lock, capsys)
    assert rc == 1 and codes(report) == ["release-tag-moved"]


def test_upgrade_diff_to_a_name_outside_the_grammar_from_a_deleted_locked_tag(releases, tmp_path, capsys):
    """The locked tag is gone and TO_TAG is no release tag: the lock's code is said (release-tag-moved), never a
    crash comparing the name's missing order with the locked tag's (lock_refusals held no lower tag to it)."""
    lock = tmp_path / "exchange.lock"
    check(releases, "v0.2.0", lock, capsys)
    releases.repo.git("tag", "-d", "v0.2.0")
    rc, out, _ = run(["upgrade-diff", releases.location, "not-a-tag", "--lock", str(lock), "--format", "json"], capsys)
    assert rc == 1 and codes(json.loads(out)) == ["release-tag-moved"]


def test_lock_refuses_lower_tag(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    check(releases, "v0.3.0", lock, capsys)
    rc, report, _ = check(releases, "v0.2.0", lock, capsys)
    assert rc == 1 and codes(report) == ["release-tag-lower"]
    rc, report, _ = check(releases, "v0.3.0", lock, capsys)  # near-miss: the locked tag itself
    assert rc == 0, report


def test_lock_passes_an_upgrade_with_its_note(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    check(releases, "v0.2.0", lock, capsys)
    before = lock.read_bytes()
    rc, report, _ = check(releases, "v0.3.0", lock, capsys)
    assert rc == 0 and report["lock"]["action"] == "kept" and lock.read_bytes() == before  # no --update: kept
    rc, report, _ = check(releases, "v0.3.0", lock, capsys, "--update")
    assert rc == 0 and report["lock"]["action"] == "updated"
    value = json.loads(lock.read_bytes())
    assert value["tag"] == "v0.3.0" and value["commit"] == releases.repo.rev("v0.3.0^{commit}")
    assert value["entries"] == {"acme.vendors": releases.entry_digest()}


def test_lock_refuses_entry_changed_without_upgrade(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    check(releases, "v0.2.0", lock, capsys)
    before = lock.read_bytes()
    releases.edit_entry(description="A new description, and no upgrade note for v0.2.0's bytes.", upgrade=None)
    releases.release("v0.4.0")
    rc, report, _ = check(releases, "v0.4.0", lock, capsys, "--update")
    assert rc == 1 and codes(report) == ["entry-changed-without-upgrade"]
    assert report["refusals"][0]["entry"] == "acme.vendors" and lock.read_bytes() == before


def test_lock_refuses_a_note_keyed_by_another_release_than_the_imported_one(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    check(releases, "v0.2.0", lock, capsys)  # imported v0.2.0; v0.3.0's note is keyed by v0.2.0's digest
    v3 = releases.entry_digest()
    releases.edit_entry(description="Changed again.", upgrade={v3: "From v0.3.0 only."})
    releases.release("v0.4.0")
    rc, report, _ = check(releases, "v0.4.0", lock, capsys)
    assert rc == 1 and codes(report) == ["entry-changed-without-upgrade"]


def test_approve_change_records_a_reviewed_change_without_a_note(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    check(releases, "v0.2.0", lock, capsys)
    releases.edit_entry(description="Changed without a note.", upgrade=None)
    releases.release("v0.4.0")
    rc, _, err = run(["release-check", releases.location, "v0.4.0", "--lock", str(lock), "--approve-change",
                      "acme.vendors"], capsys)
    assert rc == 3 and "--update" in err  # approval is recorded only together with --update
    rc, report, _ = check(releases, "v0.4.0", lock, capsys, "--update", "--approve-change", "acme.vendors")
    assert rc == 0 and report["lock"]["action"] == "updated"
    assert json.loads(lock.read_bytes())["entries"]["acme.vendors"] == releases.entry_digest()


def test_lock_refuses_a_malformed_lock(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    check(releases, "v0.2.0", lock, capsys)
    value = json.loads(lock.read_bytes())
    for damaged in ({**value, "extra": 1}, {k: v for k, v in value.items() if k != "commit"},
                    {**value, "commit": value["commit"][:12]}, {**value, "tag": "0.2.0"}):
        lock.write_text(json.dumps(damaged))
        rc, report, _ = check(releases, "v0.2.0", lock, capsys)
        assert rc == 1 and codes(report) == ["lock-malformed"], damaged
    lock.write_bytes(b'{"lockVersion": 1, "lockVersion": 1}')
    rc, report, _ = check(releases, "v0.2.0", lock, capsys)
    assert rc == 1 and codes(report) == ["lock-malformed"]
    lock.write_text(json.dumps(value, indent=4))  # near-miss: another spelling of the same closed object
    rc, report, _ = check(releases, "v0.2.0", lock, capsys)
    assert rc == 0, report


def test_lock_refuses_another_catalog_location(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    check(releases, "v0.2.0", lock, capsys)
    value = json.loads(lock.read_bytes())
    lock.write_text(json.dumps({**value, "location": str(tmp_path / "elsewhere")}))
    rc, report, _ = check(releases, "v0.2.0", lock, capsys)
    assert rc == 1 and codes(report) == ["lock-location-mismatch"]
    relative = os.path.relpath(releases.location)  # near-miss: the same directory, spelled relatively
    lock.write_text(json.dumps(value))
    rc, _, _ = run(["release-check", relative, "v0.2.0", "--lock", str(lock)], capsys)
    assert rc == 0


def test_lock_is_never_written_through_a_symlink(releases, tmp_path, capsys):
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"precious\n")
    lock = tmp_path / "exchange.lock"
    lock.symlink_to(outside)
    rc, _, err = run(["release-check", releases.location, "v0.2.0", "--lock", str(lock)], capsys)
    assert rc == 4 and err.strip() and outside.read_bytes() == b"precious\n" and lock.is_symlink()
    dangling = tmp_path / "dangling.lock"
    dangling.symlink_to(tmp_path / "absent-target")
    rc, _, err = run(["release-check", releases.location, "v0.2.0", "--lock", str(dangling)], capsys)
    assert rc == 4 and not (tmp_path / "absent-target").exists()


def test_lock_is_not_written_when_the_check_fails(releases, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    rc, _, _ = check(releases, "v9.9.9", lock, capsys)
    assert rc == 1 and not lock.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".exchange-lock-")]


def test_update_without_lock_is_a_bad_invocation(releases, capsys):
    rc, _, err = run(["release-check", releases.location, "v0.2.0", "--update"], capsys)
    assert rc == 3 and "--lock" in err


def test_expect_commit_rejects_short_prefix_as_bad_invocation(releases, capsys):
    commit = releases.repo.rev("v0.2.0^{commit}")
    for bad in ("zzz", commit[:12], commit + "0", "g" * 40):
        rc, out, err = run(["release-check", releases.location, "v0.2.0", "--expect-commit", bad], capsys)
        assert rc == 3 and "40" in err and not out, bad
    rc, _, _ = run(["release-check", releases.location, "v0.2.0", "--expect-commit", commit], capsys)
    assert rc == 0  # near-miss: the full commit id
    rc, out, _ = run(["release-check", releases.location, "v0.2.0", "--expect-commit", "0" * 40, "--format", "json"],
                     capsys)
    assert rc == 1 and codes(json.loads(out)) == ["release-tag-moved"]
