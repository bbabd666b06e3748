"""`exchange fixture add ENTRY_DIR RUN_EXPORT`: a Runner recording made a fixture (RFC 0019 §3, §4).

The fixture's file set is built in memory from the export (`recording`), replayed through the
in-process preparation verifier (dialect §11) and written only when the reading is the recorded
preparation; entry.json's `fixtures` member is then replaced (every other byte kept) and the entry's
manifest row recomputed. docs/recording.md is the user's page.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import dialect as dialect_form
from ..canon import CanonError, canon, canonical_digest, digest
from ..catalog import documents as docs
from ..catalog import grammar
from ..codes.authoring import (
    ENTRY_NOT_RECORDABLE,
    FIXTURE_EXISTS,
    RECORDING_MALFORMED,
    RECORDING_MAPPING_MISMATCH,
    RECORDING_NOT_REGULAR,
    RECORDING_PACK_UNLISTED,
)
from ..codes.catalog import (
    ARTIFACT_MISMATCH,
    ARTIFACT_REQUIRED,
    DIALECT_DIGEST_MISMATCH,
    ENTRY_FILE_MISSING,
    ENTRY_FILE_NOT_REGULAR,
    REPLAY_DIGEST_MISMATCH,
    REPLAY_FAILED,
)
from ..codes.verifier import AGREES, FAILED, OTHER_DIGEST, SKIPPED, read_answer
from ..dialect.sources import BINDING, RESEARCH_BINDING
from ..jsonstrict import Bounds, JsonRefusal, loads
from .recording import (
    MAX_EXPORT,
    MAX_PROFILES,
    MAX_RECORD,
    Recording,
    RecordingRefusal,
    default_name,
    read_export,
    read_profiles,
    valid_name,
)

if TYPE_CHECKING:
    from ..catalog.directory import EntryCheck

PASS, REFUSED, USAGE, IO = 0, 1, 3, 4
STALE_PINS = (DIALECT_DIGEST_MISMATCH, ARTIFACT_MISMATCH, ARTIFACT_REQUIRED)
"""Reference-chain refusals that are only a pin of the document `exchange fix` writes (docs/fix.md)."""
EXPORT_NAME = "run.json"
PROFILES_NAME = "profiles.json"
AUDIT_NAME = "audit-record.jsonl"


class Stop(Exception):
    """The command stops: `status` is the exit status, `code` the refusal code (None for 3 and 4)."""

    def __init__(self, status: int, detail: str, code: str | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.code = status, detail, code


def refuse(code: str, detail: str) -> Stop:
    return Stop(REFUSED, detail, code)


@dataclass
class Plan:
    """A fixture ready to write: its files by basename, its digest, and what its replay said."""

    name: str
    files: dict[str, bytes]
    preparation_digest: str
    replay: str
    audit: list[str] = field(default_factory=list)


# --- pure steps -------------------------------------------------------------------------------------

def derive_binding(document: Any, recording: Recording) -> bytes | None:
    """The binding document of dialect §4.4 for an entry document with unbound sources, from the run's
    bound mapping: each unbound source's assignment is the recorded source's binding members. Its
    bound dialect's digest must be the run's mappingDigest; otherwise the recording is not of this
    document (recording-mapping-mismatch). None for a document without unbound sources, whose
    canonical digest must itself be the mappingDigest."""
    doc_digest = canonical_digest(document)
    unbound = dialect_form.unbound_sources(document)
    if not unbound:
        if recording.mapping_digest != doc_digest:
            raise refuse(RECORDING_MAPPING_MISMATCH,
                         f"the recording's mappingDigest is {recording.mapping_digest}, dialect.json's canonical "
                         f"digest is {doc_digest}: the run was not made under this entry's document; record the "
                         "run under it, or add the fixture to the entry whose document it is")
        return None
    recorded = {s.get("name"): s for s in recording.mapping.get("sources", [])
                if isinstance(s, dict)} if isinstance(recording.mapping.get("sources"), list) else {}
    sources: dict[str, dict[str, Any]] = {}
    for position, name in enumerate(unbound):
        source = recorded.get(name)
        kind = next(s.get("kind") for s in document["sources"] if isinstance(s, dict) and s.get("name") == name)
        members = RESEARCH_BINDING if kind == "research" else BINDING
        if not isinstance(source, dict) or source.get("kind") != kind or not all(m in source for m in members):
            raise refuse(RECORDING_MAPPING_MISMATCH,
                         f"unbound source {position + 1} of dialect.json has no bound source of its name and kind in "
                         "the recording's mapping: the run was not made under this entry's document")
        sources[name] = {m: source[m] for m in members}
    data = canon({"dialect": doc_digest, "sources": sources})
    applied = dialect_form.check_binding(data, document, doc_digest)
    if applied.refusal is not None:
        raise refuse(RECORDING_MAPPING_MISMATCH,
                     f"the binding derived from the recording's mapping is refused ({applied.refusal}): the run was "
                     "not made under this entry's document")
    if applied.bound_digest != recording.mapping_digest:
        raise refuse(RECORDING_MAPPING_MISMATCH,
                     f"the recording's mappingDigest is {recording.mapping_digest}, the entry's document bound under "
                     f"the recorded profiles digests to {applied.bound_digest}: the run was not made under this "
                     "entry's document (dialect §4.4)")
    return data


def fixture_files(recording: Recording, profiles: bytes, binding: bytes | None) -> dict[str, bytes]:
    """RFC 0019 §3's file set: case.json, sources.json only with acquisitions, profiles.json,
    preparation.json in §9.5's form, binding.json exactly for an unbound document."""
    files = {"case.json": recording.case}
    if recording.sources is not None:
        files["sources.json"] = recording.sources
    files["profiles.json"] = profiles
    files["preparation.json"] = recording.preparation_bytes
    if binding is not None:
        files["binding.json"] = binding
    return files


