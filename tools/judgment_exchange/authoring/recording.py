"""Reading a Runner run export (`run.json`): pure functions from bytes to a `Recording` or a refusal.

The export (shared/vectors/runner-exports/README.md) holds the run's preparation and its inputs under
`run.input`: `preparation`, `source.case`, `source.sources` (the acquisitions of dialect §5.2),
`source.mapping` and `source.mappingDigest`; `release` holds `packId`, `packDigest` and
`inputProfiles`; `run.audit` is the runtime's evaluation record. docs/recording.md says what is
read, within which bounds, and which bytes a fixture receives (RFC 0019 §3 "A fixture's files").

The recording's content is never changed: case, acquisitions, profiles and the audit record are the
export's own bytes, cut verbatim from its text; only the preparation is re-serialised, into the
canonical form dialect §9.5 gives (`canon.preparation_form`), as §3 requires of preparation.json.

Export versions 2 to 5 are read (docs/recording.md "Export versions 2 to 5"; the Runner's
docs/MAPPING-V2.md). They are cumulative: 3 adds `run.auditBytes` (the audit record's exact line), 4
the top-level `chain` (the run's chain entry and its checkpoint), 5 `run.auditSignatures` (the
record's signature sidecar). What a fixture is cut from is the same in all four, so every version of
one run gives one fixture; each added member is held to its bound on its base64 text before it is
decoded, then to the checks the Runner's `verify-run` makes without outside input (`_audit_bytes`,
`_chain`, `_sidecar`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass
from typing import Any, Callable

from ..canon import CanonError, canonical_digest, is_digest, preparation_form
from ..catalog import grammar
from ..codes.authoring import (
    RECORDING_AUDIT_BYTES_MISMATCH,
    RECORDING_CHAIN_MISMATCH,
    RECORDING_MALFORMED,
    RECORDING_NOT_MAPPED,
    RECORDING_VERSION_UNREAD,
)
from ..jsonstrict import OVER_BOUND, Bounds, JsonRefusal, integer, loads
from ..verifier.record import raw_member

MIB = 1024 * 1024
# An export holds the preparation (≤ 8 MiB, dialect §12) and the dialect, case and acquisitions
# (≤ 2 MiB together) twice (run.input and release.sample), beside the release's pack, config, lock
# and the audit record: 32 MiB bounds all of it with room, and is read before anything is parsed.
MAX_EXPORT = 32 * MIB
# The acquisitions document may nest 64 levels (§12) and sits 4 levels down (run/input/source/sources).
EXPORT_NESTING = 64 + 4
MAX_PROFILES = 65_536       # dialect §12, the verifier's profiles bound
MAX_RECORD = 8 * MIB        # dialect §12, the verifier's record bound
EXPORT_VERSION = 2          # the run export layout the Runner serves when no version is asked for
EXPORT_VERSIONS = (2, 3, 4, 5)  # the layouts this module reads (the Runner's `version`, `?version=N`)
# The added members' bounds, the Runner's, on the decoded bytes; each is first held to the length of
# its base64 text (`_encoded`), before anything is decoded. A version-5 export of the Runner is then at
# most its 8 MiB rest and about 10.7 MiB of added text (18.7 MiB): MAX_EXPORT bounds it with room.
MAX_AUDIT_BYTES = 8 * MIB   # run.auditBytes (3+): the audit record's exact line, as the Runner reads one
MAX_CHAIN_LINE = 1024       # chain.entry (4+): the run's entry in the installation's chain of runs
MAX_SIDECAR = 16 * 1024     # run.auditSignatures (5): the record's signature sidecar
MAX_SIDECAR_LINE = 4096     # one sidecar line the Runner's rule reads, its newline not counted
RECORD_NESTING = 64         # the record's bytes parse as strictly as the export (dialect §12)
MAX_SEQUENCE = 2**53 - 2    # a chain entry's or checkpoint's sequence: 1 to 2^53-2

NOT_MAPPED = "not-mapped"   # the top-level `inputs` of an export without lineage


@dataclass(frozen=True)
class RecordingRefusal:
    """An export not read: a code of codes/catalog.py and a detail naming the member and the fix."""

    code: str
    detail: str


@dataclass(frozen=True)
class Recording:
    """What a fixture and an entry are made of, as the export holds it."""

    run_id: str | None
    case: bytes                    # run.input.source.case, the export's own bytes
    sources: bytes | None          # run.input.source.sources, None when the run has no acquisition
    mapping: Any                   # run.input.source.mapping, read strictly
    mapping_digest: str            # run.input.source.mappingDigest
    preparation: Any               # run.input.preparation, read strictly
    preparation_bytes: bytes       # the same preparation in §9.5's canonical form
    pack_id: Any = None            # release.packId (checked by the scaffold that needs it)
    pack_digest: Any = None        # release.packDigest
    input_profiles: bytes | None = None  # release.inputProfiles, the export's own bytes, when an array
    audit: bytes | None = None     # run.audit, the export's own bytes, when an object
    version: int = EXPORT_VERSION  # /version, one of EXPORT_VERSIONS
    record: bytes | None = None    # run.auditBytes decoded (3+): the audit record's exact line
    record_digest: str | None = None  # its SHA-256, the record's digest a receipt names (3+)
    checked: tuple[str, ...] = ()  # what the added members were held to, one line each, for the report


def _refuse(detail: str) -> RecordingRefusal:
    return RecordingRefusal(RECORDING_MALFORMED, detail)


def _cut(text: str, *path: str) -> bytes:
    """The export's own text of the member at `path` (already read strictly, so present and unique)."""
    for name in path:
        member = raw_member(text, name)
        assert member is not None  # read strictly already: present and unique
        text = member
    return text.encode("utf-8")


