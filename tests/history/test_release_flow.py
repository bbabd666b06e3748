"""`exchange release`, the gate, a consumer's release-check and the release workflow's own steps, on
throwaway repositories (issue #10 items 1, 7; docs/releasing.md).

The workflow's steps are run as written in .github/workflows/release.yml and, through its release job's
`uses: ./catalog/.github/actions/gate`, in the gate's action (their `run` text, in bash, by
tests/trust/runner.py, the action's inputs substituted), in a layout that plays the runner's: the tag checked
out into catalog/ of the workspace, `origin` the pushed repository, `$RUNNER_TEMP/gate/bin/exchange` the
package under test.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from judgment_exchange.cli import main as exchange
from judgment_exchange.consumer import release_check
from judgment_exchange.releasing.release import make_release

from ..support.gitrepo import GitRepo, gate_on, git_identity
from ..support.simulator import CatalogSimulator, empty_released_twice

WORKFLOW = Path(__file__).resolve().parents[2] / ".github" / "workflows" / "release.yml"


@pytest.fixture(autouse=True)
def identity(monkeypatch) -> None:
    git_identity(monkeypatch)


@pytest.fixture
def catalog(tmp_path: Path) -> CatalogSimulator:
    return empty_released_twice(tmp_path / "catalog")


def test_gate_passes_a_catalog_released_by_the_command(catalog) -> None:
    report = gate_on(catalog)
    assert (report.refusals, report.history) == ([], "checked")


def test_deleted_release_tag_fails_the_gate_not_no_releases(catalog) -> None:
    catalog.delete_tag("v0.1.0")
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
    catalog.move_tag("v0.1.0", amended, annotated=False)
    result = release_check(str(catalog.path), "v0.2.0")
    assert [r.code for r in result.report.refusals] == ["release-tag-mismatch"]
    assert release_check(str(catalog.path), "v0.1.0").report.refusals == []  # no earlier release to hold


def test_consumer_release_check_of_an_honest_release_passes(catalog) -> None:
    result = release_check(str(catalog.path), "v0.2.0")
    assert (result.report.refusals, result.report.history) == ([], "checked")


# --- the release workflow's steps, as written ---------------------------------------------------------


def _job() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())["jobs"]["release"]


def _named(job: dict, *prefixes: str) -> list[dict]:
    """The job's run steps named by `prefixes`, the action's read from this checkout's action.yml."""
    from ..trust.workflow import REPO, expand

    steps = []
    for prefix in prefixes:
        found = [s for s in expand(job, lambda _: REPO) if "run" in s and s.get("name", "").startswith(prefix)]
        assert len(found) == 1, prefix
        steps += found
    return steps


CHECKS = ("The tag is in the release-tag grammar", "The tag is new")


def _workflow(upstream: GitRepo, tag: str, tmp_path: Path, steps: tuple[str, ...] = CHECKS):
    """The release job's steps named by `steps`, run as written on the pushed tag; (status, output, layout)."""
    from ..trust.runner import Layout, clone_at, install_gate_under_test, run_steps

    layout = Layout.make(tmp_path / "runner", os.path.realpath(sys.executable))
    clone_at(upstream.path, layout, "catalog", f"refs/tags/{tag}")
    install_gate_under_test(layout)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_"))}
    job = _job()
    done = run_steps(job, _named(job, *steps), layout, {"github.ref_name": tag}, env)
    output = "".join(d.stdout + d.stderr for d in done)
    return done[-1].returncode, output, layout


def test_release_workflow_admits_a_release_made_by_the_command(catalog, tmp_path: Path) -> None:
    status, out, _ = _workflow(catalog, "v0.2.0", tmp_path)
    assert (status, "::error" in out) == (0, False), out
    assert "v0.2.0 names" in out and "adds exactly its ledger row" in out


def test_release_workflow_refuses_a_re_pushed_moved_tag(catalog, tmp_path: Path) -> None:
    catalog.move_tag("v0.1.0", "v0.2.0^{commit}", annotated=True, message="moved")
    status, out, _ = _workflow(catalog, "v0.1.0", tmp_path)
    assert status == 1 and "existed before" in out


def test_release_workflow_refuses_a_tag_not_on_main(catalog, tmp_path: Path) -> None:
    catalog.git("switch", "-q", "-c", "side")
    assert "not on main" in make_release(str(catalog.path), "v0.4.0").lines[0]  # the command refuses it
    catalog.git("commit", "-q", "--allow-empty", "-m", "side work")
    catalog.git("tag", "v0.4.0")
    catalog.git("switch", "-q", "main")
    status, out, _ = _workflow(catalog, "v0.4.0", tmp_path)
    assert status == 1 and "not on main" in out


ACTION_CHECK = "The tag is a release tag (vMAJOR.MINOR.PATCH) naming a commit on main's first-parent history"


def test_the_actions_own_tag_check_admits_a_release_and_refuses_a_tag_not_on_main_or_out_of_grammar(
        catalog, tmp_path: Path) -> None:
    """A catalog that pins the gate's action (exchange init's release.yml) has no tag check of its own: the
    action's, git alone and before the gate is installed, is what holds the tag to main."""
    status, out, _ = _workflow(catalog, "v0.2.0", tmp_path / "admitted", (ACTION_CHECK,))
    assert (status, "::error" in out) == (0, False), out
    catalog.side_release("v0.4.0", "HEAD", branch="side", message="side work", annotated=False)  # main's tree
    catalog.tag("v0.04.0", "v0.4.0")
    status, out, _ = _workflow(catalog, "v0.4.0", tmp_path / "side", (ACTION_CHECK,))
    assert status == 1 and "not on main's first-parent history" in out
    status, out, _ = _workflow(catalog, "v0.04.0", tmp_path / "grammar", (ACTION_CHECK,))
    assert status == 1 and "is not a release tag" in out


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
    status, out, _ = _workflow(catalog, "v0.3.0", tmp_path)
    assert (status, "::error" in out) == (0, False), out


