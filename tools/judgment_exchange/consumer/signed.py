"""A consumer holds a release's signature to keys it already trusts (issue #36 item 4; docs/signing.md).

Three sources of trust, first that applies:

- **the lock's signers** (a version-3 lock, consumer/lock.py): they govern the first release after the locked one
  on TAG's history, and item 3's chain is walked to TAG; when the locked release is not on TAG's history (RFC 0019
  §7 checks no ancestry), TAG must be signed by a key the lock holds. Every later release must be signed
  (`release-unsigned`: a mirror cannot drop signing). Re-checking the locked release itself holds its tag object to
  the lock's `tagObject` (`release-tag-moved`);
- **`--signers FILE`**: TAG must be reached from FILE — signed by a key in FILE, or at the end of the chain walked
  forward from the earliest release of TAG's history (within `--history N`) whose tag FILE verifies;
- **neither**: a signed tag is checked against its own commit's release-signers only (`signers: unpinned`, which
  proves nothing about the location), and the lock written records them (trust on first use protects updates, not
  the first import); `--require-signed` refuses that (`release-signers-unpinned`).

`--require-signed` refuses an unsigned release in every case. A release's history is its ledger's rows at TAG's
commit (each row's `previous` the tagged commit of the release before it), or, for a catalog without a ledger, the
release tags naming commits on TAG's first-parent history at or below TAG (docs/releasing.md). Walking the chain,
a release whose commit has no release-signers keeps the set before it: deleting the file does not end signing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..catalog.grammar import release_key
from ..codes.catalog import RELEASE_TAG_MOVED
from ..codes.signing import RELEASE_SIGNATURE_INVALID, RELEASE_SIGNERS_UNPINNED, RELEASE_UNSIGNED
from ..history.ledger import LEDGER, LEDGER_MAX_BYTES, LedgerFormError, read_ledger
from ..history.mainline import first_parent_chain
from ..history.tags import TagListingError, list_releases
from ..refusal import Refusal
from ..signing.release import check_release, signers_of, tag_object
from ..signing.signers import Signer, Signers, read_signers
from ..tree import GitTree, TooLarge, TreeError

if TYPE_CHECKING:
    from git import Repo  # GitPython, imported at run time where a location is opened (check.open_location)

    from ..tree import ObjectStore
    from .lock import Lock

MOVED = RELEASE_TAG_MOVED


@dataclass(frozen=True)
class Signing:
    """What the consumer asked: `pinned` (the set from --signers FILE) and `require` (--require-signed)."""

    pinned: Signers | None = None
    require: bool = False


@dataclass
class SignedResult:
    """The signature check's refusals and notes, and what a lock written after it records."""

    refusals: list[Refusal] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    signers: tuple[str, ...] = ()
    tag_object: str | None = None
    checked: bool = False


@dataclass(frozen=True)
class _Release:
    tag: str
    commit: str


def lock_signers(lines: tuple[str, ...]) -> Signers:
    read = read_signers("".join(line + "\n" for line in lines).encode("ascii"), "signers")
    assert isinstance(read, Signers)  # the lock's form was checked when it was read (consumer/lock.py)
    return read


def releases_on(repo: Repo, store: ObjectStore, tag: str, commit: str) -> list[_Release]:
    """TAG's history, oldest first, TAG last: the ledger's rows at TAG's commit, else the release tags on its
    first-parent history at or below TAG, as the history check lists them (history/tags.list_releases: a tag
    peeled to no commit is no release). A tag list that cannot be read leaves TAG alone: it is then held to the
    trusted signers directly, never through a chain read in part."""
    try:
        rows = read_ledger(GitTree(repo, commit).read(LEDGER, LEDGER_MAX_BYTES))
    except (TreeError, TooLarge, LedgerFormError, OSError):
        rows = None
    if rows and rows[-1].tag == tag:
        tagged = [row.previous for row in rows[1:]] + [commit]
        return [_Release(row.tag, at) for row, at in zip(rows, tagged, strict=False) if at]
    try:
        listed = list_releases(repo, store).releases
    except TagListingError:  # no chain to walk: TAG is held to the trusted set itself (history refuses the listing)
        return [_Release(tag, commit)]
    on_history = set(first_parent_chain(store, commit))
    key = release_key(tag)
    earlier = [_Release(r.tag, r.commit) for r in listed
               if key is not None and r.version <= key and r.commit in on_history and r.tag != tag]
    return earlier + [_Release(tag, commit)]


