"""The history walk: each previous release's manifest and pinned entries, as blobs (RFC 0019 §§3, 7).

Everything is judged by content, once across all releases (issue #12 item 4): each distinct blob is
read and judged once (`readings`, by blob id); each manifest row's bytes are read and form-checked
once (forms.read_manifest's row cache); each row's pinned entry is resolved once per (the entry
directory's tree id, the row), and a publisher's rows once per (the publisher directory's tree id,
those rows). Git ids are hashes of content, so a rewritten history meets other ids and nothing stale.
A failure whose words name the release (a gitlink where a directory should be) is never kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import groupby
from operator import attrgetter

from ..canon import digest
from ..refusal import Refusal
from ..tree import _GITLINK, _TREE_MODE, _TYPE_MASK, ObjectStore, ReleaseTree, TooLarge, TreeError
from .codes import ARTIFACT_HISTORY_INVALID
from .forms import (
    ENTRY_MAX_BYTES,
    MANIFEST_MAX_BYTES,
    HistoricalEntry,
    HistoricalFormError,
    Row,
    read_entry,
    read_manifest,
)
from .model import Facts, HistoricalRow, Release

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

    @property
    def rows(self) -> list[HistoricalRow]:
        return [HistoricalRow(tag, p.row.id, p.row.entry_digest, p.pair, p.dialect_digest)
                for tag, pinned in self.releases for p in pinned]

    @property
    def facts(self) -> Facts:
        """The releases' facts, gathered in walk order (the order `Facts.of(self.rows)` gives)."""
        entries: dict[tuple[str, str], list[str]] = {}
        pairs: dict = {}
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
    """One walk over a shared store; every blob judged at most once, whichever release names it."""

    def __init__(self, store: ObjectStore) -> None:
        self.store = store
        self.readings: dict[str, _Reading] = {}
        self.rows_seen: dict[bytes, tuple[Row, bool]] = {}
        self.segments: dict = {}  # runs of rows read before (forms._by_segments)
        self.pinned_by: dict[tuple[tuple[int, str], Row], Pinned] = {}
        self.groups: dict[tuple[tuple[int, str], tuple[Row, ...]], list[Pinned]] = {}

    def _judge(self, blob: str, path: str, limit: int, reader: Callable) -> _Reading:
        try:
            data = self.store.blob(blob, limit, path)
        except TooLarge as exc:
            return _Reading(None, failure=f"{exc.size} bytes, over the bound of {exc.limit}", error=exc)
        except TreeError as exc:
            return _Reading(None, failure=str(exc), error=exc)
        try:
            return _Reading(digest(data), reader(data))
        except HistoricalFormError as exc:
            return _Reading(digest(data), failure=str(exc))

    def _blob(self, blob: str, path: str, limit: int, reader: Callable) -> _Reading:
        found = self.readings.get(blob)
        if found is None:
            found = self.readings[blob] = self._judge(blob, path, limit, reader)
        return found

    def _read_manifest(self, data: bytes):
        return read_manifest(data, self.rows_seen, self.segments)

    def manifest(self, blob: str) -> _Reading:
        """The manifest blob `blob` read and judged once (the ledger's manifestDigest check shares it)."""
        return self._blob(blob, MANIFEST, MANIFEST_MAX_BYTES, self._read_manifest)

    def manifest_digest(self, blob: str) -> str:
        """sha256 over the manifest blob's bytes, for mainline's row check; raises what reading it raised."""
        reading = self.manifest(blob)
        if reading.error is not None:
            raise reading.error
        return reading.digest

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
        pinned = self._rows(tree, manifest.value)
        history.releases.append((release.tag, pinned))
        history.refusals += [Refusal(ARTIFACT_HISTORY_INVALID, f"{p.row.path}/{ENTRY}", f"{where}: {p.failure}",
                                     p.row.id) for p in pinned if p.failure is not None]

    def _rows(self, tree: ReleaseTree, rows: list[Row]) -> list[Pinned]:
        """Each row's pinned entry, a publisher's rows at a time: a publisher directory met before with
        the same rows gives the same entries (its tree id fixes everything below it)."""
        out: list[Pinned] = []
        entries = self._child(tree, (_TREE_MODE, tree.root), ENTRIES)
        for publisher, group in groupby(rows, _PUBLISHER):
            group = tuple(group)
            directory = None if entries is None else self._child(tree, entries, publisher)
            if directory is None:
                out += [self._generic(tree, row) for row in group]
                continue
            key = (directory, group)
            found = self.groups.get(key)
            if found is None:
                found, keep = self._group(tree, directory, group)
                if keep:
                    self.groups[key] = found
            out += found
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

    def _group(self, tree: ReleaseTree, directory: tuple[int, str],
               rows: tuple[Row, ...]) -> tuple[list[Pinned], bool]:
        """One publisher directory's rows, and whether the result may be kept for that directory's id."""
        if directory[0] == _GITLINK:
            return [self._generic(tree, row) for row in rows], False
        if directory is _ABSENT or directory[0] & _TYPE_MASK != _TREE_MODE:
            return [Pinned(row, None, _MISSING) for row in rows], True
        try:
            names = self.store.tree(directory[1], rows[0].path)
        except TreeError:
            return [self._generic(tree, row) for row in rows], False
        out, keep = [], True
        for row in rows:
            entry = names.get(row.name, _ABSENT)
            key = (entry, row)
            found = self.pinned_by.get(key)
            if found is None:
                found = self._entry(tree, entry, row)
                if found is None:
                    found, keep = self._generic(tree, row), False
                else:
                    self.pinned_by[key] = found
            out.append(found)
        return out, keep

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
        return Pinned(row, entry.value, None)

    def read(self, releases: list[Release]) -> History:
        """Read every previous release's manifest and every entry its rows pin, at that release's commit."""
        self._prefetch(releases)
        history = History()
        for release in releases:
            self.release(release, history)
        return history

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
        publishers = _children(store, _children(store, roots, ENTRIES, _TREE_MODE), None, _TREE_MODE)
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
