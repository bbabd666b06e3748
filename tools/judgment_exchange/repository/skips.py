"""Skip acknowledgements (docs/skips.md): skips.json at the catalog's root, the reviewed list of fixtures
the catalog accepts being held by their digests only (RFC 0019 §4's skip, held stricter).

A catalog with skips.json requires every skip to be acknowledged there: an unacknowledged skip is
`skip-unacknowledged`, an acknowledgement that names no current skip is `skip-acknowledgement-stale`, and
a file out of its closed form is `skips-malformed`. A catalog without the file reports skips as warnings
only, as RFC 0019 §4 does. Nothing here quotes a value the file's author wrote unless it passed its grammar.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from ..catalog import documents as docs
from ..catalog import grammar
from ..catalog.directory import EntryCheck, entry_path
from ..codes.repository import SKIP_ACKNOWLEDGEMENT_STALE, SKIP_UNACKNOWLEDGED, SKIPS_MALFORMED
from ..refusal import Findings, Refusal, Skip
from ..tree import FILE, MISSING, Tree, kind_text

PATH = "skips.json"
BOUND = docs.MIB
MAX_ITEMS = 4096
MEMBERS = ("entry", "fixture", "why")
ID_CHARS = (3, 128)  # entry.json's id bound (RFC 0019 §3)
FIXTURE_CHARS = 64  # a fixture name's bound (RFC 0019 §3)
WHY_CHARS = 1024


@dataclass
class Acknowledgements:
    """skips.json as read: whether the catalog has it, its (entry, fixture) pairs in order, its refusals."""

    present: bool = False
    items: list[tuple[str, str]] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return self.present and not self.refusals


def _item_problem(item: Any) -> str | None:
    if not isinstance(item, dict) or set(item) != set(MEMBERS):
        return "an acknowledgement is an object of exactly entry, fixture and why"
    entry, fixture, why = item["entry"], item["fixture"], item["why"]
    if (
        not isinstance(entry, str)
        or not ID_CHARS[0] <= len(entry) <= ID_CHARS[1]
        or not grammar.ENTRY_ID.fullmatch(entry)
    ):
        return "entry is an entry id (RFC 0019 §3: 3 to 128 characters, publisher.name)"
    if not isinstance(fixture, str) or len(fixture) > FIXTURE_CHARS or not grammar.FIXTURE_NAME.fullmatch(fixture):
        return "fixture is a fixture name (RFC 0019 §3: at most 64 characters of [a-z0-9] joined by single -)"
    if not isinstance(why, str) or not why.strip() or len(why) > WHY_CHARS:
        return f"why is the reviewed reason, a string of 1 to {WHY_CHARS} characters, not only whitespace"
    return None


def _key(pair: tuple[str, str]) -> tuple[bytes, bytes]:
    return pair[0].encode("utf-8"), pair[1].encode("utf-8")


def read_acknowledgements(tree: Tree) -> Acknowledgements:
    """skips.json's closed form: an array of at most 4,096 {entry, fixture, why}, distinct pairs in byte order."""
    node = tree.stat(PATH)
    if node.kind == MISSING:
        return Acknowledgements()
    out = Acknowledgements(present=True)
    if node.kind != FILE:
        out.refusals.append(Refusal(SKIPS_MALFORMED, PATH, f"skips.json is {kind_text(node.kind)}; it is a regular "
                                                             "file holding a JSON array ([] when nothing is skipped)"))
        return out
    read = docs.read_json(tree, PATH, BOUND, over_code=SKIPS_MALFORMED, malformed_code=SKIPS_MALFORMED,
                          nested_code=SKIPS_MALFORMED)
    if read.refusal:
        out.refusals.append(read.refusal)
        return out
    value = read.value
    if not isinstance(value, list) or len(value) > MAX_ITEMS:
        out.refusals.append(Refusal(SKIPS_MALFORMED, PATH, f"skips.json is a JSON array of at most {MAX_ITEMS} "
                                                             "acknowledgements ([] when nothing is skipped)"))
        return out
    for index, item in enumerate(value):
        if (why := _item_problem(item)) is not None:
            out.refusals.append(Refusal(SKIPS_MALFORMED, PATH, f"item {index}: {why}"))
            continue
        pair = (item["entry"], item["fixture"])
        if out.items and _key(pair) <= _key(out.items[-1]):
            problem = "is given twice" if pair == out.items[-1] else "is out of order"
            out.refusals.append(Refusal(SKIPS_MALFORMED, PATH, f"item {index}: its (entry, fixture) pair {problem}; "
                                                                 "items are distinct and ordered by entry, then "
                                                                 "fixture, as UTF-8 bytes"))
            continue
        out.items.append(pair)
    return out


