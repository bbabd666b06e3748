"""Main's first-parent history, and the release ledger held to it (docs/releasing.md; issue #10 items 1, 2).

Main's releases make the ledger; a release tag off main's first-parent history is a previous release for
artifact identity and upgrade keys only (RFC 0019 §7; `Outcome.side`, issue #34 item 3). "Main" is one answer for every
command (issue #26 item 1; `find_main`): the
upstream default branch as fetched (UPSTREAM_ORDER, the order `--base auto` uses), except that when HEAD is
the local `main` and descends from it, main is HEAD's own first-parent history (a maintainer between
`exchange release` and the push); without an upstream, the local `main`, else HEAD. A check of one commit
(a consumer's `release-check`, which checks no branch ancestry, §7) uses that commit. A plain check of a
working tree whose HEAD is behind main or off it is judged against the merge base (`plain_base`; issue #34).
The ledger names the releases; each row's release commit is the commit on main's first-parent history
that added it (each distinct ledger blob read once through the ObjectStore), and tags corroborate.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..codes.history import (
    RELEASE_LEDGER_CHANGED,
    RELEASE_LEDGER_INVALID,
    RELEASE_LEDGER_MISSING,
    RELEASE_ROW_MISMATCH,
    RELEASE_TAG_MISMATCH,
    RELEASE_TAG_MISSING,
    RELEASE_TAG_UNRECORDED,
)
from ..refusal import Refusal
from ..tree import ObjectStore, ReleaseTree, TooLarge, TreeError
from .forms import MANIFEST_MAX_BYTES
from .ledger import LEDGER, LEDGER_MAX_BYTES, LedgerFormError, LedgerRow, read_ledger
from .model import Release
from .tags import Tags, release_key

if TYPE_CHECKING:
    from git import Repo  # GitPython, imported at run time only where a repository is opened (check._open)

UPSTREAM_ORDER = (
    "refs/remotes/upstream/HEAD",
    "refs/remotes/upstream/main",
    "refs/remotes/origin/HEAD",
    "refs/remotes/origin/main",
)
"""Where the upstream default branch is, as fetched, first that names a commit wins: a fork's `upstream`
remote (GitHub's convention for the repository a fork's pull requests go to), then the clone's `origin`;
each by its HEAD symbolic ref (the remote's default branch, as `git clone` or `git remote set-head NAME
--auto` records it), else its `main` (CONTRIBUTING.md, "What CI runs")."""

LOCAL_MAIN = "refs/heads/main"


def _commit_of(repo: Repo, store: ObjectStore, ref: str) -> str | None:
    """The commit `ref` names (a symbolic ref followed, a tag peeled), or None."""
    from git.refs.symbolic import SymbolicReference  # GitPython, imported when a repository is read

    try:
        hexsha = SymbolicReference.dereference_recursive(repo, ref)
    except (ValueError, OSError, TypeError):
        return None
    try:
        kind, commit = store.peel(hexsha)
    except TreeError:
        return None
    return commit if kind == "commit" else None


def symbolic_target(repo: Repo, ref: str) -> str:
    """Where a symbolic reference points (refs/remotes/origin/HEAD -> refs/remotes/origin/main), else `ref`."""
    try:
        return repo.git.symbolic_ref("-q", ref) or ref
    except Exception:  # GitCommandError: not a symbolic reference
        return ref


def ref_name(ref: str) -> str:
    """A reference as people say it: refs/remotes/upstream/main is upstream/main, refs/heads/main is main."""
    for prefix in ("refs/remotes/", "refs/heads/"):
        if ref.startswith(prefix):
            return ref[len(prefix):]
    return ref


@dataclass(frozen=True)
class Main:
    """Main as one answer (issue #26 item 1): its tip commit (None when nothing names one), the reference it
    came from, its name as people say it, and `note`: what was chosen and why, when there was a choice."""

    tip: str | None
    ref: str
    name: str
    note: str | None = None


def resolve_main(repo: Repo, store: ObjectStore) -> Main:
    """Main for every command (the module's docstring): the upstream default branch as fetched; HEAD when HEAD
    is the local `main` and descends from it; without an upstream, the local `main`, else HEAD."""
    upstream = next(((ref, tip) for ref in UPSTREAM_ORDER if (tip := _commit_of(repo, store, ref)) is not None),
                    None)
    local = _commit_of(repo, store, LOCAL_MAIN)
    if upstream is None:
        if local is not None:
            return Main(local, LOCAL_MAIN, "main")
        head = _commit_of(repo, store, "HEAD")
        return Main(head, "HEAD", "HEAD") if head is not None else Main(None, "", "no main, origin/main or HEAD commit")
    ref, tip = upstream
    name = ref_name(symbolic_target(repo, ref))
    on_main = symbolic_target(repo, "HEAD") == LOCAL_MAIN
    if on_main and local is not None and local != tip and _descends(repo, local, tip):
        return Main(local, LOCAL_MAIN, "main",
                    f"main: your local main ({local[:12]}), which descends from {name} ({tip[:12]}): its own "
                    f"first-parent history is main's, so the releases it adds before you push are read")
    note = None
    if local is not None and local != tip:
        note = (f"main: {name} as fetched ({tip[:12]}), the upstream default branch; your local main "
                f"({local[:12]}) differs from it and is not read (you never need to update it; to do so: "
                f"git switch main && git merge --ff-only {name})")
    return Main(tip, ref, name, note)


def _descends(repo: Repo, commit: str, ancestor: str) -> bool:
    """Whether `ancestor` is an ancestor of (or is) `commit` (git merge-base --is-ancestor)."""
    try:
        # GitPython annotates its revisions as Commit, and hands any revision, a commit id too, to git merge-base
        return repo.is_ancestor(ancestor, commit)  # type: ignore[arg-type]
    except Exception:  # GitCommandError: a missing object
        return False


@dataclass(frozen=True)
class Started:
    """What a plain `exchange check` judges a HEAD that is not main's tip, and does not descend from it,
    against (issue #34 items 1, 2): the merge base of HEAD and main, as `--base auto` does; its releases.json
    (None: none), and the one note saying how far behind HEAD is and how to update."""

    commit: str
    ledger: bytes | None
    note: str


def plain_base(repo: Repo, store: ObjectStore, main: Main, checked: object) -> Started | None:
    """A plain check's starting point (`Started`), or None when HEAD is main's tip, descends from it, names no
    commit or shares no history with it (main's ledger is then held as it is). A HEAD on main's first-parent
    history whose working tree's releases.json is HEAD's own is a stale clone, not a wrong one: the rows main
    added since are not asked of it, and the note says `git merge --ff-only`; any other is a branch, told how
    many commits it is behind and to bring them in (`git merge`), as `--base auto` tells it. `checked` is the working
    tree's releases.json (None: absent), or check.TIP, which equals no ledger."""
    tip = main.tip
    if tip is None:
        return None
    head = _commit_of(repo, store, "HEAD")
    if head is None or head == tip or _descends(repo, head, tip):
        return None
    try:
        bases = repo.merge_base(head, tip)
        point = bases[0].hexsha if bases else None
        behind = int(repo.git.rev_list("--count", f"{point}..{tip}")) if point else 0
    except Exception:  # GitCommandError, ValueError: the ordinary reading below meets what cannot be read
        return None
    if point is None:
        return None
    try:
        blob = ReleaseTree(store, point, point[:12]).blob_id(LEDGER)
        ledger = None if blob is None else store.blob(blob, LEDGER_MAX_BYTES, LEDGER)
        stale = head == point and checked == ledger and head in first_parent_chain(store, tip)
    except (TreeError, TooLarge):
        return None
    name = main.name
    read = f"main: {name} as fetched ({tip[:12]})"
    if stale:
        return Started(point, ledger, f"{read}; HEAD ({head[:12]}) is on its first-parent history, {behind} "
                       f"commit(s) behind: a stale clone, not a wrong one, so releases.json here (HEAD's) is not "
                       f"asked for the rows {name} added since; to update: git merge --ff-only {name}")
    return Started(point, ledger, f"{read}; HEAD is not its tip and does not descend from it, so the ledger is judged "
                   f"as --base auto judges it, against the merge base {point}; your branch is {behind} commit(s) "
                   f"behind {name}, which the pull request will merge into: if they touch your entry or "
                   f"manifest.json it will conflict, so bring them in first (git merge {name}) and check again")


def find_main(repo: Repo, store: ObjectStore) -> tuple[str | None, str]:
    """Main's tip commit and the reference it came from (resolve_main); (None, reason) when none names a
    commit."""
    main = resolve_main(repo, store)
    return main.tip, main.ref if main.tip is not None else main.name


def first_parent_chain(store: ObjectStore, tip: str | None) -> list[str]:
    """The commits of `tip`'s first-parent history, newest first (a missing commit raises TreeError)."""
    chain: list[str] = []
    commit = tip
    while commit is not None:
        chain.append(commit)
        commit = store.first_parent(commit)
    return chain


class _Ledgers:
    """The ledger at a commit, each distinct releases.json blob read and judged once."""

    def __init__(self, store: ObjectStore) -> None:
        self.store = store
        self.cache: dict[str, list[LedgerRow]] = {}
        self.rows: dict[object, LedgerRow] = {}  # each ledger row checked once across the ledgers (ledger.read_ledger)

    def at(self, commit: str) -> list[LedgerRow] | None:
        blob = ReleaseTree(self.store, commit, commit[:12]).blob_id(LEDGER)
        if blob is None:
            return None
        if blob not in self.cache:
            try:
                self.cache[blob] = read_ledger(self.store.blob(blob, LEDGER_MAX_BYTES, LEDGER), self.rows)
            except TooLarge as exc:
                raise LedgerFormError(f"releases.json at {commit[:12]} is over 1 MiB ({exc.size} bytes)") from None
            except LedgerFormError as exc:
                raise LedgerFormError(f"releases.json at {commit[:12]}: {exc}") from None
        return self.cache[blob]


def _prefetch(store: ObjectStore, chain: list[str]) -> None:
    """Read main's root trees, then its distinct ledger blobs, a batch per round trip (a speed-up only:
    each is read again, strictly, where it is used)."""
    try:
        store.prefetch([store.root_tree(commit) for commit in chain])
        store.prefetch([entry[1] for entry in (store.tree(store.root_tree(c), "").get(LEDGER) for c in chain)
                        if entry is not None], LEDGER_MAX_BYTES)
    except TreeError:
        return  # the reading proper meets it and refuses


def _prefetch_parents(store: ObjectStore, commits: list[str], rounds: int = 32) -> None:
    """Read ahead the first-parent ancestors of the tagged commits a generation at a time, a batch per
    round trip (issue #20): main's first-parent walk then finds each commit held instead of asking git
    for it alone. A speed-up only: each commit is still read where it is used; this stops at a commit
    it cannot read, one it met before, or after `rounds` generations."""
    met = set(commits)
    frontier = list(commits)
    for _ in range(rounds):
        parents = []
        for commit in frontier:
            try:
                parent = store.first_parent(commit)
            except TreeError:
                continue
            if parent is not None and parent not in met:
                met.add(parent)
                parents.append(parent)
        if not parents:
            return
        store.prefetch(parents)
        frontier = parents


def _manifest_blob(store: ObjectStore, commit: str) -> str | None:
    """The manifest blob id at a commit, for read-ahead only (None when it cannot tell)."""
    try:
        entry = store.tree(store.root_tree(commit), "").get("manifest.json")
    except TreeError:
        return None
    return entry[1] if entry is not None else None


def manifest_digest(data: bytes) -> str:
    """A manifestDigest: sha256 over the manifest.json bytes as stored."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


@dataclass
class Outcome:
    """What the ledger check found: the previous releases history reads, refusals and notes."""

    previous: list[Release] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    side: list[Release] = field(default_factory=list)
    """Releases off main's first-parent history (tags in the grammar below the release being made, wherever
    their commit is): previous releases for artifact identity and upgrade keys (RFC 0019 §7; issue #34 item 3)."""


def _refuse(out: Outcome, code: str, detail: str, fix: str | None = None) -> None:
    out.refusals.append(Refusal(code, LEDGER, detail, fix=fix))


def _restore_base(tip: str | None) -> str | None:
    """The exact fix for a pull request that alters the ledger: the one its branch started from."""
    if tip is None:
        return None
    return f"restore the ledger your branch started from: git checkout $(git merge-base {tip} HEAD) -- releases.json"


def fetch_remote(tip_name: str) -> str:
    """The remote main was read from (upstream/main: upstream), which a missing tag is fetched from; origin
    when main is no remote-tracking branch (the local main, HEAD, a commit named by --base or --commit)."""
    remote, slash, _ = tip_name.partition("/")
    if slash and remote and " " not in remote:
        return remote
    return "origin"


def _restore(commit: str | None, name: str) -> str | None:
    """The exact fix for a ledger that is not main's (issue #26 item 1): main's releases.json, by commit id."""
    if commit is None:
        return None
    return (f"take {name}'s ledger: git checkout {commit} -- releases.json (a release row is added only by "
            "`exchange release` on main)")


def _added(
    store: ObjectStore, ledgers: _Ledgers, chain: list[str], rows: list[LedgerRow], out: Outcome
) -> dict[str, str]:
    """Each tip row's tag to the commit on the chain that added it; an earlier ledger must be a prefix."""
    added: dict[str, str] = {}
    here = rows
    for index, commit in enumerate(chain):
        if not here:
            break
        parent = chain[index + 1] if index + 1 < len(chain) else None
        before = (ledgers.at(parent) or []) if parent is not None else []
        if here[: len(before)] != before:
            _refuse(out, RELEASE_LEDGER_CHANGED, f"main's releases.json at {commit} is not its first parent's with "
                    "rows appended: a ledger row was changed or removed (the ledger is append-only)")
            break
        new = here[len(before):]
        if len(new) > 1:
            _refuse(out, RELEASE_ROW_MISMATCH, f"commit {commit} adds {len(new)} ledger rows "
                    f"({', '.join(r.tag for r in new)}); a release commit adds one")
        for row in new:
            added[row.tag] = commit
        here = before
    return added


def _starts_empty(base: bytes | None, checked: bytes | None) -> bool:
    """A pull request that adds an empty ledger where its base has none (how a catalog starts one)."""
    if base is not None or checked is None:
        return False
    try:
        return read_ledger(checked) == []
    except LedgerFormError:
        return False


def _manifest_digest(store: ObjectStore) -> Callable[[str], str]:
    """manifestDigest of a manifest blob read on its own (when no walk shares its reading)."""
    return lambda blob: manifest_digest(store.blob(blob, MANIFEST_MAX_BYTES, "manifest.json"))


def _hold_row(store: ObjectStore, row: LedgerRow, commit: str, previous: str | None, out: Outcome,
              digest_of: Callable[[str], str]) -> None:
    """A row against the commit that added it: checked commit, tree, manifest and previous release."""
    parent = store.first_parent(commit)
    if row.commit != parent:
        _refuse(out, RELEASE_ROW_MISMATCH, f"{row.tag}: the row records {row.commit} as the checked commit, but the "
                f"commit that added it ({commit}) has first parent {parent}: the release commit was rewritten")
    if parent is not None:
        mine = dict(store.tree(store.root_tree(commit), ""))
        theirs = dict(store.tree(store.root_tree(parent), ""))
        mine.pop(LEDGER, None)
        theirs.pop(LEDGER, None)
        if mine != theirs:
            _refuse(out, RELEASE_ROW_MISMATCH, f"{row.tag}: the release commit {commit} changes more than "
                    "releases.json against its first parent")
    blob = ReleaseTree(store, commit, row.tag).blob_id("manifest.json")
    found = None if blob is None else digest_of(blob)
    if found != row.manifest_digest:
        _refuse(out, RELEASE_ROW_MISMATCH, f"{row.tag}: the row's manifestDigest {row.manifest_digest} is not the "
                f"manifest.json at its release commit {commit} ({found or 'no manifest.json'})")
    if row.previous != previous:
        _refuse(out, RELEASE_ROW_MISMATCH, f"{row.tag}: previous is {row.previous}, but the previous release's "
                f"commit is {previous}")


def hold_ledger(store: ObjectStore, tags: Tags, checked: bytes | None, *, tip: str | None, tip_name: str,
                release_tag: str | None, base_ledger: tuple[bytes | None] | None = None,
                manifest: bytes | None = None, manifest_digest_of: Callable[[str], str] | None = None,
                side_releases: bool = False) -> Outcome | None:
    """The releases the ledger names, held to main's history and corroborated by the tags.

    `checked` is the checked tree's releases.json (None: absent). Returns None when neither the
    checked tree nor main has a ledger (a catalog without one: history is read from tags alone).
    `base_ledger`, for a pull request, is (the base's releases.json or None,): any change is refused.
    `manifest_digest_of(blob)` gives a release's manifestDigest (the history walk's reading, so each
    manifest is read once); by default the blob is read here. With `side_releases`, a tag in the grammar
    whose commit is off main's first-parent history and that is below the release being made (every one,
    without a release tag) is a previous release for artifact identity and upgrade keys (`Outcome.side`;
    RFC 0019 §7, issue #34 item 3); without it, such a tag is noted and ignored (a consumer's check, which
    reads the tag's own first-parent history). The ledger's rules stay on main's first-parent history.
    """
    digest_of = manifest_digest_of or _manifest_digest(store)
    out = Outcome()
    ledgers = _Ledgers(store)
    _prefetch_parents(store, [release.commit for release in tags.releases])
    chain = first_parent_chain(store, tip)
    on_main = set(chain)
    _prefetch(store, chain)
    try:
        tip_rows = ledgers.at(tip) if tip is not None else None
    except LedgerFormError as exc:
        _refuse(out, RELEASE_LEDGER_INVALID, f"{tip_name}: {exc}")
        return out
    if checked is None and tip_rows is None:
        return None
    made = None if release_tag is None else release_key(release_tag)
    restore = _restore_base(tip) if base_ledger is not None else _restore(tip, tip_name)
    if base_ledger is not None and base_ledger[0] != checked and not _starts_empty(base_ledger[0], checked):
        _refuse(out, RELEASE_LEDGER_CHANGED, "this change alters releases.json against its base; a pull request "
                "never changes the ledger (only `exchange release` on main appends a row)",
                _restore_base(tip))
    if checked is None:
        _refuse(out, RELEASE_LEDGER_MISSING, f"releases.json is missing here, but {tip_name} has one", restore)
        return out
    try:
        rows = read_ledger(checked)
    except LedgerFormError as exc:
        _refuse(out, RELEASE_LEDGER_INVALID, str(exc), restore)
        return out
    tip_rows = tip_rows or []
    try:
        added = _added(store, ledgers, chain, tip_rows, out)
    except LedgerFormError as exc:
        _refuse(out, RELEASE_LEDGER_INVALID, f"on {tip_name}'s history: {exc}")
        added = {}
    by_tag = {r.tag: r for r in tags.releases}
    # every release's manifest, read ahead a few at a time in the order the rows are held
    store.expect([b for b in (_manifest_blob(store, added[r.tag]) for r in tip_rows if r.tag in added) if b],
                 MANIFEST_MAX_BYTES)
    for index, row in enumerate(tip_rows):
        commit = added.get(row.tag)
        if commit is None:
            continue
        previous = added.get(tip_rows[index - 1].tag) if index else None
        _hold_row(store, row, commit, previous, out, digest_of)
        if row.tag in tags.not_commits:
            _refuse(out, RELEASE_TAG_MISMATCH, f"{row.tag} names a {tags.not_commits[row.tag]}; the ledger's "
                    f"release commit is {commit}")
        elif row.tag not in by_tag:
            remote = fetch_remote(tip_name)
            _refuse(out, RELEASE_TAG_MISSING, f"the ledger records {row.tag} at {commit}, but there is no tag "
                    f"{row.tag}: fetch the tags from {remote}, where main was read from; a deleted release tag is "
                    "refused", f"fetch the release tags: git fetch --tags {remote}")
        elif by_tag[row.tag].commit != commit:
            _refuse(out, RELEASE_TAG_MISMATCH, f"{row.tag} names {by_tag[row.tag].commit}, but the ledger's row was "
                    f"added by {commit}: the tag was moved or re-created")
    recorded = {r.tag for r in tip_rows}
    for release in tags.releases:
        if release.tag in recorded:
            continue
        if made is not None and release_tag is not None and release.version > made:  # made: release_tag's key
            if release.commit in on_main:  # out of scope (docs/releasing.md, "Main"), and said so
                out.notes.append(above_note(release, release_tag, tip_name))
        elif release.commit in on_main:
            _refuse(out, RELEASE_TAG_UNRECORDED, f"tag {release.tag} names {release.commit} on {tip_name}'s "
                    "first-parent history, but releases.json has no row for it")
        elif side_releases:  # a previous release off main (RFC 0019 §7; issue #34 item 3)
            out.side.append(release)
            ahead = after_tip_note(store, release, tip, tip_name)
            if ahead:
                out.notes.append(ahead)
        else:
            out.notes.append(off_main_note(store, release, tip, tip_name))
    store.settle()  # every manifest expected was read; nothing may stay owed on the shared process
    _hold_checked(rows, tip_rows, made, release_tag, manifest, tip_name, out, pull_request=base_ledger is not None,
                  tip=tip)
    # every release main's ledger records is a previous one (below the release being made), including, for a
    # pull request, releases made after its merge base (RFC 0019 §3; issue #17 item 2)
    for row in tip_rows:
        if (made is None or row.version < made) and row.tag in added:
            out.previous.append(Release(row.tag, row.version, added[row.tag]))
    return out


def after_tip_note(store: ObjectStore, release: Release, tip: str | None, tip_name: str) -> str | None:
    """When a release tag's commit comes after main's tip (the tip is on its first-parent history), main as
    read is behind the tags this clone holds: the note saying so and how to fetch it (issue #17 item 2)."""
    commit: str | None = release.commit
    try:
        while commit is not None and commit != tip:
            commit = store.first_parent(commit)
    except TreeError:
        commit = None
    if tip is not None and commit == tip:
        return (f"tag {release.tag} names {release.commit}, a commit after {tip_name}'s tip: {tip_name} is behind "
                "the tags this clone holds, so the check reads an old ledger; fetch it (git fetch upstream, or git "
                "fetch origin) and check again")
    return None


def off_main_note(store: ObjectStore, release: Release, tip: str | None, tip_name: str) -> str:
    """The note for a release tag whose commit is not on main's first-parent history, where such a tag is not
    read (a consumer's check of one tag): ignored, or main as read is behind the tags (`after_tip_note`)."""
    return after_tip_note(store, release, tip, tip_name) or (
        f"tag {release.tag} names a commit that is not on {tip_name}'s first-parent history: it is not a "
        "release of main and is ignored here")


def side_note(previous: int, side: list[Release]) -> str:
    """The note naming the previous releases off main that were read (issue #34 item 3)."""
    named = ", ".join(release.tag for release in side)
    return (f"history: {previous} previous release(s), {len(side)} off main ({named}): a tag in §3's grammar whose "
            "commit is not on main's first-parent history is a previous release for artifact identity and upgrade "
            "keys (RFC 0019 §7); the ledger's rules read main's first-parent history alone")


def above_note(release: Release, release_tag: str, tip_name: str) -> str:
    """The note for a tag on the checked history above the release checked: out of scope, ignored (issue #16
    item 5). A tag anyone can add to a mirror never stops a check of a release below it."""
    return (f"tag {release.tag} names {release.commit} on {tip_name}'s first-parent history, above the release "
            f"{release_tag} being checked: tags above the release are out of scope and it is ignored here (a check "
            "of main without --release-tag holds it)")


def _hold_checked(rows: list[LedgerRow], tip_rows: list[LedgerRow], made: tuple[int, int, int] | None,
                  release_tag: str | None, manifest: bytes | None, tip_name: str, out: Outcome,
                  pull_request: bool = False, tip: str | None = None) -> None:
    """The checked tree's ledger is main's, or a prefix of it holding every previous release. A pull
    request's may lack releases main made after the change branched: the change did not alter the ledger
    (its base ledger is held apart), and merging it keeps main's rows (issue #17 item 2). Each refusal's fix
    names main's commit (issue #26 item 1)."""
    fix = _restore_base(tip) if pull_request else _restore(tip, tip_name)
    for index, row in enumerate(rows):
        if index >= len(tip_rows):
            _refuse(out, RELEASE_LEDGER_CHANGED, f"row {index + 1} ({row.tag}) is not in {tip_name}'s releases.json: "
                    "a release row is added only by `exchange release` on main"
                    + (f" (if {tip_name} is behind, fetch it: git fetch upstream)" if pull_request else ""), fix)
        elif row != tip_rows[index]:
            _refuse(out, RELEASE_LEDGER_CHANGED, f"row {index + 1} ({row.tag}) differs from row {index + 1} of "
                    f"{tip_name}'s releases.json ({tip_rows[index].tag}): the ledger is append-only", fix)
    lacking = [r.tag for r in tip_rows[len(rows):] if made is None or r.version < made]
    if lacking and not pull_request:
        _refuse(out, RELEASE_LEDGER_CHANGED, f"releases.json here lacks {tip_name}'s releases {', '.join(lacking)}: "
                "a row is never removed", fix)
    own = [r for r in rows if r.tag == release_tag]
    if own and manifest is not None and own[0].manifest_digest != manifest_digest(manifest):
        _refuse(out, RELEASE_ROW_MISMATCH, f"{release_tag}: the row's manifestDigest is not this tree's manifest.json")

