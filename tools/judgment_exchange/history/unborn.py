"""The history of a repository that has no release yet, answered without GitPython (RFC 0019 §§3, 7; issue #20).

A catalog's first checks run in a repository with no commit: `git init`, the first entry, `exchange
check`. Its history is then known without reading an object: no tag names a release, no main names a
commit, so there is no previous release, and the checked tree's releases.json may only be absent or
hold no row. `unborn_history` answers for exactly that repository and returns None for any other, which
the full check (`check.check_history`, through GitPython's object database) then reads:

- `git rev-parse --show-toplevel --absolute-git-dir` in the catalog's directory names it as the root of
  its work tree (a catalog nested in another repository, a bare repository or a directory git refuses
  is the full check's);
- `git for-each-ref --count=1` lists no reference at all (so no tag, no `main`, no `origin/main`); and
- the git directory's `HEAD` is a symbolic reference (`ref: refs/...`, git's own file format), so with
  no reference HEAD names no commit either (a detached HEAD names one: the full check reads it).

The answer is the full check's for the same repository: no refusal of the ledger (none absent, none
with no row), no note, status `no-releases`, and the refusals the full check derives from no previous
release (`history_artifact_refusals_of` and `unknown_key_refusals_of` with no facts, the same functions).
tests/history/test_unborn_history.py holds it to `check_history` itself, case by case.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence

from .identity import history_artifact_refusals_of
from .ledger import LedgerFormError, read_ledger
from .model import NO_RELEASES, CurrentEntry, Facts, HistoryResult
from .upgrade import latest_released, unknown_key_refusals_of

_GIT_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
_TIMEOUT = 30  # seconds: a git that answers in none is the full check's to meet


def unborn_history(repository: str, current: Sequence[CurrentEntry], ledger: bytes | None) -> HistoryResult | None:
    """The history check's result for a repository with no reference and an unborn HEAD (see the module's
    text), `ledger` the checked tree's releases.json (None: absent); None: read the repository in full."""
    if ledger is not None and not _rowless(ledger):
        return None  # a row, or a ledger out of form: the full check says what it is
    if not _unborn_root(repository):
        return None
    facts = Facts()
    refusals = history_artifact_refusals_of(current, facts) + unknown_key_refusals_of(current, facts, 0)
    return HistoryResult(NO_RELEASES, refusals, [], [], latest_released(facts))


def _rowless(ledger: bytes) -> bool:
    try:
        return read_ledger(ledger) == []
    except LedgerFormError:
        return False


def _git(repository: str, *args: str) -> str | None:
    """git's standard output in `repository`, or None when it cannot run or refuses."""
    try:
        done = subprocess.run(["git", "-C", repository, *args], capture_output=True, timeout=_TIMEOUT,
                              env={**os.environ, **_GIT_ENV}, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    try:
        return done.stdout.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _unborn_root(repository: str) -> bool:
    """Whether `repository` is the root of a work tree whose repository holds no reference, HEAD unborn."""
    where = _git(repository, "rev-parse", "--show-toplevel", "--absolute-git-dir")
    if where is None:
        return False
    lines = where.split("\n")
    if len(lines) != 3 or lines[2] != "" or not lines[0] or not lines[1]:
        return False
    top, git_dir = lines[0], lines[1]
    if os.path.realpath(top) != os.path.realpath(repository):
        return False
    refs = _git(repository, "for-each-ref", "--count=1", "--format=%(refname)")
    if refs is None or refs.strip():
        return False
    try:
        with open(os.path.join(git_dir, "HEAD"), "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return head.startswith(b"ref: refs/") and head.endswith(b"\n") and head.count(b"\n") == 1