def _member(value: Any, path: str, want: type, what: str) -> Any | RecordingRefusal:
    if not isinstance(value, want):
        return _refuse(f"run.json {path}: expected {what}; is this a Runner run export (run.json)?")
    return value


# --- the members versions 3 to 5 add (docs/recording.md "Export versions 2 to 5") ---------------

_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_HEX32 = re.compile(r"[0-9a-f]{32}")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX128 = re.compile(r"[0-9a-f]{128}")
_ENTRY_MEMBERS = ("entryVersion", "trail", "sequence", "previous", "kind", "run", "auditDigest")
_CHECKPOINT_MEMBERS = ("checkpointVersion", "recordDigest", "sequence", "trail")
# (the kind, its member holding the place, the member holding the value, the value's form)
_SIDECAR_KINDS = {"record-signature": ("sequence", "record", None), "key-rotation": ("at", "next", _HEX64)}


def _encoded(bound: int) -> int:
    """The length of the standard base64 text of `bound` bytes (RFC 4648 §4, padded)."""
    return (bound + 2) // 3 * 4


def _sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _decoded(value: Any, where: str, bound: int, what: str) -> bytes | RecordingRefusal:
    """A member's standard base64 text decoded, held to `bound` decoded bytes on the text's length
    before anything is decoded; canonical text only (padded, no whitespace, zero padding bits)."""
    if not isinstance(value, str):
        return _refuse(f"run.json {where}: expected a string, {what} in standard base64; export the run again")
    if len(value) > _encoded(bound):
        return _refuse(f"run.json {where}: {len(value)} characters of base64, over the {_encoded(bound)} that "
                       f"{what}'s bound of {bound} bytes allows; export the run again")
    if not value:
        return _refuse(f"run.json {where}: empty; the Runner omits {what} it does not hold (and serves a lower "
                       "version); export the run again")
    if len(value) % 4 or _BASE64.fullmatch(value) is None:
        return _refuse(f"run.json {where}: not standard base64 (RFC 4648 §4, padded, no whitespace); "
                       "export the run again")
    size = len(value) // 4 * 3 - (len(value) - len(value.rstrip("=")))
    if size > bound:
        return _refuse(f"run.json {where}: {size} bytes once decoded, over {what}'s bound of {bound}; "
                       "export the run again")
    try:
        data = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return _refuse(f"run.json {where}: not standard base64 (RFC 4648 §4); export the run again")
    if base64.b64encode(data).decode("ascii") != value:
        return _refuse(f"run.json {where}: not the canonical base64 of its bytes (non-zero padding bits); "
                       "export the run again")
    return data


