"""A pull request's touched entries (RFC 0019 §6: one entry per pull request; interfaces.md `--base`),
and `--base auto`: the merge base with the upstream default branch (CONTRIBUTING.md, "What CI runs").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from ..catalog import documents as docs
from ..codes.repository import (
    DOCUMENT_NOT_REGULAR,
    ENTRY_CHANGE_WITH_OTHER_FILE,
    GATE_CHANGE_WITH_ENTRY,
    ONE_ENTRY_PER_PULL_REQUEST,
    SKIPS_FILE_REMOVED,
    VERIFIER_PIN_MOVED_WITH_ENTRY,
)
from ..gitfail import reason
from ..history.mainline import LOCAL_MAIN, UPSTREAM_ORDER, ref_name, symbolic_target
from ..refusal import Refusal
from ..tree import MISSING, GitTree, Tree, TreeError, id_order

# what a pull request changes, by kind of path: an allowlist (issue #24 item 1; zone.py; docs/trust.md)
from .zone import ACKS, DOCUMENT, ENTRY, GATE, LEDGER, MANIFEST, PIN, ROWS, SKIPS, is_gate_file, kind_of  # noqa: F401

AUTO = "auto"

_K = TypeVar("_K")

# Where `--base auto` looks for the upstream default branch, first that names a commit wins: the upstream
# default branch as every command reads main (history/mainline.UPSTREAM_ORDER: a fork's `upstream`, then
# `origin`, each by its HEAD symbolic ref, else its `main`), last the local `main`.
AUTO_ORDER = (*UPSTREAM_ORDER, LOCAL_MAIN)


class BaseUnreadable(Exception):
    """The base revision or the repository could not be read."""


class BaseUnresolved(Exception):
    """`--base auto` found no upstream default branch or no merge base with it (a bad invocation)."""


@dataclass(frozen=True)
class AutoBase:
    """What `--base auto` resolved to: the merge base's commit id, the reference tried and its target."""

    commit: str
    ref: str
    target: str
    tip: str
    behind: int = 0
    """How many commits the tip has that the merge base lacks (issue #26 item 6: a branch made from a stale
    main is judged against its merge base, and told it is behind)."""

    def describe(self) -> str:
        via = self.ref if self.target == self.ref else f"{self.ref} -> {self.target}"
        said = f"--base auto: the merge base of HEAD and {via} ({self.tip[:12]}) is {self.commit}"
        if self.behind:
            name = ref_name(self.target)
            said += (f"; your branch is {self.behind} commit(s) behind {name}, which the pull request will merge "
                     f"into: if they touch your entry or manifest.json it will conflict, so bring them in first "
                     f"(git merge {name}) and check again")
        return said


def resolve_auto(repository: str) -> AutoBase:
    """The merge base of HEAD with the first reference of AUTO_ORDER that names a commit.

    Raises BaseUnresolved (naming what was tried and the fix) when the directory is not a git
    repository, HEAD names no commit, no reference of AUTO_ORDER names one, or HEAD shares no history
    with it."""
    import git

    try:
        repo = git.Repo(repository)
    except Exception as exc:  # InvalidGitRepositoryError, NoSuchPathError, …
        raise BaseUnresolved(f"{repository} is not the root of a git repository ({reason(exc)}); "
                             "run the command at the top of your clone of the catalog") from exc
    try:
        try:
            head = repo.commit("HEAD")
        except Exception as exc:
            raise BaseUnresolved("HEAD names no commit yet; commit your change first (git commit -s)") from exc
        for ref in AUTO_ORDER:
            try:
                tip = repo.commit(ref)
            except Exception:
                continue
            target = symbolic_target(repo, ref)
            bases = repo.merge_base(head, tip)
            if not bases:
                raise BaseUnresolved(f"HEAD shares no history with {ref}; branch from the upstream default "
                                     "branch, or name the base with --base REV")
            point = bases[0].hexsha
            behind = 0 if point == tip.hexsha else int(repo.git.rev_list("--count", f"{point}..{tip.hexsha}"))
            return AutoBase(point, ref, target, tip.hexsha, behind)
    finally:
        repo.close()
    raise BaseUnresolved("no upstream default branch: none of " + ", ".join(AUTO_ORDER) + " names a commit; "
                         "add the catalog as a remote (git remote add upstream URL; git fetch upstream) "
                         "or name the base with --base REV")


def touched_entries(repository: str, base: str, commit: str | None = None) -> list[str]:
    """Ids of the entries whose files differ between `base` and `commit`, or, with no commit, the
    working tree (untracked files included)."""
    return _touched(changed_paths(repository, base, commit))


