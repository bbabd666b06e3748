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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeAlias, cast

from .. import jsonstrict
from ..canon import is_digest
from ..catalog.documents import ENTRY_BOUND, MANIFEST_BOUND
from ..catalog.grammar import ENTRY_ID
from ..catalog.manifest import MAX_ROWS as MANIFEST_MAX_ROWS
from ..catalog.manifest import ROW_MEMBERS
from ..catalog.reference import NAMED, artifact_problem
from ..jsonstrict import member as member_name
from .model import Pair

ENTRY_MAX_BYTES = ENTRY_BOUND  # the walk's and mainline's bounds, named here for them
MANIFEST_MAX_BYTES = MANIFEST_BOUND

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


Known: TypeAlias = tuple[Row, bool]
"""A row read alone, and whether it has kind."""

Seen: TypeAlias = dict[bytes, "Known | tuple[None, bool]"]
"""The rows read alone, keyed by their bytes: each a row and whether it has kind, or `_NOT_A_ROW` (a part that is
not one row in form on its own)."""


class Run:
    """Consecutive rows of one publisher in a manifest (`rows`, all with `publisher`), hashed by
    identity: one object per distinct run a walk meets (a segment's own, or interned by its rows), so
    the walk keys what it resolved by (the publisher directory's tree entry, the run) in one step."""

    __slots__ = ("rows", "publisher", "names")

    def __init__(self, rows: tuple[Row, ...], names: tuple[str, ...] | None = None) -> None:
        self.rows = rows
        self.publisher = rows[0].publisher
        self.names = names if names is not None else tuple(row.name for row in rows)


def _publisher_groups(rows: Sequence[Row]) -> list[tuple[Row, ...]]:
    """The rows cut where the publisher changes, each group a tuple (no group is empty)."""
    groups: list[tuple[Row, ...]] = []
    start = 0
    publisher: str | None = None
    for at, row in enumerate(rows):
        if row.publisher != publisher:
            if at:
                groups.append(tuple(rows[start:at]))
            start, publisher = at, row.publisher
    if rows:
        groups.append(tuple(rows[start:]))
    return groups


class _Segment:
    """A run of a manifest's rows between two publishers' markers, read once (`_by_segments`): each
    row with whether it has kind (`known`), its rows, its publishers' runs, and what the whole reading's
    checks need of it: its kinds, its first and last ids, whether its ids strictly increase."""

    __slots__ = ("known", "rows", "runs", "kinds", "first", "last", "ordered")

    def __init__(self, known: tuple[Known, ...]) -> None:
        self.known = known
        rows, kinds = zip(*known, strict=False)  # a segment holds a row at least (a piece is one part or more)
        self.rows, self.kinds = rows, frozenset(kinds)
        ids, _, _, publishers, names = zip(*rows, strict=False)
        self.first, self.last = ids[0], ids[-1]
        self.ordered = list(ids) == sorted(ids) and len(set(ids)) == len(ids)
        self.runs = (Run(rows, names),) if len(set(publishers)) == 1 else tuple(map(Run, _publisher_groups(rows)))


def _whole_segments(read: tuple[_Segment, ...]) -> bool:
    """Whether `_whole` passes the rows of these segments in order, from each segment's own facts: one
    row form, and ids strictly increasing within each segment and from each segment to the next (an
    id is ASCII, §3's grammar, so code point order is byte order)."""
    kinds = frozenset().union(*(segment.kinds for segment in read))
    return (len(kinds) <= 1 and all(segment.ordered for segment in read)
            and all(before.last < after.first for before, after in zip(read, read[1:], strict=False)))


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


def read_manifest(data: bytes, seen: Seen | None = None, segments: SegmentCache | None = None) -> list[Row]:
    """A previous manifest's rows (§3's manifest form; a version-1 manifest's rows lack kind).

    `seen` (optional) holds the rows already read, keyed by their bytes: a row unchanged across
    releases is read and form-checked once (issue #12 item 4, `_by_rows`); `segments` (optional,
    with `seen`) holds runs of rows read before, so an unchanged run costs one lookup (`_by_segments`).
    Whatever that reading cannot vouch for is read whole, so every refusal is the whole reading's.
    """
    read = _reading(data, seen, segments)
    return [row for segment in read for row in segment.rows] if isinstance(read, tuple) else read