def _ref(repo: Repo, tag: str) -> str | None:
    try:
        ref: str = repo.git.rev_parse("--verify", "--quiet", f"refs/tags/{tag}")  # typed Any: git's output, a str
    except Exception:  # GitCommandError: the tag is missing
        return None
    return ref


def _verify(repo: Repo, store: ObjectStore, release: _Release, governing: Signers) -> Signer | Refusal:
    ref = _ref(repo, release.tag)
    if ref is None:
        return Refusal(RELEASE_UNSIGNED, None, f"release {release.tag}: its tag is missing, so its signature cannot "
                       "be checked")
    return check_release(store, release.tag, ref, release.commit, governing)


def _next_set(store: ObjectStore, release: _Release, governing: Signers) -> Signers | Refusal:
    """The set that governs the release after `release`: its own release-signers, else the set before it."""
    found = signers_of(store, release.commit)
    return governing if found is None else found


def _walk(repo: Repo, store: ObjectStore, releases: list[_Release],
          governing: Signers) -> tuple[Refusal | None, Signers]:
    """Item 3's chain over `releases` in order, the first governed by `governing`: the first refusal, and the set
    that governs the release after the last."""
    for release in releases:
        verdict = _verify(repo, store, release, governing)
        if isinstance(verdict, Refusal):
            return verdict, governing
        found = _next_set(store, release, governing)
        if isinstance(found, Refusal):
            return found, Signers(())
        governing = found
    return None, governing


def check_signatures(repo: Repo, tag: str, commit: str, *, signing: Signing, lock: Lock | None = None,
                     history: int | None) -> SignedResult:
    """The consumer's signature check of release TAG at `commit` (module docstring)."""
    result = SignedResult()
    try:
        store = GitTree(repo, commit).store
        ref = _ref(repo, tag)
        held = lock_signers(lock.signers) if lock is not None and lock.signers else None
        if held is not None and lock is not None:  # held: the lock's own signers
            _held(repo, store, tag, commit, ref, lock, held, result)
        elif signing.pinned is not None:
            _pinned(repo, store, tag, commit, signing.pinned, history, result)
        else:
            _unpinned(repo, store, tag, commit, ref, signing, result)
    except (TreeError, TooLarge) as exc:
        result.refusals.append(Refusal(RELEASE_SIGNATURE_INVALID, None, f"release {tag}: the objects its signature "
                                       f"is checked against cannot be read ({exc})"))
    if result.refusals:
        result.signers, result.tag_object = (), None
    return result


def _record(result: SignedResult, governing: Signers, ref: str | None) -> None:
    result.signers = tuple(governing.lines())
    result.tag_object = ref


