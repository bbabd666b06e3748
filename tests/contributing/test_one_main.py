"""Issue #26 item 1: one idea of main, true for the contributor and the maintainer. Main is the upstream
default branch as fetched (upstream's, else origin's, as `--base auto` finds it); when HEAD is the local
`main` and descends from it, main is HEAD's own first-parent history (the maintainer between `exchange
release` and the push). Every command uses that one answer, and says once which main it used when it had
to choose. No rule is weakened: a branch that edits the ledger is still refused, and each printed fix,
applied literally, removes its refusal and adds none."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .repos import git
from .test_stale_main import _exchange, _setup
from .test_walkthrough import _run


def _check(work: Path, *argv: str) -> tuple[int, dict]:
    done = _run(work, ["exchange", "check", *argv, "--format", "json"])
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)


def _codes(report: dict) -> list[str]:
    return [r["code"] for r in report["refusals"]]


def test_a_correct_branch_in_a_fork_whose_main_and_origin_are_behind_passes_plain_check_and_auto(tmp_path):
    """The fork contributor's case: local `main` and `origin` (the fork) are both two releases behind;
    the branch is made from upstream/main as CONTRIBUTING says. Plain check and --base auto both pass,
    with no note about tags after main's tip, and the plain check says once which main it read."""
    upstream, work = _setup(tmp_path)
    assert json.loads(git(work, "show", "main:releases.json")) == []
    assert json.loads(git(work, "show", "origin/main:releases.json")) == []
    git(work, "switch", "-q", "-c", "topic", "upstream/main")
    status, report = _check(work)
    assert (status, _codes(report), report["history"]) == (0, [], "checked"), report
    chosen = [n for n in report["notes"] if n.startswith("main: ")]
    assert len(chosen) == 1 and "upstream/main as fetched" in chosen[0], report["notes"]
    assert not any("after main's tip" in n or "behind the tags" in n for n in report["notes"]), report["notes"]
    status, report = _check(work, "--base", "auto")
    assert (status, _codes(report), report["history"]) == (0, [], "checked"), report


def test_the_maintainer_checks_a_release_before_the_push(tmp_path):
    """The maintainer's clone: `exchange release` on main, then plain `exchange check` before pushing. Main is
    the local main (it descends from origin/main), so the new ledger row is main's and the check passes,
    saying so; after the push the release workflow's check of the tagged commit passes too."""
    upstream, _ = _setup(tmp_path)
    maint = tmp_path / "maintainer-2"
    git(tmp_path, "clone", "-q", str(upstream), str(maint))
    git(maint, "rm", "-q", "-r", "entries/acme/other")  # a withdrawal: a change to release
    _exchange(maint, "manifest", "--write")
    git(maint, "commit", "-q", "-s", "-am", "Withdraw acme.other")
    git(maint, "push", "-q", "origin", "main")
    _exchange(maint, "release", "v0.3.0")
    status, report = _check(maint)
    assert (status, _codes(report), report["history"]) == (0, [], "checked"), report
    assert any(n.startswith("main: your local main") for n in report["notes"]), report["notes"]
    git(maint, "push", "-q", "origin", "main", "v0.3.0")
    ci = tmp_path / "ci"
    git(tmp_path, "clone", "-q", "--no-checkout", str(upstream), str(ci))
    commit = git(ci, "rev-parse", "v0.3.0^{commit}")
    git(ci, "checkout", "-q", "--detach", commit)
    status, report = _check(ci, "--commit", commit, "--release-tag", "v0.3.0")
    assert (status, _codes(report), report["history"]) == (0, [], "checked"), report


def _apply(work: Path, fix: str) -> None:
    """A printed fix's command, run literally in bash (only the command part, after the colon)."""
    command = fix.split(": ", 1)[1].split(" (", 1)[0]
    done = subprocess.run(["bash", "-c", command], cwd=work, capture_output=True, text=True, check=False)
    assert done.returncode == 0, (command, done.stderr)


def _branch_editing_the_ledger(tmp_path: Path) -> Path:
    """The fork's clone on a branch of upstream/main whose one commit edits a ledger row's date."""
    _, work = _setup(tmp_path)
    git(work, "switch", "-q", "-c", "topic", "upstream/main")
    ledger = work / "releases.json"
    ledger.write_text(ledger.read_text().replace("2026-", "2025-", 1))
    git(work, "commit", "-q", "-s", "-am", "edit a ledger row")
    return work


def test_no_rule_is_weakened_a_branch_that_edits_the_ledger_is_refused_and_its_fix_works(tmp_path):
    work = _branch_editing_the_ledger(tmp_path)
    for argv in ((), ("--base", "auto")):
        status, report = _check(work, *argv)
        assert status == 1 and set(_codes(report)) == {"release-ledger-changed"}, (argv, report)
    status, report = _check(work)
    fix = report["refusals"][0]["fix"]
    assert "git checkout " in fix and "-- releases.json" in fix, fix
    _apply(work, fix)
    git(work, "commit", "-q", "-s", "-am", "restore the ledger")
    status, report = _check(work)
    assert (status, _codes(report)) == (0, []), report
    status, report = _check(work, "--base", "auto")
    assert (status, _codes(report)) == (0, []), report


def test_the_pull_requests_ledger_fix_restores_what_the_branch_started_from(tmp_path):
    work = _branch_editing_the_ledger(tmp_path)
    status, report = _check(work, "--base", "auto")
    fix = report["refusals"][0]["fix"]
    assert fix.startswith("restore the ledger your branch started from: git checkout $(git merge-base "), fix
    _apply(work, fix)
    git(work, "commit", "-q", "-s", "-am", "restore the ledger")
    assert _codes(_check(work, "--base", "auto")[1]) == []


def test_a_branch_from_the_stale_local_main_is_told_it_is_behind(tmp_path):
    """Issue #26 item 6: a branch made from a stale local main passes --base auto (its change is judged against
    its merge base) but is told how far behind it is and how to bring upstream in."""
    upstream, work = _setup(tmp_path)
    git(work, "switch", "-q", "-c", "topic", "main")  # the stale local main, two releases behind
    status, report = _check(work, "--base", "auto")
    assert status == 0, report
    behind = [n for n in report["notes"] if "behind upstream/main" in n]
    assert len(behind) == 1 and "git merge upstream/main" in behind[0], report["notes"]
    git(work, "merge", "-q", "--no-edit", "upstream/main")
    status, report = _check(work, "--base", "auto")
    assert status == 0 and not [n for n in report["notes"] if "behind upstream/main" in n], report["notes"]


def test_a_bad_base_or_entry_is_reported_once(tmp_path):
    """A typo in --base or --entry gives its one refusal, and the rules it stopped report nothing."""
    upstream, work = _setup(tmp_path)
    git(work, "switch", "-q", "-c", "topic", "upstream/main")
    status, report = _check(work, "--base", "nosuchrev")
    assert (status, _codes(report), report["history"]) == (1, ["base-unreadable"], "skipped"), report
    status, report = _check(work, "--entry", "nosuch.entry")
    assert (status, _codes(report)) == (1, ["entry-unknown"]), report
    status, report = _check(work, "--base", "upstream/main")  # the fix, applied: a base this clone holds
    assert (status, _codes(report)) == (0, []), report
