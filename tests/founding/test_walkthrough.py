"""The new catalog's own CONTRIBUTING.md, run end to end (issue #33 item 1): `exchange init`, the catalog
committed and published as a bare upstream, a contributor's fork and clone, then every step of the
walkthrough init wrote — with the catalog's names — on a real Runner export, until the pull request's checks
pass. The document uses judgment-pack-exchange's own walkthrough marks, so tests/contributing's parser reads it;
each command line runs through bash (the walkthrough chains `git fetch upstream --tags && git switch -c …`)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ..contributing.repos import fork_of, git, git_env
from ..contributing.test_walkthrough import EDITS, FIRST, walkthrough
from .support import REF

pytestmark = pytest.mark.skipif(shutil.which("exchange") is None, reason="the installed `exchange` is not on PATH")


def _exchange(cwd: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(["exchange", *argv], cwd=cwd, env=git_env(), capture_output=True, text=True, check=False)


def test_the_new_catalogs_walkthrough_runs_end_to_end(tmp_path):
    seed = tmp_path / "acme-catalog"
    done = _exchange(tmp_path, "init", str(seed), "--owners", "@acme/catalog-maintainers", "--gate-ref", REF)
    assert done.returncode == 0, done.stderr
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-s", "-m", "A new catalog")
    upstream, work = fork_of(tmp_path, seed, "work")
    git(work, "remote", "add", "upstream", str(upstream))   # the "Once" block, with local remotes

    steps = walkthrough((work / "CONTRIBUTING.md").read_text(encoding="utf-8"))
    assert [s.kind for s in steps].count("run") >= 8 and [s.kind for s in steps].count("edit") == 2
    env = dict(git_env(), RUN_EXPORT=str(FIRST))
    env["PATH"] = os.path.dirname(shutil.which("exchange")) + os.pathsep + env.get("PATH", "")
    log: list[str] = []
    for step in steps:
        if step.kind == "run":
            done = subprocess.run(["bash", "-c", step.line], cwd=work, env=env, capture_output=True, text=True,
                                  check=False)
            log.append(f"$ {step.line}\n{done.stdout}{done.stderr}")
            assert done.returncode == 0, "\n".join(log)
        elif step.kind == "edit":
            EDITS[Path(step.name).name](work / step.name, step.content)
        else:
            assert step.kind == "set" and step.name == "RUN_EXPORT"

    for argv in (("check", "--base", "auto"), ("signoff", "--base", "auto")):
        done = _exchange(work, *argv)
        assert done.returncode == 0 and "result: pass" in done.stdout, done.stdout + done.stderr
    assert git(tmp_path / "fork.git", "rev-parse", "refs/heads/add-acme-vendors")  # pushed to the contributor's fork