def replay(document_data: bytes, files: dict[str, bytes]) -> str:
    """The fixture through the in-process verifier (RFC 0019 §4): a reading whose digest is the recorded
    preparation's, or a skip the gate would report too; anything else refuses, naming the verifier's code."""
    from .. import verifier

    expected = digest(files["preparation.json"])
    read = read_answer(verifier.replay_fixture(document_data, files), expected)
    if read.outcome == OTHER_DIGEST:
        raise refuse(REPLAY_DIGEST_MISMATCH, f"the verifier's reading has digest {read.digest}, the "
                                               f"recorded preparation's is {expected}")
    if read.outcome == AGREES:
        return f"replayed: the reading is the recorded preparation ({expected})"
    if read.outcome == SKIPPED:
        return (f"not replayed: the verifier answers {read.code}; the gate will skip this fixture too and "
                "hold it by its digests only")
    if read.outcome == FAILED and isinstance(read.code, str):
        raise refuse(read.code, f"the preparation verifier answered {read.result} {read.code}: the reading is "
                                "not the recorded preparation (dialect §11); nothing written")
    raise refuse(REPLAY_FAILED, "the verifier gave no report")


def audit_lines(document_data: bytes, files: dict[str, bytes], records: list[tuple[str, bytes]]) -> list[str]:
    """Each accompanying audit record's §11 binding: matches, absent, or the finding (a report, not a refusal)."""
    from ..verifier import Documents, Found, Reading, verify

    lines = []
    for label, line in records:
        answer = verify(Documents(dialect=document_data, case=files["case.json"], profiles=files["profiles.json"],
                                  preparation=files["preparation.json"], acquisitions=files.get("sources.json"),
                                  binding=files.get("binding.json"), record=line))
        if isinstance(answer, Reading):
            lines.append(f"audit record ({label}): binding {answer.binding}: {BINDING_SAID.get(answer.binding, '')}")
        elif isinstance(answer, Found):
            lines.append(f"audit record ({label}): finding {answer.code}: {RECORD_FINDING}")
        else:
            lines.append(f"audit record ({label}): refusal {answer.code}: {RECORD_FINDING}")
    return lines


BINDING_SAID = {
    "matches": "the run's audit record holds this preparation's facts and evidence and is bound to its digest "
               "(dialect §11): the recording is tied to the run; nothing to do",
    "absent": "the run's audit record holds this preparation's facts and evidence but carries no binding to it (the "
              "Runner wrote none; dialect §11 checks a binding only where one is given); nothing to do: the fixture "
              "is held by its digests",
}
"""What each binding answer means for the contributor (issue #26 item 6: `binding absent` was unexplained)."""