def _sequence(value: Any) -> int | None:
    """A chain sequence: a JSON integer literal from 1 to 2^53-2, else None."""
    number = integer(value)
    return number if number is not None and 1 <= number <= MAX_SEQUENCE else None


def _audit_bytes(run: dict[str, Any]) -> bytes | RecordingRefusal:
    """run.auditBytes (3+): one line that parses as strictly as the export to run.audit's value."""
    record = _decoded(run.get("auditBytes"), "/run/auditBytes", MAX_AUDIT_BYTES, "the audit record's bytes")
    if isinstance(record, RecordingRefusal):
        return record
    if b"\n" in record or b"\r" in record:
        return RecordingRefusal(RECORDING_AUDIT_BYTES_MISMATCH, "run.json /run/auditBytes: the decoded bytes hold a "
                                "line feed or carriage return, and the audit record is one line; export the run again")
    try:
        value = loads(record, Bounds(max_bytes=MAX_AUDIT_BYTES, max_depth=RECORD_NESTING))
    except JsonRefusal as exc:
        return RecordingRefusal(RECORDING_AUDIT_BYTES_MISMATCH, "run.json /run/auditBytes: the decoded bytes are not "
                                f"strict JSON within the record's bounds (dialect §§1, 12: {exc.detail}); export the "
                                "run again")
    if "audit" not in run or value != run["audit"]:
        return RecordingRefusal(RECORDING_AUDIT_BYTES_MISMATCH, "run.json /run/auditBytes: the decoded bytes are not "
                                "the same JSON value as /run/audit (numbers compared as their literals): the export "
                                "is not one recording; export the run again, never edit it")
    return record


def _entry(line: bytes) -> dict[str, Any] | str:
    """The chain entry's line read by the Runner's rule, or which part of the rule it breaks."""
    if b"\n" in line or b"\r" in line:
        return "the entry is one line"
    try:
        entry = loads(line, Bounds(max_bytes=MAX_CHAIN_LINE))
    except JsonRefusal as exc:
        return f"the entry is one strict JSON text ({exc.detail})"
    if not isinstance(entry, dict) or sorted(entry) != sorted(_ENTRY_MEMBERS):
        return "the entry is one object of exactly " + ", ".join(_ENTRY_MEMBERS)
    rules = (
        (entry["entryVersion"] == "1", 'its entryVersion is "1"'),
        (isinstance(entry["trail"], str) and _HEX32.fullmatch(entry["trail"]), "its trail is 32 lowercase hex"),
        (_sequence(entry["sequence"]) is not None, "its sequence is an integer from 1 to 2^53-2"),
        (is_digest(entry["previous"]), "its previous is a sha256: digest"),
        (entry["kind"] == "run", 'its kind is "run"'),
        (isinstance(entry["run"], str) and entry["run"] != "", "its run is a run's id, a string not empty"),
        (is_digest(entry["auditDigest"]), "its auditDigest is a sha256: digest"),
    )
    return next((rule for ok, rule in rules if not ok), entry)