def read_manifest_runs(data: bytes, seen: Seen, segments: SegmentCache,
                       interned: dict[tuple[Row, ...], Run]) -> list[Run]:
    """`read_manifest`'s rows as runs of one publisher's consecutive rows (`Run`), for the walk
    (issue #20): a run of a segment read before is that segment's own object, so the walk resolves an
    unchanged publisher's rows once per (publisher directory, run) without a step per row; rows read
    any other way are grouped here, each distinct run once (`interned`, keyed by its rows)."""
    read = _reading(data, seen, segments)
    if isinstance(read, tuple):
        return [run for segment in read for run in segment.runs]
    runs = []
    for rows in _publisher_groups(read):
        run = interned.get(rows)
        if run is None:
            run = interned[rows] = Run(rows)
        runs.append(run)
    return runs


def _reading(data: bytes, seen: Seen | None, segments: SegmentCache | None) -> list[Row] | tuple[_Segment, ...]:
    """The rows read by parts when `seen` is given and the parts vouch for them (a tuple of segments
    when read by publisher segments), else read whole; HistoricalFormError as the whole reading says."""
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
    for before, after in zip(rows, rows[1:], strict=False):
        if before.id.encode("utf-8") >= after.id.encode("utf-8"):
            raise HistoricalFormError(f"row id {after.id!r} is not after {before.id!r} in byte order")


_WS = b" \t\n\r"
_BETWEEN = re.compile(rb"\}([ \t\n\r]*,[ \t\n\r]*)\{")
_SEGMENT = jsonstrict.Bounds(max_bytes=MANIFEST_MAX_BYTES, max_depth=63)  # one level below the array
_MAX_JOINS = 16  # cuts inside one row (its fixtures' `}, {`) tried before the manifest is read whole
_MAX_ROW_BYTES = 1 << 16  # a part grown past this is no row of ours: the manifest is read whole
_NOT_A_ROW: tuple[None, bool] = (None, False)
_MAX_SEPARATORS = 4  # separators tried for a cut at rows alone before the cut at every `}, {`
_SAMPLE_BYTES = 1 << 14  # the separators tried are those met in the first 16 KiB (any would be sound)


def _by_rows(data: bytes, seen: Seen,
             segments: SegmentCache | None = None) -> list[Row] | tuple[_Segment, ...] | None:
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
    that are not a row are remembered too. With `segments`, the rows come as a tuple of segments
    (`_by_segments`), checked whole from each segment's own facts (`_whole_segments`).
    """
    if len(data) > MANIFEST_MAX_BYTES:
        return None
    span = _core(data)
    if span is None:
        return None  # no row first or last: the whole reading says what it is
    lo, hi = span
    for separator in _separators(_BETWEEN.findall(data, lo, min(hi, lo + _SAMPLE_BYTES))):
        boundary = b"}" + separator + b"{"
        if segments is not None:
            read = _by_segments(data, lo, hi, boundary, seen, segments)
            if read is not None:
                return read if _whole_segments(read) else None
            continue
        known = _by_parts(data[lo:hi], boundary, seen)
        if known is not None:
            rows, kinds = [k[0] for k in known], {k[1] for k in known}
            try:
                _whole(rows, kinds)
            except HistoricalFormError:
                return None
            return rows
    pieces = _BETWEEN.split(data[lo:hi])
    pieces[::2] = [b"{" + part + b"}" for part in pieces[::2]]
    rows, kinds = [], set()
    at, end = 0, len(pieces)
    while at < end:
        part, joins = pieces[at], 0
        while True:
            alone = seen.get(part)
            if alone is None:
                alone = seen[part] = _alone(len(rows), part)
            row, kind = alone
            if row is not None:  # not _NOT_A_ROW
                break
            joins += 1
            if at + 2 >= end or joins > _MAX_JOINS or len(part) > _MAX_ROW_BYTES:
                return None
            part = part + pieces[at + 1] + pieces[at + 2]
            at += 2
        rows.append(row)
        kinds.add(kind)
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


def _by_parts(core: bytes, boundary: bytes, seen: Seen) -> list[Known] | None:
    """`core` cut at every `boundary`, each part's row (`_known`), or None."""
    parts = core.split(boundary)
    if len(parts) > MANIFEST_MAX_ROWS:
        return None
    return _known([b"{" + part + b"}" for part in parts], seen)


