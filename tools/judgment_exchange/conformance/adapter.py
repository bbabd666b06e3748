"""This project's own consumer behind the kit's command contract (docs/conformance.md, "This project's
consumer"): `exchange conformance consume` runs `release-check` (consumer/check.py) and prints the
neutral verdict (verdict.py).

The kit's retained state is its own small JSON form, not this project's lock: it is read here and made
into a `Lock` in memory, so `release-check` holds the release to it (moved and lower tags; an entry
changed without an upgrade note, this project's stricter rule) and holds the retained release as a
previous manifest, whatever the tag's ancestry (§7; issue #25 item 3). Held releases: with `--history N`,
`release-check` reads the earlier releases of the tag's own first-parent history (its ledger's, else its
tags'), and without it none of them; so it reads history when the case holds every earlier release or
there are none to hold (`no-releases`), and otherwise reads none — holding the retained release alone
when the case gives one (`checked`), else reporting `artifact-history-unchecked`. `withdrawn` and
`changed` come from `upgrade-diff` (consumer/diff.py) against the retained release.

Its tier (docs/conformance.md, "Reader tiers"): at tier specification release-check runs as it is; at tier
none its preparation reader is switched off here, in the adapter and nowhere else (`no_reader`), so every
fixture it reaches is skipped as version-unread and every other rule of release-check holds as ever. No
option of release-check, and no setting a user can give it, turns its reader or any rule off.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

from ..catalog.grammar import release_key
from ..codes.catalog import (
    CATALOG_STRAY_FILE,
    LOCK_LOCATION_MISMATCH,
    LOCK_MALFORMED,
    MANIFEST_ENTRY_MISSING,
    MANIFEST_ENTRY_UNLISTED,
    MANIFEST_ID_DUPLICATE,
    MANIFEST_MALFORMED,
    MANIFEST_ORDER,
    MANIFEST_OVER_BOUND,
    MANIFEST_ROW_INVALID,
    MANIFEST_ROW_VERSION_1,
    RELEASE_TAG_INVALID,
    RELEASE_TAG_LOWER,
    RELEASE_TAG_MOVED,
)
from ..codes.dialect import KIND_UNREAD, VERSION_UNREAD
from ..codes.history import (
    ARTIFACT_CONTENT_CHANGED,
    ARTIFACT_HISTORY_INVALID,
    RELEASE_LEDGER_INVALID,
    RELEASE_LEDGER_MISSING,
    RELEASE_ROW_MISMATCH,
    RELEASE_TAG_MISMATCH,
    RELEASE_TAG_MISSING,
    RELEASE_TAG_UNRECORDED,
)
from ..codes.repository import SKIPS_MALFORMED, VERIFIER_PIN_MALFORMED
from ..codes.verifier import skip_of
from ..consumer import LocationError, Lock, release_check, upgrade_diff
from ..consumer.check import UNCHECKED, open_location
from ..jsonstrict import Bounds, JsonRefusal, integer, loads
from ..refusal import Report
from ..tree import id_order

if TYPE_CHECKING:
    from ..signing.signers import Signers

SPECIFICATION, NONE = "specification", "none"
TIERS = (SPECIFICATION, NONE)
VERSION_UNREAD_ANSWER = {"result": "refusal", "refusal": VERSION_UNREAD}
"""A reader that reads no dialect version answers every fixture so (dialect §11's report; RFC 0019 §4's skip)."""
RETAINED_VERSION = 2
RETAINED_MEMBERS = ("commit", "entries", "location", "manifestDigest", "retainedVersion", "tag")
RETAINED_MEMBERS_2 = RETAINED_MEMBERS + ("withdrawn",)
WITHDRAWN_MEMBERS = ["commit", "entryDigest", "id", "tag"]
RETAINED_BOUND = 1024 * 1024

RELEASE_CODES = frozenset({
    RELEASE_TAG_INVALID, RELEASE_TAG_MOVED, RELEASE_TAG_LOWER, LOCK_LOCATION_MISMATCH, LOCK_MALFORMED,
    MANIFEST_MALFORMED, MANIFEST_OVER_BOUND, MANIFEST_ROW_INVALID, MANIFEST_ROW_VERSION_1,
    MANIFEST_ORDER, MANIFEST_ID_DUPLICATE, MANIFEST_ENTRY_UNLISTED, MANIFEST_ENTRY_MISSING,
    CATALOG_STRAY_FILE, ARTIFACT_HISTORY_INVALID, ARTIFACT_CONTENT_CHANGED, VERIFIER_PIN_MALFORMED,
    SKIPS_MALFORMED, RELEASE_LEDGER_INVALID, RELEASE_LEDGER_MISSING, RELEASE_ROW_MISMATCH,
    RELEASE_TAG_MISSING, RELEASE_TAG_MISMATCH, RELEASE_TAG_UNRECORDED,
})
"""Refusals of the import as a whole (RFC 0019 §7: "a malformed manifest refuses the catalog's import";
publication identity and history refuse the release): no entry is offered, and `entries` is []. Any
other refusal refuses the entry it names (checklist O17)."""


class RetainedError(ValueError):
    """The retained-state file is not in the kit's form (a bad invocation)."""


