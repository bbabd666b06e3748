"""Issue #34 items 1 and 2: the returning contributor. A fork made when upstream had released v0.1.0; upstream
then released v0.2.0 (after a README edit) and v0.3.0 (after another). The clone of the fork has `upstream`
fetched; its `topic` branch, with a correct new entry, was made from upstream/main before the last fetch.

A stale clone is not a wrong one, and a branch is judged against the ledger it started from: plain
`exchange check` and `--base auto` give one verdict on the untouched main and on the branch. The rule is not
weakened: a branch that removes, edits or adds a ledger row is refused by both, and every printed fix of the
ledger's codes, applied literally, settles in a state both pass (four rounds at most, the modes alternating).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from .repos import git
from .test_one_main import _check, _codes
from .test_stale_main import _exchange, add_other

LEDGER_CODES = {"release-ledger-changed", "release-ledger-missing", "release-ledger-invalid", "release-tag-missing"}
MODES = ((), ("--base", "auto"))


def _release_after_readme(maint: Path, tag: str, text: str) -> None:
    (maint / "README.md").write_text(text)
    git(maint, "commit", "-q", "-s", "-am", f"README before {tag}")
    git(maint, "push", "-q", "origin", "main")
    _exchange(maint, "release", tag)  # an empty catalog may release the empty manifest again (RFC 0019 §7)
    git(maint, "push", "-q", "origin", "main", tag)


@pytest.fixture(scope="module")
def fork(tmp_path_factory) -> tuple[Path, Path, dict[str, str]]:
    """(upstream, the clone of the fork, its branches' commits): main at v0.1.0's release commit, `topic` from
    upstream/main as fetched before v0.2.0 with a new entry, upstream two releases ahead and fetched."""
    tmp = tmp_path_factory.mktemp("fork")
    seed = tmp / "seed"
    seed.mkdir()
    git(seed, "init", "-q", "-b", "main")
    (seed / "manifest.json").write_bytes(b"[]\n")
    (seed / "releases.json").write_bytes(b"[]\n")
    (seed / "README.md").write_text("# The catalog\n")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-s", "-m", "The catalog")
    upstream, fork, work = tmp / "upstream.git", tmp / "fork.git", tmp / "judgment-pack-exchange"
    git(tmp, "clone", "-q", "--bare", str(seed), str(upstream))
    maint = tmp / "maintainer"
    git(tmp, "clone", "-q", str(upstream), str(maint))
    _exchange(maint, "release", "v0.1.0")
    git(maint, "push", "-q", "origin", "main", "v0.1.0")
    git(tmp, "clone", "-q", "--bare", str(upstream), str(fork))  # the fork, made when upstream had v0.1.0
    git(tmp, "clone", "-q", str(fork), str(work))
    git(work, "remote", "add", "upstream", str(upstream))
    git(work, "fetch", "-q", "upstream", "--tags")
    git(work, "switch", "-q", "-c", "topic", "upstream/main")  # the branch, made before the next fetch
    add_other(work)
    git(work, "switch", "-q", "main")
    _release_after_readme(maint, "v0.2.0", "# The catalog\n\nRelease notes move to the wiki.\n")
    _release_after_readme(maint, "v0.3.0", "# The catalog\n\nRelease notes are in docs/.\n")
    git(work, "fetch", "-q", "upstream", "--tags")
    assert [r["tag"] for r in json.loads(git(work, "show", "upstream/main:releases.json"))] == \
        ["v0.1.0", "v0.2.0", "v0.3.0"]
    assert [r["tag"] for r in json.loads(git(work, "show", "main:releases.json"))] == ["v0.1.0"]
    return upstream, work, {name: git(work, "rev-parse", f"refs/heads/{name}") for name in ("main", "topic")}


@pytest.fixture
def work(fork) -> Path:
    """The clone, back on its untouched main with a clean tree and every tag, whatever a test did."""
    _, work, heads = fork
    git(work, "switch", "-q", "-f", "main")
    git(work, "clean", "-q", "-fdx")
    git(work, "reset", "-q", "--hard", heads["main"])
    git(work, "update-ref", "refs/heads/topic", heads["topic"])
    for extra in git(work, "for-each-ref", "--format=%(refname:short)", "refs/heads").split():
        if extra not in heads:
            git(work, "branch", "-q", "-D", extra)
    git(work, "fetch", "-q", "upstream", "--tags")
    return work


def _apply(work: Path, fix: str) -> None:
    """A printed fix's command, run literally in bash (the command part, after the first colon)."""
    command = fix.split(": ", 1)[1].split(" (", 1)[0]
    done = subprocess.run(["bash", "-c", command], cwd=work, capture_output=True, text=True, check=False)
    assert done.returncode == 0, (command, done.stderr)


def _settles(work: Path, first: int = 0) -> list[str]:
    """Check, alternating the modes from `first`, applying the first printed fix of a refusal each round,
    until both modes pass: four rounds at most. The fixes applied."""
    applied: list[str] = []
    for round_ in range(4):
        mode = MODES[(first + round_) % 2]
        status, report = _check(work, *mode)
        if status == 0:
            other = MODES[(first + round_ + 1) % 2]
            status, again = _check(work, *other)
            if status == 0:
                return applied
            report = again
        assert set(_codes(report)) <= LEDGER_CODES, report
        fixes = [r.get("fix") for r in report["refusals"]]
        assert all(fixes), report["refusals"]  # every ledger refusal prints its fix
        _apply(work, fixes[0])
        applied.append(fixes[0])
    raise AssertionError(f"no state both modes pass after four rounds: {applied}")


# --- the untouched main and the branch pass both -------------------------------------------------------------


def test_the_untouched_stale_main_passes_both_modes_with_one_note_saying_how_to_update(work):
    status, report = _check(work)
    assert (status, _codes(report), report["history"]) == (0, [], "checked"), report
    said = [n for n in report.get("notes", []) if n.startswith("main: ")]
    assert len(said) == 1 and "git merge --ff-only upstream/main" in said[0], report.get("notes", [])
    assert "4 commit(s) behind" in said[0] and "stale clone" in said[0], said
    status, report = _check(work, "--base", "auto")
    assert (status, _codes(report), report["history"]) == (0, [], "checked"), report
    git(work, "merge", "-q", "--ff-only", "upstream/main")  # the note's update, applied
    status, report = _check(work)
    assert (status, _codes(report)) == (0, []) and not [n for n in report.get("notes", []) if "stale clone" in n], (
        report)


def test_the_branch_made_before_the_fetch_passes_both_modes_told_it_is_behind(work):
    git(work, "switch", "-q", "topic")
    for mode in MODES:
        status, report = _check(work, *mode)
        assert (status, _codes(report), report["history"]) == (0, [], "checked"), (mode, report)
        behind = [n for n in report.get("notes", []) if "4 commit(s) behind upstream/main" in n]
        assert len(behind) == 1 and "bring them in first (git merge upstream/main)" in behind[0], (
            report.get("notes", []))
    git(work, "merge", "-q", "--no-edit", "upstream/main")  # the note's advice, applied
    for mode in MODES:
        status, report = _check(work, *mode)
        assert (status, _codes(report)) == (0, []) and not [n for n in report.get("notes", []) if "behind" in n], report


def test_a_diverged_local_main_is_judged_against_its_merge_base(work):
    (work / "NOTES.md").write_text("a local note\n")
    git(work, "add", "NOTES.md")
    git(work, "commit", "-q", "-s", "-m", "a local commit on main")
    for mode in MODES:
        status, report = _check(work, *mode)
        assert (status, _codes(report)) == (0, []), (mode, report)
        assert any("4 commit(s) behind upstream/main" in n for n in report.get("notes", [])), report.get("notes", [])


# --- the rule is not weakened: each ledger fix, applied literally, settles ------------------------------------


def _rows(work: Path) -> list:
    return json.loads((work / "releases.json").read_bytes())


def _write_rows(work: Path, rows: list) -> None:
    (work / "releases.json").write_text(json.dumps(rows, indent=2) + "\n" if rows else "[]\n")


def _remove_row(work: Path) -> None:
    _write_rows(work, _rows(work)[:-1])


def _add_row(work: Path) -> None:  # the loop: upstream's ledger taken on a branch that started before it
    git(work, "checkout", "upstream/main", "--", "releases.json")


def _edit_row(work: Path) -> None:
    rows = _rows(work)
    rows[0]["date"] = "2025-01-01"
    _write_rows(work, rows)


def _delete_ledger(work: Path) -> None:
    git(work, "rm", "-q", "releases.json")


def _break_ledger(work: Path) -> None:
    (work / "releases.json").write_text("[{\"tag\": \"v0.1.0\"}\n")


MUTATIONS = {"removes a row": _remove_row, "adds a row": _add_row, "edits a row": _edit_row,
             "deletes the ledger": _delete_ledger, "breaks the ledger": _break_ledger}
EXPECTED = {"removes a row": "release-ledger-changed", "adds a row": "release-ledger-changed",
            "edits a row": "release-ledger-changed", "deletes the ledger": "release-ledger-missing",
            "breaks the ledger": "release-ledger-invalid"}


@pytest.mark.parametrize("branch", ["topic", "main"])
@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_a_branch_that_changes_the_ledger_is_refused_by_both_and_each_fix_settles(work, branch, mutation):
    git(work, "switch", "-q", branch)
    MUTATIONS[mutation](work)
    git(work, "commit", "-q", "-s", "-am", f"the ledger: {mutation}")
    for mode in MODES:
        status, report = _check(work, *mode)
        assert status == 1 and EXPECTED[mutation] in _codes(report), (mode, report)
        assert set(_codes(report)) <= LEDGER_CODES, (mode, report)
    fixes = {_check(work, *mode)[1]["refusals"][0]["fix"] for mode in MODES}
    assert len(fixes) == 1, fixes  # the same fix from both modes
    for first in (0, 1):
        git(work, "reset", "-q", "--hard", "HEAD")
        applied = _settles(work, first)
        assert applied, "a refused state was not refused"


def test_a_missing_tag_is_fetched_from_the_remote_main_was_read_from(work):
    git(work, "switch", "-q", "topic")
    git(work, "tag", "-d", "v0.1.0")
    for mode in MODES:
        status, report = _check(work, *mode)
        assert status == 1 and set(_codes(report)) == {"release-tag-missing"}, (mode, report)
        assert report["refusals"][0]["fix"].endswith("git fetch --tags upstream"), report["refusals"]
    assert _settles(work, 1) == ["fetch the release tags: git fetch --tags upstream"]


def test_a_stale_main_whose_working_ledger_differs_from_heads_is_judged_as_a_branch(work):
    """Near miss of item 1: the stale clone's waiver holds only while releases.json is HEAD's own."""
    git(work, "checkout", "upstream/main", "--", "releases.json")  # main's ledger, but not HEAD's
    status, report = _check(work)
    assert status == 1 and _codes(report) == ["release-ledger-changed"], report
    assert not [n for n in report.get("notes", []) if "stale clone" in n], report.get("notes", [])
    assert _settles(work) and _check(work)[0] == 0


def test_check_commit_keeps_reading_the_commits_own_history(work):
    """`exchange check --commit C` (the push gate) reads C's own first-parent history: a row removed on it is
    refused as before, while plain check on the same branch judges the ledger it started from."""
    git(work, "switch", "-q", "-c", "shrunk", "upstream/main")
    _write_rows(work, _rows(work)[:-1])
    git(work, "commit", "-q", "-s", "-am", "remove the v0.3.0 row")
    commit = git(work, "rev-parse", "HEAD")
    status, report = _check(work, "--commit", commit)
    assert status == 1 and "release-ledger-changed" in _codes(report), report
    assert any("not its first parent's with rows appended" in r["detail"] for r in report["refusals"]), report
    git(work, "reset", "-q", "--hard", "HEAD~1")  # the near miss: the same clone, the row kept
    status, report = _check(work, "--commit", git(work, "rev-parse", "HEAD"))
    assert (status, _codes(report)) == (0, []), report


def test_the_stale_main_still_walks_mains_own_history(fork, work, tmp_path):
    """Nothing else is waived: a row removed on upstream's main is refused on the stale clone too."""
    upstream = fork[0]
    mirror = tmp_path / "upstream-copy.git"
    git(tmp_path, "clone", "-q", "--bare", str(upstream), str(mirror))
    bad = tmp_path / "bad"
    git(tmp_path, "clone", "-q", str(mirror), str(bad))
    _write_rows(bad, _rows(bad)[:-1])
    git(bad, "commit", "-q", "-s", "-am", "remove the v0.3.0 row")
    git(bad, "push", "-q", "origin", "main")
    git(work, "remote", "set-url", "upstream", str(mirror))
    try:
        git(work, "fetch", "-q", "upstream")
        status, report = _check(work)
        assert status == 1 and "release-ledger-changed" in _codes(report), report
    finally:
        git(work, "remote", "set-url", "upstream", str(upstream))
        git(work, "fetch", "-q", "--force", "upstream", "+refs/heads/main:refs/remotes/upstream/main")
