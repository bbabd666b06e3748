"""Fixture replay in the gate (RFC 0019 §4): each fixture through the preparation verifier.

A reading whose digest is the fixture's preparationDigest is a replay; kind-unread and
version-unread (or RFC 0019 §4's spelling, unread-version: codes/verifier.py `skip_of`) are skips with their
reason in the report; any other refusal, any finding, or a reading with another digest refuses the entry
(the one reading of an answer: codes/verifier.py `read_answer`). The reader is chosen once per run
(repository/pin.py, docs/verifier-pin.md): `EXCHANGE_VERIFIER`, else the reader verifier-pin.json pins when it
is fetched and runnable, both run by dialect §11's process contract; else the built-in one, in process.
Each fixture records the reader that answered it (`Report.replays`, `Skip.reader`). Every function here
returns what it found (`refusal.Findings`, a list of refusals or notes); the gate's pipeline alone records it.

A skip does not switch the fixture's checks off (stricter than §4; docs/skips.md): the built-in verifier
still holds every acquisition of a kind it reads — receipt signature under the pinned profile's key,
arguments commitment, result digest, profile pin — and everything else that needs no unread source's
claim (verifier/partial.py). A failure there refuses the entry with the verifier's finding code; the
skip names the unread kinds and their sources by position, and what could not be checked.

A preparation-differs names the first member of preparation.json that differs from what the bundled
verifier recomputes, by JSON pointer, type and length (`differs_where`; issue #17 item 4); and with
--base, a preparation-digest-mismatch whose preparation.json the pull request changed is to be re-recorded,
not re-pinned (`rerecord_changed`; docs/fix.md).

A fixture whose replay failed while its preparation.json is the recorded one and another of its files is not
(repository/recorded.py) is an edited recording: its refusals name the edited files, where the recording is,
and the command that restores it (`name_edited`; issue #26 item 2). A fixture that was not replayed at all is
said so in a note, with why (`unreplayed_notes`).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .. import dialect as dialect_form
from ..catalog import documents as docs
from ..catalog import grammar
from ..catalog.directory import EntryCheck, FixtureCheck, declared_fixtures
from ..coderecord import FIXTURE_REPLACE
from ..codes.catalog import (
    DIALECT_DIGEST_MISMATCH,
    FILE_UNREADABLE,
    PREPARATION_DIGEST_MISMATCH,
    REPLAY_DIGEST_MISMATCH,
    REPLAY_FAILED,
)
from ..codes.dialect import KIND_UNREAD, VERSION_UNREAD
from ..codes.verifier import AGREES, FAILED, OTHER_DIGEST, PREPARATION_DIFFERS, SKIPPED, read_answer, skip_of
from ..quoting import FIXTURE_FILES, described, quoted, split_path
from ..quoting import entry_id as shown_id
from ..refusal import Findings, Refusal, Replay, Skip
from ..tree import Tree, TreeError

if TYPE_CHECKING:
    from ..repository.pin import ReaderChoice
    from ..repository.pullrequest import Change
    from ..repository.recorded import History, Recording

RERECORD_CHANGED = ("preparation.json itself changed against the base, and a recorded preparation is never edited: "
                    "re-record the fixture from a Runner run (or restore preparation.json from the base); exchange "
                    f"fix does not re-pin an edited recording. Run `{FIXTURE_REPLACE}`.")
"""The fix of a preparation-digest-mismatch whose preparation.json the pull request changed (issue #17 item 4)."""


def _fixture_files(tree: Tree, fixture: FixtureCheck) -> dict[str, bytes]:
    return {name: tree.read(f"{fixture.path}/{name}", docs.FIXTURE_DIRECTORY_BOUND) for name in fixture.files}


def reader_for(tree: Tree, pin_tree: Tree | None = None) -> tuple[ReaderChoice, list[Refusal]]:
    """This run's reader (repository/pin.py) and the pin's refusals; the gate chooses it once, before the first
    entry, so a catalog with no fixture still names it and refuses a malformed pin. With `pin_tree` (a pull
    request's base, docs/trust.md) the reader is the one that tree pins, and `tree`'s own pin is only held to its
    form."""
    from ..repository.pin import choose_reader, read_pin

    if pin_tree is None:
        return choose_reader(tree)
    reader, _ = choose_reader(pin_tree)
    return reader, read_pin(tree).refusals


def _document(check: EntryCheck) -> bytes:
    """The entry's dialect.json as read: a fixture is replayed only once it was (`_replay_entry`)."""
    data = check.document_data
    assert data is not None
    return data


def _run(check: EntryCheck, fixture: FixtureCheck, files: dict[str, bytes], command: str | None) -> dict[str, Any]:
    from .. import verifier

    if not command:
        return verifier.replay_fixture(_document(check), files, check.checked)
    with tempfile.TemporaryDirectory(prefix="exchange-replay-") as tmp:
        entry_dir = os.path.join(tmp, "entry")
        fixture_dir = os.path.join(entry_dir, "fixtures", fixture.name)
        os.makedirs(fixture_dir)
        with open(os.path.join(entry_dir, "dialect.json"), "wb") as fh:
            fh.write(_document(check))
        for name, data in files.items():
            with open(os.path.join(fixture_dir, name), "wb") as fh:
                fh.write(data)
        return verifier.replay_with_program(command, entry_dir, fixture.name)


def _skip_reason(code: str, check: EntryCheck) -> str:
    from .. import verifier

    doc = check.document if isinstance(check.document, dict) else {}
    if code == VERSION_UNREAD:
        version = doc.get("version")
        return f"version-unread: {getattr(version, 'literal', doc.get('formatVersion'))}"
    used = [k for k in dialect_form.source_kinds(doc) if isinstance(k, str)]
    unread = [k for k in used if k not in verifier.READABLE_KINDS]
    return "kind-unread: " + ", ".join(unread or used)  # another verifier may read less than ours


def replay_entry(tree: Tree, check: EntryCheck, reader: ReaderChoice) -> Findings:
    """Every replayable fixture of a kind-dialect entry whose form check passed, replayed through this run's
    `reader` (`reader_for`): its refusals, skips, replay records and readings (RFC 0019 §4)."""
    try:
        return _replay_entry(tree, check, reader)
    finally:  # the entry's binding checks and signature verdicts are not needed past its replay
        if check.checked is not None:
            check.checked.forget()


def _replay_entry(tree: Tree, check: EntryCheck, reader: ReaderChoice) -> Findings:
    found = Findings()
    if check.kind != "dialect" or not check.form_valid or check.document_data is None:
        return found
    for fixture in check.fixtures:
        if not fixture.replayable:
            continue
        try:
            files = _fixture_files(tree, fixture)
            answer = _run(check, fixture, files, reader.command)
        except TreeError as exc:
            found.refusals.append(Refusal(FILE_UNREADABLE, fixture.path, str(exc), check.id))
            continue
        one = _record(answer, check, fixture, files, reader.name)
        result = "refused" if one.refusals else "skipped" if one.skipped else "reading"
        found.add(one)
        found.replays.append(Replay(check.id, fixture.name, reader.name, result))
    return found


def _skipped(code: str, check: EntryCheck, fixture: FixtureCheck, files: dict[str, bytes], reader: str) -> Findings:
    """A skip (§4), with every acquisition of a kind the built-in verifier reads still checked."""
    from .. import verifier

    held = verifier.check_skipped(_document(check), files, check.checked)
    if isinstance(held, (verifier.Found, verifier.Refused)) and skip_of(held.code) is None:
        what = "finding" if isinstance(held, verifier.Found) else "refusal"
        return Findings([Refusal(
            held.code, fixture.path,
            f"the fixture is skipped as {code}, and what the verifier still reads of it fails: {what} {held.code} "
            f"({held.detail}); a skip holds every check that needs no unread source's claim (docs/skips.md)",
            check.id)])
    partial = held if isinstance(held, verifier.Partial) else verifier.Partial()
    kinds, sources = partial.kinds, partial.sources
    if not kinds and code == KIND_UNREAD:  # another verifier may read less than ours: name what the dialect uses
        kinds = [k for k in dialect_form.source_kinds(check.document) if isinstance(k, str)]
    unchecked = list(partial.unchecked)
    if not isinstance(held, verifier.Partial):
        unchecked.append("every acquisition (the built-in verifier does not read this dialect's version either)")
    return Findings(skipped=[Skip(check.id, fixture.name, _skip_reason(code, check), tuple(kinds), tuple(sources),
                                  partial.receipts, tuple(unchecked), reader=reader)])


def differs_where(check: EntryCheck, files: dict[str, bytes]) -> str:
    """A preparation-differs detail's tail (issue #17 item 4): the member of preparation.json that first
    differs from the preparation the bundled verifier recomputes, as a JSON pointer with each side's type
    and length (verifier/difference.py), never a value; said plainly when the bundled verifier finds none."""
    from .. import verifier

    where = verifier.fixture_difference(_document(check), files, check.checked)
    if where is None:
        return "; the bundled verifier recomputes no difference, so the member that differs is not named"
    return f"; preparation.json {where}"


def _record(answer: dict[str, Any], check: EntryCheck, fixture: FixtureCheck, files: dict[str, bytes],
            reader: str) -> Findings:
    """One fixture's answer as findings: a reading, a skip, or the entry's refusal (`codes.verifier.read_answer`)."""
    read = read_answer(answer, fixture.preparation_digest)
    if read.outcome == AGREES:
        return Findings(replayed=1)
    if read.outcome == OTHER_DIGEST:
        return Findings([Refusal(
            REPLAY_DIGEST_MISMATCH, f"{fixture.path}/preparation.json",
            f"the verifier's reading has digest {read.digest}, preparationDigest is "
            f"{fixture.preparation_digest} (reader: {reader})", check.id)])
    if read.outcome == SKIPPED:
        assert isinstance(read.code, str)  # a skip's code is skip_of's spelling (codes/verifier.py Answer)
        return _skipped(read.code, check, fixture, files, reader)
    if read.outcome == FAILED:
        code = read.code
        return Findings([Refusal(
            code if isinstance(code, str) else REPLAY_FAILED, fixture.path,
            f"the preparation verifier answered {read.result} {code}; a fixture must give a reading (RFC 0019 §4; "
            f"reader: {reader})" + (differs_where(check, files) if code == PREPARATION_DIFFERS else ""),
            check.id)])
    return Findings([Refusal(REPLAY_FAILED, fixture.path,
                             f"the verifier could not run: {read.detail} "
                             f"(reader: {reader})", check.id)])


def rerecord_changed(refusals: list[Refusal], change: Change | None) -> list[Refusal]:
    """`refusals` as a pull request shows them (issue #17 item 4; docs/fix.md): a preparation-digest-mismatch
    whose preparation.json the pull request itself changed is fixed by re-recording, not by `exchange fix`
    (which would re-pin the edited recording): its fix says so (`Refusal.fix`). Nothing else changes; None:
    no comparison."""
    if change is None:
        return refusals
    changed = set(change.paths)
    return [replace(r, fix=RERECORD_CHANGED, detail=f"{r.detail}; preparation.json changed against the base")
            if r.code == PREPARATION_DIGEST_MISMATCH and r.path in changed else r
            for r in refusals]


# --- an edited recording, and a fixture not replayed (issue #26 item 2) --------------------------------------

NOT_THE_REPLAY = frozenset({PREPARATION_DIGEST_MISMATCH, FILE_UNREADABLE})
"""Refusals on a fixture's path that its replay never gives (the directory check's, the replay's read failure)."""


def _together(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def edited_refusal(refusal: Refusal, check: EntryCheck, fixture: FixtureCheck, found: Recording) -> Refusal:
    """`refusal` (a failed replay of `fixture`) as an edited recording: its path the first edited file, its
    detail naming the edited files and where the recording is, its fix the command that restores it (printed
    whole only when the fixture's path is within its grammar; else what to inspect)."""
    at = f"{found.where} ({found.commit[:12]})"
    said = []
    for names, one, many in ((found.changed, "differs from", "differ from"),
                             (found.removed, "is missing, which", "are missing, which"),
                             (found.added, "is not in", "are not in")):
        if names:
            said.append(f"{_together(list(names))} {one if len(names) == 1 else many} {at}"
                        + (" holds" if names is found.removed else ""))
    detail = (f"an edited recording: {' and '.join(said)}, while its preparation.json is the recorded one, so the "
              f"fixture no longer replays: {refusal.detail}")
    if split_path(fixture.path)[1] is None:
        steps = []
        if found.restored:
            steps.append(f"`git checkout {found.commit} -- "
                         + " ".join(f"{fixture.path}/{n}" for n in found.restored) + "`")
        if found.added:
            steps.append("`rm " + " ".join(f"{fixture.path}/{n}" for n in found.added) + "`")
        where = " (from the catalog's directory)" if found.prefix else ""
        fix = (f"A recording is never edited: restore it with {' and '.join(steps)}{where}, or re-record the fixture "
               f"from a Runner run (`exchange fixture add {check.path} RUN_EXPORT --name {fixture.name} --replace`).")
    else:
        fix = (f"A recording is never edited: restore the fixture's files the detail names from {found.where} "
               f"(git checkout {found.commit} -- FILE), or re-record the fixture from a Runner run "
               f"(`{FIXTURE_REPLACE}`).")
    first = (*found.changed, *found.removed, *found.added)[0]
    return replace(refusal, path=f"{fixture.path}/{first}", detail=detail, fix=fix, pointer=None, line=None)


def _files_now(tree: Tree, fixture: FixtureCheck) -> dict[str, bytes | None]:
    out: dict[str, bytes | None] = {}
    for name in FIXTURE_FILES:
        if name in fixture.files:
            out[name] = tree.read(f"{fixture.path}/{name}", docs.FIXTURE_DIRECTORY_BOUND)
    return out


def name_edited(tree: Tree, refusals: list[Refusal], replays: list[Replay], checks: list[EntryCheck],
                history: History) -> list[Refusal]:
    """`refusals`, each of a failed replay (`replays`) whose fixture is an edited recording (repository/recorded.py)
    named as one (`edited_refusal`; issue #26 item 2). A re-recording changes preparation.json and is never named
    so; no answer from the history (no repository, a fixture never committed) leaves the refusal as it was."""
    refused = {(r.entry, r.fixture) for r in replays if r.result == "refused"}
    if not refused:
        return refusals
    refusals = list(refusals)
    from ..codes.scan import CODES as SCAN

    for check in checks:
        for fixture in check.fixtures:
            if (check.id, fixture.name) not in refused:
                continue
            where = {fixture.path, f"{fixture.path}/preparation.json"}
            mine = [i for i, r in enumerate(refusals)
                    if r.entry == check.id and r.path in where and r.code not in SCAN and r.code not in NOT_THE_REPLAY]
            if not mine:
                continue
            try:
                files = _files_now(tree, fixture)
            except (TreeError, OSError):
                continue
            found = history.recording(fixture.path, files)
            if found is None:
                continue
            for i in mine:
                refusals[i] = edited_refusal(refusals[i], check, fixture, found)
    return refusals


def _entry_text(entry: str) -> str:
    return shown_id(entry) or described(entry, "an entry id")


def unreplayed_notes(checks: list[EntryCheck], replays: list[Replay]) -> list[str]:
    """A note for each entry `checks` holds (the ones the gate gave every check) with a fixture that was never
    sent to a reader (`replays`), saying why (issue #26 item 2): `replayed: 0` alone does not say that a fixture
    was not replayed, or that `exchange fix` is the next step after a dialect edit."""
    notes: list[str] = []
    sent = {(r.entry, r.fixture) for r in replays}
    for check in checks:
        if check.kind != "dialect" or check.direction == "output" or check.entry is None:
            continue
        names = [name for name, _ in declared_fixtures(check) if (check.id, name) not in sent]
        if not names:
            continue
        entry, count = _entry_text(check.id), f"{len(names)} fixture(s) not replayed"
        if check.unreplayed == DIALECT_DIGEST_MISMATCH:
            notes.append(
                f"{entry}: {count}: entry.json's dialect.digest is not dialect.json's digest (dialect-digest-mismatch, "
                "above), and a fixture replays only under the document its entry pins; after a dialect change run "
                "`exchange fix`: it pins the changed document once every fixture replays under it, and otherwise "
                "names each fixture to re-record (docs/fix.md)")
        elif check.unreplayed is not None or not check.form_valid:
            why = f"{check.unreplayed}, above," if check.unreplayed else "a refusal of entry.json or dialect.json above"
            notes.append(f"{entry}: {count}: {why} stops the replay of every fixture of the entry; correct it "
                                "and check again")
        else:
            listed = ", ".join(quoted(n, grammar.FIXTURE_NAME, "a name") for n in names)
            notes.append(f"{entry}: {count} ({listed}): a fixture is replayed only once its own files pass "
                                "their checks (refused above)")
    return notes
