"""Artifact identity within a release, and the history walk, as the gate calls them (RFC 0019 §§3, 7); each
returns what it found (`HistoryRead`), which the gate's pipeline alone records."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from ..catalog.directory import EntryCheck
from ..codes.history import ARTIFACT_HISTORY_INVALID
from ..refusal import Findings, Refusal
from ..tree import Tree

if TYPE_CHECKING:
    from ..history import CurrentEntry
    from ..history.model import Retained
    from ..repository.pullrequest import Change
    from ..tree import GitTree


class HistoryOptions(Protocol):
    """What the history check reads of the run's options (pipeline.GateOptions, which the pipeline imports this
    module for: named here by its shape, so the two import no cycle)."""

    @property
    def repository(self) -> str | None: ...
    @property
    def history(self) -> bool: ...
    @property
    def base(self) -> str | None: ...
    @property
    def release_tag(self) -> str | None: ...
    @property
    def max_history(self) -> int | None: ...
    @property
    def main(self) -> tuple[str, str] | None: ...
    @property
    def retained(self) -> Retained | None: ...
    @property
    def side_releases(self) -> bool: ...


@dataclass
class HistoryRead:
    """What the history check found: the report's `history` status, its refusals, notes and warnings, and whether
    history is among the report's checks (False: the catalog has no releases of its own to read)."""

    status: str
    found: Findings = field(default_factory=Findings)
    listed: bool = True


def current_entries(checks: list[EntryCheck]) -> list[CurrentEntry]:
    """The candidate release's entries in the form history reads."""
    from ..history import CurrentEntry

    out = []
    for c in checks:
        if c.entry is None:
            continue
        upgrade = c.entry.get("upgrade")
        out.append(CurrentEntry(id=c.id, path=c.path, dialect_digest=c.dialect_digest,
                                artifact=c.artifact,
                                upgrade_keys=list(upgrade) if isinstance(upgrade, dict) else []))
    return out


def identity_check(checks: list[EntryCheck]) -> list[Refusal]:
    """Two rows of this release with one artifact pair and different canonical digests."""
    from ..history import artifact_refusals

    return artifact_refusals(current_entries(checks))


def enclosing_work_tree(path: str) -> str | None:
    """The root of the git work tree `path` lies inside when `path` is not itself a repository; else None.

    A catalog nested in another repository (docs/demo-catalog/) has no releases of its own: the tags
    there are the enclosing repository's releases, whose manifest.json is the enclosing catalog's.
    A directory in no repository at all is still artifact-history-invalid (docs/releasing.md).
    """
    import git

    try:
        git.Repo(path).close()
        return None
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, OSError):
        pass
    try:
        repo = git.Repo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, OSError):
        return None
    try:
        root = repo.working_tree_dir
    finally:
        repo.close()
    if root is None or os.path.realpath(root) == os.path.realpath(path):
        return None
    return str(root)


NO_REPOSITORY_FIX = ("A catalog's releases are its git repository's (RFC 0019 §7), and this directory is in none: to "
                     "start a catalog here, run `git init` in the catalog's directory (then commit it); to work on "
                     "an existing catalog, work in your clone of it (git clone URL). `exchange check --no-history` "
                     "checks the rest meanwhile.")
"""The fix of a catalog in no git repository at all (issue #34 item 7): not "fetch every release tag"."""


def in_no_repository(path: str) -> bool:
    """True when the directory `path` is in no git repository: no `.git` of any kind there, and none found in a
    directory above it (a broken `.git` is a repository git cannot read: the history check says so)."""
    if os.path.lexists(os.path.join(path, ".git")):
        return False
    import git

    try:
        git.Repo(path, search_parent_directories=True).close()
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return True
    except OSError:
        return False
    return False


