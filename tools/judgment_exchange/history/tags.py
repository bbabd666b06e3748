"""Releases: tags in §3's grammar resolved to commits, in tag order (RFC 0019 §§3, 7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..catalog.grammar import release_key as release_key  # re-exported: history, check and mainline import it from here
from ..gitfail import reason
from ..tree import ObjectStore, TreeError
from .model import Release

if TYPE_CHECKING:
    from git import Repo


class TagListingError(Exception):
    """The repository's tags could not be listed, or a tag in the grammar could not be read."""


@dataclass
class Tags:
    """The repository's releases in tag order, and its tags in the grammar that name no commit."""

    releases: list[Release] = field(default_factory=list)
    not_commits: dict[str, str] = field(default_factory=dict)

    @property
    def notes(self) -> list[str]:
        return [
            f"tag {tag} resolves to a {kind}, not a commit: it is not a release"
            for tag, kind in self.not_commits.items()
        ]


def list_releases(repo: Repo, store: ObjectStore) -> Tags:
    """Every release of the repository in tag order, and the tags in the grammar that are not releases.

    An annotated tag is peeled to the object it finally names; a tag naming a tree or a blob is not a
    release and is noted. A tag list that cannot be read, or a tag in the grammar whose reference or
    objects cannot be read, raises TagListingError.
    """
    try:
        refs = list(repo.tags)
    except Exception as exc:  # GitPython raises ValueError, TypeError or OSError on damaged refs
        raise TagListingError(f"the tag list cannot be read ({reason(exc)})") from exc
    tags = Tags()
    named_by: dict[str, str | Exception] = {}  # each tag in the grammar: the object it names, or why not
    packed = _Packed(repo)
    for ref in refs:
        if release_key(ref.name) is not None:
            try:
                named_by[ref.name] = packed.named(ref.path)
            except (ValueError, OSError) as exc:
                named_by[ref.name] = exc
    named_ids = [named for named in named_by.values() if isinstance(named, str)]
    store.prefetch(named_ids)  # the tag objects and commits, a round trip for all (tree.ObjectStore)
    store.prefetch(store.tag_targets(named_ids))
    for ref in refs:
        name = ref.name
        version = release_key(name)
        if version is None:
            continue
        try:
            named = named_by[name]
            if isinstance(named, Exception):
                raise named
            kind, target = store.peel(named)
        except (TreeError, ValueError, OSError) as exc:
            raise TagListingError(f"tag {name} cannot be read ({exc})") from exc
        if kind == "commit":
            tags.releases.append(Release(name, version, target))
        else:
            tags.not_commits[name] = kind
    tags.releases.sort(key=lambda r: r.version)
    return tags


class _Packed:
    """What GitPython's `SymbolicReference.dereference_recursive` gives for a reference, with the
    packed-refs file read once for all of them (issue #20: GitPython reads it again for each packed
    tag). A reference with a loose file, one packed-refs does not name with a hex id, or any failure
    to read packed-refs here, is left to GitPython itself; the reference's path is validated by
    GitPython first in every case, as its own reading does."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self.ids: dict[str, str] | None = None

    def named(self, path: str) -> str:
        import os

        from git.refs.symbolic import SymbolicReference

        if not os.path.lexists(SymbolicReference._get_validated_ref_path(self.repo, path)):
            found = self._ids().get(path)
            if found is not None and self.repo.re_hexsha_only.match(found):
                return found
        return SymbolicReference.dereference_recursive(self.repo, path)

    def _ids(self) -> dict[str, str]:
        """Each packed reference's first line's id, by path ({} when packed-refs cannot be read here)."""
        if self.ids is None:
            from git.refs.symbolic import SymbolicReference

            ids: dict[str, str] = {}
            try:
                for sha, path in SymbolicReference._iter_packed_refs(self.repo):
                    ids.setdefault(path, sha)
            except Exception:  # noqa: BLE001 - GitPython's own reading, below, meets and raises it
                ids = {}
            self.ids = ids
        return self.ids


def previous_releases(releases: list[Release], release_tag: str | None) -> list[Release]:
    """The releases lower than the release being made; every release for a pull request or a push (O11)."""
    if release_tag is None:
        return list(releases)
    made = release_key(release_tag)
    return [r for r in releases if made is not None and r.version < made]