def _touched(names: list[str]) -> list[str]:
    ids = set()
    for name in names:
        parts = name.split("/")
        if len(parts) >= 4 and parts[0] == "entries":
            ids.add(f"{parts[1]}.{parts[2]}")
    return _sorted(ids)


def _sorted(ids: Iterable[str]) -> list[str]:
    return sorted(ids, key=id_order)


@dataclass(frozen=True)
class Change:
    """A pull request against its base (issue #16 items 2, 3): the paths it changes, the entries whose
    directory, manifest row or skips.json items it changes, the acknowledgements it removes, whether
    it removes skips.json or moves the verifier pin, and the gate files and other files it changes."""

    point: str | None = None
    """The merge base of the base and the change: what the change is compared with."""
    paths: tuple[str, ...] = ()
    directories: tuple[str, ...] = ()
    rows: tuple[str, ...] = ()
    items: frozenset[tuple[str, str]] = frozenset()
    removed: frozenset[tuple[str, str]] = frozenset()
    skips_removed: bool = False
    pin_moved: bool = False
    gate_files: tuple[str, ...] = ()
    other_files: tuple[str, ...] = ()
    irregular_documents: tuple[str, ...] = ()
    """Documents the change adds or alters that are not a regular, non-executable file with a plain name."""

    @property
    def acknowledged(self) -> list[str]:
        """The entries whose skips.json items the change adds, changes or removes."""
        return _sorted({entry for entry, _ in self.items})

    @property
    def touched(self) -> list[str]:
        """Every entry the change touches: its directory, its manifest row or its skips.json items."""
        return _sorted(set(self.directories) | set(self.rows) | set(self.acknowledged))

    @property
    def removal_only(self) -> list[str]:
        """Entries whose only change is acknowledgements removed (no directory, row, added or changed item)."""
        kept = {entry for entry, _ in self.items - self.removed} | set(self.directories) | set(self.rows)
        return _sorted({entry for entry, _ in self.removed} - kept)

    def opened(self) -> GitTree | None:
        """The merge base's GitTree, when `compare` opened one to read its rows or items (issue #20: the
        history check reads the base's ledger through it, the same repository handle and `cat-file`
        process); None otherwise. Not a field: a Change is compared by what it says, not by a handle."""
        opened: GitTree | None = self.__dict__.get("_opened")  # set by `compare` alone, to a GitTree
        return opened

    def counted(self) -> list[str]:
        """The entries the repository's rules count: every touched entry, except that a change moving the
        verifier pin may remove the acknowledgements its new reader makes stale (docs/trust.md)."""
        if not self.pin_moved:
            return self.touched
        spared = set(self.removal_only)
        return [e for e in self.touched if e not in spared]


def _rows(tree: Tree) -> dict[str, object] | None:
    """manifest.json's rows by id, as read strictly (None when it is absent or not an array of rows)."""
    read = docs.read_json(tree, MANIFEST, docs.MANIFEST_BOUND)
    if read.refusal is not None or not isinstance(read.value, list):
        return None
    return {row["id"]: row for row in read.value if isinstance(row, dict) and isinstance(row.get("id"), str)}


def _items(tree: Tree) -> dict[tuple[str, str], object] | None:
    """skips.json's items by (entry, fixture), as read strictly ({} when the file is absent, None when it
    is not an array)."""
    if tree.stat(SKIPS).kind == MISSING:
        return {}
    read = docs.read_json(tree, SKIPS, docs.MIB)
    if read.refusal is not None or not isinstance(read.value, list):
        return None
    return {(item["entry"], item["fixture"]): item for item in read.value
            if isinstance(item, dict) and isinstance(item.get("entry"), str) and isinstance(item.get("fixture"), str)}


def _differing(before: Mapping[_K, object] | None, after: Mapping[_K, object] | None) -> set[_K]:
    """The keys whose value differs between two readings; none when either cannot be read (the file's own
    refusal fails the gate then, and an entry it cannot hold by its pins gets every check)."""
    if before is None or after is None:
        return set()
    return {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}


