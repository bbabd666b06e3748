"""Every refusal of RFC 0019 §§3–4 the catalog names, each with a near-miss (tests/cases/catalog/)."""

from __future__ import annotations

import pytest

from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from .support.cases import build, load_cases

CASES = load_cases("catalog")


@pytest.mark.parametrize("name,case", CASES, ids=[n for n, _ in CASES])
def test_case(tmp_path, name, case):
    root = tmp_path / "catalog"
    build(root, case)
    report = check_catalog(WorkingTree(str(root)), GateOptions(replay=False, history=False,
                                                                scan=case.get("scan", False)))
    found = sorted({(r.code, r.entry) for r in report.refusals}, key=str)
    expected = sorted({(e["code"], e.get("entry")) for e in case["expect"]}, key=str)
    details = "\n".join(f"{r.code} {r.entry} {r.path}: {r.detail}" for r in report.refusals)
    assert found == expected, f"{case.get('description', name)}\n{details}"
    for refusal in report.refusals:
        assert refusal.detail and (refusal.path is None or not refusal.path.startswith("/"))