_MARKER_REACH = 256  # how far into a publisher's first row its `"publisher.` is looked for


def _core(data: bytes) -> tuple[int, int] | None:
    """Where the rows' bytes lie in a manifest read as `[` `{` ... `}` `]` with whitespace around each
    bracket: the offsets of what lies between the first `{` and the last `}` (what stripping `data`,
    its brackets and the whitespace inside them leaves, without copying it), or None."""
    opened = _OPEN.match(data)
    if opened is None:
        return None
    lo, hi = opened.end(), len(data)
    while hi > lo and data[hi - 1] in _WS:
        hi -= 1
    if hi <= lo or data[hi - 1] != _ARRAY_END:
        return None
    hi -= 1
    while hi > lo and data[hi - 1] in _WS:
        hi -= 1
    if hi <= lo or data[hi - 1] != _OBJECT_END:
        return None
    return lo, hi - 1


_OPEN = re.compile(rb"[ \t\n\r]*\[[ \t\n\r]*\{")
_ARRAY_END, _OBJECT_END = ord("]"), ord("}")


SegmentCache: TypeAlias = "dict[bytes | tuple[bytes, None], _Cuts | dict[bytes, _Segment]]"
"""What `_by_segments` keeps across manifests: under each boundary, its `_Cuts`; under (boundary, None), the
segments met before, by their bytes' SHA-256."""


class _Cuts:
    """What `_by_segments` keeps for one boundary: the publishers' markers, and for each piece the last
    manifest cut between two of them (by the markers' places, -1 before the first and None after the
    last), its bytes, its segment and its parts (cut at the boundary, or None when not cut yet)."""

    __slots__ = ("markers", "last")

    def __init__(self, markers: list[bytes]) -> None:
        self.markers = markers
        self.last: dict[tuple[int, int | None], tuple[bytes, _Segment, list[bytes] | None]] = {}


def _by_segments(data: bytes, lo: int, hi: int, boundary: bytes, seen: Seen,
                 segments: SegmentCache) -> tuple[_Segment, ...] | None:
    """`_by_parts` on `data[lo:hi]`, a publisher's run of rows at a time. The rows are cut at the
    boundary before each publisher's first row as the first manifest read had them (`segments[boundary]`:
    the boundary and that row's first bytes up to `"publisher.`, found with `bytes.find`), and each
    segment's rows are looked up by (boundary, its SHA-256); a segment not met before is cut at every
    boundary and its parts read (`_known`). Every cut is at a boundary, so the parts are `_by_parts`'
    parts and the verdict is theirs: a segment is kept only when each of its parts is one row on its own.

    A piece equal to the one the last manifest had between the same two markers, and followed by the
    same marker, is known without a search or a hash (issue #20: two `startswith`, in C, without
    copying): the find would stop at the same place, since an earlier match would lie within bytes
    equal to the last manifest's, where the find met none."""
    cuts = cast("_Cuts | None", segments.get(boundary))  # a boundary's own key holds its cuts
    if cuts is None:
        parts = data[lo:hi].split(boundary)
        if len(parts) > MANIFEST_MAX_ROWS:
            return None
        known = _known([b"{" + part + b"}" for part in parts], seen)
        if known is None:
            return None
        cuts = segments[boundary] = _Cuts(_markers(boundary, parts, known))
    runs = cast("dict[bytes, _Segment]", segments.setdefault((boundary, None), {}))
    last, width = cuts.last, len(boundary)
    out: list[_Segment] = []
    start, begin = lo, -1
    for at, marker in enumerate(cuts.markers):
        prior = last.get((begin, at))
        if prior is not None:
            end = start + len(prior[0])
            if end + len(marker) <= hi and data.startswith(prior[0], start) and data.startswith(marker, end):
                out.append(prior[1])
                start, begin = end + width, at
                continue
        found = data.find(marker, start, hi)
        if found < 0:
            continue
        piece = data[start:found]
        cut = _segment(piece, boundary, seen, runs, prior)
        if cut is None:
            return None
        last[(begin, at)] = (piece, *cut)
        out.append(cut[0])
        start, begin = found + width, at
    prior = last.get((begin, None))
    if prior is not None and hi - start == len(prior[0]) and data.startswith(prior[0], start):
        out.append(prior[1])
    else:
        piece = data[start:hi]
        cut = _segment(piece, boundary, seen, runs, prior)
        if cut is None:
            return None
        last[(begin, None)] = (piece, *cut)
        out.append(cut[0])
    return tuple(out) if sum(len(segment.rows) for segment in out) <= MANIFEST_MAX_ROWS else None


