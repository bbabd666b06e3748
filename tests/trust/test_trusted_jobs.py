"""Issue #24 item 3(a): every trusted job of every workflow starts no Python a checkout can shadow, the gate's
composite action read through (issue #33 item 2). The rules and their reading are tests/trust/workflow.py;
each rule has a near miss here that it refuses, so the check can fail."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ..support.paths import REPO
from .workflow import applicable, commands, evaluate, expand, job_problems, load, python_problems, trusted_jobs

WORKFLOWS = REPO / ".github" / "workflows"
JOBS = trusted_jobs(WORKFLOWS)


def test_the_trusted_jobs_are_the_ones_that_decide_or_publish():
    assert sorted((w, j) for w, j, _ in JOBS) == [
        ("ci.yml", "gate"), ("gate.yml", "gate"), ("gate.yml", "sign-off"), ("publish.yml", "attach"),
        ("publish.yml", "build"), ("publish.yml", "publish"), ("publish.yml", "verify"), ("release.yml", "pages"),
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
    """Each trusted job that runs the gate does so through the gate's action from the judging commit's own
    checkout, which builds the gate from a copy of exactly the package's own files at the action's root
    (`cp -R -P` from $GITHUB_ACTION_PATH/../../..: the checkout of the commit judged), never another folder of
    the checkout, and installs no other lock than the runtime one."""
    wanted = ["pyproject.toml", "tools", "README.md", "LICENSE", "requirements.txt", "requirements-build.txt"]
    installing = 0
    for workflow, name, job in JOBS:
        steps = applicable(expand(job))
        runs = "\n".join(s.get("run", "") for s in steps)
        if "bin/exchange" not in runs:
            continue
        installing += 1
        actions = {s["_uses"] for s in steps if "_uses" in s}
        checkouts = [s["with"]["path"] for s in job["steps"] if s.get("uses", "").startswith("actions/checkout@")]
        assert actions == {f"./{checkouts[0]}/.github/actions/gate"} and len(checkouts) == 1, (workflow, name)
        assert not any("bin/exchange" in s.get("run", "") for s in job["steps"]), (workflow, name)  # all in the action
        copies = [words for words in commands(runs) if words[:1] == ["cp"]]
        assert len(copies) == 1 and copies[0][1:3] == ["-R", "-P"] and copies[0][-1] == "gate-source/", (workflow, name)
        assert copies[0][3:-1] == [f"$source/{w}" for w in wanted], (workflow, name)
        assert 'source="$GITHUB_ACTION_PATH/../../.."' in [line.strip() for line in runs.splitlines()], (workflow, name)
        assert not [words for words in commands(runs) if words[:1] == ["git"] and "archive" in words], (workflow, name)
        assert "requirements-dev" not in runs and "-e ." not in runs, (workflow, name)
    assert installing == 5


def test_release_checks_the_tag_with_git_alone_before_the_tagged_commits_action():
    """release.yml runs the tagged commit's own action: each job first holds the tag to the grammar and to
    main's first-parent history with bash and git alone."""
    for name, job in load(REPO / ".github" / "workflows" / "release.yml")["jobs"].items():
        steps = job["steps"]
        first = next(i for i, s in enumerate(steps) if s.get("uses", "").startswith("./catalog/"))
        checks = [s for s in steps[:first] if "rev-list --first-parent refs/remotes/origin/main" in s.get("run", "")]
        assert len(checks) == 1, name
        assert "if" not in checks[0] and "continue-on-error" not in checks[0], name  # it always runs, and decides
        programs = {words[0] for words in commands(checks[0]["run"]) if words[0].isalpha()}
        assert programs == {"echo", "exit", "git", "grep"}, (name, programs)  # bash and git alone


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
    return job_problems("w.yml", "a", _load(text))


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


def test_the_checker_refuses_another_shell_an_expression_in_a_run_and_a_build_with_isolation():
    assert "with the shell python" in _problems(GOOD + "      - shell: python\n        run: print(1)\n")[0]
    assert "an expression inside its run" in _problems(GOOD + "      - run: echo ${{ github.head_ref }}\n")[0]
    build = "gate/bin/python -I -m build --no-isolation --outdir dist src"
    assert _problems(GOOD.replace("python -I -m venv gate", "python -I -m venv gate\n          " + build)) == []
    isolated = build.replace(" --no-isolation", "")
    assert "build isolation" in _problems(GOOD.replace("python -I -m venv gate", isolated))[0]