RECORD_FINDING = ("the run's own audit record does not agree with the recorded preparation (a report, never a "
                  "refusal: the fixture is written; tell the reviewer, docs/recording.md)")


def plan(document_data: bytes, document: Any, recording: Recording, profiles: bytes, name: str,
         records: list[tuple[str, bytes]]) -> Plan:
    """Everything `fixture add` decides before it writes: the binding, the files, the replay, the audit."""
    binding = derive_binding(document, recording)
    files = fixture_files(recording, profiles, binding)
    said = replay(document_data, files)
    return Plan(name, files, digest(files["preparation.json"]), said, audit_lines(document_data, files, records))


# --- reading the inputs -----------------------------------------------------------------------------

def read_regular(path: str, limit: int, what: str) -> bytes:
    """A regular file's bytes within `limit`, never through a symlink; Stop otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise Stop(IO, f"{path}: no such file ({what})") from None
    except OSError as exc:
        if os.path.islink(path):
            raise refuse(RECORDING_NOT_REGULAR, f"{path}: a symlink where the {what} belongs; give the file itself")
        raise Stop(IO, f"{path}: {exc.strerror} ({what})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise refuse(RECORDING_NOT_REGULAR, f"{path}: not a regular file where the {what} belongs")
        if st.st_size > limit:
            raise refuse(RECORDING_MALFORMED, f"{path}: {st.st_size} bytes, over the {what}'s bound of {limit}")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise Stop(IO, f"{path}: {exc.strerror} ({what})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise refuse(RECORDING_MALFORMED, f"{path}: over the {what}'s bound of {limit} bytes")
    return data


@dataclass
class Inputs:
    """The export and what accompanies it, read."""

    recording: Recording
    profiles: bytes
    profiles_from: str
    records: list[tuple[str, bytes]]
    notes: list[str] = field(default_factory=list)


def read_inputs(export: str, profiles_path: str | None) -> Inputs:
    """RUN_EXPORT (run.json, or a directory holding it), the trusted profiles (--profiles, else
    profiles.json beside the export, else release.inputProfiles, else []), and the audit records
    (audit-record.jsonl beside the export, run.audit, and from version 3 run.auditBytes); the notes
    say what a version 3 to 5 export's added members were held to (docs/recording.md)."""
    if os.path.isdir(export) and not os.path.islink(export):
        folder, path = export, os.path.join(export, EXPORT_NAME)
    else:
        folder, path = os.path.dirname(os.path.abspath(export)), export
    if not os.path.lexists(path):
        raise Stop(IO, f"{path}: no such file (a Runner run export, run.json)")
    recording = read_export(read_regular(path, MAX_EXPORT, "run export"))
    if isinstance(recording, RecordingRefusal):
        raise refuse(recording.code, recording.detail)
    beside = os.path.join(folder, PROFILES_NAME)
    if profiles_path is not None:
        source, origin = read_regular(profiles_path, MAX_PROFILES, "profiles file"), "--profiles"
    elif os.path.lexists(beside):
        source, origin = read_regular(beside, MAX_PROFILES, "profiles file"), f"{PROFILES_NAME} beside the export"
    elif recording.input_profiles is not None:
        source, origin = recording.input_profiles, "the export's release.inputProfiles"
    else:
        source, origin = b"[]", "none in the export (a case-only run): []"
    profiles = read_profiles(source)
    if isinstance(profiles, RecordingRefusal):
        raise refuse(profiles.code, f"profiles from {origin}: {profiles.detail}")
    records = []
    audit = os.path.join(folder, AUDIT_NAME)
    notes = []
    if os.path.lexists(audit):
        try:
            data = read_regular(audit, MAX_RECORD + 2, "audit record")
        except Stop as stop:  # the audit record is reported on, never a reason to refuse the fixture
            notes.append(f"audit record ({AUDIT_NAME}): not read ({stop.code or 'unreadable'})")
        else:
            if data.endswith(b"\r\n"):
                data = data[:-2]
            elif data.endswith(b"\n"):
                data = data[:-1]
            records.append((AUDIT_NAME, data))
    if recording.audit is not None:
        records.append(("run.audit", recording.audit))
    if recording.record is not None:  # versions 3 to 5: the record's exact line, the bytes a receipt names
        records.append(("run.auditBytes", recording.record))
    return Inputs(recording, profiles, origin, records, notes + list(recording.checked))


