"""`exchange verify` (verifier.program.main): one report line and exit 0/1/2/3 (dialect §11, interfaces.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from judgment_exchange.verifier.program import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
CASES = Path(__file__).resolve().parents[1] / "cases" / "verifier"


def _args(directory: Path) -> list[str]:
    args = ["--dialect", str(directory / "dialect.json"), "--case", str(directory / "case.json"),
            "--profiles", str(directory / "profiles.json"), "--preparation", str(directory / "preparation.json")]
    if (directory / "sources.json").exists():
        args += ["--acquisitions", str(directory / "sources.json")]
    if (directory / "binding.json").exists():
        args += ["--binding", str(directory / "binding.json")]
    return args


def _run(capsys, argv):
    status = main(argv)
    out = capsys.readouterr().out
    return status, out


@pytest.mark.parametrize("case,status,result", [
    ("reading-base", 0, "reading"), ("p2-duplicate-member", 1, "refusal"), ("f5-reason-changed", 2, "finding"),
])
def test_exit_status_and_one_line(capsys, case, status, result):
    code, out = _run(capsys, _args(CASES / case))
    assert code == status
    assert out.endswith("\n") and out.count("\n") == 1
    assert json.loads(out)["result"] == result


def test_report_is_in_preparation_form(capsys):
    _, out = _run(capsys, _args(CASES / "reading-base"))
    line = out.rstrip("\n")
    assert " " not in line.replace("ops-team", "")
    keys = list(json.loads(line))
    assert keys == sorted(keys)


def test_record_file_with_newline(capsys, tmp_path):
    record = tmp_path / "record.jsonl"
    record.write_bytes((CASES / "f-binding-matches" / "record.jsonl").read_bytes() + b"\n")
    code, out = _run(capsys, _args(CASES / "f-binding-matches") + ["--record", str(record)])
    assert code == 0 and json.loads(out)["binding"] == "matches"


def test_require_binding(capsys):
    code, out = _run(capsys, _args(CASES / "reading-base") + ["--require-binding"])
    assert code == 2 and json.loads(out) == {"result": "finding", "finding": "unbound"}


def test_fixture(capsys):
    code, out = _run(capsys, ["--fixture", str(EXAMPLES / "http-unbound-v3" / "fixtures" / "open")])
    assert code == 0 and json.loads(out)["result"] == "reading"


def test_fixture_without_sources(capsys, tmp_path):
    entry = tmp_path / "entry"
    shutil.copytree(EXAMPLES / "mcp-v2", entry)
    (entry / "fixtures" / "approved" / "sources.json").unlink()
    code, out = _run(capsys, ["--fixture", str(entry / "fixtures" / "approved")])
    assert code == 2 and json.loads(out) == {"result": "finding", "finding": "acquisition-missing"}


@pytest.mark.parametrize("argv", [
    [], ["--dialect"], ["--unknown", "x"], ["--fixture", "/nonexistent/fixtures/x"],
    ["--dialect", "/nonexistent.json", "--case", "c", "--profiles", "p", "--preparation", "x"],
])
def test_cannot_run(capsys, argv):
    code, out = _run(capsys, argv)
    assert code == 3 and out == ""


def test_fixture_and_documents_conflict(capsys):
    fixture = EXAMPLES / "mcp-v2" / "fixtures" / "approved"
    code, out = _run(capsys, ["--fixture", str(fixture), "--case", str(fixture / "case.json")])
    assert code == 3 and out == ""
