"""`exchange release`, the gate, a consumer's release-check and the release workflow's own steps, on
throwaway repositories (issue #10 items 1, 7; docs/releasing.md).

The workflow's steps are run as written in .github/workflows/release.yml (their `run` text, in bash),
in a clone that plays the CI checkout: the tag checked out, `origin` the pushed repository.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import git
import pytest
import yaml

from judgment_exchange.cli import main as exchange
from judgment_exchange.consumer import release_check
from judgment_exchange.repository.release import make_release

from ..support.gitrepo import GitRepo, gate_on, git_identity, two_releases

WORKFLOW = Path(__file__).resolve().parents[2] / ".github" / "workflows" / "release.yml"


@pytest.fixture(autouse=True)
def identity(monkeypatch) -> None:
    git_identity(monkeypatch)


@pytest.fixture
def catalog(tmp_path: Path) -> GitRepo:
    return two_releases(tmp_path / "catalog")


def test_gate_passes_a_catalog_released_by_the_command(catalog) -> None:
    report = gate_on(catalog)
    assert (report.refusals, report.history) == ([], "checked")


def test_deleted_release_tag_fails_the_gate_not_no_releases(catalog) -> None:
    catalog.git("tag", "-d", "v0.1.0")
    report = gate_on(catalog)
    assert ([r.code for r in report.refusals], report.history) == (["release-tag-missing"], "checked")


def test_pull_request_changing_a_ledger_row_is_refused_by_the_gate(catalog, capsys) -> None:
    catalog.git("switch", "-q", "-c", "topic")
    ledger = catalog.path / "releases.json"
    ledger.write_text(ledger.read_text().replace("2026-", "2025-", 1))
    catalog.git("commit", "-q", "-am", "edit a row")
    rc = exchange(["check", "--catalog", str(catalog.path), "--base", "main", "--format", "json"])
    out = capsys.readouterr().out
    assert rc == 1 and "release-ledger-changed" in out


def test_pull_request_leaving_the_ledger_alone_passes_the_gate(catalog, capsys) -> None:
    catalog.git("switch", "-q", "-c", "topic")
    catalog.git("commit", "-q", "--allow-empty", "-m", "nothing")
    assert exchange(["check", "--catalog", str(catalog.path), "--base", "main"]) == 0


def test_amended_earlier_release_with_force_moved_tag_fails_a_consumers_release_check(catalog) -> None:
    first = catalog.rev("v0.1.0^{commit}")
    tree = catalog.rev(f"{first}^{{tree}}")
    amended = catalog.git("commit-tree", tree, "-p", f"{first}~1", "-m", "Release v0.1.0 (amended)")
    catalog.git("tag", "-f", "v0.1.0", amended)
    result = release_check(str(catalog.path), "v0.2.0")
    assert [r.code for r in result.report.refusals] == ["release-tag-mismatch"]
    assert release_check(str(catalog.path), "v0.1.0").report.refusals == []  # no earlier release to hold


def test_consumer_release_check_of_an_honest_release_passes(catalog) -> None:
    result = release_check(str(catalog.path), "v0.2.0")
    assert (result.report.refusals, result.report.history) == ([], "checked")


# --- the release workflow's steps, as written ---------------------------------------------------------


def _steps() -> dict[str, str]:
    jobs = yaml.safe_load(WORKFLOW.read_text())["jobs"]["release"]["steps"]
    return {step["name"]: step["run"] for step in jobs if "run" in step}


def _step(prefix: str) -> str:
    found = [run for name, run in _steps().items() if name.startswith(prefix)]
    assert len(found) == 1, prefix
    return found[0]


def _workflow(upstream: GitRepo, tag: str, tmp_path: Path) -> tuple[int, str]:
    """The tag-on-main step and the ledger step in a fresh CI-like clone at the tag; (status, output)."""
    ci = tmp_path / "ci"
    handle = git.Repo.clone_from(str(upstream.path), str(ci), no_checkout=True)
    handle.git.checkout("-q", "--detach", f"refs/tags/{tag}")
    handle.close()
    env = dict(os.environ, TAG=tag, GITHUB_ENV=str(tmp_path / "github_env"),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    output = ""
    for prefix in ("The tag resolves to a commit on main", "The tag is new"):
        done = subprocess.run(["bash", "-e", "-c", _step(prefix)], cwd=ci, env=env, capture_output=True, text=True)
        output += done.stdout + done.stderr
        if done.returncode:
            return done.returncode, output
        for line in Path(env["GITHUB_ENV"]).read_text().splitlines() if Path(env["GITHUB_ENV"]).exists() else []:
            key, _, value = line.partition("=")
            env[key] = value
    return 0, output


def test_release_workflow_admits_a_release_made_by_the_command(catalog, tmp_path: Path) -> None:
    assert _workflow(catalog, "v0.2.0", tmp_path) == (0, "")


def test_release_workflow_refuses_a_re_pushed_moved_tag(catalog, tmp_path: Path) -> None:
    catalog.git("tag", "-f", "-a", "-m", "moved", "v0.1.0", "v0.2.0^{commit}")
    status, out = _workflow(catalog, "v0.1.0", tmp_path)
    assert status == 1 and "existed before" in out


def test_release_workflow_refuses_a_tag_not_on_main(catalog, tmp_path: Path) -> None:
    catalog.git("switch", "-q", "-c", "side")
    assert "not on main" in make_release(str(catalog.path), "v0.4.0").lines[0]  # the command refuses it
    catalog.git("commit", "-q", "--allow-empty", "-m", "side work")
    catalog.git("tag", "v0.4.0")
    catalog.git("switch", "-q", "main")
    status, out = _workflow(catalog, "v0.4.0", tmp_path)
    assert status == 1 and "not on main" in out


def _hand_release(repo: GitRepo, tag: str) -> None:
    """A release commit made by hand: TAG's row appended (whatever its order) and the tag, no checks."""
    ledger = repo.path / "releases.json"
    rows = json.loads(ledger.read_text())
    head = repo.rev("HEAD")
    rows.append({"tag": tag, "manifestDigest": "sha256:" + hashlib.sha256(b"[]\n").hexdigest(), "commit": head,
                 "previous": repo.rev(rows[-1]["tag"] + "^{commit}"), "date": "2026-10-14"})
    ledger.write_text(json.dumps(rows, indent=2) + "\n")
    repo.git("commit", "-q", "-am", f"Release {tag}")
    repo.tag(tag, annotated=True)


