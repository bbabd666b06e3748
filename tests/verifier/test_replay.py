"""Replay for the gate: `replay_fixture` in-process and `replay_with_program` through §11's process contract."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from judgment_exchange.verifier import replay_fixture, replay_with_program

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FIXTURES = sorted(p for p in EXAMPLES.glob("*/fixtures/*") if p.is_dir())


def _entry(fixture: Path) -> tuple[bytes, dict[str, bytes], str]:
    entry = fixture.parent.parent
    rows = json.loads((entry / "entry.json").read_text())["fixtures"]
    digest = {r["name"]: r["preparationDigest"] for r in rows}[fixture.name]
    return (entry / "dialect.json").read_bytes(), {p.name: p.read_bytes() for p in fixture.iterdir()}, digest


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f"{p.parent.parent.name}/{p.name}" for p in FIXTURES])
def test_replay_fixture(fixture):
    dialect, files, digest = _entry(fixture)
    answer = replay_fixture(dialect, files)
    assert answer["result"] == "reading" and answer["digest"] == digest
    assert answer["binding"] == "not-checked"


def test_replay_fixture_finding():
    dialect, files, _ = _entry(EXAMPLES / "mcp-v2" / "fixtures" / "approved")
    files["case.json"] = b'{"requestor":"ops-team","vendorId":"7"}'
    assert replay_fixture(dialect, files) == {"result": "finding", "finding": "parameter-invalid"}


def test_replay_fixture_missing_file():
    dialect, files, _ = _entry(EXAMPLES / "mcp-v2" / "fixtures" / "approved")
    del files["profiles.json"]
    assert replay_fixture(dialect, files)["result"] == "error"


def test_replay_with_program():
    fixture = EXAMPLES / "calculator-v2" / "fixtures" / "computed"
    _, _, digest = _entry(fixture)
    command = f"{sys.executable} -m judgment_exchange.verifier.program"
    answer = replay_with_program(command, fixture.parent.parent, fixture.name)
    assert answer["result"] == "reading" and answer["digest"] == digest


def test_replay_with_program_that_cannot_run(tmp_path):
    answer = replay_with_program(f"{sys.executable} -c 'import sys; sys.exit(3)'", tmp_path, "none")
    assert answer["result"] == "error"
    answer = replay_with_program("/nonexistent/verifier", tmp_path, "none")
    assert answer["result"] == "error"
