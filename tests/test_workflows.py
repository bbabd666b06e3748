"""Every GitHub workflow validates against the GitHub workflow schema check-jsonschema ships as a
built-in (vendored from SchemaStore), so a broken workflow fails here, not on the forge (issue #9
item 6). The schema is read from the installed package, never from the network; the YAML is read
with ruamel.yaml (check-jsonschema's own YAML reader, YAML 1.2: `on` stays a string key)."""

from __future__ import annotations

import json
from importlib.resources import files

import jsonschema
import pytest
from ruamel.yaml import YAML

from .support.paths import REPO

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.y*ml"))


def _schema() -> dict:
    vendored = files("check_jsonschema.builtin_schemas.vendor") / "github-workflows.json"
    return json.loads(vendored.read_text(encoding="utf-8"))


def _validator() -> jsonschema.Validator:
    schema = _schema()
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
