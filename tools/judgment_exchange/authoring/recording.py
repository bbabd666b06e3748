"""Reading a Runner run export (`run.json`): pure functions from bytes to a `Recording` or a refusal.

The export (shared/vectors/runner-exports/README.md) holds the run's preparation and its inputs under
`run.input`: `preparation`, `source.case`, `source.sources` (the acquisitions of dialect §5.2),
`source.mapping` and `source.mappingDigest`; `release` holds `packId`, `packDigest` and
`inputProfiles`; `run.audit` is the runtime's evaluation record. docs/recording.md says what is
read, within which bounds, and which bytes a fixture receives (RFC 0019 §3 "A fixture's files").

The recording's content is never changed: case, acquisitions, profiles and the audit record are the
export's own bytes, cut verbatim from its text; only the preparation is re-serialised, into the
canonical form dialect §9.5 gives (`canon.preparation_form`), as §3 requires of preparation.json.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..canon import CanonError, canonical_digest, is_digest, preparation_form
from ..jsonstrict import Bounds, JsonRefusal, OVER_BOUND, integer, loads
from ..verifier.record import raw_member
from ..catalog import grammar

MIB = 1024 * 1024
# An export holds the preparation (≤ 8 MiB, dialect §12) and the dialect, case and acquisitions
# (≤ 2 MiB together) twice (run.input and release.sample), beside the release's pack, config, lock
# and the audit record: 32 MiB bounds all of it with room, and is read before anything is parsed.
MAX_EXPORT = 32 * MIB
# The acquisitions document may nest 64 levels (§12) and sits 4 levels down (run/input/source/sources).
EXPORT_NESTING = 64 + 4
MAX_PROFILES = 65_536       # dialect §12, the verifier's profiles bound
MAX_RECORD = 8 * MIB        # dialect §12, the verifier's record bound
EXPORT_VERSION = 2          # the run export layout this module reads (the Runner's `version`)

RECORDING_MALFORMED = "recording-malformed"


@dataclass(frozen=True)
class RecordingRefusal:
    """An export not read: a code of catalog/codes.py and a detail naming the member and the fix."""

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


def _refuse(detail: str) -> RecordingRefusal:
    return RecordingRefusal(RECORDING_MALFORMED, detail)


def _cut(text: str, *path: str) -> bytes:
    """The export's own text of the member at `path` (already read strictly, so present and unique)."""
    for name in path:
        text = raw_member(text, name)
    return text.encode("utf-8")


def _member(value: Any, path: str, want: type, what: str) -> Any | RecordingRefusal:
    if not isinstance(value, want):
        return _refuse(f"run.json {path}: expected {what}; is this a Runner run export (run.json)?")
    return value


def read_export(data: bytes) -> Recording | RecordingRefusal:
    """The recording a Runner run export holds, or the first reason it cannot be read."""
    try:
        root = loads(data, Bounds(max_bytes=MAX_EXPORT, max_depth=EXPORT_NESTING))
    except JsonRefusal as exc:
        why = "over its bound" if exc.kind == OVER_BOUND else "not strict JSON (dialect §1)"
        return _refuse(f"run.json is {why}: {exc.detail}")
    if isinstance(r := _member(root, "(the root)", dict, "an object"), RecordingRefusal):
        return r
    version = integer(root.get("version"))
    if version != EXPORT_VERSION:
        return _refuse(f"run.json /version: this reads the Runner's run export version {EXPORT_VERSION}; "
                       "export the run with a Runner that writes it")
    run = root.get("run")
    if isinstance(r := _member(run, "/run", dict, "an object"), RecordingRefusal):
        return r
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