def history_check(tree: Tree, checks: list[EntryCheck], options: HistoryOptions, change: Change | None = None
                  ) -> HistoryRead:
    """Upgrade keys and artifact history against every previous release (no form-only fallback). For a
    pull request (`options.base`; `change` its comparison, repository/pullrequest.Change) everything keys
    off one resolved main: the upstream default branch as fetched, or the commit --base names, never a
    local branch that may be behind; the ledger the change may not alter is its merge base's (issue #17
    item 2). A consumer's retained release (`options.retained`, its lock's) is one more previous release,
    and without `options.history` the only one read (history.check_retained; issue #25 item 3)."""
    repository = options.repository or getattr(tree, "repository", None)
    if repository is None or not os.path.exists(repository):
        return HistoryRead("checked", Findings([Refusal(ARTIFACT_HISTORY_INVALID, None,
                                                        "no git repository to read releases from")]))
    entries = current_entries(checks)
    if not options.history:  # a consumer reading no history of the tag's own holds its retained release alone
        from ..history import check_retained

        read: dict[str, object] = {c.stored["entry.json"]: c.entry for c in checks
                                   if c.entry is not None and "entry.json" in c.stored}
        assert options.retained is not None  # no history read: the gate reads the retained release alone (pipeline)
        result = check_retained(repository, entries, options.retained, entries_read=read)
        return HistoryRead(result.status, Findings(list(result.refusals)))
    inputs = None  # releases.json, manifest.json and the base's releases.json, read once
    if change is None and not options.base and options.release_tag is None and getattr(tree, "commit", None) is None:
        # a repository with no release yet, no commit at all: answered without GitPython (history/unborn.py)
        from ..history.unborn import unborn_history

        inputs = _ledger_inputs(tree, repository, None)
        if isinstance(inputs[0], Unreadable):
            return _ledger_refused(inputs[0])
        quick = unborn_history(repository, entries, inputs[0])
        if quick is not None:
            return HistoryRead(quick.status, Findings(list(quick.refusals), list(quick.notes)))
    from ..history import check_history

    if in_no_repository(repository):  # no history to read at all: say so, and how a catalog gets one
        return HistoryRead("checked", Findings([Refusal(ARTIFACT_HISTORY_INVALID, None, "the catalog's directory is "
                                                        "not a git repository, nor inside one: it has no release "
                                                        "history to read", fix=NO_REPOSITORY_FIX)]))
    enclosing = enclosing_work_tree(repository)
    if enclosing is not None:
        where = os.path.relpath(os.path.realpath(repository), os.path.realpath(enclosing))
        return HistoryRead("skipped", Findings(notes=[
            f"history not read: the catalog is the directory {where} inside "
            "a git repository, not a repository's root; a catalog's releases are the tags of the repository "
            "whose root holds its manifest.json (RFC 0019 §7), so this catalog has no releases of its own"]),
            listed=False)
    point = change.point if change is not None else None
    opened = change.opened() if change is not None else None  # the merge base compare read, if it did
    # without a change, point and opened are None: the inputs the unborn check read are these
    ledger, manifest, base_ledger = inputs or _ledger_inputs(tree, repository, point, opened)
    if isinstance(ledger, Unreadable):
        return _ledger_refused(ledger)
    main = _main(repository, options, opened) if options.base else None
    # each entry.json the gate read strictly, by its stored digest: the releases that pin it unchanged
    # (most of the latest one) are not parsed again (issue #20)
    entries_read: dict[str, object] = {c.stored["entry.json"]: c.entry for c in checks
                                       if c.entry is not None and "entry.json" in c.stored}
    # a plain check of a working tree (no --base, --commit or --release-tag) judges a HEAD behind main or off
    # it against the merge base, as --base auto does (issue #34 items 1, 2)
    plain = change is None and not options.base and options.release_tag is None and options.retained is None \
        and getattr(tree, "commit", None) is None
    result = check_history(repository, entries, release_tag=options.release_tag, base=options.base,
                           max_releases=options.max_history, ledger=ledger, anchor=getattr(tree, "commit", None),
                           base_ledger=base_ledger, manifest=manifest, main=main, entries_read=entries_read,
                           retained=options.retained, side_releases=options.side_releases, plain=plain)
    answer = HistoryRead(result.status, Findings(list(result.refusals), list(result.notes)))
    if result.released:  # a released entry changed without a note: a warning (issue #17 item 5), on a pull
        # request for the entries it changes, and on main, in a release, for every entry (issue #26 item 4)
        from ..history.upgrade import note_warnings

        stored = {c.id: c.stored.get("entry.json") for c in checks}
        current = [(entry, stored.get(entry.id)) for entry in entries]
        changed = set(change.paths) if change is not None else {f"{entry.path}/entry.json" for entry in entries}
        answer.found.warnings += note_warnings(current, changed, result.released)
    return answer