# --- the entry --------------------------------------------------------------------------------------

def locate_entry(entry_dir: str) -> tuple[str, str]:
    """(catalog root, entries/<publisher>/<name>) for ENTRY_DIR; Stop(USAGE) when it is not an entry
    directory of a catalog (a directory holding manifest.json)."""
    full = os.path.abspath(entry_dir)
    if not os.path.lexists(full):
        raise Stop(IO, f"{entry_dir}: no such directory")
    parts = full.split(os.sep)
    catalog = os.sep.join(parts[:-3]) or os.sep
    if (len(parts) < 4 or parts[-3] != "entries" or os.path.islink(full) or not os.path.isdir(full)
            or not os.path.isfile(os.path.join(catalog, "manifest.json"))):
        raise Stop(USAGE, f"{entry_dir}: not an entry directory of a catalog (entries/<publisher>/<name>/ under a "
                          "directory holding manifest.json); create one with exchange new")
    for step in (os.path.join(catalog, "entries"), os.path.dirname(full)):
        if os.path.islink(step):
            raise Stop(USAGE, f"{entry_dir}: reached through a symlink, not through the catalog's own directories")
    entry_id = f"{parts[-2]}.{parts[-1]}"
    if not grammar.ENTRY_ID.fullmatch(entry_id) or not 3 <= len(entry_id) <= 128:
        raise Stop(USAGE, f"{entry_dir}: not entries/<publisher>/<name> for an entry id of RFC 0019 §3's grammar")
    return catalog, "/".join(parts[-3:])


def recordable(catalog: str, rel: str) -> EntryCheck:
    """The entry's directory check, when the entry can take a fixture: kind dialect, an input document
    that passes its form and reference checks, and a fixtures array in entry.json."""
    from ..catalog.directory import check_entry_directory
    from ..tree import WorkingTree

    check = check_entry_directory(WorkingTree(catalog), rel)
    if check.entry is None:
        first = check.refusals[0].code if check.refusals else ENTRY_FILE_MISSING
        raise refuse(ENTRY_NOT_RECORDABLE, f"{rel}/entry.json cannot be read ({first}); fix it first")
    if check.kind != "dialect" or check.direction not in ("input", "both"):
        raise refuse(ENTRY_NOT_RECORDABLE, f"{rel}: only an entry of kind dialect with an input document holds "
                                             "fixtures (a preset or an output-only entry holds none, RFC 0019 §3)")
    # the document's pins alone stale (exchange fix's to write) do not stop a recording: fix re-pins a changed
    # document only once its fixtures replay under it, so they are re-recorded first (docs/fix.md)
    stale_pin = check.checked is not None and any(r.code in STALE_PINS for r in check.refusals)
    if (not check.form_valid and not stale_pin) or check.document_data is None:
        chain = ("dialect-", "artifact-")
        codes = [r.code for r in check.refusals if (r.path or "").endswith("dialect.json")
                 or r.code.startswith(chain)] or [r.code for r in check.refusals]
        raise refuse(ENTRY_NOT_RECORDABLE, f"{rel}/dialect.json must pass its form and reference checks before a "
                                             f"fixture is recorded against it (first refusal: "
                                             f"{codes[0] if codes else 'unreadable'}); run exchange check --entry")
    if not isinstance(check.entry.get("fixtures"), list):
        raise refuse(ENTRY_NOT_RECORDABLE, f"{rel}/entry.json: fixtures must be an array to add to")
    return check


def fixture_items(current: list[Any], plan_: Plan, replace: bool) -> list[Any]:
    """entry.json's fixtures with the plan's item appended, or the item of the same name replaced."""
    item = {"name": plan_.name, "path": f"fixtures/{plan_.name}", "preparationDigest": plan_.preparation_digest}
    names = [i.get("name") if isinstance(i, dict) else None for i in current]
    if plan_.name in names:
        if not replace:
            raise refuse(FIXTURE_EXISTS, f"entry.json lists a fixture named {plan_.name!r} already; choose another "
                                           "--name, or give --replace to re-record it")
        return [item if n == plan_.name else i for n, i in zip(names, current, strict=False)]
    return [*current, item]