def _named(value: str, pattern: re.Pattern[str]) -> str | None:
    return value if pattern.fullmatch(value) else None


def _unacknowledged(skip: Skip) -> Refusal:
    entry = _named(skip.entry, grammar.ENTRY_ID)
    fixture = _named(skip.fixture, grammar.FIXTURE_NAME)
    where = f"{entry_path(skip.entry)}/fixtures/{skip.fixture}" if entry and fixture else None
    item = (f'{{"entry": "{entry}", "fixture": "{fixture}", "why": "…"}}' if entry and fixture
            else "an item naming it")
    return Refusal(SKIP_UNACKNOWLEDGED, where,
                   f"fixture {fixture or '(a name outside the grammar)'} is held by its digests only "
                   f"({skip.reason}); skips.json does not acknowledge it: after review, add {item} to skips.json, "
                   "saying why the catalog accepts it (docs/skips.md)", skip.entry)


def _left_note(skip: Skip) -> str:
    """The note for an acknowledgement a pin move removes while the base's reader still skips its fixture."""
    entry = _named(skip.entry, grammar.ENTRY_ID) or "(an entry outside the id grammar)"
    fixture = _named(skip.fixture, grammar.FIXTURE_NAME) or "(a name outside the grammar)"
    return (f"the acknowledgement of fixture {fixture} of {entry} is removed with the verifier pin's move, and the "
            f"base's reader still skips it ({skip.reason}): the moved reader decides it; check with exchange check "
            "--base BASE --pin change once the moved pin is fetched (docs/trust.md, \"Moving the pin\")")


def _stale_reason(pair: tuple[str, str], checks: dict[str, EntryCheck]) -> str | None:
    """Why an acknowledgement that matches no skip is stale, or None when its fixture could not be replayed
    (the entry is refused for that, and the acknowledgement is not judged)."""
    check = checks.get(pair[0])
    if check is None:
        return "it names no entry of the catalog"
    listed = check.entry.get("fixtures") if isinstance(check.entry, dict) else None
    if isinstance(listed, list) and pair[1] not in [f.get("name") for f in listed if isinstance(f, dict)]:
        return "its entry lists no fixture of that name"
    ran = check.kind == "dialect" and check.form_valid and check.document_data is not None
    if ran and any(f.name == pair[1] and f.replayable for f in check.fixtures):
        return "its fixture was replayed through the verifier and not skipped"
    return None


@dataclass
class Acknowledged:
    """The skips held to skips.json: each skip with whether the file acknowledges it (`skipped`), and the
    refusals and notes that holding found (`found`)."""

    skipped: list[Skip]
    found: Findings = field(default_factory=Findings)


def acknowledge(tree: Tree, checks: list[EntryCheck], skipped: list[Skip], entries: list[str],
                held: frozenset[str] = frozenset(), left: frozenset[tuple[str, str]] = frozenset()) -> Acknowledged:
    """The run's skips (`skipped`) held to skips.json (when the catalog has one): each skip acknowledged, each
    acknowledgement current. `entries` is the gate's --entry selection (empty: every entry); `held` the entries
    held by their manifest pins, not replayed, whose acknowledgements the gate on the base held (pinned.py).
    `left` are the acknowledgements a change moving the verifier pin removes, judged under the base's reader:
    their skips are noted, not refused, for the moved reader decides them (docs/trust.md, "Moving the pin")."""
    acks = read_acknowledgements(tree)
    out = Acknowledged(skipped, Findings(list(acks.refusals)))
    if not acks.present:
        return out
    pairs = set(acks.items)
    out.skipped = [replace(s, acknowledged=acks.valid and (s.entry, s.fixture) in pairs) for s in skipped]
    if not acks.valid:
        return out
    for skip in out.skipped:
        if skip.acknowledged:
            continue
        if (skip.entry, skip.fixture) in left:
            out.found.notes.append(_left_note(skip))
        else:
            out.found.refusals.append(_unacknowledged(skip))
    now = {(s.entry, s.fixture) for s in out.skipped}
    by_id = {c.id: c for c in checks}
    for pair in acks.items:
        if pair in now or (entries and pair[0] not in entries) or pair[0] in held:
            continue
        if (why := _stale_reason(pair, by_id)) is not None:
            out.found.refusals.append(Refusal(
                SKIP_ACKNOWLEDGEMENT_STALE, PATH,
                f"the acknowledgement of fixture {pair[1]} of {pair[0]} names no current skip: {why}; remove it "
                "(an acknowledgement is given for a skip under review, never ahead of one)", pair[0]))
    return out