def test_release_workflow_refuses_a_tag_below_an_existing_release(catalog, tmp_path: Path) -> None:
    _hand_release(catalog, "v0.1.5")
    status, out, _ = _workflow(catalog, "v0.1.5", tmp_path)
    assert status == 1 and "no readable releases.json" in out  # the ledger's rows are in tag order


def test_release_workflow_refuses_a_tag_below_an_existing_tag_on_main(catalog, tmp_path: Path) -> None:
    catalog.tag("v0.9.0", "v0.2.0^{commit}~1")  # an unrecorded tag on main (the gate refuses it too)
    _hand_release(catalog, "v0.3.0")
    status, out, _ = _workflow(catalog, "v0.3.0", tmp_path)
    assert status == 1 and "not above the existing release tags on main v0.9.0" in out


def test_release_workflow_refuses_a_tagged_commit_without_its_ledger_row(catalog, tmp_path: Path) -> None:
    catalog.git("commit", "-q", "--allow-empty", "-m", "more")
    catalog.git("tag", "-a", "-m", "by hand", "v0.3.0")
    status, out, _ = _workflow(catalog, "v0.3.0", tmp_path)
    assert status == 1 and "does not add exactly the ledger row of v0.3.0" in out


def _demo_release(tmp_path: Path) -> GitRepo:
    """The demonstration catalog at the root of a repository, released as v0.1.0 by `exchange release`."""
    from ..browse.releases import released_once

    return released_once(tmp_path / "demo")


def test_release_notes_list_every_entry_every_skip_and_the_reader(tmp_path: Path) -> None:
    """The gate and notes step, as written, on a release of the demonstration catalog: the gate's JSON report
    at the tagged commit, the verdict and the notes (`exchange release-notes`), into the step summary."""
    repo = _demo_release(tmp_path)
    status, out, layout = _workflow(repo, "v0.1.0", tmp_path, (*CHECKS, "The gate at the tagged commit"))
    assert status == 0, out
    notes = (layout.temp / "notes.md").read_text(encoding="utf-8")
    ids = [row["id"] for row in json.loads((repo.path / "manifest.json").read_bytes())]
    assert len(ids) == 11 and all(f"- {i} (" in notes for i in ids), notes
    assert notes.startswith(f"Catalog release v0.1.0 at commit {repo.rev('v0.1.0^{commit}')}.")
    assert "- kinds.intake-http-source / vendor-7: kind-unread: http (reader: bundled: judgment_exchange" in notes
    assert "Fixtures were replayed by bundled: judgment_exchange" in notes and "10 fixture(s)" in notes
    assert (layout.temp / "_step_summary").read_text(encoding="utf-8") == notes


def test_release_notes_refuse_a_release_the_gate_refuses(tmp_path: Path) -> None:
    """The near miss: a refused gate report is the release's verdict: exit 1 with the refusal as an error
    annotation, and no notes."""
    repo = _demo_release(tmp_path)
    report = tmp_path / "gate.json"
    report.write_text(json.dumps({"result": "fail", "history": "checked", "refusals": [
        {"code": "manifest-digest-mismatch", "detail": "a row's entryDigest differs"}]}))
    done = subprocess.run([sys.executable, "-m", "judgment_exchange", "release-notes", "v0.1.0", "--catalog",
                           str(repo.path), "--commit", repo.rev("v0.1.0^{commit}"), "--report", str(report)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1 and done.stdout.startswith("::error::the gate refused the release: "
                                                           "manifest-digest-mismatch"), done.stdout
    report.write_text(json.dumps({"result": "pass", "history": "skipped"}))
    done = subprocess.run([sys.executable, "-m", "judgment_exchange", "release-notes", "v0.1.0", "--catalog",
                           str(repo.path), "--commit", repo.rev("v0.1.0^{commit}"), "--report", str(report)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "history: skipped" in done.stdout
    report.write_text("not json")
    done = subprocess.run([sys.executable, "-m", "judgment_exchange", "release-notes", "v0.1.0", "--catalog",
                           str(repo.path), "--commit", "HEAD", "--report", str(report)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 4 and "Traceback" not in done.stderr


def test_release_verify_says_what_it_could_not_read(tmp_path: Path, capsys) -> None:
    """No repository, or no main to hold the tag to: exit 4 with one line, never a traceback."""
    assert exchange(["release-verify", "v0.1.0", "--catalog", str(tmp_path)]) == 4
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a git repository" in err


def test_release_verify_in_a_clone_with_no_origin_names_the_option_and_it_works(catalog, capsys) -> None:
    """The catalog's own repository has no origin: the default main (refs/remotes/origin/main) names no
    commit, and the line says both fixes; the one for this case, applied as printed, passes."""
    assert exchange(["release-verify", "v0.2.0", "--catalog", str(catalog.path)]) == 4
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "(a clone with no origin: --main main)" in err, err
    assert exchange(["release-verify", "v0.2.0", "--catalog", str(catalog.path), "--main", "main"]) == 0


def test_release_verify_refuses_a_tag_outside_the_grammar(catalog, capsys) -> None:
    assert exchange(["release-verify", "v01.0.0", "--catalog", str(catalog.path), "--main", "main"]) == 1
    assert "not a release tag" in capsys.readouterr().out
    assert exchange(["release-verify", "v0.2.0", "--catalog", str(catalog.path), "--main", "main"]) == 0  # near miss
