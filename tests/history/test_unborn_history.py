"""history/unborn.py: a repository with no reference and an unborn HEAD is answered without GitPython, and the
answer is `check_history`'s own for the same repository (issue #20). Every other repository is left to the
full check (None), each near miss by one step: a ledger row, a ledger out of form, one commit, a detached
HEAD, a catalog nested in another repository, a directory in none, a bare repository."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

from judgment_exchange.history import CurrentEntry, check_history
from judgment_exchange.history.unborn import unborn_history

ENV = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t",
       "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True,
                          env=ENV).stdout


def _sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _unborn(root: Path) -> Path:
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    (root / "manifest.json").write_bytes(b"[]\n")
    (root / "releases.json").write_bytes(b"[]\n")
    return root


PAIR = ("urn:example:acme.a", "1.0.0")
CURRENT_SETS = {
    "none": [],
    "plain": [CurrentEntry("acme.a", "entries/acme/a", dialect_digest=_sha(b"d"), artifact=PAIR)],
    # one pair, two digests in the candidate release; an upgrade key with no release to hold it
    "identity-and-upgrade": [
        CurrentEntry("acme.a", "entries/acme/a", dialect_digest=_sha(b"d"), artifact=PAIR),
        CurrentEntry("acme.b", "entries/acme/b", dialect_digest=_sha(b"e"), artifact=PAIR),
        CurrentEntry("new.x", "entries/new/x", upgrade_keys=(_sha(b"an older entry"),)),
    ],
}


@pytest.mark.parametrize("ledger", [b"[]\n", b"  [ ]  ", None], ids=["empty", "spaced", "absent"])
@pytest.mark.parametrize("name", sorted(CURRENT_SETS))
def test_an_unborn_repository_is_answered_as_check_history_answers(tmp_path: Path, ledger, name: str) -> None:
    root = _unborn(tmp_path / "c")
    current = CURRENT_SETS[name]
    quick = unborn_history(str(root), current, ledger)
    assert quick is not None
    assert quick == check_history(str(root), current, ledger=ledger)
    assert quick.status == "no-releases"


def test_the_answer_holds_refusals_when_the_full_check_has_them(tmp_path: Path) -> None:
    """The near-equal case above is not vacuous: the full check refuses something here, and so does the quick one."""
    root = _unborn(tmp_path / "c")
    current = CURRENT_SETS["identity-and-upgrade"]
    full = check_history(str(root), current, ledger=b"[]\n")
    assert full.refusals, "the case gives the full check something to refuse"
    assert unborn_history(str(root), current, b"[]\n").refusals == full.refusals


ROW = (b'[\n  {\n    "tag": "v1.0.0",\n    "commit": "' + b"a" * 40 + b'",\n    "manifestDigest": "'
       + _sha(b"m").encode() + b'"\n  }\n]\n')


@pytest.mark.parametrize("ledger", [ROW, b"[", b"{}", b"[1]"], ids=["a-row", "unclosed", "object", "number"])
def test_near_miss_a_ledger_with_a_row_or_out_of_form_is_the_full_checks(tmp_path: Path, ledger: bytes) -> None:
    root = _unborn(tmp_path / "c")
    assert unborn_history(str(root), [], ledger) is None
    assert check_history(str(root), [], ledger=ledger).refusals, "the full check refuses it"


def test_near_miss_one_commit_is_the_full_checks(tmp_path: Path) -> None:
    root = _unborn(tmp_path / "c")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "first")
    assert unborn_history(str(root), [], b"[]\n") is None


def test_near_miss_a_detached_head_with_no_reference_is_the_full_checks(tmp_path: Path) -> None:
    root = _unborn(tmp_path / "c")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "first")
    commit = _git(root, "rev-parse", "HEAD").strip()
    _git(root, "checkout", "-q", "--detach")
    _git(root, "branch", "-q", "-D", "main")
    assert _git(root, "for-each-ref").strip() == "" and _git(root, "rev-parse", "HEAD").strip() == commit
    assert unborn_history(str(root), [], b"[]\n") is None


def test_near_miss_a_tag_without_a_branch_is_the_full_checks(tmp_path: Path) -> None:
    root = _unborn(tmp_path / "c")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "first")
    _git(root, "tag", "v1.0.0")
    _git(root, "checkout", "-q", "--orphan", "other")
    _git(root, "branch", "-q", "-D", "main")
    assert _git(root, "for-each-ref").strip() == f"{_git(root, 'rev-parse', 'v1.0.0').strip()} commit\trefs/tags/v1.0.0"
    assert unborn_history(str(root), [], b"[]\n") is None


def test_near_miss_a_catalog_nested_in_an_unborn_repository_is_the_full_checks(tmp_path: Path) -> None:
    outer = _unborn(tmp_path / "outer")
    inner = outer / "docs" / "catalog"
    inner.mkdir(parents=True)
    assert unborn_history(str(inner), [], b"[]\n") is None


def test_near_miss_a_directory_in_no_repository_and_a_bare_repository_are_the_full_checks(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert unborn_history(str(plain), [], b"[]\n") is None
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True, capture_output=True, env=ENV)
    assert unborn_history(str(bare), [], b"[]\n") is None
