"""The action's input `one-entry-per-pull-request` (issue #33 item 2): RFC 0019 §6's one-entry rule is a
default a catalog may drop. The pull-request job's steps of the gate's action, read from the base's own
checkout as gate.yml runs them (tests/trust/runner.py; `$RUNNER_TEMP/gate/bin/exchange` the package under
test), on a pull request that changes two entries: refused `one-entry-per-pull-request` with the default
`true`, passed with `false` (`exchange check --several-entries`), and a value that is neither refused before
anything runs."""

from __future__ import annotations

import copy
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..support.demo import ROOT as DEMO
from ..support.gitrepo import GitRepo
from ..support.paths import REPO
from .runner import Layout, clone_at, install_gate_under_test, job_steps, pull_request_origin, run_steps
from .workflow import load

ENTRIES = ("gateway/fx-exposure", "gateway/ticket-status")


@pytest.fixture(scope="module")
def two_entries(tmp_path_factory):
    """origin.git: main the demonstration catalog with the gate's action, refs/pull/1/head two entries changed."""
    tmp = tmp_path_factory.mktemp("two-entries")
    work = tmp / "author"
    shutil.copytree(DEMO, work)
    action = work / ".github" / "actions" / "gate"
    action.mkdir(parents=True)
    shutil.copy2(REPO / ".github" / "actions" / "gate" / "action.yml", action / "action.yml")
    git = GitRepo(work)
    git.git("add", "-A")
    git.git("commit", "-q", "-m", "base")
    base = git.git("rev-parse", "HEAD")
    for entry in ENTRIES:
        readme = work / "entries" / entry / "README.md"
        readme.write_text(readme.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    from judgment_exchange.cli import main

    assert main(["fix", "--catalog", str(work)]) == 0
    git.git("commit", "-q", "-am", "Two entries\n\nSigned-off-by: History Test <history-test@example.invalid>")
    origin, head = pull_request_origin(work, base)
    return origin, base, head


def _run(two_entries, tmp_path: Path, one_entry) -> list[subprocess.CompletedProcess]:
    origin, base, head = two_entries
    layout = Layout.make(tmp_path / "runner", os.path.realpath(sys.executable))
    clone_at(origin, layout, "base", base)
    install_gate_under_test(layout)
    job = copy.deepcopy(load(REPO / ".github" / "workflows" / "gate.yml")["jobs"]["gate"])
    if one_entry is not None:
        job["steps"][-1]["with"]["one-entry-per-pull-request"] = one_entry
    steps = [s for s in job_steps(job, layout) if "run" in s and not s.get("continue-on-error")
             and not s["name"].startswith("Install")]
    context = {"github.event.pull_request.base.sha": base, "github.event.pull_request.head.sha": head}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_"))}
    return run_steps(job, steps, layout, context, env)


def test_the_default_refuses_a_pull_request_of_two_entries(two_entries, tmp_path):
    done = _run(two_entries, tmp_path, None)
    assert [d.returncode for d in done] == [0, 0, 1, 0], [d.stdout[-1500:] + d.stderr[-1500:] for d in done]
    assert "one-entry-per-pull-request" in done[2].stdout


def test_false_lets_a_pull_request_carry_several_entries(two_entries, tmp_path):
    done = _run(two_entries, tmp_path, "false")
    assert [d.returncode for d in done] == [0, 0, 0, 0], [d.stdout[-1500:] + d.stderr[-1500:] for d in done]
    assert "one-entry-per-pull-request" not in done[2].stdout


def test_a_value_neither_true_nor_false_is_refused_before_anything_runs(two_entries, tmp_path):
    done = _run(two_entries, tmp_path, "no")
    assert done[0].returncode == 1 and "one-entry-per-pull-request is true or false" in done[0].stdout
    assert len(done) == 2  # nothing after, but the review, which runs unless cancelled and fails without a head
