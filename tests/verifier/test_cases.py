"""Every refusal phase and finding of dialect §11 as a case directory (tests/cases/verifier/), each with a near-miss.

A case holds the verifier's input files and expected.json; adding a case needs no code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgment_exchange.verifier import Documents, report, verify

CASES = Path(__file__).resolve().parents[1] / "cases" / "verifier"
NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())


def _optional(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def documents(directory: Path, require_binding: bool) -> Documents:
    record = _optional(directory / "record.jsonl")
    if record is not None and record.endswith(b"\n"):
        record = record[:-1]
    return Documents(
        dialect=(directory / "dialect.json").read_bytes(),
        case=(directory / "case.json").read_bytes(),
        acquisitions=_optional(directory / "sources.json"),
        profiles=(directory / "profiles.json").read_bytes(),
        preparation=(directory / "preparation.json").read_bytes(),
        binding=_optional(directory / "binding.json"),
        record=record,
        require_binding=require_binding,
    )


@pytest.mark.parametrize("name", NAMES)
def test_case(name):
    directory = CASES / name
    expected = json.loads((directory / "expected.json").read_text(encoding="utf-8"))
    answer = json.loads(json.dumps(report(verify(documents(directory, expected.get("requireBinding", False)))),
                                   default=lambda n: json.loads(n.literal)))
    want = expected["report"]
    if want["result"] == "reading":
        assert answer["result"] == "reading", answer
        assert {k: answer.get(k) for k in want} == want
    else:
        assert answer == want


def test_every_code_has_a_case():
    codes = set()
    for name in NAMES:
        want = json.loads((CASES / name / "expected.json").read_text(encoding="utf-8"))["report"]
        codes.add(want.get("refusal") or want.get("finding") or want["result"])
    assert codes >= {
        "input-over-bound", "input-malformed", "kind-unread", "profile-mismatch", "parameter-invalid",
        "acquisition-missing", "acquisition-unexpected", "acquisition-invalid", "acquisition-stale",
        "acquisition-sessions", "calculation-invalid", "read-failed", "admission-refused", "preparation-differs",
        "record-inputs-differ", "binding-foreign-kind", "binding-mismatch", "unbound", "reading",
    }
