"""Item 3's rule on a repository's objects: a release's tag object and the set that governs it (issue #36).

Read through the `ObjectStore` every history read uses (one `git cat-file --batch`), never a checkout: the tag
object a release's reference names (None for a lightweight tag) and the `release-signers` blob of a commit.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..codes.signing import RELEASE_SIGNATURE_INVALID
from ..refusal import Refusal
from ..tree import ReleaseTree, TooLarge, TreeError
from .chain import verify_release_tag
from .signers import Signer, Signers, signers_at

if TYPE_CHECKING:
    from ..tree import ObjectStore

MANIFEST_BOUND = 1 << 20


def tag_object(store: "ObjectStore", ref_object: str) -> bytes | None:
    """The bytes of the tag object a release's reference names; None when it names a commit (a lightweight tag)."""
    kind, data = store.object_type(ref_object)
    return data if kind == "tag" else None


def signers_of(store: "ObjectStore", commit: str) -> Signers | Refusal | None:
    """The release-signers file at `commit`: its set, its refusal, or None when the commit has none."""
    return signers_at(ReleaseTree(store, commit, f"release-signers@{commit[:12]}"))


@dataclass(frozen=True)
class Governing:
    """The set that governs a release, and where it was read: `previous` (the release before it) or `own`."""

    signers: Signers
    source: str


def governing_set(store: "ObjectStore", commit: str, previous: str | None) -> Governing | Refusal | None:
    """The set that governs the release at `commit` (item 3 (d)): the release-signers at the release before it
    (`previous`, its tagged commit) when that has one, else the file at the release's own commit; None when neither
    has one (an unsigned catalog); a refusal when the file read is out of form."""
    if previous is not None:
        before = signers_of(store, previous)
        if isinstance(before, Refusal):
            return before
        if before is not None:
            return Governing(before, "previous")
    own = signers_of(store, commit)
    if isinstance(own, Refusal) or own is None:
        return own
    return Governing(own, "own")


def check_release(store: "ObjectStore", tag: str, ref_object: str, commit: str,
                  signers: Signers) -> Signer | Refusal:
    """Release `tag` (its reference naming `ref_object`, peeled to `commit`) held to item 3's rule under `signers`:
    the manifest digest is sha256 over manifest.json at `commit`."""
    try:
        manifest = ReleaseTree(store, commit, f"{tag}@{commit[:12]}").read("manifest.json", MANIFEST_BOUND)
        data = tag_object(store, ref_object)
    except (TreeError, TooLarge) as exc:
        return Refusal(RELEASE_SIGNATURE_INVALID, None, f"release {tag}: its tag or manifest.json cannot be read "
                       f"({exc})")
    return verify_release_tag(
        data, tag=tag, commit=commit, manifest_digest="sha256:" + hashlib.sha256(manifest).hexdigest(), signers=signers
    )
