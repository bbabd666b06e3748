"""A release as a desk browses it (RFC 0019 §§2, 7): the tags a location offers, and one release checked
by the consumer's own check before anything of it is shown (issue #18 item 1).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..catalog import documents as docs
from ..catalog.grammar import release_key
from ..consumer.check import LocationError, ReleaseCheck, check_open, open_location, unreadable
from ..consumer.lock import Lock
from ..tree import GitTree, TooLarge, TreeError

if TYPE_CHECKING:
    from ..tree import ObjectStore


@dataclass
class Checked:
    """One release after the consumer's check: the check, and when it passed the tree of its commit and
    the manifest's rows by id (the digests every entry shown is held to)."""

    check: ReleaseCheck
    tree: GitTree | None = None
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.tree is not None


@contextmanager
def checked_release(location: str, tag: str, *, history: int | None, lock: Lock | None = None) -> Iterator[Checked]:
    """The release `tag` of `location`, checked as `exchange release-check` checks it (§7) before anything
    is read for showing; LocationError when the location or an object cannot be read."""
    from ..catalog.manifest import read_manifest

    with tempfile.TemporaryDirectory(prefix="exchange-show-") as workdir:
        repo = open_location(location, workdir)
        try:
            result = check_open(repo, location, tag, entries=None, history=history, expect_commit=None, lock=lock,
                                approved=frozenset())
            out = Checked(result)
            if result.report.passed and result.commit is not None:
                try:
                    out.tree = GitTree(repo, result.commit)
                    out.rows = read_manifest(out.tree).rows
                except TreeError as exc:
                    raise LocationError(f"{tag} at {result.commit}: {unreadable(exc)}") from exc
            yield out
        finally:
            repo.close()


@dataclass(frozen=True)
class Offered:
    """A release tag the location offers, with what main's ledger says of it (not yet checked)."""

    tag: str
    commit: str
    date: str | None = None
    entries: int | None = None
    recorded: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"tag": self.tag, "commit": self.commit, "date": self.date, "entries": self.entries,
                "inLedger": self.recorded, "checked": False}


def offered(location: str) -> tuple[list[Offered], str | None]:
    """The release tags of `location`, newest first, each with its date and entry count from the ledger of
    the location's main (mainline.find_main) where there is one; and the name of that branch (None when the
    location has no main or no ledger). Nothing here is checked: `exchange show LOCATION TAG` checks one."""
    from ..history.ledger import LEDGER, LEDGER_MAX_BYTES, LedgerFormError, read_ledger
    from ..history.mainline import find_main
    from ..history.tags import TagListingError, list_releases
    from ..tree import ObjectStore, ReleaseTree

    with tempfile.TemporaryDirectory(prefix="exchange-show-") as workdir:
        repo = open_location(location, workdir)
        try:
            store = ObjectStore(repo)
            try:
                tags = list_releases(repo, store)
            except TagListingError as exc:
                raise LocationError(f"{location}: {exc}") from exc
            tip, ref = find_main(repo, store)
            rows, branch = {}, None
            if tip is not None:
                try:
                    blob = ReleaseTree(store, tip, ref).blob_id(LEDGER)
                    if blob is not None:
                        rows = {r.tag: r for r in read_ledger(store.blob(blob, LEDGER_MAX_BYTES, LEDGER))}
                        branch = ref.removeprefix("refs/heads/").removeprefix("refs/remotes/")
                except (TreeError, TooLarge, LedgerFormError):
                    rows = {}
            out = []
            for release in tags.releases:
                row = rows.get(release.tag)
                out.append(Offered(release.tag, release.commit, row.date if row else None,
                                   _count(store, release.commit), row is not None))
        finally:
            repo.close()
    out.sort(key=lambda r: cast("tuple[int, int, int]", release_key(r.tag)), reverse=True)  # list_releases' tags
    return out, branch


def _count(store: ObjectStore, commit: str) -> int | None:
    """How many rows the manifest at `commit` holds (None when it cannot be read as an array)."""
    import json

    from ..tree import ReleaseTree

    try:
        blob = ReleaseTree(store, commit, commit[:12]).blob_id("manifest.json")
        if blob is None:
            return None
        rows = json.loads(store.blob(blob, docs.MANIFEST_BOUND, "manifest.json"))
    except (TreeError, TooLarge, ValueError, RecursionError):
        return None
    return len(rows) if isinstance(rows, list) else None