def compare(repository: str, base: str, tree: Tree, commit: str | None = None) -> Change:
    """What the change (`tree`, at `commit` or the working tree) changes against `base`, from one
    comparison of paths with their merge base and, where manifest.json or skips.json changed, their rows
    and items read from both sides (raises BaseUnreadable when the base cannot be read)."""
    names, point = _changes(repository, base, commit)
    kinds = {name: kind_of(name) for name in names}
    rows: set[str] = set()
    items: set[tuple[str, str]] = set()
    removed: frozenset[tuple[str, str]] = frozenset()
    skips_removed = False
    before = None
    if ROWS in kinds.values() or ACKS in kinds.values():
        try:
            before = GitTree(repository, point)
        except TreeError as exc:
            raise BaseUnreadable(f"{base}: cannot be read ({exc})") from exc
        if ROWS in kinds.values():
            rows = _differing(_rows(before), _rows(tree))
        if ACKS in kinds.values():
            old, new = _items(before), _items(tree)
            items = _differing(old, new)
            removed = frozenset(pair for pair in items if pair not in (new or {}))
            skips_removed = before.stat(SKIPS).kind != MISSING and tree.stat(SKIPS).kind == MISSING
    change = Change(
        point=point,
        paths=tuple(names),
        directories=tuple(_touched([n for n in names if kinds[n] == ENTRY])),
        rows=tuple(_sorted(rows)),
        items=frozenset(items),
        removed=removed,
        skips_removed=skips_removed,
        pin_moved=PIN in kinds,
        gate_files=tuple(n for n in names if kinds[n] == GATE),
        other_files=tuple(n for n in names if kinds[n] == DOCUMENT),
        irregular_documents=tuple(n for n in names if kinds[n] == DOCUMENT and _irregular(tree, n)),
    )
    if before is not None:
        object.__setattr__(change, "_opened", before)  # see Change.opened
    return change


def _irregular(tree: Tree, path: str) -> bool:
    """A document path the change leaves as anything but a regular, non-executable file (a removal is fine) or
    whose name is outside the display grammar or flagged by the scan (issue #38 item 2)."""
    from ..quoting import display_path
    from ..tree import FILE

    if display_path(path) != path:
        return True
    try:
        node = tree.stat(path)
    except (TreeError, OSError):
        return True
    return node.kind != MISSING and (node.kind != FILE or node.executable)


def document_refusals(change: Change, base: str) -> list[Refusal]:
    """A document is a regular file like every file the gate reads (issue #38 item 2): each document the change
    adds or alters as a symlink, a submodule, an executable or under a name outside the display grammar is
    refused, named as the report names any path (quoting.display_path: never a raw name)."""
    from ..quoting import display_path

    return [Refusal(DOCUMENT_NOT_REGULAR, display_path(path),
                    f"{display_path(path)} is a document (a pull request may change it alone) and the change against "
                    f"{base} leaves it as something other than a regular, non-executable file with a plain name")
            for path in change.irregular_documents]


def pin_refusal(moved: bool, touched: list[str], base: str) -> Refusal | None:
    """RFC 0019 Compatibility: the pin moves by its own pull request, so a change that moves it and also
    touches an entry is refused."""
    if not moved or not touched:
        return None
    return Refusal(VERIFIER_PIN_MOVED_WITH_ENTRY, PIN,
                   f"this change moves the verifier pin ({PIN}) against {base} and also touches "
                   f"{len(touched)} entr{'y' if len(touched) == 1 else 'ies'} ({', '.join(touched)}); RFC 0019 "
                   "Compatibility moves the pin by its own pull request: split it")


def _listed(paths: tuple[str, ...], most: int = 3) -> str:
    """A few of the changed paths, each shown within the display grammar and the scan, else cut to its nearest
    safe parent (quoting.display_path), and how many more."""
    from ..quoting import display_path

    shown = ", ".join(display_path(p) for p in paths[:most])
    return shown + (f" and {len(paths) - most} more" if len(paths) > most else "")


def _travels_with_entry(code: str, files: tuple[str, ...], change: Change, what: str, base: str) -> Refusal | None:
    """`code` when the change alters `files` (of the kind `what` names) and also touches an entry."""
    touched = change.counted()
    if not files or not touched:
        return None
    entries = f"{len(touched)} entr{'y' if len(touched) == 1 else 'ies'} ({', '.join(touched)})"
    return Refusal(code, None, f"this change alters {len(files)} {what} against {base} ({_listed(files)}) and also "
                               f"touches {entries}: a pull request for an entry changes only its directory, its "
                               "manifest row and its own skips.json items, and a change to the gate is reviewed "
                               "alone; split it (docs/trust.md)")


def gate_refusal(change: Change, base: str) -> Refusal | None:
    """Gate changes travel alone (issue #16 item 2): a change to the gate's own files touches no entry, no
    manifest row and no skips.json item. (The verifier pin keeps its own code, verifier-pin-moved-with-entry.)"""
    return _travels_with_entry(GATE_CHANGE_WITH_ENTRY, change.gate_files, change, "of the gate's own files", base)


