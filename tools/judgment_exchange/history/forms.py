"""A previous release's manifest and pinned entries, read in their own forms (RFC 0019 §§3, 7).

Pure functions from bytes to values; a document that does not fit raises `HistoricalFormError`,
which the walk turns into artifact-history-invalid. Only what history needs is held: the rows' own
form (version 1 rows without kind included), and for an entry its entryVersion and, for a
version-3 entry with a formatVersion reference, the dialect and artifact member forms.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, NamedTuple

from .. import jsonstrict
from ..catalog.documents import ENTRY_BOUND as ENTRY_MAX_BYTES
from ..catalog.documents import MANIFEST_BOUND as MANIFEST_MAX_BYTES
from ..canon import is_digest
from ..catalog.grammar import ENTRY_ID
from ..catalog.manifest import MAX_ROWS as MANIFEST_MAX_ROWS
from ..catalog.manifest import ROW_MEMBERS
from ..catalog.reference import NAMED, artifact_problem
from ..quoting import member as member_name
from .model import Pair

_ROW_REQUIRED = ("id", "path", "entryDigest", "fixtures")
_ROW_KINDS = ("dialect", "preset")


class HistoricalFormError(Exception):
    """A previous release's manifest or pinned entry that does not fit its own form or bounds."""


class Row(NamedTuple):
    """What history reads of a manifest row: the entry's id, its directory and its entryDigest, and the
    two names of that directory (entries/<publisher>/<name>). A tuple, so that it hashes in C: the
    walk keys its caches by rows (walk.py)."""

    id: str
    path: str
    entry_digest: str
    publisher: str
    name: str


@dataclass(frozen=True)
class HistoricalEntry:
    """A pinned entry's entryVersion and, for a version-3 named reference, its pair and dialect.digest."""

    entry_version: int
    pair: Pair | None = None
    dialect_digest: str | None = None


def _load(data: bytes, limit: int) -> Any:
    try:
        return jsonstrict.loads(data, jsonstrict.Bounds(max_bytes=limit))
    except jsonstrict.JsonRefusal as exc:
        prefix = "over its bound: " if exc.kind == jsonstrict.OVER_BOUND else ""
        raise HistoricalFormError(prefix + exc.detail) from None


def read_manifest(data: bytes, seen: dict[bytes, tuple[Row, bool]] | None = None,
                  segments: dict | None = None) -> list[Row]:
    """A previous manifest's rows (§3's manifest form; a version-1 manifest's rows lack kind).

    `seen` (optional) holds the rows already read, keyed by their bytes: a row unchanged across
    releases is read and form-checked once (issue #12 item 4, `_by_rows`); `segments` (optional,
    with `seen`) holds runs of rows read before, so an unchanged run costs one lookup (`_by_segments`).
    Whatever that reading cannot vouch for is read whole, so every refusal is the whole reading's.
    """
    if seen is not None:
        rows = _by_rows(data, seen, segments)
        if rows is not None:
            return rows
    value = _load(data, MANIFEST_MAX_BYTES)
    if not isinstance(value, list):
        raise HistoricalFormError("the manifest is not a JSON array")
    if len(value) > MANIFEST_MAX_ROWS:
        raise HistoricalFormError(f"{len(value)} rows, over the bound of {MANIFEST_MAX_ROWS}")
    rows = [_row(index, item) for index, item in enumerate(value)]
    _whole(rows, {"kind" in item for item in value})
    return rows


def _whole(rows: list[Row], kinds: set[bool]) -> None:
    if len(kinds) > 1:
        raise HistoricalFormError("rows with kind and rows without it in one manifest (two row forms)")
    ids = [row.id for row in rows]
    if ids == sorted(ids) and len(set(ids)) == len(ids):
        return  # strictly increasing; an id is ASCII (§3's grammar), so code point order is byte order
    for before, after in zip(rows, rows[1:]):
        if before.id.encode("utf-8") >= after.id.encode("utf-8"):
            raise HistoricalFormError(f"row id {after.id!r} is not after {before.id!r} in byte order")


_WS = b" \t\n\r"
_BETWEEN = re.compile(rb"\}([ \t\n\r]*,[ \t\n\r]*)\{")
_SEGMENT = jsonstrict.Bounds(max_bytes=MANIFEST_MAX_BYTES, max_depth=63)  # one level below the array
_MAX_JOINS = 16  # cuts inside one row (its fixtures' `}, {`) tried before the manifest is read whole
_MAX_ROW_BYTES = 1 << 16  # a part grown past this is no row of ours: the manifest is read whole
_NOT_A_ROW = (None, False)
_MAX_SEPARATORS = 4  # separators tried for a cut at rows alone before the cut at every `}, {`
_SAMPLE_BYTES = 1 << 14  # the separators tried are those met in the first 16 KiB (any would be sound)


