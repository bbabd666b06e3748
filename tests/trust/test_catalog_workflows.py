"""The workflows `exchange init` writes into a new catalog (issue #33 items 1 and 2): the templates under
tools/judgment_exchange/founding/templates/github/, with the one placeholder `@@GATE_ACTION@@` filled here
with a sample commit, and a catalog `exchange init` really writes. The same shape as this repository's
workflows — the gate and the sign-off on `pull_request_target`, the gate on a push to main, the release with
its index on GitHub Pages — each job a checkout, setup-python and one step of the gate's action pinned by
commit, `Judgment-Pack/judgment-pack-exchange/.github/actions/gate@<40-hex>`, which the trusted-job test
reads through from this repository's action.yml (tests/trust/workflow.py). Held to the trusted-job rules,
the action pins, the GitHub workflow and Dependabot schemas and zizmor (offline, default persona, no
configuration: no finding but the reasoned, inline-suppressed `pull_request_target`)."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML

from judgment_exchange import __version__

from ..support.paths import REPO
from ..test_supply_chain import GATE_ACTION, action_pin_problems, dependabot_problems
from .test_zizmor import IGNORE, _findings, _shown
from .workflow import applicable, expand, job_problems, load, trusted_jobs

TEMPLATES = REPO / "tools" / "judgment_exchange" / "founding" / "templates" / "github"
REF = "0123456789abcdef" * 2 + "01234567"
PLACEHOLDER = "@@GATE_ACTION@@"
PIN = f"{GATE_ACTION}@{REF} # gate/v{__version__}"
WORKFLOW_NAMES = ["ci.yml", "gate.yml", "release.yml"]


def _render(target: Path, pin: str = PIN) -> Path:
    """The templates written into target/.github/ with the placeholder filled by `pin`, as init fills it."""
    for template in sorted(TEMPLATES.rglob("*.yml")):
        path = target / ".github" / template.relative_to(TEMPLATES)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.read_text(encoding="utf-8").replace(PLACEHOLDER, pin), encoding="utf-8")
    return target


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Path:
    return _render(tmp_path_factory.mktemp("rendered"))


def _yaml(path: Path):
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def test_the_templates_are_the_three_workflows_and_dependabot_with_one_placeholder():
    assert sorted(str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*") if p.is_file()) == [
        "dependabot.yml", "workflows/ci.yml", "workflows/gate.yml", "workflows/release.yml"]
    for path in TEMPLATES.rglob("*.yml"):
        text = path.read_text(encoding="utf-8")
        lines = [line for line in text.splitlines() if "@@" in line]
        assert all(line.strip() == f"uses: {PLACEHOLDER}" for line in lines), (path.name, lines)
        assert set(re.findall(r"@@[A-Z_]*@@", text)) <= {PLACEHOLDER}
    assert "@@" not in (TEMPLATES / "dependabot.yml").read_text(encoding="utf-8")


def _shape(root: Path) -> dict:
    """{workflow: {job: [what each step is]}}: `checkout`, `setup-python`, `gate:<job input>`, `run`, or the
    action's name."""
    out = {}
    for path in sorted((root / ".github" / "workflows").glob("*.yml")):
        jobs = {}
        for name, job in _yaml(path)["jobs"].items():
            kinds = []
            for step in job["steps"]:
                uses = step.get("uses", "")
                if uses.startswith(GATE_ACTION + "@"):
                    kinds.append(f"gate:{step['with']['job']}")
                elif uses:
                    kinds.append(uses.split("@")[0].removeprefix("actions/"))
                else:
                    kinds.append("run")
            jobs[name] = kinds
        out[path.name] = jobs
    return out


SHAPE = {
    "ci.yml": {"gate": ["checkout", "setup-python", "gate:push"]},
    "gate.yml": {"gate": ["checkout", "setup-python", "gate:pull-request"],
                 "sign-off": ["checkout", "setup-python", "gate:sign-off"]},
    "release.yml": {"release": ["checkout", "setup-python", "gate:release", "run"],
                    "pages": ["checkout", "setup-python", "gate:index", "configure-pages", "upload-pages-artifact",
                              "deploy-pages"]},
}


