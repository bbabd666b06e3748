"""Issue #24 item 3(a): every trusted job of every workflow starts no Python a checkout can shadow. The
rules and their reading are tests/trust/workflow.py; each rule has a near miss here that it refuses, so the
check can fail."""

from __future__ import annotations

import pytest

from ..support.paths import REPO
from .workflow import commands, job_problems, load, python_problems, trusted_jobs

WORKFLOWS = REPO / ".github" / "workflows"
JOBS = trusted_jobs(WORKFLOWS)


def test_the_trusted_jobs_are_the_ones_that_decide_or_publish():
    assert sorted((w, j) for w, j, _ in JOBS) == [
        ("ci.yml", "gate"), ("gate.yml", "gate"), ("gate.yml", "sign-off"), ("release.yml", "pages"),
        ("release.yml", "release"), ("thanks.yml", "thank")]


@pytest.mark.parametrize("workflow, name, job", JOBS, ids=[f"{w}:{j}" for w, j, _ in JOBS])
def test_attack_trusted_job_starts_python_a_checkout_can_shadow(workflow, name, job):
    """A merged root `pip/`, `json/`, `subprocess.py` or `sitecustomize.py` ran inside every trusted job that
    started Python in a checkout (`python -m pip` with working-directory: base; release.yml's `python -` and
    `python -c` at the tag's root). Every Python of a trusted job is now the gate environment's."""
    assert job_problems(workflow, name, job) == []


def test_the_tests_job_is_not_trusted_and_runs_the_checkouts_own_tests():
    """ci.yml's tests job is the pull request's own (docs/trust.md): it runs .ci/run and nothing else."""
    job = load(WORKFLOWS / "ci.yml")["jobs"]["tests"]
    assert [s["run"] for s in job["steps"] if "run" in s] == ["bash .ci/run"]
    assert job_problems("ci.yml", "tests", job), "the checker would let .ci/run into a trusted job"


def test_every_trusted_job_installs_the_gate_from_the_judging_commits_own_files():
    """Each trusted job that runs the gate builds it from `git archive` of the package's own files of the
    commit it judges, never a checkout's working tree, and installs no other lock than the runtime one."""
    wanted = "pyproject.toml tools README.md LICENSE requirements.txt requirements-build.txt"
    installing = 0
    for workflow, name, job in JOBS:
        runs = "\n".join(s.get("run", "") for s in job["steps"])
        if "bin/exchange" not in runs:
            continue
        installing += 1
        archives = [words for words in commands(runs) if words[:1] == ["git"] and "archive" in words]
        assert len(archives) == 1, (workflow, name)
        assert " ".join(archives[0][archives[0].index("--") + 1:]) == wanted, (workflow, name)
        assert "requirements-dev" not in runs and "-e ." not in runs, (workflow, name)
    assert installing == 5


GOOD = """jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with: {path: base, persist-credentials: false}
      - working-directory: ${{ runner.temp }}
        run: |
          python -I -m venv gate
          gate/bin/python -I -m pip install --quiet --require-hashes -r src/requirements.txt
          gate/bin/python -I -m pip install --no-deps --no-index wheel/*.whl
          "$RUNNER_TEMP/gate/bin/exchange" check --catalog "$GITHUB_WORKSPACE/base"
"""


def _problems(text: str) -> list[str]:
    from ruamel.yaml import YAML

    return job_problems("w.yml", "a", YAML(typ="safe", pure=True).load(text)["jobs"]["a"])


def test_the_checker_passes_the_good_shape():
    assert _problems(GOOD) == []


@pytest.mark.parametrize("old, new, reason", [
    ("working-directory: ${{ runner.temp }}", "working-directory: base", "is a checkout"),
    ("working-directory: ${{ runner.temp }}", "working-directory: base/tools", "is a checkout"),
    ("path: base, persist-credentials: false", "persist-credentials: false", "workspace's root"),
    ("persist-credentials: false", "fetch-depth: 0", "persists its credentials"),
    ("python -I -m venv gate", "python -m pip install build", "otherwise than"),
    ("python -I -m venv gate", "python -c 'import json'", "otherwise than"),
    ("python -I -m venv gate", "python - <<'PY'", "otherwise than"),
    ("python -I -m venv gate", "python3 tools/x.py", "otherwise than"),
    ("python -I -m venv gate", "pip install -r requirements.txt", "otherwise than"),
    ("python -I -m venv gate", "pytest tests", "otherwise than"),
    ("python -I -m venv gate", "./tools/run.py", "runs a Python file"),
    ("python -I -m venv gate", "bash .ci/run", "shell script"),
    ("python -I -m venv gate", "env FOO=1 python -I -m http.server", "otherwise than"),
    ("python -I -m venv gate", "timeout 5 python x.py", "may start Python"),
    ("python -I -m venv gate", "/usr/bin/python -I -m venv x", "otherwise than"),
    ("gate/bin/python -I -m pip install --quiet --require-hashes -r src/requirements.txt",
     "gate/bin/python -m pip install --quiet --require-hashes -r src/requirements.txt", "otherwise than"),
    ("gate/bin/python -I -m pip install --quiet --require-hashes -r src/requirements.txt",
     "gate/bin/python -I -m pip install -r src/requirements.txt", "neither a hash-pinned lock"),
    ("gate/bin/python -I -m pip install --no-deps --no-index wheel/*.whl",
     "gate/bin/python -I -m pip install --no-deps -e .", "neither a hash-pinned lock"),
    ('"$RUNNER_TEMP/gate/bin/exchange" check', "exchange check", "console script"),
    ('"$RUNNER_TEMP/gate/bin/exchange" check', "x=$(python -c 'print(1)') && echo", "otherwise than"),
])
def test_the_checker_refuses_each_near_miss(old, new, reason):
    assert old in GOOD
    problems = _problems(GOOD.replace(old, new))
    assert problems and all(reason in p for p in problems[:1]), problems


def test_the_checker_refuses_a_local_action_and_another_shell():
    assert "not one of the pinned actions" in _problems(GOOD + "      - uses: ./base/.github/actions/x\n")[0]
    assert "with the shell python" in _problems(GOOD + "      - shell: python\n        run: print(1)\n")[0]


def test_the_command_reader():
    assert commands('commit=$(git -C "$C" rev-parse x) || { echo no; exit 1; }') == [
        ["git", "-C", "$C", "rev-parse", "x"], ["echo", "no"], ["exit", "1"]]
    assert python_problems(["python", "-I", "-m", "venv", "gate"]) == []
