"""Case directories: tests/cases/scan/<case>/entry/ holds an entry's files, expected.json its refusals.

expected.json: {"description", "executable": [paths], "refusals": [{"code", "path", "line"}]} with
paths relative to the entry and line null for a refusal of the whole file. The refusals must be
exactly these. Text files may hold {{sample:<code>}} or {{near:<name>}}, replaced at test time from
scan_samples.py, so that no file of the repository holds a live-looking credential.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from judgment_exchange.scan import scan_entry
from judgment_exchange.tree import WorkingTree

from .scan_samples import NEAR_MISSES, SAMPLES

CASES = Path(__file__).resolve().parents[1] / "cases" / "scan"
ENTRY = "entries/acme/case"
_PLACEHOLDER = re.compile(r"\{\{(sample|near):([^}]+)\}\}")


def _fill(match: re.Match) -> str:
    kind, name = match.group(1), match.group(2)
    return SAMPLES[name] if kind == "sample" else NEAR_MISSES[name]


def _materialise(case: Path, root: Path) -> None:
    target = root / ENTRY
    shutil.copytree(case / "entry", target)
    for path in target.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            if _PLACEHOLDER.search(text):
                path.write_text(_PLACEHOLDER.sub(_fill, text), encoding="utf-8")
            os.chmod(path, 0o644)


def _line(detail: str) -> int | None:
    m = re.match(r"line (\d+):", detail)
    return int(m.group(1)) if m else None


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.is_dir()))
def test_case(tmp_path: Path, case: str) -> None:
    expected = json.loads((CASES / case / "expected.json").read_text(encoding="utf-8"))
    _materialise(CASES / case, tmp_path)
    for rel in expected.get("executable", []):
        os.chmod(tmp_path / ENTRY / rel, 0o755)
    refusals = scan_entry(WorkingTree(str(tmp_path)), ENTRY, "acme.case")
    got = sorted((r.code, r.path, _line(r.detail)) for r in refusals)
    want = sorted((e["code"], f"{ENTRY}/{e['path']}", e["line"]) for e in expected["refusals"])
    assert got == want
    # the fix is the registry's, printed once under the refusal, never repeated in the detail (issue #26 item 5)
    assert all(r.entry == "acme.case" and "fix:" not in r.detail and r.how_to_fix() for r in refusals)
