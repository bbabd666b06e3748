"""Upgrade keys: each a released entryDigest of this entry's own row (RFC 0019 §3)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ..canon import is_digest
from ..catalog.grammar import release_key
from ..codes.history import UPGRADE_KEY_UNKNOWN, UPGRADE_NOTE_MISSING
from ..pointers import escape
from ..refusal import Refusal
from ..tree import id_order
from .model import CurrentEntry, Facts, HistoricalRow


def changed_without_note(released: object, now: object, notes: object) -> bool:
    """The one rule of an entry changed without an upgrade note (RFC 0019 §3 `upgrade`, §7's reviewed upgrade;
    issue #37 item 2): its entryDigest now (`now`) is not the one released (`released`: the latest release's for the
    gate's warning `upgrade-note-missing`, the locked one for release-check's `entry-changed-without-upgrade` and
    upgrade-diff's flag), and entry.json's `upgrade` member (`notes`, its value: an object of notes by key) holds none
    keyed by `released`. The gate (`note_warnings`, and so `exchange release`), release-check
    (consumer/check.unnoted_change_refusals) and upgrade-diff (consumer/diff) ask here; tests/test_rule_homes.py holds
    each of them to it."""
    return now != released and not (isinstance(notes, dict) and released in notes)


def unknown_key_refusals(current: Sequence[CurrentEntry], rows: Sequence[HistoricalRow],
                         releases: int) -> list[Refusal]:
    """Refuse each key that is not the entryDigest of the row with this entry's id in a previous release.

    With no previous release, every key is refused (§3: a catalog with no earlier release admits none).
    """
    return unknown_key_refusals_of(current, Facts.of(rows), releases)


def unknown_key_refusals_of(current: Sequence[CurrentEntry], facts: Facts, releases: int) -> list[Refusal]:
    """`unknown_key_refusals` over the distinct (id, entryDigest) facts of the previous releases."""
    released = facts.entries
    holders: dict[str, set[str]] = defaultdict(set)
    own: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for (entry_id, entry_digest), tags in released.items():
        holders[entry_digest].add(entry_id)
        if is_digest(entry_digest):
            own[entry_id][entry_digest] = tags
    refusals = []
    for entry in sorted(current, key=lambda e: id_order(e.id)):
        for number, key in enumerate(entry.upgrade_keys, 1):
            if (entry.id, key) in released:
                continue
            if releases == 0:
                why = "the catalog has no earlier release, so it admits no upgrade key"
            elif holders.get(key):
                why = f"it is the entryDigest of {', '.join(sorted(holders[key]))}'s row, not of this entry's"
            else:
                why = "it is not the entryDigest of this entry's row in any previous release"
            shown = key if is_digest(key) else f"#{number} (not a digest)"
            pointer = "/upgrade/" + escape(key)
            refusals.append(Refusal(UPGRADE_KEY_UNKNOWN, f"{entry.path}/entry.json",
                                    f"upgrade key {shown}: {why}; {valid_keys(own.get(entry.id, {}))}", entry.id,
                                    pointer=pointer))
    return refusals


def valid_keys(digests: dict[str, list[str]]) -> str:
    """The keys that would be valid: this entry's entryDigests in earlier releases, with the releases
    that pin each (digests and tags, both of a checked grammar), or a sentence saying there are none."""
    if not digests:
        return "no earlier release holds this entry, so no key is valid (remove upgrade)"
    listed = "; ".join(f"{d} ({', '.join(tags)})" for d, tags in digests.items())
    return f"the valid keys are this entry's earlier entryDigests: {listed}"


def latest_released(facts: Facts) -> dict[str, tuple[str, str]]:
    """Each entry id the previous releases hold: the highest release (in tag order) holding it, and that
    release's row's entryDigest (issue #17 item 5). Each tag's key is taken once, and each fact's
    highest release found in C (`max` keeps the first of equals, as a strict comparison does; issue #20)."""
    keys = _Keys()
    latest: dict[str, tuple[tuple[int, ...], str, str]] = {}
    for (entry_id, entry_digest), tags in facts.entries.items():
        if not tags:
            continue
        tag = max(tags, key=keys.__getitem__)
        key = keys[tag]
        if key is not _UNKEYED and (entry_id not in latest or key > latest[entry_id][0]):
            latest[entry_id] = (key, tag, entry_digest)
    return {entry_id: (tag, digest) for entry_id, (_, tag, digest) in latest.items()}


_UNKEYED = (-1,)  # a tag outside the grammar: below every release's key, and never the latest


class _Keys(dict[str, tuple[int, ...]]):
    """Each tag's release key, taken once (_UNKEYED for a tag outside the grammar)."""

    def __missing__(self, tag: str) -> tuple[int, ...]:
        key = release_key(tag)
        value = self[tag] = _UNKEYED if key is None else key
        return value


def note_warnings(current: Sequence[tuple[CurrentEntry, str | None]], changed: set[str],
                  released: dict[str, tuple[str, str]]) -> list[Refusal]:
    """A pull request's warnings (never refusals; RFC 0019 §3 makes notes optional): each released entry
    whose entry.json the change alters (`changed`: its repository paths), whose stored digest (beside it
    in `current`) is no longer the latest released entryDigest, and that gives no upgrade note keyed by it."""
    out = []
    for entry, digest in sorted(current, key=lambda pair: id_order(pair[0].id)):
        path = f"{entry.path}/entry.json"
        if path not in changed or entry.id not in released:
            continue
        tag, key = released[entry.id]
        if not changed_without_note(key, digest, dict.fromkeys(entry.upgrade_keys)):
            continue
        command = f"exchange upgrade-note {entry.id} TEXT --release {tag}"  # keyed by the release named here
        out.append(Refusal(UPGRADE_NOTE_MISSING, path,
                           f"entry.json differs from release {tag}, whose entryDigest is {key}, and gives no upgrade "
                           f"note keyed by it: a consumer locked to {tag} is refused this change "
                           "(entry-changed-without-upgrade) until its reviewer approves it by hand; tell them what "
                           f"changed with {command}", entry.id,
                           pointer="/upgrade" if entry.upgrade_keys else None,
                           fix=f"Say what changed for reviewers upgrading from {tag} (CONTRIBUTING.md, \"Upgrade "
                               f"notes\"). Run `{command}`."))
    return out