def read_retained(data: bytes) -> Lock:
    """The kit's retained state, {retainedVersion: 1, location, tag, commit, manifestDigest,
    entries: [{id, entryDigest}]}, or version 2 with `withdrawn`: [{id, tag, commit, entryDigest}] (the entries
    kept withdrawn where they were imported; issue #34 item 4), as a Lock in memory."""
    from ..consumer.lock import Withdrawn

    try:
        value = loads(data, Bounds(max_bytes=RETAINED_BOUND, max_depth=4))
    except JsonRefusal as exc:
        raise RetainedError(f"not one strict JSON value ({exc.detail})") from exc
    version = integer(value.get("retainedVersion")) if isinstance(value, dict) else None
    members = RETAINED_MEMBERS_2 if version == 2 else RETAINED_MEMBERS
    if not isinstance(value, dict) or sorted(value) != sorted(members):
        raise RetainedError(f"an object of exactly {', '.join(members)}")
    if version not in (1, RETAINED_VERSION):
        raise RetainedError(f"retainedVersion is 1 or {RETAINED_VERSION}")
    for member in ("location", "tag", "commit", "manifestDigest"):
        if not isinstance(value[member], str):
            raise RetainedError(f"{member} is a string")
    entries = value["entries"]
    if not isinstance(entries, list) or not all(
            isinstance(e, dict) and sorted(e) == ["entryDigest", "id"] and all(isinstance(v, str) for v in e.values())
            for e in entries):
        raise RetainedError("entries is an array of {id, entryDigest}")
    kept = value.get("withdrawn", [])
    if not isinstance(kept, list) or not all(
            isinstance(e, dict) and sorted(e) == WITHDRAWN_MEMBERS and all(isinstance(v, str) for v in e.values())
            for e in kept):
        raise RetainedError("withdrawn is an array of {id, tag, commit, entryDigest}")
    return Lock(value["location"], value["tag"], value["commit"], value["manifestDigest"],
                {e["id"]: e["entryDigest"] for e in entries},
                {e["id"]: Withdrawn(e["tag"], e["commit"], e["entryDigest"]) for e in kept})


SIGNED_RETAINED_VERSION = 3
"""The retained state of a signing case (issue #36 item 6): version 1's or 2's members with `signers` (the retained
release's signers lines) and `tagObject` (its tag object id)."""


def read_retained_state(data: bytes) -> Lock:
    """The kit's retained state (read_retained), or version 3 with `signers` and `tagObject` as a Lock holding signers
    (consumer/lock.py's version 3)."""
    from dataclasses import replace

    from ..consumer.lock import OBJECT_ID, _signers

    try:
        value = loads(data, Bounds(max_bytes=RETAINED_BOUND, max_depth=4))
    except JsonRefusal as exc:
        raise RetainedError(f"not one strict JSON value ({exc.detail})") from exc
    if not isinstance(value, dict) or integer(value.get("retainedVersion")) != SIGNED_RETAINED_VERSION:
        return read_retained(data)
    signers, problem = _signers(value.pop("signers", None))
    if problem is not None:
        raise RetainedError(f"version {SIGNED_RETAINED_VERSION}: {problem}")
    tag_object = value.pop("tagObject", None)
    if not isinstance(tag_object, str) or OBJECT_ID.fullmatch(tag_object) is None:
        raise RetainedError(f"version {SIGNED_RETAINED_VERSION}: tagObject is a tag object id")
    value["retainedVersion"] = 2 if "withdrawn" in value else 1
    lock = read_retained(json.dumps(value, default=lambda n: json.loads(n.literal)).encode("utf-8"))
    return replace(lock, signers=signers, tag_object=tag_object)


def _earlier_releases(location: str, tag: str) -> list[str]:
    """The release tags of the location lower than `tag` (none when `tag` is outside the grammar)."""
    import tempfile

    key = release_key(tag)
    if key is None:
        return []
    with tempfile.TemporaryDirectory(prefix="exchange-kit-") as workdir:
        repo = open_location(location, workdir)
        try:
            return sorted(t.name for t in repo.tags if (found := release_key(t.name)) is not None and found < key)
        finally:
            repo.close()


def _unique(codes: list[str]) -> list[str]:
    return list(dict.fromkeys(codes))


def _entries(location: str, commit: str, report: Report) -> list[dict[str, Any]]:
    """Each row of the release's manifest with its kind, whether it is offered, and its fixtures."""
    import tempfile

    from ..catalog.manifest import read_manifest
    from ..tree import GitTree

    with tempfile.TemporaryDirectory(prefix="exchange-kit-") as workdir:
        repo = open_location(location, workdir)
        try:
            rows = read_manifest(GitTree(repo, commit)).rows
        finally:
            repo.close()
    refused = {r.entry for r in report.refusals}
    skipped = {(s.entry, s.fixture): skip_of(s.reason.split(":", 1)[0]) for s in report.skipped}
    out = []
    for entry_id in sorted(rows, key=id_order):
        kind = rows[entry_id].get("kind")
        offered = kind == "dialect" and entry_id not in refused
        fixtures = []
        for replay in report.replays if offered else []:
            if replay.entry != entry_id:
                continue
            if replay.result == "reading":
                fixtures.append({"name": replay.fixture, "replay": "replayed"})
            elif replay.result == "skipped":
                fixtures.append({"name": replay.fixture, "replay": "skipped",
                                 "reason": skipped.get((entry_id, replay.fixture)) or KIND_UNREAD})
        out.append({"id": entry_id, "kind": kind, "offered": offered, "fixtures": fixtures})
    return out


