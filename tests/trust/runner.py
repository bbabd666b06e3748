"""Just enough of a GitHub-hosted runner to run a job's `run:` steps as the YAML gives them (issue #24 item 3(b)):
each step's script in bash (`bash --noprofile --norc -eo pipefail`, the runner's default), in its
`working-directory`, with the job's and the step's `env:`, the runner's variables (RUNNER_TEMP,
GITHUB_WORKSPACE, GITHUB_PATH, GITHUB_ENV, GITHUB_STEP_SUMMARY) and every `${{ … }}` the test gives
substituted; an expression it is not given fails the test, so nothing is run that the test did not see.
Lines a step appends to GITHUB_PATH and GITHUB_ENV reach the later steps, as on the runner, and a step's
GITHUB_OUTPUT lines are `steps.<id>.outputs.<name>` to the later ones; each `if:` is evaluated as GitHub
reads it (tests/trust/workflow.py's `evaluate`: after a step fails, only steps whose `if:` asks for it —
`always()`, `!cancelled()`, `failure()` — run), and a failing `continue-on-error` step fails nothing.
A composite action's steps run as the runner runs them (issue #33 item 2): `job_steps` expands a job's
local action from the checkout's own files in the layout (`workflow.expand`, its `inputs.*` substituted),
and each of its steps runs with GITHUB_ACTION_PATH its folder."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .workflow import applicable, evaluate, expand

EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


@dataclass
class Layout:
    """The runner's folders: the workspace (GITHUB_WORKSPACE) and RUNNER_TEMP, and the folder whose `python`
    stands for the one actions/setup-python puts on PATH."""

    workspace: Path
    temp: Path
    python_bin: Path

    @classmethod
    def make(cls, root: Path, python: str) -> "Layout":
        layout = cls(root / "workspace", root / "runner-temp", root / "hostedtoolcache" / "bin")
        for folder in (layout.workspace, layout.temp, layout.python_bin):
            folder.mkdir(parents=True)
        (layout.python_bin / "python").symlink_to(python)
        return layout


def substitute(value: str, context: dict[str, str]) -> str:
    def one(match: re.Match) -> str:
        name = match.group(1)
        if name not in context:
            raise KeyError(f"the test gives no value for ${{{{ {name} }}}}")
        return context[name]

    return EXPRESSION.sub(one, value)


def job_steps(job: dict, layout: Layout, root_of=None) -> list[dict]:
    """The job's steps with each composite action it may run expanded (a local action read from the
    checkout in the layout, unless `root_of` says where a checkout's files are), those whose `if:` cannot
    hold for this job left out."""
    return applicable(expand(job, root_of or (lambda path: layout.workspace / path)))


def run_steps(job: dict, steps: list[dict], layout: Layout, context: dict[str, str],
              env: dict[str, str]) -> list[subprocess.CompletedProcess]:
    """Run `steps` (run steps of `job`, an action's among them) in order, as the runner would: a step whose
    `if:` does not hold is skipped; after a failure only the steps that ask for it run."""
    context = {"runner.temp": str(layout.temp), "github.workspace": str(layout.workspace), **context}
    github_path = layout.temp / "_github_path"
    github_env = layout.temp / "_github_env"
    github_output = layout.temp / "_github_output"
    summary = layout.temp / "_step_summary"
    for path in (github_path, github_env, summary):
        path.touch()
    done = []
    failed = False
    for step in steps:
        condition = step.get("if")
        if condition is None and failed:
            continue
        if condition is not None and not evaluate(str(condition), context, failed):
            continue
        github_output.write_text("")
        variables = dict(env)
        variables.update(RUNNER_TEMP=str(layout.temp), GITHUB_WORKSPACE=str(layout.workspace),
                         GITHUB_PATH=str(github_path), GITHUB_ENV=str(github_env), GITHUB_OUTPUT=str(github_output),
                         GITHUB_STEP_SUMMARY=str(summary), CI="true", GITHUB_ACTIONS="true")
        if "_action" in step:
            variables["GITHUB_ACTION_PATH"] = step["_action"]
        added = [line for line in github_path.read_text().splitlines() if line]
        variables["PATH"] = os.pathsep.join([*reversed(added), str(layout.python_bin), env.get("PATH", os.defpath)])
        for line in github_env.read_text().splitlines():
            name, _, value = line.partition("=")
            if name:
                variables[name] = value
        for scope in (job.get("env") or {}, step.get("env") or {}):
            variables.update({k: substitute(str(v), context) for k, v in scope.items()})
        directory = layout.workspace / substitute(str(step.get("working-directory") or "."), context)
        script = layout.temp / "_step.sh"
        script.write_text(substitute(step["run"], context))
        result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=directory,
                                env=variables, capture_output=True, text=True, check=False, timeout=900)
        done.append(result)
        if step.get("id"):
            for line in github_output.read_text().splitlines():
                name, equals, value = line.partition("=")
                if equals:
                    context[f"steps.{step['id']}.outputs.{name}"] = value
        failed = failed or (result.returncode != 0 and step.get("continue-on-error") is not True)
    return done


def install_gate_under_test(layout: Layout) -> Path:
    """`$RUNNER_TEMP/gate/bin/exchange` standing for the gate a trusted job builds, as the package under test:
    this interpreter with -I (and -B: no bytecode beside the sources), so the steps' commands run as
    written. The install step itself is run for real by tests/trust/test_attack_gate_job_runs_a_checkouts_python.py."""
    import sys

    script = layout.temp / "gate" / "bin" / "exchange"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(f'#!/bin/sh\nexec {sys.executable} -I -B -m judgment_exchange "$@"\n')
    script.chmod(0o755)
    return script


def clone_at(origin: Path, layout: Layout, path: str, ref: str) -> Path:
    """actions/checkout with `path`, `ref`, fetch-depth 0, fetch-tags and persist-credentials false, as far as
    the gate reads it: a clone whose origin is the repository (every branch as origin's), detached at `ref`."""
    target = layout.workspace / path
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(origin), str(target)], check=True, capture_output=True)
    subprocess.run(["git", "-C", str(target), "checkout", "-q", "--detach", ref], check=True, capture_output=True)
    return target


def pull_request_origin(work: Path, base: str) -> tuple[Path, str]:
    """GitHub's side of a pull request, as far as the jobs fetch it: a bare `origin.git` beside `work`, its main
    at `base`, the pull request's head (`work`'s HEAD) at refs/pull/1/head and fetchable by id; (origin, head)."""
    head = subprocess.run(["git", "-C", str(work), "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()
    origin = work.parent / "origin.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(origin)], check=True, capture_output=True)
    subprocess.run(["git", "-C", str(origin), "update-ref", "refs/pull/1/head", head], check=True)
    subprocess.run(["git", "-C", str(origin), "branch", "-q", "-f", "main", base], check=True)
    subprocess.run(["git", "-C", str(origin), "config", "uploadpack.allowAnySHA1InWant", "true"], check=True)
    return origin, head