def _chain(root: dict[str, Any], run: dict[str, Any], record: bytes) -> str | RecordingRefusal:
    """The top-level chain (4+): an entry the Runner writes, naming this run and the record's bytes,
    and the entry's own checkpoint. Answers the line of the report."""
    chain = root.get("chain")
    if not isinstance(chain, dict) or sorted(chain) != ["checkpoint", "entry"]:
        return _refuse("run.json /chain: expected an object of exactly entry and checkpoint; export the run again")
    line = _decoded(chain["entry"], "/chain/entry", MAX_CHAIN_LINE, "the run's chain entry")
    if isinstance(line, RecordingRefusal):
        return line
    entry = _entry(line)
    if isinstance(entry, str):
        return _refuse(f"run.json /chain/entry: the decoded line is not an entry the Runner writes ({entry}); "
                       "export the run again")
    checkpoint = chain["checkpoint"]
    if (not isinstance(checkpoint, dict) or sorted(checkpoint) != sorted(_CHECKPOINT_MEMBERS)
            or not all(isinstance(checkpoint[k], str) for k in ("checkpointVersion", "recordDigest", "trail"))
            or integer(checkpoint["sequence"]) is None):
        return _refuse("run.json /chain/checkpoint: expected an object of exactly checkpointVersion, recordDigest, "
                       "trail (strings) and sequence (an integer); export the run again")
    mismatch = None
    if entry["run"] != run.get("id"):
        mismatch = "/chain/entry: the entry names another run than /run/id"
    elif entry["auditDigest"] != _sha(record):
        mismatch = "/chain/entry: the entry's auditDigest is not the SHA-256 of /run/auditBytes"
    elif checkpoint["checkpointVersion"] != "1":
        mismatch = '/chain/checkpoint/checkpointVersion: not "1", the checkpoint the Runner writes'
    elif checkpoint["recordDigest"] != _sha(line):
        mismatch = "/chain/checkpoint/recordDigest: not the SHA-256 of the entry's line (/chain/entry decoded)"
    elif integer(checkpoint["sequence"]) != integer(entry["sequence"]):
        mismatch = "/chain/checkpoint/sequence: not the entry's sequence"
    elif checkpoint["trail"] != entry["trail"]:
        mismatch = "/chain/checkpoint/trail: not the entry's trail"
    if mismatch is not None:
        return RecordingRefusal(RECORDING_CHAIN_MISMATCH, f"run.json {mismatch}: the export's chain entry is not its "
                                "run's; export the run again, never edit it")
    return ("chain: the entry names this run and the SHA-256 of run.auditBytes, and the checkpoint is the entry's "
            "(one supplied entry: it establishes nothing against the operator without a checkpoint held by "
            "someone else)")


def _sidecar_line(line: bytes) -> bool:
    """A readable sidecar line by the Runner's rule: one JSON object of exactly the seven members of a
    record signature or a key rotation, each of its form, at most 4,096 bytes."""
    if not line or len(line) > MAX_SIDECAR_LINE:
        return False
    try:
        value = loads(line, Bounds(max_bytes=MAX_SIDECAR_LINE))
    except JsonRefusal:
        return False
    if not isinstance(value, dict) or len(value) != 7 or value.get("kind") not in _SIDECAR_KINDS:
        return False
    place, held, form = _SIDECAR_KINDS[value["kind"]]
    text: dict[str, Any] = {k: value.get(k) for k in ("sidecarVersion", "keyId", "trail", held, "signature")}
    return (all(isinstance(v, str) for v in text.values()) and text["sidecarVersion"] == "1"
            and _HEX32.fullmatch(text["keyId"]) is not None and _HEX32.fullmatch(text["trail"]) is not None
            and _sequence(value.get(place)) is not None
            and (is_digest(text[held]) if form is None else form.fullmatch(text[held]) is not None)
            and _HEX128.fullmatch(text["signature"]) is not None)


def _sidecar(run: dict[str, Any]) -> str | RecordingRefusal:
    """run.auditSignatures (5): the sidecar within its bound; its lines counted as the Runner's
    `verify-run` counts them without a public key (status not-checked). Answers the line of the report."""
    sidecar = _decoded(run.get("auditSignatures"), "/run/auditSignatures", MAX_SIDECAR,
                       "the record's signature sidecar")
    if isinstance(sidecar, RecordingRefusal):
        return sidecar
    *lines, last = sidecar.split(b"\n")   # a last line with no newline after it was never written
    readable = sum(1 for line in lines if _sidecar_line(line))
    unreadable = len(lines) - readable + (1 if last else 0)
    return (f"run.auditSignatures: not-checked (no public key here; the Runner's verify-run --public-key checks the "
            f"signature), {readable} readable and {unreadable} unreadable lines")


_ADDED: tuple[tuple[int, str, str, Callable[[dict[str, Any], dict[str, Any]], bool]], ...] = (
    # (since version, where, what, present?)
    (3, "/run/auditBytes", "the audit record's exact bytes", lambda root, run: "auditBytes" in run),
    (4, "/chain", "the run's chain entry", lambda root, run: "chain" in root),
    (5, "/run/auditSignatures", "the record's signature sidecar", lambda root, run: "auditSignatures" in run),
)


