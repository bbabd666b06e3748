"""Issue #24 item 4: the workflows pass zizmor, a GitHub Actions security linter, offline, at its default
persona, with no configuration file: each accepted finding is suppressed inline, on its own line, with its
reason (gate.yml's and thanks.yml's deliberate `pull_request_target`). zizmor is in the development lock
(requirements-dev.txt); offline it does not check for impostor commits or known-vulnerable actions
(docs/trust.md, "What no check here can stop")."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from ..support.paths import REPO

WORKFLOWS = REPO / ".github" / "workflows"
IGNORE = re.compile(r"#\s*zizmor:\s*ignore\[(?P<audits>[^\]]+)\](?P<reason>.*)$")


def _zizmor() -> str:
    beside = Path(sys.executable).parent / "zizmor"
    found = str(beside) if beside.is_file() else shutil.which("zizmor")
    assert found, "zizmor is not installed: it is in requirements-dev.txt (bash .ci/run installs it)"
    return found


def _findings(target: Path) -> tuple[int, list[dict]]:
    done = subprocess.run([_zizmor(), "--offline", "--no-config", "--no-progress", "--format", "json", str(target)],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode in (0, 10, 11, 12, 13, 14), done.stderr[-2000:]  # 0 clean; 10+ findings by severity
    return done.returncode, json.loads(done.stdout or "[]")


def test_the_workflows_have_no_zizmor_finding():
    status, findings = _findings(WORKFLOWS)
    assert findings == [] and status == 0, [(f["ident"], f["locations"][0]["symbolic"]["key"]) for f in findings]


def test_every_suppression_is_inline_with_its_reason_and_no_configuration_silences_an_audit():
    suppressions = []
    for path in sorted(WORKFLOWS.glob("*.y*ml")):
        for line in path.read_text(encoding="utf-8").splitlines():
            match = IGNORE.search(line)
            if match:
                suppressions.append((path.name, match["audits"]))
                assert len(match["reason"].split()) >= 8, f"{path.name}: a suppression without its reason: {line}"
    assert sorted(suppressions) == [("gate.yml", "dangerous-triggers"), ("thanks.yml", "dangerous-triggers")]
    for name in ("zizmor.yml", "zizmor.yaml", ".github/zizmor.yml", ".github/zizmor.yaml"):
        assert not (REPO / name).exists(), f"{name} would silence audits for the whole repository"


def test_near_miss_zizmor_finds_an_injection(tmp_path):
    """The check can fail: a pull request's title expanded into a run line is a finding."""
    bad = tmp_path / "bad.yml"
    bad.write_text("on: pull_request\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - run: echo \"${{ github.event.pull_request.title }}\"\n")
    status, findings = _findings(bad)
    assert status != 0 and "template-injection" in {f["ident"] for f in findings}