def _by_rows(data: bytes, seen: dict[bytes, tuple[Row, bool]], segments: dict | None = None) -> list[Row] | None:
    """The rows of a manifest read as `[` row `,` row ... `]`, each row's bytes read strictly on their
    own and form-checked once; None (read it whole) unless every part is a row in form and the whole is.

    First the bytes are cut at one separator alone, the commonest met between `}` and `{` in the first
    16 KiB (`exchange manifest --write`'s `,\n  ` between rows, not the fixtures' deeper one), tried
    for at most _MAX_SEPARATORS separators and 1,024 parts: one split in C, and each part looked up
    in `seen` in C, so a manifest whose rows were all read before costs no Python per row. Else the
    bytes are cut at each `}` `,` `{`; a part that is not one complete strict value on its own is
    joined to the next (a cut inside a row's fixtures) up to _MAX_JOINS times and _MAX_ROW_BYTES,
    so hostile bytes cost a bounded number of small readings before the whole reading. Sound because a part
    that is one complete strict JSON value on its own cannot end inside a string or a nested value, so
    the cuts kept were the array's own commas (whichever separator chose them): the array of those
    values is the document, within the byte bound and one level deeper than its deepest row. Parts
    that are not a row are remembered too.
    """
    if len(data) > MANIFEST_MAX_BYTES:
        return None
    body = data.strip(_WS)
    if body[:1] != b"[" or body[-1:] != b"]":
        return None
    inner = body[1:-1].strip(_WS)
    if inner[:1] != b"{" or inner[-1:] != b"}":
        return None  # no row first or last: the whole reading says what it is
    core = inner[1:-1]
    for separator in _separators(_BETWEEN.findall(core, 0, _SAMPLE_BYTES)):
        boundary = b"}" + separator + b"{"
        if segments is None:
            known = _by_parts(core, boundary, seen)
        else:
            known = _by_segments(core, boundary, seen, segments)
        if known is not None:
            rows, kinds = [k[0] for k in known], {k[1] for k in known}
            try:
                _whole(rows, kinds)
            except HistoricalFormError:
                return None
            return rows
    pieces = _BETWEEN.split(core)
    pieces[::2] = [b"{" + part + b"}" for part in pieces[::2]]
    rows, kinds = [], set()
    at, end = 0, len(pieces)
    while at < end:
        part, joins = pieces[at], 0
        while True:
            known = seen.get(part)
            if known is None:
                known = seen[part] = _alone(len(rows), part)
            if known is not _NOT_A_ROW:
                break
            joins += 1
            if at + 2 >= end or joins > _MAX_JOINS or len(part) > _MAX_ROW_BYTES:
                return None
            part = part + pieces[at + 1] + pieces[at + 2]
            at += 2
        rows.append(known[0])
        kinds.add(known[1])
        at += 2
    if len(rows) > MANIFEST_MAX_ROWS:
        return None
    try:
        _whole(rows, kinds)
    except HistoricalFormError:
        return None
    return rows


def _separators(found: list[bytes]) -> list[bytes]:
    """The separators met between `}` and `{`, the commonest first, at most _MAX_SEPARATORS: cutting
    at one of them alone (e.g. the rows' `,\n  ` and not the fixtures' `,\n      `) cuts at the rows."""
    return [separator for separator, _ in Counter(found).most_common(_MAX_SEPARATORS)]


def _by_parts(core: bytes, boundary: bytes, seen: dict) -> list[tuple[Row, bool]] | None:
    """`core` cut at every `boundary`, each part's row (`_known`), or None."""
    parts = core.split(boundary)
    if len(parts) > MANIFEST_MAX_ROWS:
        return None
    return _known([b"{" + part + b"}" for part in parts], seen)


_MARKER_REACH = 256  # how far into a publisher's first row its `"publisher.` is looked for


def _by_segments(core: bytes, boundary: bytes, seen: dict, segments: dict) -> list[tuple[Row, bool]] | None:
    """`_by_parts`, a publisher's run of rows at a time. `core` is cut at the boundary before each
    publisher's first row as the last manifest read had them (`segments[boundary]`: the boundary and
    that row's first bytes up to `"publisher.`, found with `bytes.find`), and each segment's rows are
    looked up by (boundary, its SHA-256); a segment not met before is cut at every boundary and its
    parts read (`_known`). Every cut is at a boundary, so the parts are `_by_parts`' parts and the
    verdict is theirs: a segment is kept only when each of its parts is one row on its own."""
    markers = segments.get(boundary)
    if markers is None:
        parts = core.split(boundary)
        if len(parts) > MANIFEST_MAX_ROWS:
            return None
        known = _known([b"{" + part + b"}" for part in parts], seen)
        if known is not None:
            segments[boundary] = _markers(boundary, parts, known)
        return known
    pieces, start = [], 0
    for marker in markers:
        found = core.find(marker, start)
        if found >= 0:
            pieces.append(core[start:found])
            start = found + len(boundary)
    pieces.append(core[start:])
    runs = segments.setdefault((boundary, None), {})
    known: list[tuple[Row, bool]] = []
    for piece in pieces:
        key = hashlib.sha256(piece).digest()
        rows = runs.get(key)
        if rows is None:
            rows = _by_parts(piece, boundary, seen)
            if rows is None:
                return None
            rows = runs[key] = tuple(rows)
        known += rows
    return known if len(known) <= MANIFEST_MAX_ROWS else None