def _added(
    root: dict[str, Any], run: dict[str, Any], version: int
) -> tuple[bytes | None, tuple[str, ...]] | RecordingRefusal:
    """The members `version` adds, each present exactly from its version on and held to its checks:
    (the record's exact line or None, the report's lines)."""
    for since, where, what, present in _ADDED:
        if version >= since and not present(root, run):
            return _refuse(f"run.json {where}: missing; a version-{version} export carries {what} (from version "
                           f"{since} on); export the run again")
        if version < since and present(root, run):
            return _refuse(f"run.json {where}: a version-{version} export carries no {what} (version {since} adds "
                           "it); export the run again")
    if version < 3:
        return None, ()
    record = _audit_bytes(run)
    if isinstance(record, RecordingRefusal):
        return record
    checked = [f"run export version {version}",
               f"run.auditBytes: one line, the same JSON value as run.audit; recordDigest {_sha(record)}"]
    for check in ((lambda: _chain(root, run, record)) if version >= 4 else None,
                  (lambda: _sidecar(run)) if version >= 5 else None):
        if check is not None:
            said = check()
            if isinstance(said, RecordingRefusal):
                return said
            checked.append(said)
    return record, tuple(checked)


def _mapping_v2(release: Any) -> bool:
    """The release froze a mapping v2 (release.inputMapping with version 2), whose runs have lineage."""
    mapping = release.get("inputMapping") if isinstance(release, dict) else None
    return isinstance(mapping, dict) and integer(mapping.get("version")) == 2


def _lineage(root: dict[str, Any]) -> RecordingRefusal | None:
    """An export without lineage holds nothing a fixture or an entry is made of: `"inputs": "not-mapped"`,
    or a run with no preparation under a release that froze no mapping v2."""
    if "inputs" in root:
        if root["inputs"] == NOT_MAPPED:
            return RecordingRefusal(RECORDING_NOT_MAPPED, 'run.json /inputs: "not-mapped", a run without lineage (a '
                                    "job with no input mapping or a version-1 file mapping): there is nothing to make "
                                    "an entry or a fixture from; record the run under a mapping-v2 job")
        return _refuse('run.json /inputs: only "not-mapped" is one the Runner writes, and a mapping-v2 run\'s export '
                       "has none; export the run again")
    run = root.get("run")
    given = run.get("input") if isinstance(run, dict) else None
    if isinstance(given, dict) and "preparation" not in given and not _mapping_v2(root.get("release")):
        return RecordingRefusal(RECORDING_NOT_MAPPED, "run.json /run/input/preparation: absent, and /release/"
                                "inputMapping is no mapping v2: a run without lineage, so there is nothing to make an "
                                "entry or a fixture from; record the run under a mapping-v2 job")
    return None


