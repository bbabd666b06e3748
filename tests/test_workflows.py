"""Every GitHub workflow validates against the GitHub workflow schema check-jsonschema ships as a
built-in (vendored from SchemaStore), so a broken workflow fails here, not on the forge (issue #9
item 6); the gate's composite action (.github/actions/gate/action.yml, issue #33 item 2) against the
GitHub action schema vendored beside it, which says what a composite step may hold (`if:`,
`continue-on-error`, `working-directory`, `shell`, …). The schema is read from the installed package, never
from the network; the YAML is read with ruamel.yaml (check-jsonschema's own YAML reader, YAML 1.2: `on` stays a
string key)."""

from __future__ import annotations

import json
from importlib.resources import files

import jsonschema
import pytest
from ruamel.yaml import YAML

from .support.paths import REPO

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.y*ml"))
ACTIONS = sorted((REPO / ".github" / "actions").glob("*/action.y*ml"))


def _schema(name: str = "github-workflows.json") -> dict:
    vendored = files("check_jsonschema.builtin_schemas.vendor") / name
    return json.loads(vendored.read_text(encoding="utf-8"))


def _validator(name: str = "github-workflows.json") -> jsonschema.Validator:
    schema = _schema(name)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _load(text: str):
    return YAML(typ="safe", pure=True).load(text)


def test_there_are_workflows_to_check():
    assert WORKFLOWS, "no .github/workflows/*.yml found"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_matches_the_github_workflow_schema(path):
    errors = sorted(_validator().iter_errors(_load(path.read_text(encoding="utf-8"))), key=lambda e: list(e.path))
    assert not errors, [f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors]


def test_a_broken_workflow_is_refused():
    """Near misses: the schema catches what the forge would reject (no runs-on, a step that is neither
    run nor uses, an unknown trigger)."""
    ok = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n"
    assert not list(_validator().iter_errors(_load(ok)))
    for broken in (
        "on: push\njobs:\n  a:\n    steps:\n      - run: echo\n",
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - name: nothing\n",
        "on: pushed\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n",
    ):
        assert list(_validator().iter_errors(_load(broken))), broken


def _action_errors(action) -> list[str]:
    errors = sorted(_validator("github-actions.json").iter_errors(action), key=lambda e: list(e.path))
    return [f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors]


@pytest.mark.parametrize("path", ACTIONS, ids=lambda p: p.parent.name)
def test_action_matches_the_github_action_schema(path):
    assert not _action_errors(_load(path.read_text(encoding="utf-8")))


def test_the_gate_action_is_composite_and_every_input_is_described():
    assert [p.parent.name for p in ACTIONS] == ["gate"]
    action = _load(ACTIONS[0].read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    assert list(action["inputs"]) == ["job", "catalog", "base", "head", "tag", "address", "one-entry-per-pull-request"]
    assert all(len(spec["description"].split()) >= 5 for spec in action["inputs"].values())
    assert action["inputs"]["one-entry-per-pull-request"]["default"] == "true"
    assert list(action["outputs"]) == ["exchange"] and action["outputs"]["exchange"]["description"]
    assert all(step["shell"] == "bash" for step in action["runs"]["steps"] if "run" in step)
    text = ACTIONS[0].read_text(encoding="utf-8")
    assert "secrets." not in text and "github.token" not in text and "GH_TOKEN" not in text  # no token, no secret


def test_a_broken_action_is_refused():
    """Near misses: the schema catches an action the forge would reject (a composite step with a key it does
    not know, no `runs`, an unknown `using`)."""
    ok = "name: a\ndescription: b\nruns:\n  using: composite\n  steps:\n    - run: echo\n      shell: bash\n"
    assert not _action_errors(_load(ok))
    for broken in (
        ok + "      timeout-minutes: 5\n",
        "name: a\ndescription: b\n",
        ok.replace("using: composite", "using: compose"),
    ):
        assert _action_errors(_load(broken)), broken