def _markers(boundary: bytes, parts: list[bytes], known: list[tuple[Row, bool]]) -> list[bytes]:
    """For each publisher after the first, the boundary and its first row's bytes up to `"publisher.`."""
    markers, publisher = [], None
    for part, (row, _) in zip(parts, known):
        if row.publisher != publisher:
            publisher = row.publisher
            at = part.find(b'"' + publisher.encode("ascii") + b".", 0, _MARKER_REACH)
            if at >= 0:
                markers.append(boundary + part[:at + len(publisher) + 2])
    return markers[1:]


def _known(parts: list[bytes], seen: dict[bytes, tuple[Row, bool]]) -> list[tuple[Row, bool]] | None:
    """Each part's row, read alone once (`seen`), or None when a part is not a row on its own."""
    known = list(map(seen.get, parts))  # the parts read before, in C
    if None in known:
        for at in [at for at, k in enumerate(known) if k is None]:
            found = seen.get(parts[at])
            if found is None:
                found = seen[parts[at]] = _alone(at, parts[at])
            known[at] = found
    return None if _NOT_A_ROW in known else known


def _alone(index: int, part: bytes) -> tuple[Row, bool]:
    """A part's row and whether it has kind, or _NOT_A_ROW: not one strict JSON row in form alone."""
    try:
        item = jsonstrict.loads(part, _SEGMENT)
        return (_row(index, item), "kind" in item) if isinstance(item, dict) else _NOT_A_ROW
    except (jsonstrict.JsonRefusal, HistoricalFormError):
        return _NOT_A_ROW


def _row(index: int, item: Any) -> Row:
    where = f"row {index}"
    if not isinstance(item, dict):
        raise HistoricalFormError(f"{where} is not an object")
    stray = sorted(set(item) - set(ROW_MEMBERS))
    if stray:
        # the names are the author's: shown only when they are our schema's (issue #11 item 3)
        raise HistoricalFormError(f"{where} has members outside the row form: {', '.join(map(member_name, stray))}")
    missing = [m for m in _ROW_REQUIRED if m not in item]
    if missing:
        raise HistoricalFormError(f"{where} lacks {', '.join(missing)}")
    entry_id = item["id"]
    if not isinstance(entry_id, str) or not 3 <= len(entry_id) <= 128 or not ENTRY_ID.fullmatch(entry_id):
        raise HistoricalFormError(f"{where}: id is not an entry id")
    publisher, name = entry_id.split(".", 1)
    path = f"entries/{publisher}/{name}"
    if item["path"] != path:
        raise HistoricalFormError(f"{where} ({entry_id}): path is not {path!r}")
    if "kind" in item and item["kind"] not in _ROW_KINDS:
        raise HistoricalFormError(f"{where} ({entry_id}): kind is not dialect or preset")
    for member in ("entryDigest", "dialectDigest", "outputDigest"):
        if member in item and not is_digest(item[member]):
            raise HistoricalFormError(f"{where} ({entry_id}): {member} is not a sha256: digest")
    if not _fixtures(item["fixtures"]):
        raise HistoricalFormError(f"{where} ({entry_id}): fixtures is not an array of {{name, files}} objects")
    return Row(entry_id, path, item["entryDigest"], publisher, name)


def _fixtures(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(f, dict)
        and set(f) == {"name", "files"}
        and isinstance(f["name"], str)
        and isinstance(f["files"], list)
        and all(isinstance(name, str) for name in f["files"])
        for f in value
    )


def read_entry(data: bytes) -> HistoricalEntry:
    """A pinned entry: its entryVersion, and the pair only of a version-3 formatVersion reference (§7)."""
    value = _load(data, ENTRY_MAX_BYTES)
    if not isinstance(value, dict):
        raise HistoricalFormError("entry.json is not a JSON object")
    version = jsonstrict.integer(value.get("entryVersion"))
    if version is None:
        raise HistoricalFormError("entry.json has no integer entryVersion")
    dialect = value.get("dialect")
    if version != 3 or not isinstance(dialect, dict) or "formatVersion" not in dialect:
        return HistoricalEntry(version)
    if value.get("kind") != "dialect":
        raise HistoricalFormError("a formatVersion reference on an entry whose kind is not dialect")
    if set(dialect) != {"path", "formatVersion", "digest"}:
        raise HistoricalFormError("dialect is not exactly {path, formatVersion, digest}")
    if dialect["path"] != "dialect.json":
        raise HistoricalFormError("dialect.path is not dialect.json")
    if dialect["formatVersion"] not in NAMED:
        raise HistoricalFormError('dialect.formatVersion is not "2.0.0" or "3.0.0"')
    if not is_digest(dialect["digest"]):
        raise HistoricalFormError("dialect.digest is not a sha256: digest")
    if "artifact" not in value:
        raise HistoricalFormError("a formatVersion reference without artifact")
    artifact = value["artifact"]
    problem = artifact_problem(artifact)
    if problem is not None:
        raise HistoricalFormError(problem)
    pair: Pair = (artifact["id"], artifact["version"])
    return HistoricalEntry(version, pair, dialect["digest"])
