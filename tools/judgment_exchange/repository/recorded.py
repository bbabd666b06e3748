"""An edited recording (issue #26 item 2; docs/recording.md, "An edited recording"): which commit holds a
fixture as it was recorded, and which of its files differ from that recording while its preparation.json
does not.

A fixture is recorded whole (`exchange new --from-run`, `exchange fixture add`): its preparation.json is
written with the other files, and a re-recording (`--replace`) writes a new one. So where a fixture no longer
replays and its preparation.json is byte for byte the recorded one, a file beside it that differs from the
recording was edited by hand. The recording is read, as objects, from:

- with `--base`, the base (the merge base the pull request is compared with) when it holds the fixture with
  this preparation.json: the fixture was already there, and the branch changed its other files;
- otherwise (a fixture new in the branch, or a plain `exchange check`), the newest commit of the checked
  history (HEAD, or the `--commit` checked) that changed the fixture's preparation.json (`git log -1 -- PATH`),
  when its preparation.json there is the one checked; after a `--base`, only among the branch's own commits.

Anything else — preparation.json changed since (a re-recording in progress, or an edited preparation.json,
which its digest pin already refuses), a fixture never committed, no git repository, an unreadable history —
is no answer: the refusal keeps the verifier's words. Nothing is read unless a fixture's replay failed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

if TYPE_CHECKING:
    from git import Repo  # GitPython, imported at run time only where a repository is opened (History._open)
    from git.objects import Commit

_P = ParamSpec("_P")
_T = TypeVar("_T")

PREPARATION = "preparation.json"
_ORDER = ("case.json", "sources.json", "profiles.json", "binding.json")
"""The fixture's files other than preparation.json, in the order a refusal names them."""


@dataclass(frozen=True)
class Recording:
    """The recording a fixture's files differ from: the `commit` holding it (a full id), whether that commit is
    the pull request's base (`base`; else the commit that recorded the fixture), the file names whose bytes
    differ from it (`changed`) and that it holds and the tree lacks (`removed`) — `git checkout COMMIT -- PATH`
    restores both —, the file names it does not hold (`added`: removed by hand), and the catalog's folder within
    its repository (`prefix`, '' at the root: the paths a fix prints are the catalog's, from that folder)."""

    commit: str
    base: bool
    changed: tuple[str, ...]
    added: tuple[str, ...]
    prefix: str = ""
    removed: tuple[str, ...] = ()

    @property
    def restored(self) -> tuple[str, ...]:
        """The files `git checkout COMMIT -- PATH…` brings back: changed and removed, in the fixture's order."""
        return tuple(n for n in _ORDER if n in self.changed or n in self.removed)

    @property
    def where(self) -> str:
        return "the base" if self.base else "the commit that recorded it"


