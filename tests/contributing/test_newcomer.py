"""Issue #26's done-when, as one scripted newcomer run: a fresh clone of this repository and the README's
main-job command (not its test command); the CONTRIBUTING walkthrough, as the document writes it, on a fork
whose local `main` and `origin` are both two releases behind; the maintainer's release, checked before the
push and by the release workflow's check after it; then a planted mistake of each kind the issue names, each
refused with a fix that, applied literally, removes the refusal and adds none. At no step a false refusal,
a fix that fails, a dead end or a traceback.

The pieces each have tests of their own (test_one_main.py, test_first_hour_messages.py,
test_release_tells_consumers.py); this run holds them together, in the order a newcomer meets them."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

from ..support.paths import REPO
from .repos import git, git_env
from .test_stale_main import _setup
from .test_walkthrough import _exchange, run_walkthrough

ENTRY = "entries/acme/vendors"
COMMIT = "fc311549379e56c38e5133663a632964d9310ba0"  # a bare commit id, as a README might quote it


def _sh(cwd: Path, command: str) -> subprocess.CompletedProcess:
    """A command line as a person types it (the installed `exchange`, git), in bash."""
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=git_env(), capture_output=True, text=True,
                          check=False)
    assert "Traceback" not in done.stdout + done.stderr, (command, done.stderr)
    return done


def _report(cwd: Path, *argv: str) -> dict:
    done = _sh(cwd, " ".join(["exchange", "check", *map(shlex.quote, argv), "--format", "json"]))
    assert done.returncode in (0, 1), (argv, done.stderr)
    return json.loads(done.stdout)


def _codes(report: dict) -> list[str]:
    return sorted(r["code"] for r in report["refusals"])


def _backticked(fix: str) -> str:
    found = re.search(r"`([^`]+)`", fix)
    assert found, fix
    return found.group(1)


def _main_job(tmp_path: Path) -> None:
    """A fresh clone of this repository, and the README's main-job command past its install (the package is
    installed already: this test runs inside the environment .ci/run made)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```\n(.*?)```", readme[readme.index("## Set up"):], re.S).group(1)
    main_job = next(line for line in block.splitlines() if line.rstrip().endswith("# the main job"))
    commands = [part.split("#")[0].strip() for part in main_job.split("&&")][1:]
    assert commands == ["exchange check", "exchange check --catalog docs/demo-catalog"], commands
    clone = tmp_path / "fresh-clone"
    git(tmp_path, "clone", "-q", str(REPO), str(clone))
    for command in commands:
        done = _sh(clone, command)
        assert done.returncode == 0 and "result: pass" in done.stdout, (command, done.stdout, done.stderr)


def _walkthrough(tmp_path: Path) -> tuple[Path, Path]:
    """The walkthrough, every step as written, on the stale fork; every check on the way passes, and none
    speaks of main being behind the tags."""
    upstream, work = _setup(tmp_path)
    assert json.loads(git(work, "show", "main:releases.json")) == []
    assert json.loads(git(work, "show", "origin/main:releases.json")) == []

    def held(argv, done):
        if argv[:2] == ["exchange", "check"]:
            assert "behind the tags" not in done.stdout and "after main's tip" not in done.stdout, done.stdout

    run_walkthrough(upstream, work, on_run=held)
    for command in ("exchange check", "exchange check --base auto", "exchange signoff --base auto"):
        done = _sh(work, command)
        assert done.returncode == 0 and "result: pass" in done.stdout, (command, done.stdout)
    return upstream, work


def _release(tmp_path: Path, upstream: Path) -> Path:
    """The maintainer: a clone of upstream (the walkthrough merged the pull request), `exchange release`, then
    `exchange check` before the push; after it, the release workflow's check of the tagged commit."""
    maint = tmp_path / "maintainer-newcomer"
    git(tmp_path, "clone", "-q", str(upstream), str(maint))
    done = _sh(maint, "exchange release v0.3.0")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "acme.vendors: added" in done.stdout
    report = _report(maint)
    assert (report["result"], report["history"]) == ("pass", "checked"), report
    git(maint, "push", "-q", "origin", "main", "v0.3.0")
    ci = tmp_path / "release-workflow"
    git(tmp_path, "clone", "-q", "--no-checkout", str(upstream), str(ci))
    commit = git(ci, "rev-parse", "v0.3.0^{commit}")
    report = _report(ci, "--commit", commit, "--release-tag", "v0.3.0")
    assert (report["result"], report["history"]) == ("pass", "checked"), report
    return maint