def gate_review_note(change: Change, base: str) -> str | None:
    """A change to the gate's own files that touches no entry (issue #24 item 1): not refused, but named in
    the report as what the maintainers must review — the gate judges the catalog, never a change to itself."""
    if not change.gate_files or change.counted():
        return None
    return (f"this change alters {len(change.gate_files)} of the gate's own files against {base} "
            f"({_listed(change.gate_files)}): the gate does not judge a change to the gate; the maintainers "
            "must review it (.github/CODEOWNERS; docs/trust.md, \"Who may touch what\")")


def other_files_refusal(change: Change, base: str) -> Refusal | None:
    """A pull request that touches an entry changes nothing but that entry's directory, its manifest row
    and its own skips.json items (issue #16 item 2): any other file of the repository is refused."""
    return _travels_with_entry(ENTRY_CHANGE_WITH_OTHER_FILE, change.other_files, change,
                               "other file(s) of the repository", base)


def skips_removed_refusal(change: Change, base: str) -> Refusal | None:
    """Once the base holds skips.json, a pull request may not remove it (issue #16 item 3): the file turns
    the acknowledgement rule on, and removing it would turn the rule off unreviewed."""
    if not change.skips_removed:
        return None
    return Refusal(SKIPS_FILE_REMOVED, SKIPS,
                   f"{base} holds skips.json and this change removes it, which would switch off the rule that "
                   "every skip is acknowledged (docs/skips.md); restore skips.json from the base "
                   f"(git checkout {base} -- skips.json) and remove only the items the change makes stale")


def changed_paths(repository: str, base: str, commit: str | None = None) -> list[str]:
    """Repository-relative paths the change (`commit`, or with no commit the working tree, untracked files
    included) makes against `base`: against their merge base, as a pull request's "Files changed"
    (a commit on `base` since the change branched is not the change's)."""
    return _changes(repository, base, commit)[0]


def _changes(repository: str, base: str, commit: str | None) -> tuple[list[str], str]:
    """`changed_paths`, and the merge base of `base` and the change that the paths are compared against.
    For the working tree, the untracked files are listed while the base is resolved and the tracked
    files compared (issue #20: each walks the whole tree; on two cores they overlap), and that listing
    is read, or its failure raised, where it was read before: after the comparison."""
    import git

    untracked = None
    try:
        repo = git.Repo(repository)
        try:
            if commit is None:
                untracked = _Untracked(repository)
            repo.commit(base)
            bases = repo.merge_base(base, commit or "HEAD")
            if not bases:
                raise BaseUnreadable(f"{base}: the change shares no history with it; branch from the base "
                                     "(git switch -c NAME BASE) or name another --base")
            point = bases[0].hexsha
            if commit is None:
                names = repo.git.diff("--name-only", "-z", "--no-renames", point).split("\0")
                # untracked files, not ignored, by their exact names (-z: no quoting to undo); git status would
                # also refresh every tracked file's stat, which the diff above has already compared
                assert untracked is not None  # started above when commit is None
                names += untracked.result().split("\0")
            else:
                names = repo.git.diff("--name-only", "-z", "--no-renames", point, commit).split("\0")
        finally:
            if untracked is not None:
                untracked.join()
            repo.close()
    except BaseUnreadable:
        raise
    except Exception as exc:  # GitPython raises several types for a bad revision or repository
        raise BaseUnreadable(f"{base}: cannot be compared ({reason(exc)})") from exc
    return [name for name in names if name], point


class _Untracked:
    """`git ls-files -z --others --exclude-standard` in the working tree, run on a thread of its own (git
    does the work; the thread waits for it) through its own GitPython command object, its output or its
    exception handed over by `result`."""

    def __init__(self, repository: str) -> None:
        import threading

        import git

        self._git = git.Git(repository)
        self._out: str | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="exchange-untracked", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._out = self._git.ls_files("-z", "--others", "--exclude-standard")
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, who raises it where it reads
            self._error = exc

    def join(self) -> None:
        self._thread.join()

    def result(self) -> str:
        self.join()
        if self._error is not None:
            raise self._error
        assert self._out is not None  # _run stored the listing, or its exception, raised above
        return self._out


def one_entry_refusal(touched: list[str], base: str) -> Refusal | None:
    """More than one entry changed against the base: the repository's rule is one per pull request."""
    if len(touched) <= 1:
        return None
    return Refusal(ONE_ENTRY_PER_PULL_REQUEST, None,
                   f"this change touches {len(touched)} entries against {base} ({', '.join(touched)}); "
                   "RFC 0019 §6 takes one entry per pull request: split it")