def _against_retained(location: str, tag: str, lock: Lock) -> tuple[list[str], list[str]]:
    """The retained entries withdrawn from, and changed in, the checked release (upgrade-diff's review); the
    entries the retained state keeps withdrawn are listed withdrawn while the release does not hold them."""
    diff = upgrade_diff(location, None, tag, lock=lock, history=None)
    if diff.get("result") != "changes":
        raise LocationError(f"upgrade-diff gave no changes: {diff.get('result')}")
    kept = set(lock.entries) | set(lock.withdrawn)  # an entry kept withdrawn is retained too (issue #34 item 4)
    withdrawn = [c["id"] for c in diff["changes"] if c["change"] == "withdrawn" and c["id"] in kept]
    changed = [c["id"] for c in diff["changes"] if c["change"] == "changed" and c["id"] in lock.entries]
    return withdrawn, changed


@contextmanager
def no_reader() -> Iterator[None]:
    """Tier none, for the checks made inside it in this process: the preparation reader reads no dialect
    version. The gate reaches the reader through three calls of the verifier package (gate/replay.py):
    the replay, in process or through a program, answers version-unread; and what the reader still reads of a
    skipped fixture (`check_skipped`, verifier/partial.py: this project's reader, holding every acquisition
    it reads under a skip; docs/skips.md) reads nothing, as a reader that reads no version reads nothing of
    it. Every check that needs no reader — digests, file sets, classification and binding documents, bounds,
    scans, history — and skips.json's rule over each skip are release-check's own and run as ever."""
    from .. import verifier

    saved = verifier.replay_fixture, verifier.replay_with_program, verifier.check_skipped
    verifier.replay_fixture = lambda *args, **kwargs: dict(VERSION_UNREAD_ANSWER)
    verifier.replay_with_program = lambda *args, **kwargs: dict(VERSION_UNREAD_ANSWER)
    # a reader that reads no version reads nothing under a skip either: check_skipped's refusal-or-None made None
    verifier.check_skipped = lambda *args, **kwargs: None  # type: ignore[assignment]
    try:
        yield
    finally:
        verifier.replay_fixture, verifier.replay_with_program, verifier.check_skipped = saved


def consume(location: str, tag: str, *, history_limit: int, held: list[str], retained: Lock | None,
            tier: str = SPECIFICATION, signers: Signers | None = None) -> dict[str, Any]:
    """The neutral verdict of `release-check` on one case (RFC 0019 §7), its reader at `tier`; `signers`, a signing
    case's pinned set (release-check --signers). LocationError when the location or an object of the release cannot
    be read."""
    if tier == NONE:
        with no_reader():
            return _consume(location, tag, history_limit=history_limit, held=held, retained=retained, signers=signers)
    return _consume(location, tag, history_limit=history_limit, held=held, retained=retained, signers=signers)


def _consume(location: str, tag: str, *, history_limit: int, held: list[str], retained: Lock | None,
             signers: Signers | None = None) -> dict[str, Any]:
    from ..consumer.signed import Signing

    earlier = _earlier_releases(location, tag)
    def order(tag: str) -> tuple[int, int, int]:
        return cast("tuple[int, int, int]", release_key(tag))  # a case's held tags are release tags, as `earlier`

    if held and sorted(held, key=order) != sorted(earlier, key=order):
        return {"notApplicable": "release-check reads every earlier release of the tag's own history or none of "
                                 "them; this case holds only some of them"}
    history = history_limit if held or not earlier else None
    check = release_check(location, tag, history=history, lock=retained, signing=Signing(signers))
    report = check.report
    whole = any(r.code in RELEASE_CODES or r.entry is None for r in report.refusals)
    verdict: dict[str, Any] = {
        "result": "pass" if report.passed else "refuse",
        "codes": _unique([r.code for r in report.refusals]),
        "history": report.history if report.history in ("checked", "no-releases") else UNCHECKED,
        "entries": [] if whole or check.commit is None else _entries(location, check.commit, report),
    }
    if retained is not None:
        verdict["withdrawn"], verdict["changed"] = [], []
        if report.passed and check.commit != retained.commit:
            verdict["withdrawn"], verdict["changed"] = _against_retained(location, tag, retained)
    return verdict


def encode(verdict: dict[str, Any]) -> str:
    """The verdict as one line of ASCII JSON."""
    return json.dumps(verdict, ensure_ascii=True, sort_keys=True)


__all__ = ["NONE", "RELEASE_CODES", "RetainedError", "SPECIFICATION", "TIERS", "consume", "encode", "no_reader",
           "read_retained"]