# --- writing ----------------------------------------------------------------------------------------

def write_file(path: str, data: bytes) -> None:
    """Create or replace a regular file atomically, never through a symlink."""
    if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
        raise refuse(ENTRY_FILE_NOT_REGULAR, f"{path}: not a regular file; nothing written there")
    fd, tmp = tempfile.mkstemp(prefix=".exchange-", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise


def _check_target(fixtures_dir: str, name: str, replace: bool) -> None:
    if os.path.lexists(fixtures_dir) and (os.path.islink(fixtures_dir) or not os.path.isdir(fixtures_dir)):
        raise refuse(ENTRY_FILE_NOT_REGULAR, f"{fixtures_dir}: fixtures must be a directory, not a symlink or file")
    target = os.path.join(fixtures_dir, name)
    if not os.path.lexists(target):
        return
    if not replace:
        raise refuse(FIXTURE_EXISTS, f"fixtures/{name}/ exists already; choose another --name, or give --replace")
    if os.path.islink(target) or not os.path.isdir(target):
        raise refuse(ENTRY_FILE_NOT_REGULAR, f"fixtures/{name}: not a directory; remove it by hand")
    for child in os.scandir(target):
        if not child.is_file(follow_symlinks=False):
            raise refuse(ENTRY_FILE_NOT_REGULAR, f"fixtures/{name}/ holds something other than regular files; "
                                                   "remove it by hand")


def write_fixture(fixtures_dir: str, plan_: Plan, replace: bool) -> None:
    """fixtures/<name>/ written whole in a temporary directory beside it, then renamed into place."""
    _check_target(fixtures_dir, plan_.name, replace)
    os.makedirs(fixtures_dir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".fixture-", dir=fixtures_dir)
    target = os.path.join(fixtures_dir, plan_.name)
    try:
        for name, data in plan_.files.items():
            with open(os.path.join(tmp, name), "xb") as fh:
                fh.write(data)
        os.chmod(tmp, 0o755)
        old = None
        if os.path.lexists(target):
            old = tempfile.mkdtemp(prefix=".replaced-", dir=fixtures_dir)
            os.rmdir(old)
            os.rename(target, old)
        os.rename(tmp, target)
        if old is not None:
            shutil.rmtree(old)
    except BaseException:
        if os.path.isdir(tmp):
            shutil.rmtree(tmp)
        raise


def manifest_with_row(current: bytes, row: dict[str, Any]) -> bytes | None:
    """manifest.json's bytes with the row of `row`'s id replaced (or added), every other row kept, written
    as `exchange manifest --write` writes the file; None when the current file cannot be read as rows."""
    from ..catalog.manifest import write_manifest

    try:
        rows = loads(current, Bounds(max_bytes=docs.MANIFEST_BOUND))
    except JsonRefusal:
        return None
    if not isinstance(rows, list) or not all(isinstance(r, dict) and isinstance(r.get("id"), str) for r in rows):
        return None
    try:
        return write_manifest([r for r in rows if r["id"] != row["id"]] + [row])
    except (TypeError, ValueError):
        return None


def update_manifest(catalog: str, rel: str) -> str:
    """Recompute the entry's manifest row from its files (catalog/manifest.compute_row) and write it."""
    from ..catalog.directory import check_entry_directory
    from ..catalog.manifest import compute_row
    from ..tree import WorkingTree

    check = check_entry_directory(WorkingTree(catalog), rel)
    path = os.path.join(catalog, "manifest.json")
    try:
        current = read_regular(path, docs.MANIFEST_BOUND, "manifest")
    except Stop:
        current = b""
    data = manifest_with_row(current, compute_row(check))
    if data is None:
        return "manifest.json: not updated (it cannot be read as rows); run exchange manifest --write"
    if data != current:
        write_file(path, data)
        return f"manifest.json: row {check.id} written"
    return f"manifest.json: row {check.id} up to date"


def write_entry_fixtures(entry_json: str, current: bytes, items: list[Any]) -> None:
    """entry.json with only the bytes of its fixtures member replaced (catalog/jsonedit.replace_member)."""
    from .jsonedit import JsonEditError, replace_member

    try:
        data = replace_member(current, ("fixtures",), items)
    except JsonEditError as exc:
        raise refuse(ENTRY_NOT_RECORDABLE, f"entry.json: the fixtures member cannot be edited ({exc})") from None
    write_file(entry_json, data)


# --- the command ------------------------------------------------------------------------------------

@dataclass
class Outcome:
    lines: list[str]


def pack_listed(entry: dict[str, Any], recording: Recording) -> None:
    """A run recorded under a pack digest the entry's `pack.digests` does not list is refused (issue #26 item 6:
    it was accepted silently); an entry that names its packs by `versions` is not held here."""
    from ..quoting import digest as shown

    pack = entry.get("pack")
    listed = pack.get("digests") if isinstance(pack, dict) else None
    if not isinstance(listed, list) or recording.pack_digest in listed:
        return
    raise refuse(RECORDING_PACK_UNLISTED, f"the run was recorded under the pack digest "
                 f"{shown(recording.pack_digest)} (run.json /release/packDigest), which entry.json's pack.digests "
                 f"does not list ({len(listed)} listed): add it to pack.digests if the entry reads that pack "
                 "release, then run the command again; nothing written")


def cleared_name(name: str) -> str:
    """The fixture's name once the scan's name check clears it (issue #38 item 3; scan/file_scan.scan_names, the
    check the gate runs on every name in an entry): a name shaped like a credential (an Azure DevOps or Databricks
    token, a key) fits the name grammar, and the gate refuses a fixture directory of that name, so the command
    refuses it first, writing nothing and never printing it (its kind and length only)."""
    from ..scan.file_scan import scan_names

    found = scan_names([(name, "fixture directory")]).get(name)
    if found:
        code, words = found[0]
        raise refuse(code, f"the fixture's name (from --name, or from the run's id without it) is {words[4:]}: the "
                           "gate refuses a directory so named, so nothing is written; give the fixture another name "
                           "with --name NAME (^[a-z0-9]+(-[a-z0-9]+)*$)")
    return name


def add_fixture(entry_dir: str, export: str, name: str | None = None, profiles: str | None = None,
                replace: bool = False) -> Outcome:
    """The whole of `exchange fixture add`; Stop on a refusal, a bad invocation or an I/O failure."""
    if name is not None and not valid_name(name):
        raise Stop(USAGE, "--name: a fixture name is ^[a-z0-9]+(-[a-z0-9]+)*$, at most 64 characters (RFC 0019 §3)")
    catalog, rel = locate_entry(entry_dir)
    inputs = read_inputs(export, profiles)
    check = recordable(catalog, rel)
    entry, document_data = check.entry, check.document_data
    assert entry is not None and document_data is not None  # recordable refuses an entry without either
    pack_listed(entry, inputs.recording)
    chosen = cleared_name(name if name is not None else default_name(inputs.recording))
    fixture_items(entry["fixtures"], Plan(chosen, {}, "", ""), replace)  # a name clash before the replay
    fixtures_dir = os.path.join(catalog, *rel.split("/"), "fixtures")
    _check_target(fixtures_dir, chosen, replace)
    try:
        made = plan(document_data, check.document, inputs.recording, inputs.profiles, chosen, inputs.records)
    except CanonError as exc:
        raise refuse(RECORDING_MALFORMED, f"the recording has no canonical form ({exc})") from None
    entry_json = os.path.join(catalog, *rel.split("/"), "entry.json")
    current = read_regular(entry_json, docs.ENTRY_BOUND, "entry.json")
    items = fixture_items(entry["fixtures"], made, replace)
    replaced = any(isinstance(i, dict) and i.get("name") == chosen for i in entry["fixtures"])
    lines = [made.replay, f"profiles: from {inputs.profiles_from}"]
    try:
        write_fixture(fixtures_dir, made, replace)
        lines += [f"wrote {rel}/fixtures/{chosen}/{n}" for n in made.files]
        write_entry_fixtures(entry_json, current, items)
        lines.append(f"wrote {rel}/entry.json: fixtures {'replaced' if replaced else 'appended'} {chosen} "
                     f"(preparationDigest {made.preparation_digest})")
        lines.append(update_manifest(catalog, rel))
    except OSError as exc:
        raise Stop(IO, f"{exc.filename or rel}: {exc.strerror}") from None
    return Outcome(lines + made.audit + inputs.notes)