def test_only_publish_yml_s_jobs_may_carry_and_publish_the_package():
    artifact = "      - uses: actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2\n"
    job = _load(GOOD + artifact)
    assert job_problems("publish.yml", "build", job) == []
    assert "not one of the pinned actions" in job_problems("publish.yml", "publish", job)[0]
    assert "not one of the pinned actions" in job_problems("release.yml", "build", job)[0]
    publish = "      - uses: pypa/gh-action-pypi-publish@dc37677b2e1c63e2034f94d8a5b11f265b73ba33 # v1.14.2\n"
    assert job_problems("publish.yml", "publish", _load(GOOD + publish)) == []
    assert "not one of the pinned actions" in job_problems("publish.yml", "attach", _load(GOOD + publish))[0]


# --- the gate's composite action (issue #33 item 2) --------------------------------------------------------

ACTION_STEP = """      - uses: ./base/.github/actions/gate
        with:
          job: pull-request
          catalog: base
          base: ${{ github.event.pull_request.base.sha }}
          head: ${{ github.event.pull_request.head.sha }}
"""
REMOTE = "Judgment-Pack/judgment-pack-exchange/.github/actions/gate@" + "0123456789abcdef" * 2 + "01234567"


def _load(text: str) -> dict:
    from ruamel.yaml import YAML

    return YAML(typ="safe", pure=True).load(text)["jobs"]["a"]


def test_the_local_action_of_the_jobs_own_checkout_is_read_through_and_passes():
    job = _load(GOOD + ACTION_STEP)
    assert job_problems("w.yml", "a", job) == []
    names = [s.get("name") for s in applicable(expand(job))]
    assert "The gate on the pull request's head commit, against the base commit" in names
    assert "Every commit carries its author's Signed-off-by" not in names  # the sign-off job's, not this one's


def test_the_remote_action_pinned_by_commit_is_read_from_this_repositorys_file():
    job = _load(GOOD + ACTION_STEP.replace("./base/.github/actions/gate", REMOTE))
    assert job_problems("w.yml", "a", job) == []
    assert {s.get("_action") for s in expand(job) if "_action" in s} == {str(REPO / ".github" / "actions" / "gate")}


@pytest.mark.parametrize("old, new, reason", [
    ("./base/.github/actions/gate", "./.github/actions/gate", "in no checkout of this job"),
    ("./base/.github/actions/gate", "./change/.github/actions/gate", "in no checkout of this job"),
    ("./base/.github/actions/gate", "./base/../base/.github/actions/gate", "outside the job's own checkouts"),
    ("./base/.github/actions/gate", "./base/.github/actions/x", "no action.yml"),
    ("./base/.github/actions/gate", "./base/tests", "no action.yml"),
    ("./base/.github/actions/gate", REMOTE.replace("@0123", "@v1.0"), "not one of the pinned actions"),
    ("./base/.github/actions/gate", REMOTE.replace("Judgment-Pack/", "Someone/"), "not one of the pinned actions"),
    ("./base/.github/actions/gate", "Judgment-Pack/judgment-pack-exchange/.github/actions/other@" + "0" * 40,
     "not one of the pinned actions"),
    ("job: pull-request", "job: pull-request\n          token: ${{ secrets.X }}", "does not declare"),
    ("          job: pull-request\n", "", "required input job"),
])
def test_the_checker_refuses_each_near_miss_of_the_action(old, new, reason):
    step = ACTION_STEP.replace(old, new)
    problems = job_problems("w.yml", "a", _load(GOOD + step))
    assert problems and reason in problems[0], problems


