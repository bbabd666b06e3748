"""`exchange fix`: recompute every derived pin from the files (issue #9; RFC 0019 §3 "Digests").

The pins are the members a person never writes: each entry's `dialect.digest` (the canonical digest
of dialect.json) and `output.digest` (of output.json), each fixture's `preparationDigest` (sha256 over
preparation.json's stored bytes), a named-format document's `artifact` pair (its root id and
version), and every manifest row (as `exchange manifest --write`). Everything else in entry.json
keeps its bytes: the pins are edited in place (authoring/jsonedit.py); documents, fixture files and
the members a person writes are never touched.

Nothing is written when any entry directory is wrong in a way a pin cannot fix: `plan_fix` returns
the blockers, and the caller writes only a plan without one. The whole plan is computed, then
checked again on the edited bytes (an overlay of the tree), before a byte is written.
docs/fix.md lists the blockers and the reasons.

Replay before pinning (issue #17 item 4, `replay_blockers`): a pin that vouches for a recording is
written only when the recording still replays. A fixture whose preparationDigest changes, and every
fixture of an entry whose dialect digest changes, goes through the bundled verifier in process; one
that does not replay to exactly its preparation.json blocks the fix, naming the fixture, the
verifier's code and (for preparation-differs) the first member that differs, by pointer, type and
length. A fixture the verifier cannot recompute (kind-unread, version-unread) never has its
preparationDigest re-pinned: it is re-recorded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..canon import CanonError, canonical_digest, digest, is_digest
from ..catalog import documents as docs
from ..catalog.directory import EntryCheck, FixtureCheck, check_entry_directory
from ..catalog.grammar import ENTRY_ID
from ..catalog.layout import entry_directories
from ..catalog.manifest import compute_row, write_manifest
from ..catalog.reference import artifact_problem
from ..codes.catalog import (
    ARTIFACT_MALFORMED,
    ARTIFACT_MISMATCH,
    ARTIFACT_REQUIRED,
    ASSERTION_MISMATCH,
    CATALOG_STRAY_FILE,
    DIALECT_DIGEST_MISMATCH,
    ENTRY_FILE_MISSING,
    ENTRY_MEMBER_FORBIDDEN,
    ENTRY_MEMBER_INVALID,
    ENTRY_MEMBER_MISSING,
    ENTRY_MEMBER_UNKNOWN,
    FILE_OVER_BOUND,
    FILE_UNREADABLE,
    OUTPUT_DIGEST_MISMATCH,
    PLACEHOLDER_VALUE,
    PREPARATION_DIGEST_MISMATCH,
    READER_LOCATOR_INVALID,
    REPLAY_DIGEST_MISMATCH,
    REPLAY_FAILED,
    SOURCE_KINDS_MISMATCH,
    VERIFICATION_RECORD_INVALID,
)
from ..codes.verifier import AGREES, FAILED, OTHER_DIGEST, PREPARATION_DIFFERS, SKIPPED, read_answer, skip_of
from ..jsonstrict import well_formed
from ..quoting import clear_refusals, cleared_paths
from ..quoting import digest as quoted_digest
from ..refusal import Refusal
from ..tree import DIR, FILE, MISSING, Node, TooLarge, Tree, TreeError, kind_text
from .jsonedit import JsonEditError, insert_member, replace_member

MANIFEST = "manifest.json"

# The refusals `exchange fix` repairs: each names a pin recomputed below.
REPAIRED = frozenset({DIALECT_DIGEST_MISMATCH, OUTPUT_DIGEST_MISMATCH, PREPARATION_DIGEST_MISMATCH,
                      ARTIFACT_MISMATCH, ARTIFACT_REQUIRED})
# Refusals about a part a person writes that no pin reads: `exchange check` reports them; they are no
# reason to withhold the pins (a contributor runs fix before and after writing the human parts, and
# before the first fixture is recorded). Every other refusal withholds the whole fix (docs/fix.md).
NOT_BLOCKING = frozenset({PLACEHOLDER_VALUE, ASSERTION_MISMATCH, VERIFICATION_RECORD_INVALID,
                          READER_LOCATOR_INVALID, SOURCE_KINDS_MISMATCH})
# entry.json members a person writes and no pin reads; a member refusal under one of them does not block, but
# one of licence does: a refused licence refuses the entry, and nothing is pinned (`licence_blockers`).
PERSON_MEMBERS = frozenset({"title", "description", "compatibility", "upgrade", "pack", "requires", "sourceKinds",
                            "licence", "author", "assertion", "verification"})
_MEMBER_CODES = frozenset({ENTRY_MEMBER_MISSING, ENTRY_MEMBER_UNKNOWN, ENTRY_MEMBER_INVALID,
                           ENTRY_MEMBER_FORBIDDEN})


def blocks(refusal: Refusal) -> bool:
    """Whether a refusal withholds `exchange fix`: it is wrong in a way no pin fixes and a pin reads it."""
    if refusal.code in REPAIRED or refusal.code in NOT_BLOCKING:
        return False
    path = refusal.path or ""
    if refusal.code in (ENTRY_FILE_MISSING, FILE_OVER_BOUND) and path.endswith("/README.md"):
        return False
    if refusal.code in _MEMBER_CODES and refusal.pointer:
        first = refusal.pointer.split("/")[1]
        if first == "licence":  # the entry is refused whole: nothing is pinned for it (`licence_blockers`)
            return True
        # the list of fixtures holding none yet (a new entry before its first recording) reads as /fixtures
        return first not in PERSON_MEMBERS and refusal.pointer != "/fixtures"
    return True


@dataclass(frozen=True)
class Change:
    """One pin that changes: the file (catalog-relative), the member, and old and new values as
    printable text (digests and grammar-valid artifact pairs; anything else described)."""

    file: str
    member: str
    old: str
    new: str

    def line(self) -> str:
        return f"{self.file}: {self.member}: {self.old} -> {self.new}"


@dataclass(frozen=True)
class Blocker:
    """Why nothing was written: the file and the reason (the gate's refusal code and detail, or
    code None for a reason of fix's own)."""

    file: str
    code: str | None
    why: str

    def line(self) -> str:
        return f"{self.file}: {self.code}: {self.why}" if self.code else f"{self.file}: {self.why}"


@dataclass
class Plan:
    """Every change and the bytes to write (path -> bytes, catalog-relative), or the blockers."""

    changes: list[Change] = field(default_factory=list)
    writes: dict[str, bytes] = field(default_factory=dict)
    blockers: list[Blocker] = field(default_factory=list)
    entries: int = 0
    stale: list[Blocker] = field(default_factory=list)
    """Fixtures whose pins are current but which no longer replay (`stale_fixtures`): no reason to withhold the
    pins that change (none vouches for them), named after the pins' verdict (docs/fix.md)."""


def pinnable(check: EntryCheck) -> bool:
    """A manifest row can pin the entry: a readable entry.json with its kind, under a directory whose
    path is well-formed text (the rule `exchange manifest` and `exchange fix` share)."""
    return check.kind is not None and "entry.json" in check.stored and well_formed(check.path)


def entries_blocker(tree: Tree) -> Blocker | None:
    """entries/ when something is there that is not a directory (the gate's catalog-stray-file): the entries
    cannot be read, so no row may be computed (a manifest computed without them would drop every row;
    issue #25 item 5). None for a directory or no entries/ at all (a catalog without entries)."""
    node = tree.stat("entries")
    if node.kind in (DIR, MISSING):
        return None
    return Blocker("entries", CATALOG_STRAY_FILE, f"entries is {kind_text(node.kind)}, not a directory: "
                   "the entries cannot be read, so no pin or manifest row is computed")


def entry_checks(tree: Tree) -> list[EntryCheck]:
    """Every entry directory's checks but replay, scans and history, in id byte order (TreeError on I/O)."""
    paths, _stray = entry_directories(tree)
    return [check_entry_directory(tree, p) for p in paths]


class _Overlay:
    """A Tree that reads `files` (path -> bytes) in place of the tree's bytes, for the re-check."""

    def __init__(self, tree: Tree, files: dict[str, bytes]) -> None:
        self.tree, self.files = tree, files
        self.label = tree.label
        self.repository = getattr(tree, "repository", None)

    def stat(self, path: str) -> Node:
        if path in self.files:
            return Node(path.rsplit("/", 1)[-1], FILE, len(self.files[path]))
        return self.tree.stat(path)

    def list(self, path: str) -> list[Node]:
        prefix = f"{path}/" if path else ""
        return [Node(n.name, FILE, len(self.files[prefix + n.name])) if prefix + n.name in self.files else n
                for n in self.tree.list(path)]

    def read(self, path: str, limit: int) -> bytes:
        if path in self.files:
            data = self.files[path]
            if len(data) > limit:
                raise TooLarge(path, len(data), limit)
            return data
        return self.tree.read(path, limit)


REFUSED_ENTRY = "the entry is refused, so exchange fix pins nothing for it: write its licence as the detail says"


def licence_blockers(check: EntryCheck) -> list[Blocker]:
    """A licence the gate refuses (issue #34 item 7; docs/fix.md): §3's grammar (`blocks`) and, as this catalog's
    gate holds it, the SPDX licence list (catalog/spdx.py: licence-not-listed, licence-spelling). The licence is
    what lets the Exchange publish the entry's files, and no later step of the walkthrough writes it (the scaffold
    writes a listed one), so a refused licence withholds the pins: fix never reports an entry's pins written over a
    licence `exchange check` refuses. Only listed identifiers are named, never the value."""
    from ..catalog.spdx import POINTER, licence_finding

    entry = check.entry
    if not isinstance(entry, dict) or any(r.pointer == POINTER for r in check.refusals):
        return []  # no entry to read, or the grammar's refusal already blocks (`blocks`)
    finding = licence_finding(entry.get("licence"))
    if finding is None or not finding.refused:
        return []
    return [Blocker(f"{check.path}/entry.json", finding.code, f"licence: {finding.detail}; {REFUSED_ENTRY}")]


def _blockers(check: EntryCheck) -> list[Blocker]:
    out = [Blocker(r.path or check.path, r.code, r.detail + (f"; {REFUSED_ENTRY}" if r.pointer == "/licence" else ""))
           for r in check.refusals if blocks(r)]
    out += licence_blockers(check)
    if not out and not pinnable(check):
        out.append(Blocker(check.path, None, "not an entry a row can pin (a readable entry.json with its kind, "
                                             "under a directory named by an id)"))
    return out


def _artifact_text(pair: Any) -> str:
    """An artifact pair for printing: only a pair of §3's artifact grammar is quoted."""
    if artifact_problem(pair) is None:
        return json.dumps(pair, ensure_ascii=False, separators=(", ", ": "))
    return "(a pair outside §3's artifact grammar)" if pair is not None else "(absent)"


def _pin_entry(tree: Tree, check: EntryCheck, plan: Plan) -> bytes | None:
    """entry.json's bytes with every pin recomputed (None when a pin cannot be computed: a blocker)."""
    path = f"{check.path}/entry.json"
    data = tree.read(path, docs.ENTRY_BOUND)
    entry = check.entry
    assert entry is not None  # _plan pins only a pinnable entry, whose kind is read from its entry.json
    changes: list[Change] = []

    def blocked(code: str | None, why: str, file: str = path) -> None:
        plan.blockers.append(Blocker(file, code, why))

    try:
        ref = entry.get("dialect")
        if (isinstance(ref, dict) and "formatVersion" in ref and entry.get("kind") == "dialect"
                and isinstance(check.document, dict)):
            pair = {"id": check.document.get("id"), "version": check.document.get("version")}
            if artifact_problem(pair) is not None:
                blocked(ARTIFACT_MALFORMED, "dialect.json's root id and version are not an artifact pair of "
                                              "§3's grammar; fix the document", f"{check.path}/dialect.json")
                return None
            old = entry.get("artifact")
            if old is None:
                data = insert_member(data, (), "artifact", pair, after="dialect")
                changes.append(Change(path, "/artifact", "(absent)", _artifact_text(pair)))
            elif old != pair:
                for name in ("id", "version"):
                    if old.get(name) != pair[name]:
                        data = replace_member(data, ("artifact", name), pair[name])
                changes.append(Change(path, "/artifact", _artifact_text(old), _artifact_text(pair)))
        for member, document in (("dialect", check.document), ("output", check.output_document)):
            ref = entry.get(member)
            if not isinstance(ref, dict) or document is None:
                continue
            try:
                new = canonical_digest(document)
            except CanonError as exc:
                blocked(f"{member}-digest-mismatch", f"{member}.json has no canonical form ({exc}); fix the document",
                        f"{check.path}/{member}.json")
                return None
            if ref.get("digest") != new:
                data = replace_member(data, (member, "digest"), new)
                changes.append(Change(path, f"/{member}/digest", ref["digest"], new))
        listed = entry.get("fixtures")
        fixtures = listed if isinstance(listed, list) else []
        for i, item in enumerate(fixtures):
            prep = f"{check.path}/{item['path']}/preparation.json"
            new = digest(tree.read(prep, docs.PREPARATION_BOUND))
            if item.get("preparationDigest") != new:
                data = replace_member(data, ("fixtures", i, "preparationDigest"), new)
                changes.append(Change(path, f"/fixtures/{i}/preparationDigest", item["preparationDigest"], new))
    except (JsonEditError, TreeError, TooLarge) as exc:
        blocked(None, f"the pins could not be recomputed: {exc}")
        return None
    plan.changes += changes
    return data


# --- replay before pinning (issue #17 item 4) --------------------------------------------------------


def _rerecord(check: EntryCheck, fixture: FixtureCheck) -> str:
    """The re-recording command with the entry's directory and the fixture's name filled in (issue #26: a printed
    fix is a command to copy; only the run export, which only the contributor knows, stays a placeholder)."""
    return f"re-record the fixture from a Runner run (exchange fixture add {check.path} RUN_EXPORT --name " \
           f"{fixture.name} --replace)"


def _due(check: EntryCheck, changes: list[Change]) -> dict[str, list[str]]:
    """The fixtures a pin change makes due for a replay, by name, with the pins that wait on it: every
    fixture when the entry's dialect digest changes, else each fixture whose preparationDigest changes."""
    path = f"{check.path}/entry.json"
    members = {c.member for c in changes if c.file == path}
    fixtures = check.entry.get("fixtures") if isinstance(check.entry, dict) else None
    names = [f.get("name") if isinstance(f, dict) else None for f in fixtures] if isinstance(fixtures, list) else []
    due: dict[str, list[str]] = {}
    for i, name in enumerate(names):
        pins = [f"/fixtures/{i}/preparationDigest"] if f"/fixtures/{i}/preparationDigest" in members else []
        if "/dialect/digest" in members:
            pins.append("/dialect/digest")
        if pins and isinstance(name, str):
            due[name] = pins
    return due


def _replay_blocker(tree: Tree, check: EntryCheck, fixture: FixtureCheck, pins: list[str]) -> Blocker | None:
    """One due fixture through the bundled verifier, in process (as `exchange fixture add` replays): None
    when it replays to exactly its preparation.json, else why none of `pins` is written (with no pin: why the
    fixture no longer replays, `stale_fixtures`)."""
    from .. import verifier

    document = check.document_data
    assert document is not None  # both callers replay only an entry whose dialect.json was read

    held = " and ".join(f"{check.path}/entry.json {p}" for p in pins)
    # no pin waits on a fixture whose pins are current: it no longer replays though fix has nothing to write for it
    withheld = f"{held} not re-pinned" if pins else "its pins are current, and no pin makes a recording replay"
    now = " under dialect.json as it now is" if "/dialect/digest" in pins else ""
    rerecord = _rerecord(check, fixture)
    try:
        files = {name: tree.read(f"{fixture.path}/{name}", docs.FIXTURE_DIRECTORY_BOUND) for name in fixture.files}
    except (TreeError, TooLarge) as exc:
        return Blocker(fixture.path, FILE_UNREADABLE, f"fixture {fixture.name} cannot be read to replay it ({exc}); "
                                                        f"{withheld}")
    expected = digest(files["preparation.json"]) if "preparation.json" in files else None
    read = read_answer(verifier.replay_fixture(document, files, check.checked), expected)
    result, code = read.result, read.code
    if read.outcome == AGREES:
        return None
    if read.outcome == OTHER_DIGEST:
        return Blocker(fixture.path, REPLAY_DIGEST_MISMATCH,
                       f"fixture {fixture.name}: the verifier's reading has digest {quoted_digest(read.digest)}, "
                       f"preparation.json's bytes digest to {expected}; {withheld}; {rerecord}")
    if read.outcome == SKIPPED:
        assert isinstance(code, str)  # a skip's code, in its reported spelling (codes/verifier.Answer)
        if any(p.endswith("/preparationDigest") for p in pins):
            return Blocker(fixture.path, code,
                           f"fixture {fixture.name}: the verifier cannot recompute it ({code}), so exchange fix never "
                           f"re-pins its preparationDigest (an edited recording would pass as a skip); {withheld}; "
                           f"{rerecord}, which writes the pin itself")
        still = verifier.check_skipped(document, files, check.checked)
        if isinstance(still, (verifier.Found, verifier.Refused)) and skip_of(still.code) is None:
            return Blocker(fixture.path, still.code,
                           f"fixture {fixture.name} is skipped as {code}, and what the verifier still reads of it "
                           f"fails under the changed dialect.json ({still.code}); {withheld}; {rerecord}")
        return None  # held as the gate holds a skip (docs/skips.md); its preparationDigest is the recorded one
    if code == PREPARATION_DIFFERS:
        where = verifier.fixture_difference(document, files, check.checked)
        return Blocker(fixture.path, code,
                       f"fixture {fixture.name} does not replay to its preparation.json{now}: the preparation verifier "
                       f"answered finding preparation-differs; preparation.json "
                       f"{where or 'differs, though the member is not named'}; {withheld}; {rerecord}")
    if read.outcome == FAILED and isinstance(code, str):
        return Blocker(fixture.path, code, f"fixture {fixture.name} does not replay{now}: the preparation verifier "
                                           f"answered {result} {code} (docs/codes.md#{code}); {withheld}; {rerecord}")
    return Blocker(fixture.path, REPLAY_FAILED, f"fixture {fixture.name}: the verifier could not run "
                                                  f"({read.detail}); {withheld}")


def replay_blockers(tree: Tree, checks: list[EntryCheck], changes: list[Change]) -> list[Blocker]:
    """Replay before pinning (issue #17 item 4; docs/fix.md): a preparationDigest is re-pinned only when its
    fixture replays to exactly its preparation.json, and a dialect digest only when every fixture of the
    entry still replays under the changed dialect.json (a skipped fixture: still holds what the verifier
    reads of it). `checks` are of the edited bytes; each fixture that does not gives a blocker."""
    out: list[Blocker] = []
    for check in checks:
        due = _due(check, changes)
        if not due:
            continue
        if check.kind != "dialect" or check.document_data is None or not check.form_valid:
            out.append(Blocker(check.path, None, "the entry's fixtures cannot be replayed to check the pins that wait "
                                                 "on them; nothing is re-pinned"))
            continue
        try:
            for fixture in check.fixtures:
                if fixture.name in due and (found := _replay_blocker(tree, check, fixture, due[fixture.name])):
                    out.append(found)
        finally:
            if check.checked is not None:
                check.checked.forget()
    return out


def stale_fixtures(tree: Tree, checks: list[EntryCheck], changes: list[Change]) -> list[Blocker]:
    """Every fixture no pin change makes due, replayed as the due ones are (issue #26 item 2; docs/fix.md, "A
    fixture whose pins are current"): one that no longer replays — an edited recording, mostly — is named, with
    its edited files and the command that restores them where the repository's history tells (repository/
    recorded.py), so `exchange fix` never says only "every pin is up to date" over a catalog the gate refuses.
    `checks` are of the edited bytes; reads only."""
    from ..gate.replay import edited_refusal
    from ..refusal import Refusal
    from ..repository.recorded import History

    out: list[Blocker] = []
    with History(getattr(tree, "repository", None)) as history:
        for check in checks:
            if check.kind != "dialect" or check.document_data is None or not check.form_valid:
                continue
            due = _due(check, changes)
            try:
                for fixture in check.fixtures:
                    if fixture.name in due or not fixture.replayable:
                        continue
                    found = _replay_blocker(tree, check, fixture, [])
                    if found is None:
                        continue
                    files: dict[str, bytes | None]
                    try:
                        files = {n: tree.read(f"{fixture.path}/{n}", docs.FIXTURE_DIRECTORY_BOUND)
                                 for n in fixture.files}
                    except (TreeError, TooLarge):
                        files = {}
                    recording = history.recording(fixture.path, files) if files else None
                    if recording is not None:  # the edited files and the command that restores them, not "re-record"
                        why = found.why.removesuffix(f"; {_rerecord(check, fixture)}")
                        named = edited_refusal(Refusal(found.code or REPLAY_FAILED, fixture.path, why), check,
                                               fixture, recording)
                        assert named.path is not None  # edited_refusal's path: the first edited file
                        found = Blocker(named.path, found.code, f"{named.detail}. {named.fix}")
                    out.append(found)
            finally:
                if check.checked is not None:
                    check.checked.forget()
    return out


def _manifest_changes(current: bytes | None, rows: list[dict[str, Any]]) -> list[Change]:
    """The rows that change, member by member; old values printed only where they pass a grammar."""
    if current is None:
        return [Change(MANIFEST, "(the file)", "(absent)", f"{len(rows)} row(s)")]
    try:
        old_rows = json.loads(current)
        if not isinstance(old_rows, list) or not all(isinstance(r, dict) for r in old_rows):
            raise ValueError
    except (ValueError, RecursionError):
        return [Change(MANIFEST, "(the file)", "(not a readable manifest)", f"{len(rows)} row(s)")]
    by_id = {r.get("id"): r for r in old_rows if isinstance(r.get("id"), str)}
    out = []
    for row in rows:
        old = by_id.pop(row["id"], None)
        where = f"row {row['id']}"
        if old is None:
            out.append(Change(MANIFEST, where, "(absent)", "(added)"))
            continue
        for member in ("kind", "path", "entryDigest", "dialectDigest", "outputDigest"):
            if old.get(member) != row.get(member):
                out.append(Change(MANIFEST, f"{where}/{member}", _printable(old.get(member), member),
                                  _printable(row.get(member), member)))
        if old.get("fixtures") != row["fixtures"]:
            listed = ", ".join(f["name"] for f in row["fixtures"]) or "none"
            out.append(Change(MANIFEST, f"{where}/fixtures", "(differs)", f"(re-listed: {listed})"))
    for rid in by_id:
        shown = rid if ENTRY_ID.fullmatch(rid) and len(rid) <= 128 else f"(an id of {len(rid)} characters)"
        out.append(Change(MANIFEST, f"row {shown}", "(present)", "(removed: no such entry)"))
    if not out and [r.get("id") for r in old_rows] != [r["id"] for r in rows]:
        out.append(Change(MANIFEST, "(row order)", "(not by id)", "(by id as UTF-8 bytes)"))
    if not out:
        out.append(Change(MANIFEST, "(layout)", "(differs)", "(as exchange manifest --write writes it)"))
    return out


def _printable(value: Any, member: str) -> str:
    if value is None:
        return "(absent)"
    if member == "kind":
        return value if value in ("dialect", "preset") else "(not a kind)"
    if member == "path":
        return value if isinstance(value, str) and value.startswith("entries/") and ENTRY_ID.fullmatch(
            value[8:].replace("/", ".", 1)) else "(not an entry path)"
    return value if is_digest(value) else "(not a digest)"


def plan_fix(tree: Tree, manifest_current: bytes | None) -> Plan:
    """Every pin of the catalog recomputed from the files; `manifest_current` is manifest.json's
    stored bytes (None when absent). Reads only; TreeError on an I/O failure of the tree itself. The
    blockers are cleared as the gate's report is (`shown_blockers`): they are printed."""
    plan = _plan(tree, manifest_current)
    plan.blockers = shown_blockers(plan.blockers)
    return plan


def shown_blockers(blockers: list[Blocker]) -> list[Blocker]:
    """The blockers with every path, name and value an author chose shown only when its grammar and the scan
    cleared it (quoting.clear_refusals; docs/reports.md): a stray file's name may be a credential."""
    cleared = clear_refusals(Refusal(b.code or "", b.file, b.why) for b in blockers)
    return [Blocker(r.path or b.file, b.code, r.detail) for b, r in zip(blockers, cleared, strict=False)]


def unpinnable_lines(checks: list[EntryCheck]) -> list[str]:
    """exchange manifest's line for each entry a row cannot pin, with its refusals' codes and paths; every path
    shown only when its grammar and the scan cleared it (quoting.cleared_paths)."""
    out = []
    for c in checks:
        own, *paths = cleared_paths([(c.path, None), *((r.path or c.path, r.code) for r in c.refusals)])
        codes = "; ".join(dict.fromkeys(f"{r.code}: {path}" for r, path in zip(c.refusals, paths, strict=False)))
        out.append(f"{own}: not an entry a row can pin (a readable entry.json with its kind, under a directory "
                   f"named by an id); fix the entry first{f' (refused {codes})' if codes else ''}")
    return out


def _plan(tree: Tree, manifest_current: bytes | None) -> Plan:
    plan = Plan()
    blocker = entries_blocker(tree)
    if blocker is not None:
        plan.blockers.append(blocker)
        return plan
    checks = entry_checks(tree)
    plan.entries = len(checks)
    edited: dict[str, bytes] = {}
    for check in checks:
        found = _blockers(check)
        if found:
            plan.blockers += found
            continue
        data = _pin_entry(tree, check, plan)
        if data is None:
            continue
        if data != tree.read(f"{check.path}/entry.json", docs.ENTRY_BOUND):
            edited[f"{check.path}/entry.json"] = data
    if plan.blockers:
        plan.changes, plan.writes = [], {}
        return plan
    overlay = _Overlay(tree, edited)
    rechecked = entry_checks(overlay)
    for check in rechecked:
        for r in check.refusals:
            if blocks(r) or r.code in REPAIRED:
                plan.blockers.append(Blocker(r.path or check.path, r.code,
                                             f"still refused after the pins were recomputed: {r.detail}"))
    if plan.blockers:
        plan.changes, plan.writes = [], {}
        return plan
    plan.blockers += replay_blockers(overlay, rechecked, plan.changes)
    if plan.blockers:
        plan.changes, plan.writes = [], {}
        return plan
    plan.stale = stale_fixtures(overlay, rechecked, plan.changes)
    rows = [compute_row(c) for c in rechecked]
    manifest = write_manifest(rows)
    plan.writes = dict(edited)
    if manifest != manifest_current:
        plan.changes += _manifest_changes(manifest_current, rows)
        plan.writes[MANIFEST] = manifest
    return plan


__all__ = ["Plan", "Change", "Blocker", "plan_fix", "shown_blockers", "unpinnable_lines", "stale_fixtures", "pinnable",
           "entry_checks", "entries_blocker", "blocks", "REPAIRED", "NOT_BLOCKING", "PERSON_MEMBERS"]
