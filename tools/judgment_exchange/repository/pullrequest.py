"""A pull request's touched entries (RFC 0019 §6: one entry per pull request; interfaces.md `--base`),
and `--base auto`: the merge base with the upstream default branch (CONTRIBUTING.md, "What CI runs").
"""

from __future__ import annotations

from ..gitfail import reason
from dataclasses import dataclass

from ..refusal import Refusal

AUTO = "auto"

# Where `--base auto` looks for the upstream default branch, first that names a commit wins: a fork's
# `upstream` remote (GitHub's convention for the repository a fork's pull requests go to), then the
# clone's `origin`; each by its HEAD symbolic ref (the remote's default branch, as `git clone` or
# `git remote set-head NAME --auto` records it), else its `main`; last the local `main`.
AUTO_ORDER = (
    "refs/remotes/upstream/HEAD",
    "refs/remotes/upstream/main",
    "refs/remotes/origin/HEAD",
    "refs/remotes/origin/main",
    "refs/heads/main",
)


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

    def describe(self) -> str:
        via = self.ref if self.target == self.ref else f"{self.ref} -> {self.target}"
        return f"--base auto: the merge base of HEAD and {via} ({self.tip[:12]}) is {self.commit}"


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
            target = _symbolic_target(repo, ref)
            bases = repo.merge_base(head, tip)
            if not bases:
                raise BaseUnresolved(f"HEAD shares no history with {ref}; branch from the upstream default "
                                     "branch, or name the base with --base REV")
            return AutoBase(bases[0].hexsha, ref, target, tip.hexsha)
    finally:
        repo.close()
    raise BaseUnresolved("no upstream default branch: none of " + ", ".join(AUTO_ORDER) + " names a commit; "
                         "add the catalog as a remote (git remote add upstream URL; git fetch upstream) "
                         "or name the base with --base REV")


def _symbolic_target(repo, ref: str) -> str:
    """Where a symbolic reference points (e.g. refs/remotes/origin/HEAD -> refs/remotes/origin/main)."""
    try:
        return repo.git.symbolic_ref("-q", ref) or ref
    except Exception:  # not a symbolic reference
        return ref


def touched_entries(repository: str, base: str, commit: str | None = None) -> list[str]:
    """Ids of the entries whose files differ between `base` and `commit`, or, with no commit, the
    working tree (untracked files included)."""
    return _touched(changed_paths(repository, base, commit))


def compare(repository: str, base: str, commit: str | None = None) -> tuple[list[str], bool]:
    """`touched_entries`, and whether the change moves the verifier pin (verifier-pin.json added, changed
    or removed; docs/verifier-pin.md), from one comparison with the base."""
    names = changed_paths(repository, base, commit)
    return _touched(names), PIN in names


def _touched(names: list[str]) -> list[str]:
    ids = set()
    for name in names:
        parts = name.split("/")
        if len(parts) >= 4 and parts[0] == "entries":
            ids.add(f"{parts[1]}.{parts[2]}")
    return sorted(ids, key=lambda i: i.encode("utf-8", "surrogateescape"))


PIN = "verifier-pin.json"



def pin_refusal(moved: bool, touched: list[str], base: str) -> Refusal | None:
    """RFC 0019 Compatibility: the pin moves by its own pull request, so a change that moves it and also
    touches an entry is refused."""
    if not moved or not touched:
        return None
    return Refusal("verifier-pin-moved-with-entry", PIN,
                   f"this change moves the verifier pin ({PIN}) against {base} and also touches "
                   f"{len(touched)} entr{'y' if len(touched) == 1 else 'ies'} ({', '.join(touched)}); RFC 0019 "
                   "Compatibility moves the pin by its own pull request: split it")


def changed_paths(repository: str, base: str, commit: str | None = None) -> list[str]:
    """Repository-relative paths that differ between `base` and `commit`, or, with no commit, the
    working tree (untracked files included)."""
    import git

    try:
        repo = git.Repo(repository)
        try:
            repo.commit(base)
            if commit is None:
                names = repo.git.diff("--name-only", "-z", "--no-renames", base).split("\0")
                # untracked files, not ignored, by their exact names (-z: no quoting to undo); git status would
                # also refresh every tracked file's stat, which the diff above has already compared
                names += repo.git.ls_files("-z", "--others", "--exclude-standard").split("\0")
            else:
                names = repo.git.diff("--name-only", "-z", "--no-renames", base, commit).split("\0")
        finally:
            repo.close()
    except Exception as exc:  # GitPython raises several types for a bad revision or repository
        raise BaseUnreadable(f"{base}: cannot be compared ({reason(exc)})") from exc
    return [name for name in names if name]


def one_entry_refusal(touched: list[str], base: str) -> Refusal | None:
    """More than one entry changed against the base: the repository's rule is one per pull request."""
    if len(touched) <= 1:
        return None
    return Refusal("one-entry-per-pull-request", None,
                   f"this change touches {len(touched)} entries against {base} ({', '.join(touched)}); "
                   "RFC 0019 §6 takes one entry per pull request: split it")