@pytest.mark.parametrize("old, new, reason", [
    ("with: {path: base, persist-credentials: false}",
     "with: {path: base, persist-credentials: false, ref: '${{ github.event.pull_request.head.sha }}'}",
     "not the judging commit's"),
    ("with: {path: base, persist-credentials: false}",
     "with: {path: base, persist-credentials: false, repository: someone/fork}", "not the judging commit's"),
])
def test_the_action_of_a_checkout_of_another_commit_is_refused(old, new, reason):
    problems = job_problems("w.yml", "a", _load(GOOD.replace(old, new) + ACTION_STEP))
    assert problems and reason in problems[0], problems


def test_the_local_action_before_its_checkout_is_refused():
    text = GOOD.replace("    steps:\n", "    steps:\n" + ACTION_STEP)
    problems = job_problems("w.yml", "a", _load(text))
    assert problems and "in no checkout of this job" in problems[0], problems


def _action_copy(tmp_path: Path, old: str, new: str) -> Path:
    root = tmp_path / "checkout"
    shutil.copytree(REPO / ".github" / "actions" / "gate", root / ".github" / "actions" / "gate")
    file = root / ".github" / "actions" / "gate" / "action.yml"
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


@pytest.mark.parametrize("old, new, reason", [
    ("python -I -m venv gate-build", "python -m pip install build", "otherwise than"),
    ('"$RUNNER_TEMP/gate/bin/exchange" signoff', "exchange signoff", "console script"),
    ('"$RUNNER_TEMP/gate/bin/exchange" signoff', "bash tools/sign.sh; true", "shell script"),
    ('"$RUNNER_TEMP/gate/bin/exchange" signoff --catalog "$CATALOG" --base "$BASE"',
     '"$RUNNER_TEMP/gate/bin/exchange" signoff --catalog "$CATALOG" --base "${{ inputs.base }}"',
     "an expression inside its run"),
    ("      id: install\n      shell: bash\n", "      id: install\n", "with the shell None"),
    ("      id: install\n      shell: bash\n", "      id: install\n      shell: python\n", "with the shell python"),
    ("      id: install\n      shell: bash\n      working-directory: ${{ runner.temp }}\n",
     "      id: install\n      shell: bash\n      working-directory: ${{ github.action_path }}\n",
     "the action's folder"),
    ("      id: install\n      shell: bash\n      working-directory: ${{ runner.temp }}\n",
     "      id: install\n      shell: bash\n      working-directory: ${{ github.workspace }}/${{ inputs.catalog }}\n",
     "is a checkout"),
    ("    - name: Fetch the pinned verifier\n",
     "    - uses: ./base/.github/actions/other\n    - name: Fetch the pinned verifier\n",
     "an action inside the action"),
    ("CATALOG: ${{ github.workspace }}/${{ inputs.catalog }}", "CATALOG: ${{ inputs.catalogue }}", "does not declare"),
])
def test_every_step_of_the_action_is_held_to_the_trusted_job_rules(tmp_path, old, new, reason):
    """The action's steps are the trusted job's: a near miss in any of them, in any job's branch of it, is
    refused for the job that runs it (here the pull-request job, holding the sign-off's step too)."""
    root = _action_copy(tmp_path, old, new)
    problems = job_problems("w.yml", "a", _load(GOOD + ACTION_STEP), root_of=lambda _: root)
    assert problems and any(reason in p for p in problems), problems
    assert job_problems("w.yml", "a", _load(GOOD + ACTION_STEP), root_of=lambda _: _action_copy(
        tmp_path / "same", "name: Judgment Exchange gate", "name: Judgment Exchange gate")) == []


def test_the_condition_reader():
    assert evaluate("'push' == 'push'", {}) and not evaluate("'push' == 'push'", {}, failed=True)
    assert evaluate("${{ !cancelled() && 'a' == 'a' }}", {}, failed=True)
    assert not evaluate("${{ !cancelled() && 'a' == 'b' }}", {}, failed=True)
    assert evaluate("github.event_name == 'push' || false", {"github.event_name": "push"})
    with pytest.raises(KeyError):
        evaluate("github.event_name == 'push'", {})


def test_the_command_reader():
    assert commands('commit=$(git -C "$C" rev-parse x) || { echo no; exit 1; }') == [
        ["git", "-C", "$C", "rev-parse", "x"], ["echo", "no"], ["exit", "1"]]
    assert python_problems(["python", "-I", "-m", "venv", "gate"]) == []
