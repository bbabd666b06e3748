"""Attack 1 of issue #16: "The pull request runs its own gate." One pull request adds an AWS key to an
entry AND changes one line of the gate's own code so that `Report.passed` is always true. Run from the
pull request's own checkout (as `.github/workflows/ci.yml` once did), the gate says `result: pass`; the
base's gate (as `.github/workflows/gate.yml` runs it: installed from the base commit, the change read as
data with `--catalog`) refuses it, for the key and for the gate change travelling with an entry.

The throwaway repository holds this package's source under tools/ and the demonstration catalog at its
root; each gate is run in a fresh interpreter with only its own tools/ on the path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..support.paths import REPO
from .repos import OTHER_DIR, commit, demo_repository, repin

KEY = "AKIA" + "Q3ZT7XN2LW8VB4MK"  # an AWS access key id's shape, planted here (never a real key)
ALWAYS_PASSES = ("    def passed(self) -> bool:\n        return not self.refusals\n",
                 "    def passed(self) -> bool:\n        return True\n")


def _gate(tools: Path, *args: str) -> subprocess.CompletedProcess:
    """`exchange ARGS` in a fresh interpreter whose judgment_exchange is the one under `tools`."""
    program = ("import sys, judgment_exchange, judgment_exchange.cli as cli; "
               "print('gate from', judgment_exchange.__file__, file=sys.stderr); sys.exit(cli.main(sys.argv[1:]))")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "GITHUB_", "EXCHANGE_"))}
    env.update(PYTHONPATH=str(tools), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", program, *args], capture_output=True, text=True, env=env,
                          cwd=tools.parent.parent, check=False)


@pytest.fixture
def pull_request(tmp_path):
    """(the base's checkout, the pull request's checkout, the base commit)."""
    root = tmp_path / "base"
    git = demo_repository(root)
    shutil.rmtree(root / "tools")
    shutil.copytree(REPO / "tools" / "judgment_exchange", root / "tools" / "judgment_exchange",
                    ignore=shutil.ignore_patterns("__pycache__"))
    git.git("checkout", "-q", "main")
    base = commit(git, "the gate's source")
    git.git("branch", "-q", "-f", "change", "main")
    change = tmp_path / "change"
    git.git("worktree", "add", "-q", str(change), "change")
    readme = change / OTHER_DIR / "README.md"
    readme.write_text(readme.read_text() + f"\nThe vendor API is read with the access key {KEY}.\n")
    repin(change)
    refusal = change / "tools" / "judgment_exchange" / "refusal.py"
    text = refusal.read_text(encoding="utf-8")
    assert ALWAYS_PASSES[0] in text
    refusal.write_text(text.replace(*ALWAYS_PASSES), encoding="utf-8")
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qam",
                    "Add a key and make the gate pass"], cwd=change, check=True, capture_output=True)
    return root, change, base


def test_attack_pull_request_runs_its_own_gate(pull_request):
    base_checkout, change, base = pull_request
    own = _gate(change / "tools", "check", "--catalog", str(change), "--base", base, "--no-history")
    assert f"gate from {change / 'tools'}" in own.stderr
    assert own.returncode == 0 and "result: pass" in own.stdout, own.stdout + own.stderr  # it judges itself
    judged = _gate(base_checkout / "tools", "check", "--catalog", str(change), "--base", base, "--no-history")
    assert f"gate from {base_checkout / 'tools'}" in judged.stderr
    assert judged.returncode == 1, judged.stdout + judged.stderr
    assert "refused secret-aws-access-key" in judged.stdout, judged.stdout
    assert "refused gate-change-with-entry" in judged.stdout
    assert KEY not in judged.stdout and KEY not in own.stdout


def test_near_miss_the_base_s_gate_passes_the_entry_without_the_key_or_the_gate_change(pull_request, tmp_path):
    """The same pull request with neither the key nor the gate change passes the base's gate: the
    refusals above are the attack's, not the setup's."""
    base_checkout, change, base = pull_request
    subprocess.run(["git", "reset", "-q", "--hard", base], cwd=change, check=True)
    readme = change / OTHER_DIR / "README.md"
    readme.write_text(readme.read_text() + "\nThe vendor API is read with the operator's key.\n")
    repin(change)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qam", "docs"],
                   cwd=change, check=True, capture_output=True)
    judged = _gate(base_checkout / "tools", "check", "--catalog", str(change), "--base", base, "--no-history")
    assert judged.returncode == 0 and "result: pass" in judged.stdout, judged.stdout + judged.stderr