def _segment(piece: bytes, boundary: bytes, seen: Seen, runs: dict[bytes, _Segment],
             prior: tuple[bytes, _Segment, list[bytes] | None] | None = None,
             ) -> tuple[_Segment, list[bytes] | None] | None:
    """A piece's segment and its parts (None when not cut), or None when a part is not a row alone.
    With `prior` (the last manifest's piece between the same markers: its bytes, segment and parts) the
    piece is cut at the boundary and the parts it shares with that piece, first and last, keep that
    segment's rows (a part's row is a function of its bytes, `seen`): only the parts between are looked
    up. Without one, a piece met before (`runs`, by its SHA-256) is its segment, and a piece not met
    before is `_by_parts` on it."""
    if prior is not None:
        parts = piece.split(boundary)
        if len(parts) > MANIFEST_MAX_ROWS:
            return None
        before = prior[2] if prior[2] is not None else prior[0].split(boundary)
        known = _known_beside(parts, before, prior[1].known, seen)
        return None if known is None else (_Segment(tuple(known)), parts)
    key = hashlib.sha256(piece).digest()
    segment = runs.get(key)
    if segment is None:
        known = _by_parts(piece, boundary, seen)
        if known is None:
            return None
        segment = runs[key] = _Segment(tuple(known))
    return segment, None


def _known_beside(parts: list[bytes], before: list[bytes], known: tuple[Known, ...],
                  seen: Seen) -> list[Known] | None:
    """`_known` of the parts, `parts` being `before` (whose rows are `known`) with some parts changed: the
    parts equal to `before`'s from the start and from the end keep their rows."""
    top = min(len(parts), len(before))
    head = 0
    while head < top and parts[head] == before[head]:
        head += 1
    tail = 0
    while tail < top - head and parts[-1 - tail] == before[-1 - tail]:
        tail += 1
    middle = _known([b"{" + part + b"}" for part in parts[head:len(parts) - tail]], seen)
    if middle is None:
        return None
    return [*known[:head], *middle, *known[len(before) - tail:]]


def _markers(boundary: bytes, parts: list[bytes], known: list[Known]) -> list[bytes]:
    """For each publisher after the first, the boundary and its first row's bytes up to `"publisher.`."""
    markers, publisher = [], None
    for part, (row, _) in zip(parts, known, strict=False):
        if row.publisher != publisher:
            publisher = row.publisher
            at = part.find(b'"' + publisher.encode("ascii") + b".", 0, _MARKER_REACH)
            if at >= 0:
                markers.append(boundary + part[:at + len(publisher) + 2])
    return markers[1:]


def _known(parts: list[bytes], seen: Seen) -> list[Known] | None:
    """Each part's row, read alone once (`seen`), or None when a part is not a row on its own."""
    known = list(map(seen.get, parts))  # the parts read before, in C
    if None in known:
        for at in [at for at, k in enumerate(known) if k is None]:
            found = seen.get(parts[at])
            if found is None:
                found = seen[parts[at]] = _alone(at, parts[at])
            known[at] = found
    return None if _NOT_A_ROW in known else cast("list[Known]", known)  # no part unread, none _NOT_A_ROW


def _alone(index: int, part: bytes) -> Known | tuple[None, bool]:
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
    return entry_of(_load(data, ENTRY_MAX_BYTES))


def entry_of(value: Any) -> HistoricalEntry:
    """`read_entry` of bytes whose strict reading (within ENTRY_MAX_BYTES, §12's nesting) is `value`."""
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