def _held(repo: Repo, store: ObjectStore, tag: str, commit: str, ref: str | None, lock: Lock, held: Signers,
          result: SignedResult) -> None:
    result.checked = True
    if commit == lock.commit and tag == lock.tag:
        if lock.tag_object is not None and ref != lock.tag_object:
            result.refusals.append(Refusal(MOVED, None, f"the locked {tag} now names the tag object {ref}, not the "
                                           f"locked {lock.tag_object}: a tag object at the same commit, re-made"))
            return
        result.signers, result.tag_object = lock.signers, lock.tag_object
        result.notes.append(f"signers: held by the lock; {tag} is the locked release and its tag object is the locked "
                            "one")
        return
    releases = releases_on(repo, store, tag, commit)
    at = next((i for i, r in enumerate(releases) if r.commit == lock.commit), None)
    if at is None:  # the locked release is not on TAG's history: TAG signed by a key the lock holds
        verdict = _verify(repo, store, releases[-1], held)
        if isinstance(verdict, Refusal):
            result.refusals.append(verdict)
            return
        governing = _next_set(store, releases[-1], held)
        how = f"the locked {lock.tag} is not on {tag}'s history: {tag} is signed by a key the lock holds"
    else:
        refusal, governing = _walk(repo, store, releases[at + 1:], held)
        if refusal is not None:
            result.refusals.append(refusal)
            return
        how = f"the chain walked from the locked {lock.tag} to {tag} ({len(releases) - at - 1} release(s))"
    if isinstance(governing, Refusal):
        result.refusals.append(governing)
        return
    _record(result, governing, ref)
    result.notes.append(f"signers: held by the lock; {how}")


def _pinned(repo: Repo, store: ObjectStore, tag: str, commit: str, pinned: Signers, history: int | None,
            result: SignedResult) -> None:
    result.checked = True
    releases = releases_on(repo, store, tag, commit)
    window = releases[-(history + 1):] if history is not None else releases[-1:]
    for i, release in enumerate(window):
        verdict = _verify(repo, store, release, pinned)
        if isinstance(verdict, Refusal):
            if i == len(window) - 1:  # no release of the window is signed by a key in FILE: TAG's own verdict
                result.refusals.append(verdict)
                return
            continue
        governing = _next_set(store, release, pinned)
        if isinstance(governing, Refusal):
            result.refusals.append(governing)
            return
        refusal, governing = _walk(repo, store, window[i + 1:], governing)
        if refusal is not None:
            result.refusals.append(refusal)
            return
        _record(result, governing, _ref(repo, tag))
        result.notes.append(f"signers: pinned by --signers; {tag} " + (
            "is signed by a key in it" if i == len(window) - 1
            else f"is reached by the chain from {release.tag}, signed by a key in it"))
        return


def _unpinned(repo: Repo, store: ObjectStore, tag: str, commit: str, ref: str | None, signing: Signing,
              result: SignedResult) -> None:
    own = signers_of(store, commit)
    data = tag_object(store, ref) if ref is not None else None
    from ..signing.tagobject import TagObjectError, parse

    try:
        signed = data is not None and parse(data).signature is not None
    except TagObjectError:
        signed = True  # held to the rule below, which refuses it
    if signing.require:
        result.checked = True
        if not signed:
            result.refusals.append(Refusal(RELEASE_UNSIGNED, None, f"release {tag}: --require-signed, and its tag "
                                           f"is {'lightweight' if data is None else 'an annotated tag'} without a "
                                           "signature"))
            return
        result.refusals.append(Refusal(RELEASE_SIGNERS_UNPINNED, None, f"release {tag}: --require-signed holds it to "
                                       "keys you already trust, and neither --signers FILE nor a lock holding signers "
                                       "was given"))
        return
    if not signed:
        return  # an unsigned release of a catalog nobody pinned: as before issue #36
    result.checked = True
    if own is None:
        result.notes.append(f"signers: unpinned; {tag} is signed but its commit has no release-signers: the signature "
                            "was not checked")
        return
    if isinstance(own, Refusal):
        result.refusals.append(own)
        return
    assert ref is not None  # signed: a tag object was read at `ref`
    verdict = check_release(store, tag, ref, commit, own)
    if isinstance(verdict, Refusal):
        result.refusals.append(verdict)
        return
    _record(result, own, ref)
    result.notes.append(f"signers: unpinned; {tag} is signed by a key of its own commit's release-signers, which "
                        "proves nothing about the location: pin the maintainers' file with --signers FILE "
                        "(docs/signing.md)")