def read_export(data: bytes) -> Recording | RecordingRefusal:
    """The recording a Runner run export holds, or the first reason it cannot be read."""
    try:
        root = loads(data, Bounds(max_bytes=MAX_EXPORT, max_depth=EXPORT_NESTING))
    except JsonRefusal as exc:
        why = "over its bound" if exc.kind == OVER_BOUND else "not strict JSON (dialect §1)"
        return _refuse(f"run.json is {why}: {exc.detail}")
    if isinstance(r := _member(root, "(the root)", dict, "an object"), RecordingRefusal):
        return r
    if "version" not in root:
        return _refuse("run.json /version: missing; is this a Runner run export (run.json)?")
    version = integer(root["version"])
    if version not in EXPORT_VERSIONS:
        return RecordingRefusal(RECORDING_VERSION_UNREAD, "run.json /version: not a run export version this reads "
                                "(2, 3, 4 or 5); export the run again, asking the Runner for one (?version=2, the "
                                "default, to 5)")
    if isinstance(r := _lineage(root), RecordingRefusal):
        return r
    run = root.get("run")
    if isinstance(r := _member(run, "/run", dict, "an object"), RecordingRefusal):
        return r
    added = _added(root, run, version)
    if isinstance(added, RecordingRefusal):
        return added
    record, checked = added
    given = run.get("input")
    if isinstance(r := _member(given, "/run/input", dict, "an object"), RecordingRefusal):
        return r
    preparation = given.get("preparation")
    if isinstance(r := _member(preparation, "/run/input/preparation", dict, "an object (the run's preparation)"),
                  RecordingRefusal):
        return r
    source = given.get("source")
    if isinstance(r := _member(source, "/run/input/source", dict, "an object"), RecordingRefusal):
        return r
    if "case" not in source:
        return _refuse("run.json /run/input/source/case: missing; the run's case document is required")
    mapping = source.get("mapping")
    if isinstance(r := _member(mapping, "/run/input/source/mapping", dict, "an object (the dialect document)"),
                  RecordingRefusal):
        return r
    mapping_digest = source.get("mappingDigest")
    if not is_digest(mapping_digest):
        return _refuse("run.json /run/input/source/mappingDigest: expected a sha256: digest")
    try:
        recorded = canonical_digest(mapping)
    except CanonError as exc:
        return _refuse(f"run.json /run/input/source/mapping has no canonical form ({exc})")
    if recorded != mapping_digest:
        return _refuse("run.json /run/input/source/mappingDigest is not the canonical digest of "
                       "/run/input/source/mapping: the export is not one recording; export the run again")
    sources = source.get("sources")
    if sources is not None and not isinstance(sources, dict):
        return _refuse("run.json /run/input/source/sources: expected an object (the acquisitions) or absent")
    try:
        prepared = preparation_form(preparation)
    except CanonError as exc:
        return _refuse(f"run.json /run/input/preparation has no canonical form (dialect §9.5): {exc}")
    text = data.decode("utf-8")
    release = root.get("release") if isinstance(root.get("release"), dict) else {}
    profiles = release.get("inputProfiles")
    audit = run.get("audit")
    run_id = run.get("id") if isinstance(run.get("id"), str) else None
    return Recording(
        run_id=run_id,
        case=_cut(text, "run", "input", "source", "case"),
        sources=_cut(text, "run", "input", "source", "sources") if sources else None,
        mapping=mapping,
        mapping_digest=mapping_digest,
        preparation=preparation,
        preparation_bytes=prepared,
        pack_id=release.get("packId"),
        pack_digest=release.get("packDigest"),
        input_profiles=_cut(text, "release", "inputProfiles") if isinstance(profiles, list) else None,
        audit=_cut(text, "run", "audit") if isinstance(audit, dict) else None,
        version=version,
        record=record,
        record_digest=_sha(record) if record is not None else None,
        checked=checked,
    )


def read_profiles(data: bytes) -> bytes | RecordingRefusal:
    """Trusted profiles supplied out of band (profiles.json, --profiles): one strict JSON array within
    the verifier's bound, kept byte for byte."""
    try:
        value = loads(data, Bounds(max_bytes=MAX_PROFILES))
    except JsonRefusal as exc:
        return _refuse(f"the profiles file is not a strict JSON document within {MAX_PROFILES} bytes: {exc.detail}")
    if not isinstance(value, list):
        return _refuse("the profiles file is one JSON array of input profiles (dialect §5.1)")
    return data


_OUTSIDE = re.compile(r"[^a-z0-9]+")
MAX_NAME = 64


def default_name(recording: Recording) -> str:
    """The fixture name a recording gets unless --name gives one: the run's id (run.id, e.g.
    run_c737…) lower-cased, every run of characters outside [a-z0-9] read as one '-', trimmed of '-'
    and cut to 64 characters; `recording` when that leaves nothing."""
    name = _OUTSIDE.sub("-", (recording.run_id or "").lower()).strip("-")[:MAX_NAME].strip("-")
    return name if valid_name(name) else "recording"


def valid_name(name: str) -> bool:
    """A fixture name of RFC 0019 §3: ^[a-z0-9]+(-[a-z0-9]+)*$, at most 64 characters."""
    return len(name) <= MAX_NAME and grammar.FIXTURE_NAME.fullmatch(name) is not None
