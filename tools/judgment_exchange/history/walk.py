"""The history walk: each previous release's manifest and pinned entries, as blobs (RFC 0019 §§3, 7).

Each distinct blob is read and judged once across all releases: entries that did not change between
releases share a blob id, and so share one reading.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..canon import digest
from ..refusal import Refusal
from ..tree import TooLarge, TreeError
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
from .model import HistoricalRow, Release
from ..tree import _GITLINK, _TREE_MODE, _TYPE_MASK, ObjectStore, ReleaseTree

MANIFEST = "manifest.json"
_REGULAR = 0o100000
_ABSENT = (0, "")


@dataclass
class History:
    """The rows of every previous release read, the refusals met, and whether every manifest was read."""

    rows: list[HistoricalRow] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    manifests_read: bool = True


@dataclass(frozen=True)
class _Reading:
    """One blob judged once: its digest over stored bytes and its value, or why it could not be read."""

    digest: str | None
    value: object = None
    failure: str | None = None


class _Walk:
    """One walk over a shared store; every blob judged at most once, whichever release names it."""

    def __init__(self, store: ObjectStore) -> None:
        self.store = store
        self.readings: dict[str, _Reading] = {}
        self.rows_seen: dict[bytes, tuple[Row, bool]] = {}
        self.resolved: dict[tuple[str, str], tuple[int, str]] = {}

    def blob_id(self, tree: ReleaseTree, path: str) -> str | None:
        """`tree.blob_id(path)`, with each (tree id, rest of the path) resolved once across releases:
        a directory unchanged between releases has one tree id, so its rows' paths resolve once."""
        if not path or "//" in path or path.startswith("/") or path.endswith("/"):
            return tree.blob_id(path)
        entry = self._entry(tree, path)
        if entry[0] == _GITLINK:
            raise TreeError(f"{path}: a submodule (gitlink) where a file should be, at {tree.label}")
        if entry is _ABSENT or entry[0] & _TYPE_MASK != _REGULAR:
            return None
        return entry[1]

    def _entry(self, tree: ReleaseTree, path: str) -> tuple[int, str]:
        """What ReleaseTree._entry finds at `path` (_ABSENT for nothing): the path's directory two levels
        up is resolved once per release, the last two names once per (that directory's tree id)."""
        head, _, name = path.rpartition("/")
        head, _, parent = head.rpartition("/")
        if not head:
            return self._resolve(tree, (_TREE_MODE, tree.root), path, path)
        entry = self._resolve(tree, (_TREE_MODE, tree.root), head, path)
        if entry is _ABSENT:
            return _ABSENT
        return self._resolve(tree, entry, f"{parent}/{name}", path)

    def _resolve(self, tree: ReleaseTree, entry: tuple[int, str], rest: str, path: str) -> tuple[int, str]:
        """The entry `rest` names below `entry`, remembered by (tree id, rest); `path` names it in errors."""
        visited = []
        while rest:
            key = (entry[1], rest)
            found = self.resolved.get(key)
            if found is not None:
                entry = found
                break
            visited.append(key)
            if entry[0] == _GITLINK:
                raise TreeError(f"{path}: a submodule (gitlink) where a directory should be, at {tree.label}")
            if entry[0] & _TYPE_MASK != _TREE_MODE:
                entry = _ABSENT
                break
            part, _, rest = rest.partition("/")
            entry = self.store.tree(entry[1], path).get(part, _ABSENT)
            if entry is _ABSENT:
                break
        for key in visited:
            self.resolved[key] = entry
        return entry

    def reading(self, tree: ReleaseTree, path: str, limit: int, reader) -> _Reading | None:
        blob = self.blob_id(tree, path)
        if blob is None:
            return None
        if blob not in self.readings:
            self.readings[blob] = self._judge(blob, path, limit, reader)
        return self.readings[blob]

    def _judge(self, blob: str, path: str, limit: int, reader) -> _Reading:
        try:
            data = self.store.blob(blob, limit, path)
        except TooLarge as exc:
            return _Reading(None, failure=f"{exc.size} bytes, over the bound of {exc.limit}")
        except TreeError as exc:
            return _Reading(None, failure=str(exc))
        try:
            return _Reading(digest(data), reader(data))
        except HistoricalFormError as exc:
            return _Reading(digest(data), failure=str(exc))

    def release(self, release: Release, history: History) -> None:
        """Read one release's manifest and pinned entries into `history`."""
        where = f"{release.tag} ({release.commit[:12]})"
        try:
            tree = ReleaseTree(self.store, release.commit, release.tag)
            manifest = self.reading(tree, MANIFEST, MANIFEST_MAX_BYTES,
                                    lambda data: read_manifest(data, self.rows_seen))
        except TreeError as exc:
            manifest = _Reading(None, failure=f"the release's tree cannot be read: {exc}")
        if manifest is None or manifest.failure is not None:
            history.manifests_read = False
            detail = "no manifest.json file" if manifest is None else f"manifest.json: {manifest.failure}"
            history.refusals.append(Refusal(ARTIFACT_HISTORY_INVALID, MANIFEST, f"{where}: {detail}"))
            return
        for row in manifest.value:
            held, failure = self.pinned(tree, row)
            pair, dialect_digest = (held.pair, held.dialect_digest) if held is not None else (None, None)
            history.rows.append(HistoricalRow(release.tag, row.id, row.entry_digest, pair, dialect_digest))
            if failure is not None:
                path = f"{row.path}/entry.json"
                history.refusals.append(Refusal(ARTIFACT_HISTORY_INVALID, path, f"{where}: {failure}", row.id))

    def pinned(self, tree: ReleaseTree, row: Row) -> tuple[HistoricalEntry | None, str | None]:
        """The entry a row pins, held to its entryDigest and own form, or why it is refused."""
        try:
            entry = self.reading(tree, f"{row.path}/entry.json", ENTRY_MAX_BYTES, read_entry)
        except TreeError as exc:
            entry = _Reading(None, failure=str(exc))
        if entry is None:
            return None, "the pinned entry.json is missing"
        if entry.digest is None:
            return None, f"the pinned entry.json cannot be read: {entry.failure}"
        if entry.digest != row.entry_digest:
            return None, (
                f"the pinned entry.json's digest {entry.digest} differs from the row's entryDigest {row.entry_digest}"
            )
        if entry.failure is not None:
            return None, f"the pinned entry.json is malformed: {entry.failure}"
        return entry.value, None


def read_history(store: ObjectStore, releases: list[Release]) -> History:
    """Read every previous release's manifest and every entry its rows pin, at that release's commit."""
    walk = _Walk(store)
    history = History()
    for release in releases:
        walk.release(release, history)
    return history