def test_each_job_is_a_checkout_setup_python_and_the_gates_action(rendered):
    """The same jobs as this repository's, each running the gate through the action pinned by commit; no
    tests job (a new catalog has no .ci/run); the release's one run step is `gh release create`, whose token
    is that step's alone."""
    assert _shape(rendered) == SHAPE
    triggers = {name: _yaml(rendered / ".github" / "workflows" / name)["on"] for name in WORKFLOW_NAMES}
    assert triggers == {"ci.yml": {"push": {"branches": ["main"]}}, "gate.yml": {"pull_request_target": None},
                        "release.yml": {"push": {"tags": ["v*"]}}}
    release = _yaml(rendered / ".github" / "workflows" / "release.yml")
    publish = release["jobs"]["release"]["steps"][-1]
    assert publish["run"].strip().startswith('gh release create "$TAG" --verify-tag')
    assert set(publish["env"]) == {"GH_TOKEN", "GH_REPO"}
    assert release["jobs"]["pages"]["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    for name in WORKFLOW_NAMES:
        workflow = _yaml(rendered / ".github" / "workflows" / name)
        assert workflow["permissions"] == {}
        text = (rendered / ".github" / "workflows" / name).read_text(encoding="utf-8")
        assert ".ci/run" not in text and "secrets." not in text
        for job in workflow["jobs"].values():
            assert "secrets" not in json.dumps(job) and job["permissions"].get("contents") in ("read", "write")


def test_the_pull_request_job_runs_the_gate_and_the_review_and_the_sign_off_job_the_sign_off(rendered):
    """Read through the action: what each job runs, with the one-entry rule on by default."""
    jobs = _yaml(rendered / ".github" / "workflows" / "gate.yml")["jobs"]
    gate = [s["run"] for s in applicable(expand(jobs["gate"])) if "run" in s]
    assert any("check --catalog \"$CATALOG\" --commit \"$HEAD\" --base \"$BASE\"" in r and "--format github" in r
               for r in gate)
    assert any("--format markdown >> \"$GITHUB_STEP_SUMMARY\"" in r for r in gate)
    assert not any(" signoff " in r for r in gate)
    assert jobs["gate"]["steps"][-1]["with"]["one-entry-per-pull-request"] == "true"
    sign_off = [s["run"] for s in applicable(expand(jobs["sign-off"])) if "run" in s]
    assert any('"$RUNNER_TEMP/gate/bin/exchange" signoff' in r for r in sign_off)
    assert not any("--format markdown" in r for r in sign_off)


def _trusted_problems(root: Path) -> list[str]:
    jobs = trusted_jobs(root / ".github" / "workflows")
    assert sorted((w, j) for w, j, _ in jobs) == [("ci.yml", "gate"), ("gate.yml", "gate"), ("gate.yml", "sign-off"),
                                                  ("release.yml", "pages"), ("release.yml", "release")]
    problems = []
    for workflow, name, job in jobs:
        problems += job_problems(workflow, name, job)
        assert any(s.get("_uses", "").startswith(GATE_ACTION + "@") for s in expand(job)), (workflow, name)
    return problems


def test_the_rendered_workflows_pass_the_trusted_job_test(rendered):
    """The remote action, read from this repository's action.yml, expanded into every job; each of its steps
    and each of the workflow's own held to the trusted-job rules."""
    assert _trusted_problems(rendered) == []


def test_near_miss_the_action_pinned_otherwise_is_refused(tmp_path):
    for pin in (f"{GATE_ACTION}@gate/v{__version__}", f"Someone/judgment-pack-exchange/.github/actions/gate@{REF}",
                f"{GATE_ACTION}@{REF[:12]}"):
        root = _render(tmp_path / pin.replace("/", "_"), pin)
        problems = [p for w, n, job in trusted_jobs(root / ".github" / "workflows") for p in job_problems(w, n, job)]
        assert problems and all("not one of the pinned actions" in p for p in problems), (pin, problems)


def test_the_rendered_workflows_pin_every_action_by_commit(rendered):
    for name in WORKFLOW_NAMES:
        text = (rendered / ".github" / "workflows" / name).read_text(encoding="utf-8")
        assert action_pin_problems(text, gate_ref=REF) == [], name
        assert f"uses: {PIN}" in text, name
    near = (rendered / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    assert action_pin_problems(near, gate_ref="f" * 40)  # the near miss: another commit than the one given


def _schema(name: str) -> jsonschema.Validator:
    schema = json.loads((files("check_jsonschema.builtin_schemas.vendor") / name).read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)


def test_the_rendered_files_match_the_github_schemas(rendered):
    for name in WORKFLOW_NAMES:
        errors = list(_schema("github-workflows.json").iter_errors(_yaml(rendered / ".github" / "workflows" / name)))
        assert not errors, (name, [e.message for e in errors])
    config = _yaml(rendered / ".github" / "dependabot.yml")
    assert [p for p in dependabot_problems(config) if "no pip update" not in p] == []  # a catalog has no lock
    assert [u["package-ecosystem"] for u in config["updates"]] == ["github-actions"]


def _suppressions(root: Path) -> list[tuple[str, str]]:
    found = []
    for path in sorted((root / ".github").rglob("*.yml")):
        for line in path.read_text(encoding="utf-8").splitlines():
            match = IGNORE.search(line)
            if match:
                found.append((path.name, match["audits"]))
                assert len(match["reason"].split()) >= 8, line
    return found


def test_the_rendered_workflows_have_no_zizmor_finding(rendered):
    for target in (rendered / ".github", rendered):
        status, findings = _findings(target)
        assert findings == [] and status == 0, _shown(findings)
    assert _suppressions(rendered) == [("gate.yml", "dangerous-triggers")]


def test_near_miss_zizmor_finds_the_pull_request_target_unsuppressed(tmp_path):
    root = _render(tmp_path)
    gate = root / ".github" / "workflows" / "gate.yml"
    gate.write_text(re.sub(r"  # zizmor: ignore\[dangerous-triggers\].*", "", gate.read_text(encoding="utf-8")))
    status, findings = _findings(root / ".github")
    assert status != 0 and {f["ident"] for f in findings} == {"dangerous-triggers"}, _shown(findings)


@pytest.fixture(scope="module")
def initialised(tmp_path_factory) -> Path:
    """A catalog `exchange init` writes (issue #33 item 1), its workflows pinning the gate's action at REF."""
    from judgment_exchange.cli import main

    root = tmp_path_factory.mktemp("init") / "catalog"
    assert main(["init", str(root), "--owners", "@org/team", "--gate-ref", REF, "--no-git"]) == 0
    return root


def test_an_initialised_catalogs_workflows_pass_the_trusted_job_test_and_zizmor(initialised):
    assert _shape(initialised) == SHAPE
    assert _trusted_problems(initialised) == []
    for name in WORKFLOW_NAMES:
        text = (initialised / ".github" / "workflows" / name).read_text(encoding="utf-8")
        assert action_pin_problems(text, gate_ref=REF) == [], name
    for target in (initialised / ".github", initialised):
        status, findings = _findings(target)
        assert findings == [] and status == 0, _shown(findings)
    assert _suppressions(initialised) == [("gate.yml", "dangerous-triggers")]


def test_the_workflow_templates_are_this_repositorys_jobs_through_the_remote_action(rendered):
    """Each template job runs, through the action, the same commands with the same inputs as this
    repository's job of the same name runs through its local one (the repository's own tests job aside)."""
    for workflow in WORKFLOW_NAMES:
        ours = load(REPO / ".github" / "workflows" / workflow)["jobs"]
        for name, job in load(rendered / ".github" / "workflows" / workflow)["jobs"].items():
            mine = [(s["run"], s.get("env")) for s in applicable(expand(ours[name])) if "_action" in s]
            them = [(s["run"], s.get("env")) for s in applicable(expand(job)) if "_action" in s]
            assert them == mine, (workflow, name)