class History:
    """One repository's history, opened on the first question and closed by `close` (a context manager)."""

    def __init__(self, repository: str | None, head: str | None = None, base: str | None = None) -> None:
        self.repository, self.head, self.base = repository, head, base
        self._repo: Repo | None = None
        self._opened = False
        self.prefix = ""

    def __enter__(self) -> History:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._repo is not None:
            self._repo.close()
            self._repo = None

    def _open(self) -> Repo | None:
        if self._opened:
            return self._repo
        self._opened = True
        if not self.repository:
            return None
        try:
            import git

            repo = git.Repo(self.repository, search_parent_directories=True)
        except Exception:  # not in a repository (InvalidGitRepositoryError, NoSuchPathError, …): no answer
            return None
        if repo.working_tree_dir and not repo.bare:
            place = os.path.relpath(os.path.realpath(self.repository), os.path.realpath(repo.working_tree_dir))
            self.prefix = "" if place == "." else place.replace(os.sep, "/") + "/"
            if self.prefix.startswith("../"):  # the catalog is not inside this work tree: no answer
                repo.close()
                return None
        self._repo = repo
        return repo

    def _blob(self, commit: Commit, path: str) -> bytes | None:
        try:
            data: bytes = (commit.tree / path).data_stream.read()  # gitdb's stream is untyped: a blob's bytes
        except KeyError:
            return None
        return data

    def recording(self, fixture_path: str, files: dict[str, bytes | None]) -> Recording | None:
        """The recording `fixture_path` (catalog-relative) differs from, given its files as checked (`files`:
        name -> bytes, None or absent for a file the fixture lacks); None when there is no answer (above)."""
        prepared = files.get(PREPARATION)
        if prepared is None:
            return None
        return self._asked(self._recording, fixture_path, files, prepared)

    def _asked(self, question: Callable[Concatenate[Repo, _P], _T | None], *args: _P.args, **kwargs: _P.kwargs
               ) -> _T | None:
        """`question(repo, *args)` on the opened repository; None when there is no repository or its history
        cannot be read (an unreadable history is no answer, never a failure of the check)."""
        repo = self._open()
        if repo is None:
            return None
        try:
            return question(repo, *args, **kwargs)
        except Exception:  # noqa: BLE001 - any reading failure of GitPython's is no answer
            return None

    def _recording(self, repo: Repo, fixture_path: str, files: dict[str, bytes | None], prepared: bytes
                   ) -> Recording | None:
        path = f"{self.prefix}{fixture_path}"
        head = self.head or "HEAD"
        at: Commit | None = None
        is_base = False
        if self.base is not None:
            base = repo.commit(self.base)
            held = self._blob(base, f"{path}/{PREPARATION}")
            if held is not None:
                if held != prepared:
                    return None  # re-recorded (or preparation.json edited) against the base: not this question
                at, is_base = base, True
        if at is None:
            span = f"{self.base}..{head}" if self.base is not None else head
            found = repo.git.log("-1", "--format=%H", span, "--", f"{path}/{PREPARATION}").strip()
            if not found:
                return None
            at = repo.commit(found)
            if self._blob(at, f"{path}/{PREPARATION}") != prepared:
                return None
        changed: list[str] = []
        added: list[str] = []
        removed: list[str] = []
        for name in _ORDER:
            recorded, now = self._blob(at, f"{path}/{name}"), files.get(name)
            if recorded == now:
                continue
            (added if recorded is None else removed if now is None else changed).append(name)
        if not changed and not added and not removed:
            return None
        return Recording(at.hexsha, is_base, tuple(changed), tuple(added), self.prefix, tuple(removed))

    def pinned_preparation(self, fixture_path: str, pinned: str, files: dict[str, bytes | None]) -> str | None:
        """The commit that recorded the fixture whose preparation.json `pinned` (entry.json's preparationDigest)
        pins, when preparation.json alone was edited since (issue #34 item 7): the newest commit of the checked
        history (HEAD, or the `--commit` checked; after a `--base`, the branch's commits and the base's) among
        the last MAX_LOOKED that changed preparation.json, whose preparation.json digests to `pinned` and whose
        other fixture files are byte for byte `files` (name -> bytes, None or absent for a file the fixture
        lacks). None when there is no answer: no repository, no such commit, or another file changed as well
        (a re-recording copied in by hand, which `exchange fix` re-pins once it replays)."""
        if files.get(PREPARATION) is None:
            return None
        return self._asked(self._pinned_preparation, fixture_path, pinned, files)

    def _pinned_preparation(self, repo: Repo, fixture_path: str, pinned: str, files: dict[str, bytes | None]
                            ) -> str | None:
        import hashlib

        path = f"{self.prefix}{fixture_path}"
        listed = repo.git.log(f"-{MAX_LOOKED}", "--format=%H", self.head or "HEAD", "--", f"{path}/{PREPARATION}")
        for found in listed.split():
            commit = repo.commit(found)
            held = self._blob(commit, f"{path}/{PREPARATION}")
            if held is None or "sha256:" + hashlib.sha256(held).hexdigest() != pinned:
                continue
            if any(self._blob(commit, f"{path}/{name}") != files.get(name) for name in _ORDER):
                return None
            return commit.hexsha
        return None


MAX_LOOKED = 64
"""The commits that changed a fixture's preparation.json `History.pinned_preparation` reads, newest first."""


__all__ = ["History", "Recording", "PREPARATION"]
