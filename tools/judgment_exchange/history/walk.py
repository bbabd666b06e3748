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
from ..tree import ObjectStore, ReleaseTree

MANIFEST = "manifest.json"


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

    def reading(self, tree: ReleaseTree, path: str, limit: int, reader) -> _Reading | None:
        blob = tree.blob_id(path)
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
            manifest = self.reading(tree, MANIFEST, MANIFEST_MAX_BYTES, read_manifest)
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
