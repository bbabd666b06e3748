"""Issue #24 item 4: the workflows pass zizmor, a GitHub Actions security linter, offline, at its default
persona, with no configuration file: each accepted finding is suppressed inline, on its own line, with its
reason (gate.yml's and thanks.yml's deliberate `pull_request_target`; each trusted job's `uses: ./…` of the
gate's action, which zizmor's `self-repository` would have be `$/…`, the workflow's running commit, where the
boundary wants the judging commit's own checkout: docs/trust.md). So do the gate's composite action
(`.github/actions/`, issue #33 item 2) and the whole repository as zizmor collects it, `.github/dependabot.yml`
included (issue #38 item 6: a cooldown on every update). A catalog `exchange init` writes is held to the same
in tests/trust/test_catalog_workflows.py. zizmor is in the development lock (requirements-dev.txt); offline it
does not check for impostor commits or known-vulnerable actions (docs/trust.md, "What no check here can stop")."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from ..support.paths import REPO

WORKFLOWS = REPO / ".github" / "workflows"
ACTIONS = REPO / ".github" / "actions"
IGNORE = re.compile(r"#\s*zizmor:\s*ignore\[(?P<audits>[^\]]+)\](?P<reason>.*)$")


def _zizmor() -> str:
    beside = Path(sys.executable).parent / "zizmor"
    found = str(beside) if beside.is_file() else shutil.which("zizmor")
    assert found, "zizmor is not installed: it is in requirements-dev.txt (bash .ci/run installs it)"
    return found


def _shown(findings: list[dict]) -> list:
    return [(f["ident"], f["locations"][0]["symbolic"]["key"], f["locations"][0]["concrete"]["location"]["start_point"])
            for f in findings]


def _findings(target: Path) -> tuple[int, list[dict]]:
    done = subprocess.run([_zizmor(), "--offline", "--no-config", "--no-progress", "--format", "json", str(target)],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode in (0, 10, 11, 12, 13, 14), done.stderr[-2000:]  # 0 clean; 10+ findings by severity
    return done.returncode, json.loads(done.stdout or "[]")


def test_the_workflows_have_no_zizmor_finding():
    status, findings = _findings(WORKFLOWS)
    assert findings == [] and status == 0, _shown(findings)


def test_the_gate_action_has_no_zizmor_finding():
    status, findings = _findings(ACTIONS)
    assert findings == [] and status == 0, _shown(findings)
    assert (ACTIONS / "gate" / "action.yml").is_file()


def test_the_whole_repository_has_no_zizmor_finding():
    """Issue #38 item 6: zizmor reads the repository root too: the workflows, the actions and dependabot.yml,
    whose updates each wait a cooldown."""
    status, findings = _findings(REPO)
    assert findings == [] and status == 0, _shown(findings)


def test_near_miss_zizmor_finds_an_update_without_a_cooldown(tmp_path):
    (tmp_path / ".github").mkdir()
    text = (REPO / ".github" / "dependabot.yml").read_text(encoding="utf-8")
    assert "    cooldown:\n      default-days: 7\n" in text
    (tmp_path / ".github" / "dependabot.yml").write_text(text.replace("    cooldown:\n      default-days: 7\n", "", 1))
    status, findings = _findings(tmp_path)
    assert status != 0 and [f["ident"] for f in findings] == ["dependabot-cooldown"], _shown(findings)


def test_near_miss_zizmor_finds_an_input_expanded_in_the_actions_run(tmp_path):
    """The action's inputs reach its scripts through env: alone; an input inside a run line is a finding."""
    text = (ACTIONS / "gate" / "action.yml").read_text(encoding="utf-8")
    old = 'signoff --catalog "$CATALOG" --base "$BASE"'
    assert old in text
    (tmp_path / "gate").mkdir()
    (tmp_path / "gate" / "action.yml").write_text(
        text.replace(old, 'signoff --catalog "$CATALOG" --base "${{ inputs.base }}"'))
    status, findings = _findings(tmp_path)
    assert status != 0 and "template-injection" in {f["ident"] for f in findings}, _shown(findings)


SUPPRESSED = [("ci.yml", "self-repository"), ("gate.yml", "dangerous-triggers"), ("gate.yml", "self-repository"),
              ("gate.yml", "self-repository"), ("release.yml", "self-repository"), ("release.yml", "self-repository"),
              ("thanks.yml", "dangerous-triggers")]
"""Every inline suppression: the two deliberate `pull_request_target` triggers and each `uses: ./…` of the
gate's action from the judging commit's own checkout (docs/trust.md, "The gate as an action")."""


def test_every_suppression_is_inline_with_its_reason_and_no_configuration_silences_an_audit():
    suppressions = []
    for path in sorted([*WORKFLOWS.glob("*.y*ml"), *ACTIONS.glob("*/action.y*ml"), *(REPO / ".github").glob("*.y*ml")]):
        for line in path.read_text(encoding="utf-8").splitlines():
            match = IGNORE.search(line)
            if match:
                suppressions.append((path.name, match["audits"]))
                assert len(match["reason"].split()) >= 8, f"{path.name}: a suppression without its reason: {line}"
                if match["audits"] == "self-repository":
                    assert line.strip().startswith("uses: ./") and "/.github/actions/gate" in line, line
    assert sorted(suppressions) == SUPPRESSED
    for name in ("zizmor.yml", "zizmor.yaml", ".github/zizmor.yml", ".github/zizmor.yaml"):
        assert not (REPO / name).exists(), f"{name} would silence audits for the whole repository"


def test_near_miss_zizmor_finds_an_injection(tmp_path):
    """The check can fail: a pull request's title expanded into a run line is a finding."""
    bad = tmp_path / "bad.yml"
    bad.write_text("on: pull_request\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - run: echo \"${{ github.event.pull_request.title }}\"\n")
    status, findings = _findings(bad)
    assert status != 0 and "template-injection" in {f["ident"] for f in findings}
