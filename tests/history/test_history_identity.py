"""Publication identity within a release, the gate's view of an entry, and upgrade-key details (RFC 0019 §3)."""

from __future__ import annotations

from judgment_exchange.history import CurrentEntry, HistoricalRow, artifact_refusals, history_artifact_refusals
from judgment_exchange.history.upgrade import unknown_key_refusals

A, B = "sha256:" + "a" * 64, "sha256:" + "b" * 64
PAIR = ("urn:example:a", "1.0.0")


def _entry(entry_id: str, digest: str | None, pair=PAIR, keys=()) -> CurrentEntry:
    publisher, name = entry_id.split(".", 1)
    return CurrentEntry(entry_id, f"entries/{publisher}/{name}", digest, pair, tuple(keys))


def test_three_entries_two_digests_refuse_all_three() -> None:
    refusals = artifact_refusals([_entry("p.c", B), _entry("p.a", A), _entry("p.b", A)])
    assert [(r.code, r.entry, r.path) for r in refusals] == [
        ("artifact-content-changed", "p.a", "entries/p/a/entry.json"),
        ("artifact-content-changed", "p.b", "entries/p/b/entry.json"),
        ("artifact-content-changed", "p.c", "entries/p/c/entry.json"),
    ]
    assert "p.c" in refusals[0].detail and "p.a, p.b" in refusals[2].detail


def test_entries_without_pair_or_digest_are_not_compared() -> None:
    assert artifact_refusals([_entry("p.a", A), _entry("p.b", None), _entry("p.c", B, pair=None)]) == []


def test_same_artifact_id_other_version_is_another_pair() -> None:
    assert artifact_refusals([_entry("p.a", A), _entry("p.b", B, pair=("urn:example:a", "1.0.1"))]) == []


def test_pair_members_compared_as_exact_strings() -> None:
    composed, decomposed = "urn:caf\u00e9", "urn:cafe\u0301"
    first = _entry("p.a", A, pair=(composed, "1.0.0"))
    assert artifact_refusals([first, _entry("p.b", B, pair=(decomposed, "1.0.0"))]) == []
    assert len(artifact_refusals([first, _entry("p.b", B, pair=(composed, "1.0.0"))])) == 2


def test_history_names_every_earlier_digest_and_release() -> None:
    rows = [HistoricalRow("v0.1.0", "p.old", A, PAIR, A), HistoricalRow("v0.2.0", "p.x", B, None, None)]
    (refusal,) = history_artifact_refusals([_entry("p.new", B)], rows)
    assert refusal.code == "artifact-content-changed" and "p.old in v0.1.0" in refusal.detail
    assert history_artifact_refusals([_entry("p.new", A)], rows) == []


def test_from_entry_reads_what_history_needs() -> None:
    value = {
        "id": "acme.tickets",
        "kind": "dialect",
        "dialect": {"path": "dialect.json", "formatVersion": "3.0.0", "digest": A},
        "artifact": {"id": "urn:example:a", "version": "1.0.0"},
        "upgrade": {B: "note"},
    }
    entry = CurrentEntry.from_entry("entries/acme/tickets", value)
    assert (entry.id, entry.dialect_digest, entry.artifact, entry.upgrade_keys) == ("acme.tickets", A, PAIR, (B,))


def test_from_entry_tolerates_bad_forms() -> None:
    value = {"artifact": {"id": 1, "version": "1.0.0"}, "upgrade": [A], "dialect": []}
    entry = CurrentEntry.from_entry("entries/acme/tickets", value)
    assert (entry.id, entry.dialect_digest, entry.artifact, entry.upgrade_keys) == ("acme.tickets", None, None, ())
    assert CurrentEntry.from_entry("entries/acme/tickets", []).id == "acme.tickets"


def test_identity_ignores_the_entry_kind() -> None:
    value = {"id": "p.b", "kind": "preset", "dialect": {"digest": A}, "artifact": {"id": PAIR[0], "version": PAIR[1]}}
    preset = CurrentEntry.from_entry("entries/p/b", value)
    assert artifact_refusals([_entry("p.a", A), preset]) == []


def test_upgrade_refusal_names_the_key() -> None:
    rows = [HistoricalRow("v0.1.0", "p.a", A)]
    (refusal,) = unknown_key_refusals([_entry("p.a", A, keys=[A, B])], rows, releases=1)
    assert refusal.code == "upgrade-key-unknown" and B in refusal.detail and refusal.entry == "p.a"
    assert unknown_key_refusals([_entry("p.a", A, keys=[A])], rows, releases=1) == []


def test_an_upgrade_keys_pointer_is_escaped_as_rfc_6901_writes_it() -> None:
    """The refusal points at the key's own member, its `~` and `/` escaped (pointers.escape, the one spelling)."""
    rows = [HistoricalRow("v0.1.0", "p.a", A)]
    (refusal,) = unknown_key_refusals([_entry("p.a", A, keys=["a/b~c"])], rows, releases=1)
    assert refusal.pointer == "/upgrade/a~1b~0c"