def _branch(work: Path, name: str) -> None:
    git(work, "fetch", "-q", "upstream", "--tags")
    git(work, "switch", "-q", "-c", name, "upstream/main")


def _edited_recording(work: Path) -> None:
    """Item 2: a value changed in a fixture's case.json, named as an edited recording; its fix restores it."""
    _branch(work, "mistake-edited-recording")
    (fixture,) = (work / ENTRY / "fixtures").iterdir()
    case = fixture / "case.json"
    case.write_text(case.read_text().replace('"id":7', '"id":8'))
    report = _report(work, "--base", "auto")
    [refusal] = report["refusals"]
    assert refusal["path"] == case.relative_to(work).as_posix() and "an edited recording" in refusal["detail"]
    assert _sh(work, _backticked(refusal["fix"])).returncode == 0
    assert _codes(_report(work, "--base", "auto")) == []


def _stray_file(work: Path) -> None:
    """Item 3: a stray file in the entry, named; removed as the fix says."""
    _branch(work, "mistake-stray-file")
    (work / ENTRY / "notes.txt").write_text("to do\n")
    [refusal] = _report(work, "--base", "auto")["refusals"]
    assert refusal["code"] == "entry-file-unexpected" and refusal["path"] == f"{ENTRY}/notes.txt", refusal
    assert refusal["fix"].startswith("Remove the file")
    (work / refusal["path"]).unlink()
    assert _codes(_report(work, "--base", "auto")) == []


def _commit_in_readme(work: Path) -> None:
    """Item 5: a bare commit id in the README, its fix printed once, and a form it names passes."""
    _branch(work, "mistake-commit-id")
    readme = work / ENTRY / "README.md"
    text = readme.read_text()
    readme.write_text(text + f"\nRecorded with the Runner at commit {COMMIT}.\n")
    [refusal] = _report(work, "--base", "auto")["refusals"]
    assert refusal["code"] == "secret-high-entropy-hex" and "its first 12 characters unquoted" in refusal["fix"]
    done = _sh(work, "exchange check --base auto")
    assert done.stdout.count(refusal["fix"]) == 1
    readme.write_text(text + f"\nRecorded with the Runner at commit {COMMIT[:12]}.\n")
    assert _codes(_report(work, "--base", "auto")) == []


def _ledger_edit(work: Path) -> None:
    """Item 1's rule, not weakened: a branch that edits the ledger is refused; its printed fix restores it."""
    _branch(work, "mistake-ledger")
    ledger = work / "releases.json"
    ledger.write_text(ledger.read_text().replace("2026-", "2025-", 1))
    git(work, "commit", "-q", "-s", "-am", "edit the ledger")
    report = _report(work)
    assert set(_codes(report)) == {"release-ledger-changed"}, report
    fix = report["refusals"][0]["fix"]
    command = fix.split(": ", 1)[1].split(" (", 1)[0]
    assert _sh(work, command).returncode == 0
    assert _codes(_report(work)) == []


def _unnoted_change(maint: Path) -> None:
    """Item 4: a released entry changed on main without a note: warned by the check, stopped by the release,
    whose printed fix (the upgrade note) lets it go on."""
    git(maint, "pull", "-q", "--ff-only")
    path = maint / ENTRY / "entry.json"
    entry = json.loads(path.read_bytes())
    entry["description"] = "Reads one vendor's registry record for the intake pack; its team is named in the README."
    path.write_text(json.dumps(entry, indent=2) + "\n")
    assert _sh(maint, "exchange fix").returncode == 0
    git(maint, "commit", "-q", "-s", "-am", "acme.vendors: a new description")
    report = _report(maint)
    assert [w["code"] for w in report.get("warnings", [])] == ["upgrade-note-missing"], report
    done = _sh(maint, "exchange release v0.4.0")
    assert done.returncode == 1 and "acme.vendors" in done.stderr
    assert _sh(maint, "exchange upgrade-note acme.vendors 'The description says who keeps it; nothing read "
                      "changed.'").returncode == 0
    git(maint, "commit", "-q", "-s", "-am", "acme.vendors: its upgrade note")
    done = _sh(maint, "exchange release v0.4.0")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_newcomers_first_hour(tmp_path):
    assert _exchange()  # the installed command is on PATH
    _main_job(tmp_path)
    upstream, work = _walkthrough(tmp_path)
    maint = _release(tmp_path, upstream)
    for plant in (_edited_recording, _stray_file, _commit_in_readme, _ledger_edit):
        plant(work)
    _unnoted_change(maint)