def _main(repository: str, options: HistoryOptions, opened: GitTree | None = None) -> tuple[str, str] | None:
    """A pull request's main: `options.main` (the branch `--base auto` resolved against, as fetched), else
    the commit `--base` names; None when it names none (the pull request's check refuses that already).
    `opened`: a GitTree of the same repository already open, whose handle resolves it (issue #20)."""
    if options.main is not None:
        from ..history.mainline import ref_name

        tip, ref = options.main
        return tip, ref_name(ref)
    import git

    try:
        repo = opened.repo if opened is not None else git.Repo(repository)
        try:
            return repo.commit(options.base).hexsha, f"the base {options.base}"
        finally:
            if opened is None:
                repo.close()
    except Exception:  # GitPython raises several types for a revision that names no commit
        return None


class Unreadable(Exception):
    """A catalog file the history check reads is there but cannot be read: not a regular file (a directory, a
    symlink, a FIFO or device; in a commit a tree, a symlink or a submodule), or one the system refuses
    (issue #25 item 5). Its text is the refusal's detail; nothing of the file was read."""


def _optional(tree: Tree, path: str, limit: int) -> bytes | None:
    """A file's bytes, or None when the tree has no file there; Unreadable when what is there is not a
    regular file or cannot be read (the gate's own reading of the file refuses it too)."""
    from ..tree import FILE, MISSING, TooLarge, TreeError, kind_text

    try:
        node = tree.stat(path)
        if node.kind == MISSING:
            return None
        if node.kind != FILE:
            raise Unreadable(f"{path} is {kind_text(node.kind)}, not a regular file")
        return tree.read(path, limit)
    except TooLarge:
        return b"\0" * (limit + 1)  # over the ledger's bound: read_ledger refuses it (release-ledger-invalid)
    except TreeError as exc:
        raise Unreadable(f"{path} cannot be read ({exc})") from exc


def _ledger_refused(ledger: Unreadable) -> HistoryRead:
    """The history check's answer when the checked tree's releases.json cannot be read (its refusal): no earlier
    release can be held without it, so the history check stops there (as at a ledger out of its form)."""
    from ..codes.history import RELEASE_LEDGER_INVALID
    from ..history.ledger import LEDGER

    return HistoryRead("checked", Findings([Refusal(RELEASE_LEDGER_INVALID, LEDGER, f"{ledger}: nothing of it was "
                                                    "read, and no earlier release is held without the ledger")]))


def _ledger_inputs(tree: Tree, repository: str, base: str | None, opened: GitTree | None = None
                   ) -> tuple[bytes | None | Unreadable, bytes | None, tuple[bytes | None] | None]:
    """The checked tree's releases.json and manifest.json, and the releases.json of a pull request's merge
    base with its base (`base`), which the change may not alter; read through `opened` when it is that
    commit's GitTree, already open (the pull request's comparison read its rows through it; issue #20).
    A releases.json that cannot be read is given as its Unreadable (the caller refuses it); a manifest.json
    that cannot be read as None (the gate has refused it already: file-unreadable), and so is a base's
    ledger that cannot be read."""
    from ..history.ledger import LEDGER, LEDGER_MAX_BYTES
    from ..tree import GitTree, TreeError

    try:
        ledger: bytes | None | Unreadable = _optional(tree, LEDGER, LEDGER_MAX_BYTES)
    except Unreadable as exc:
        ledger = exc
    try:
        manifest = _optional(tree, "manifest.json", 1 << 20)
    except Unreadable:
        manifest = None
    base_ledger = None
    if base:
        try:
            at = opened if opened is not None and opened.commit == base else GitTree(repository, base)
            base_ledger = (_optional(at, LEDGER, LEDGER_MAX_BYTES),)
        except (TreeError, Unreadable):  # the pull request's check refuses an unreadable base (base-unreadable);
            base_ledger = None  # a base ledger that is no regular file is not compared: main's still holds the change
    return ledger, manifest, base_ledger