def test_release_workflow_admits_a_hand_made_release_commit_of_the_right_form(catalog, tmp_path: Path) -> None:
    _hand_release(catalog, "v0.3.0")  # the near miss of the refusals below: same form as the command's
    assert _workflow(catalog, "v0.3.0", tmp_path) == (0, "")


def test_release_workflow_refuses_a_tag_below_an_existing_release(catalog, tmp_path: Path) -> None:
    _hand_release(catalog, "v0.1.5")
    status, out = _workflow(catalog, "v0.1.5", tmp_path)
    assert status == 1 and "no readable releases.json" in out  # the ledger's rows are in tag order


def test_release_workflow_refuses_a_tag_below_an_existing_tag_on_main(catalog, tmp_path: Path) -> None:
    catalog.git("tag", "v0.9.0", "v0.2.0^{commit}~1")  # an unrecorded tag on main (the gate refuses it too)
    _hand_release(catalog, "v0.3.0")
    status, out = _workflow(catalog, "v0.3.0", tmp_path)
    assert status == 1 and "not above the existing release tags on main v0.9.0" in out


def test_release_workflow_refuses_a_tagged_commit_without_its_ledger_row(catalog, tmp_path: Path) -> None:
    catalog.git("commit", "-q", "--allow-empty", "-m", "more")
    catalog.git("tag", "-a", "-m", "by hand", "v0.3.0")
    status, out = _workflow(catalog, "v0.3.0", tmp_path)
    assert status == 1 and "does not add exactly the ledger row of v0.3.0" in out


def test_release_notes_list_every_entry_every_skip_and_the_reader(tmp_path: Path) -> None:
    """The notes step, as written, on the gate's real JSON report of the demonstration catalog."""
    demo = Path(__file__).resolve().parents[2] / "docs" / "demo-catalog"
    gate = subprocess.run([sys.executable, "-m", "judgment_exchange", "check", "--catalog", str(demo), "--no-history",
                           "--format", "json"], capture_output=True, text=True, check=False)
    assert gate.returncode == 0, gate.stdout + gate.stderr
    (tmp_path / "gate.json").write_text(gate.stdout, encoding="utf-8")
    (tmp_path / "manifest.json").write_bytes((demo / "manifest.json").read_bytes())
    summary = tmp_path / "summary.md"
    env = dict(os.environ, TAG="v0.1.0", commit="0" * 40, GITHUB_STEP_SUMMARY=str(summary))
    done = subprocess.run(["bash", "-e", "-c", _step("Release notes")], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    notes = (tmp_path / "notes.md").read_text(encoding="utf-8")
    ids = [row["id"] for row in json.loads((demo / "manifest.json").read_bytes())]
    assert len(ids) == 11 and all(f"- {i} (" in notes for i in ids), notes
    assert "- kinds.intake-http-source / vendor-7: kind-unread: http (reader: bundled: judgment_exchange" in notes
    assert "Fixtures were replayed by bundled: judgment_exchange" in notes and "10 fixture(s)" in notes
    assert summary.read_text(encoding="utf-8") == notes
