"""The history walk: each previous release's manifest and pinned entries, as blobs (RFC 0019 §§3, 7).

Everything is judged by content, once across all releases (issue #12 item 4): each distinct blob is
read and judged once as a manifest (`readings`, by blob id) and once as an entry.json (`entry_readings`): the same
bytes may be both, and each reading is its own; each manifest row's bytes are read and form-checked
once (forms.read_manifest's row cache); each row's pinned entry is resolved once per (the entry
directory's tree id, the row), and a publisher's rows once per (the publisher directory's tree id,
those rows). Git ids are hashes of content, so a rewritten history meets other ids and nothing stale.
A failure whose words name the release (a gitlink where a directory should be) is never kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import cast

from ..canon import digest
from ..codes.history import ARTIFACT_HISTORY_INVALID
from ..refusal import Refusal
from ..tree import _GITLINK, _TREE_MODE, _TYPE_MASK, ObjectStore, ReleaseTree, TooLarge, TreeError
from .forms import (
    ENTRY_MAX_BYTES,
    MANIFEST_MAX_BYTES,
    HistoricalEntry,
    HistoricalFormError,
    Row,
    Run,
    Seen,
    SegmentCache,
    entry_of,
    read_entry,
    read_manifest_runs,
)
from .model import Facts, HistoricalRow, Pair, Release

MANIFEST = "manifest.json"
ENTRIES = "entries"
ENTRY = "entry.json"
_REGULAR = 0o100000
_ABSENT = (0, "")
_MISSING = "the pinned entry.json is missing"
_PUBLISHER = attrgetter("publisher")


class Pinned:
    """A row of a previous release with what its pinned entry gave: the entry's pair and canonical
    digest when held, or why it is refused (`failure`). One object serves every release whose row and
    entry directory are the same content."""

    __slots__ = ("row", "pair", "dialect_digest", "failure")

    def __init__(self, row: Row, held: HistoricalEntry | None, failure: str | None) -> None:
        self.row = row
        self.pair, self.dialect_digest = (held.pair, held.dialect_digest) if held is not None else (None, None)
        self.failure = failure


@dataclass
class History:
    """What the walk read: each release's rows in order with their pinned entries, the refusals met,
    and whether every manifest was read. `rows` lists them release by release; `facts` holds each
    distinct fact once with the releases that published it (what upgrade and identity check)."""

    releases: list[tuple[str, list[Pinned]]] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    manifests_read: bool = True
    parts: list[list[list[Pinned]]] = field(default_factory=list, repr=False, compare=False)
    """Each release's rows as the walk resolved them, a run at a time (`releases` joins them): a run
    resolved once is one list, whichever releases hold it, so `facts` reads it once (issue #20)."""

    @property
    def rows(self) -> list[HistoricalRow]:
        return [HistoricalRow(tag, p.row.id, p.row.entry_digest, p.pair, p.dialect_digest)
                for tag, pinned in self.releases for p in pinned]

    @property
    def facts(self) -> Facts:
        """The releases' facts, gathered in walk order (the order `Facts.of(self.rows)` gives), without
        a step per row and release (issue #20): consecutive releases share most of their runs (`parts`),
        so each pinned row's releases are found as spans, opened where a run holding it first comes and
        closed where the runs that held it go (sets of the changed runs' rows, in C). A release holds an
        id once and its ids increase, so walk order is (release, id): each fact is gathered in that
        order, and its releases are its spans' tags, in order."""
        if len(self.parts) != len(self.releases):
            return self._facts_by_rows()
        tags = [tag for tag, _ in self.releases]
        spans: dict[Pinned, list[int]] = {}  # each pinned row (by identity): start, end, start, end, ...
        before: list[list[Pinned]] = []
        for index, groups in enumerate(self.parts):
            now, then = {id(g) for g in groups}, {id(g) for g in before}
            gone = set().union(*[g for g in before if id(g) not in now])
            came = set().union(*[g for g in groups if id(g) not in then])
            for p in gone - came:
                spans[p].append(index)
            for p in came - gone:
                found = spans.get(p)
                if found is None:
                    spans[p] = [index]
                else:
                    found.append(index)
            before = groups
        for span in spans.values():
            if len(span) % 2:
                span.append(len(tags))
        held_in: dict[tuple[str, str], list[tuple[int, int]]] = {}  # each fact's spans of releases
        places: dict[Pair, dict[str, list[tuple[int, str]]]] = {}
        for p in sorted(spans, key=lambda p: (spans[p][0], p.row.id)):
            row, span = p.row, spans[p]
            held_in.setdefault((row.id, row.entry_digest), []).extend(zip(span[::2], span[1::2], strict=False))
            if p.pair is not None and p.dialect_digest is not None:
                places.setdefault(p.pair, {}).setdefault(p.dialect_digest, []).extend(
                    (index, row.id)
                    for start, end in zip(span[::2], span[1::2], strict=False)
                    for index in range(start, end)
                )
        entries: dict[tuple[str, str], list[str]] = {}
        for key, held in held_in.items():
            if len(held) > 1:
                held.sort()
            entries[key] = [tag for start, end in held for tag in tags[start:end]] if len(held) > 1 \
                else tags[held[0][0]:held[0][1]]
        pairs = {pair: {dialect: [(entry_id, tags[index]) for index, entry_id in sorted(where)]
                        for dialect, where in digests.items()} for pair, digests in places.items()}
        return Facts(entries, pairs)

    def _facts_by_rows(self) -> Facts:
        """The facts gathered a row at a time (a History made without `parts`)."""
        entries: dict[tuple[str, str], list[str]] = {}
        pairs: dict[Pair, dict[str, list[tuple[str, str]]]] = {}
        for tag, pinned in self.releases:
            for p in pinned:
                row = p.row
                key = (row.id, row.entry_digest)
                tags = entries.get(key)
                if tags is None:
                    entries[key] = [tag]
                else:
                    tags.append(tag)
                if p.pair is not None and p.dialect_digest is not None:
                    pairs.setdefault(p.pair, {}).setdefault(p.dialect_digest, []).append((row.id, tag))
        return Facts(entries, pairs)


@dataclass(frozen=True)
class _Reading:
    """One blob judged once: its digest over stored bytes and its value, or why it could not be read
    (`error`: the exception a reader that must not swallow it re-raises)."""

    digest: str | None
    value: object = None
    failure: str | None = None
    error: Exception | None = None


class Walk:
    """One walk over a shared store; every blob judged at most once as what it is read for (a manifest, an
    entry.json), whichever release names it."""

    def __init__(self, store: ObjectStore, entries_read: dict[str, object] | None = None) -> None:
        self.store = store
        self.entries_read = entries_read or {}
        """entry.json values already read strictly by their digests (the checked tree's, which the latest
        releases pin unchanged): a pinned entry with one of those digests is not parsed again (issue #20)."""
        self.readings: dict[str, _Reading] = {}  # manifest blobs
        self.entry_readings: dict[str, _Reading] = {}  # entry.json blobs (a blob may be both: `[]`)
        self.rows_seen: Seen = {}
        self.segments: SegmentCache = {}  # runs of rows read before (forms._by_segments)
        self.pinned_by: dict[tuple[tuple[int, str], Row], Pinned] = {}
        self.runs: dict[tuple[Row, ...], Run] = {}  # runs of rows not read by segments, each once
        self.groups: dict[tuple[tuple[int, str], Run], tuple[list[Pinned], list[Pinned]]] = {}

    def _judge(self, blob: str, path: str, limit: int, reader: Callable[[bytes], object]) -> _Reading:
        try:
            data = self.store.blob(blob, limit, path)
        except TooLarge as exc:
            return _Reading(None, failure=f"{exc.size} bytes, over the bound of {exc.limit}", error=exc)
        except TreeError as exc:
            return _Reading(None, failure=str(exc), error=exc)
        stored = digest(data)
        try:
            if reader is read_entry and stored in self.entries_read:
                return _Reading(stored, entry_of(self.entries_read[stored]))  # the same bytes, read strictly
            return _Reading(stored, reader(data))
        except HistoricalFormError as exc:
            return _Reading(stored, failure=str(exc))

    def _blob(self, blob: str, path: str, limit: int, reader: Callable[[bytes], object]) -> _Reading:
        readings = self.entry_readings if reader is read_entry else self.readings
        found = readings.get(blob)
        if found is None:
            found = readings[blob] = self._judge(blob, path, limit, reader)
        return found

    def _read_manifest(self, data: bytes) -> list[Run]:
        return read_manifest_runs(data, self.rows_seen, self.segments, self.runs)

    def manifest(self, blob: str) -> _Reading:
        """The manifest blob `blob` read and judged once (the ledger's manifestDigest check shares it)."""
        return self._blob(blob, MANIFEST, MANIFEST_MAX_BYTES, self._read_manifest)

    def manifest_digest(self, blob: str) -> str:
        """sha256 over the manifest blob's bytes, for mainline's row check; raises what reading it raised."""
        reading = self.manifest(blob)
        if reading.error is not None:
            raise reading.error
        return cast(str, reading.digest)  # a blob's reading has its digest unless it has an error (`_judge`)

    def release(self, release: Release, history: History) -> None:
        """Read one release's manifest and pinned entries into `history`."""
        where = f"{release.tag} ({release.commit[:12]})"
        try:
            tree = ReleaseTree(self.store, release.commit, release.tag)
            blob = tree.blob_id(MANIFEST)
            manifest = None if blob is None else self.manifest(blob)
        except TreeError as exc:
            manifest = _Reading(None, failure=f"the release's tree cannot be read: {exc}")
        if manifest is None or manifest.failure is not None:
            history.manifests_read = False
            detail = "no manifest.json file" if manifest is None else f"manifest.json: {manifest.failure}"
            history.refusals.append(Refusal(ARTIFACT_HISTORY_INVALID, MANIFEST, f"{where}: {detail}"))
            return
        groups: list[list[Pinned]] = []
        pinned: list[Pinned] = []
        runs = cast("list[Run]", manifest.value)  # a manifest blob's reading is `_read_manifest`'s runs
        for group, failing in self._rows(tree, runs):
            groups.append(group)
            pinned += group
            history.refusals += [Refusal(ARTIFACT_HISTORY_INVALID, f"{p.row.path}/{ENTRY}", f"{where}: {p.failure}",
                                         p.row.id) for p in failing]
        history.releases.append((release.tag, pinned))
        history.parts.append(groups)

    def _rows(self, tree: ReleaseTree, runs: list[Run]) -> list[tuple[list[Pinned], list[Pinned]]]:
        """Each row's pinned entry, a run of a publisher's rows at a time, with the rows refused: a
        publisher directory met before with the same run gives the same entries (its tree id fixes
        everything below it), one lookup for the run (issue #20)."""
        out = []
        entries = self._child(tree, (_TREE_MODE, tree.root), ENTRIES)
        for run in runs:
            directory = None if entries is None else self._child(tree, entries, run.publisher)
            if directory is None:
                group = [self._generic(tree, row) for row in run.rows]
                out.append((group, [p for p in group if p.failure is not None]))
                continue
            key = (directory, run)
            found = self.groups.get(key)
            if found is None:
                group, keep = self._group(tree, directory, run)
                found = (group, [p for p in group if p.failure is not None])
                if keep:
                    self.groups[key] = found
            out.append(found)
        return out

    def _child(self, tree: ReleaseTree, entry: tuple[int, str], name: str) -> tuple[int, str] | None:
        """The entry `name` in the directory `entry` (_ABSENT when none, or when `entry` is no directory),
        or None when only the per-row reading can say (a gitlink, an unreadable tree)."""
        if entry[0] == _GITLINK:
            return None
        if entry is _ABSENT or entry[0] & _TYPE_MASK != _TREE_MODE:
            return _ABSENT
        try:
            return self.store.tree(entry[1], name).get(name, _ABSENT)
        except TreeError:
            return None

    def _group(self, tree: ReleaseTree, directory: tuple[int, str], run: Run) -> tuple[list[Pinned], bool]:
        """One publisher directory's rows, and whether the result may be kept for that directory's id.
        Each row's entry directory and its (entry directory, row) result are looked up for the whole run
        at once, in C; only the rows not met before are resolved one by one (issue #20)."""
        rows = run.rows
        if directory[0] == _GITLINK:
            return [self._generic(tree, row) for row in rows], False
        if directory is _ABSENT or directory[0] & _TYPE_MASK != _TREE_MODE:
            return [Pinned(row, None, _MISSING) for row in rows], True
        try:
            names = self.store.tree(directory[1], rows[0].path)
        except TreeError:
            return [self._generic(tree, row) for row in rows], False
        keys = list(zip([names.get(name, _ABSENT) for name in run.names], rows, strict=False))
        out = list(map(self.pinned_by.get, keys))
        keep = True
        if None in out:
            for at, found in enumerate(out):
                if found is not None:
                    continue
                entry, row = key = keys[at]
                found = self._entry(tree, entry, row)
                if found is None:
                    found, keep = self._generic(tree, row), False
                else:
                    self.pinned_by[key] = found
                out[at] = found
        return cast("list[Pinned]", out), keep  # each None replaced above

    def _entry(self, tree: ReleaseTree, entry: tuple[int, str], row: Row) -> Pinned | None:
        """A row's pinned entry below its entry directory `entry`, or None for the per-row reading."""
        file = self._child(tree, entry, ENTRY)
        if file is None or file[0] == _GITLINK:
            return None
        if file is _ABSENT or file[0] & _TYPE_MASK != _REGULAR:
            return Pinned(row, None, _MISSING)
        return self._held(row, self._blob(file[1], f"{row.path}/{ENTRY}", ENTRY_MAX_BYTES, read_entry))

    def _generic(self, tree: ReleaseTree, row: Row) -> Pinned:
        """The per-row reading of a row's pinned entry, path resolved in this release's tree (its
        failures may name the release, so its result is never kept for another)."""
        path = f"{row.path}/{ENTRY}"
        try:
            blob = tree.blob_id(path)
            entry = None if blob is None else self._blob(blob, path, ENTRY_MAX_BYTES, read_entry)
        except TreeError as exc:
            entry = _Reading(None, failure=str(exc))
        if entry is None:
            return Pinned(row, None, _MISSING)
        return self._held(row, entry)

    @staticmethod
    def _held(row: Row, entry: _Reading) -> Pinned:
        """The entry a row pins, held to its entryDigest and own form, or why it is refused."""
        if entry.digest is None:
            return Pinned(row, None, f"the pinned entry.json cannot be read: {entry.failure}")
        if entry.digest != row.entry_digest:
            return Pinned(row, None, f"the pinned entry.json's digest {entry.digest} differs from the row's "
                                     f"entryDigest {row.entry_digest}")
        if entry.failure is not None:
            return Pinned(row, None, f"the pinned entry.json is malformed: {entry.failure}")
        return Pinned(row, cast(HistoricalEntry, entry.value), None)  # an entry.json blob's reading: `read_entry`'s

    def read(self, releases: list[Release]) -> History:
        """Read every previous release's manifest and every entry its rows pin, at that release's commit."""
        try:
            self._prefetch(releases)
            history = History()
            for release in releases:
                self.release(release, history)
            return history
        finally:
            self.store.settle()  # what was read ahead and not read leaves nothing owed on the process

    def _prefetch(self, releases: list[Release]) -> None:
        """Ask the store for what the walk will read, a level of the trees at a time (root trees, then
        manifests ahead, entries/, publisher directories, entry directories, entry.json): a batch per
        round trip instead of one per object. A speed-up only: each object is still read, bounded and
        judged where it is used, and what this could not read is met there."""
        store = self.store
        roots = []
        for release in releases:
            try:
                roots.append(store.root_tree(release.commit))
            except TreeError:
                continue
        store.prefetch(roots)
        manifests = _children(store, roots, MANIFEST, _REGULAR)
        store.expect([blob for blob in manifests if blob not in self.readings], MANIFEST_MAX_BYTES)
        entries = _children(store, roots, ENTRIES, _TREE_MODE)
        store.prefetch(entries)  # each release's entries/ tree, a batch for all (issue #20: read one by one before)
        publishers = _children(store, entries, None, _TREE_MODE)
        store.prefetch(publishers)
        directories = _children(store, publishers, None, _TREE_MODE)
        store.prefetch(directories)
        store.prefetch(_children(store, directories, ENTRY, _REGULAR), ENTRY_MAX_BYTES)


_PREFETCH_WIDTH = 1024  # a directory holding more subdirectories than a manifest has rows is not read ahead


def _children(store: ObjectStore, trees: list[str], name: str | None, kind: int) -> list[str]:
    """The ids of the entries named `name` (every entry, when None) of kind `kind` in the trees `trees`
    (each read now, unless it cannot be: then it is skipped), distinct, in order (read-ahead only)."""
    found: dict[str, None] = {}
    for tree in dict.fromkeys(trees):
        try:
            entries = store.tree(tree, "")
        except TreeError:
            continue
        if name is not None:
            entry = entries.get(name)
            if entry is not None and entry[0] & _TYPE_MASK == kind:
                found[entry[1]] = None
        elif len(entries) <= _PREFETCH_WIDTH:
            found.update((entry[1], None) for entry in entries.values() if entry[0] & _TYPE_MASK == kind)
    return list(found)


def read_history(store: ObjectStore, releases: list[Release], walk: Walk | None = None) -> History:
    """Read every previous release's manifest and every entry its rows pin, at that release's commit
    (`walk`: one already used, e.g. by the ledger's manifestDigest check, so nothing is read twice)."""
    return (walk or Walk(store)).read(releases)
