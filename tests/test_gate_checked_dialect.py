"""The gate hands each entry's checked dialect on to its replay and gives the report it gave before
(issue #12 item 2; dialect.CheckedDialect, gate/replay.py, verifier/verify.py).

The expectation is the other computation: the same gate with the hand-on switched off — the form checker
hands nothing on, so the directory checks compute the binding check and digests themselves and every
fixture is verified from its bytes alone (the path before this change). Compared refusal for refusal
(code, entry, path, detail), skip for skip and replay for replay, on the demo catalog, on the demo
catalog damaged where the hand-on reaches (findings and refusals from the verifier, two fixtures of
one entry under one binding document and under another, a binding written otherwise, a skipped
fixture's checks, a dialect out of form), and on every catalog case of tests/cases/catalog replayed.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from judgment_exchange import dialect as dialect_form
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from .support.cases import build, load_cases
from .support.paths import REPO

DEMO = REPO / "docs" / "demo-catalog"
CASES = load_cases("catalog")


def _full(root: Path) -> tuple:
    report = check_catalog(WorkingTree(str(root)), GateOptions(repository=str(root), history=False, workers=1))
    refusals = [(r.code, r.entry, r.path, r.detail, r.pointer) for r in report.refusals]
    return report.as_json(), refusals, [dataclasses.astuple(s) for s in report.skipped], report.replays


def _both(root: Path, monkeypatch) -> tuple[tuple, tuple]:
    handed = _full(root)
    original = dialect_form.check_form
    with monkeypatch.context() as patched:  # the path before: nothing handed on, each fixture from its bytes
        patched.setattr(dialect_form, "check_form",
                        lambda data, **kw: dataclasses.replace(original(data, **kw), checked=None))
        alone = _full(root)
    return handed, alone


def test_the_demo_catalog_reports_the_same_with_the_hand_on(monkeypatch):
    handed, alone = _both(DEMO, monkeypatch)
    assert handed == alone
    assert handed[0]["replayed"] == 10 and handed[0]["skipped"]


def _entry(root: Path, entry_id: str) -> Path:
    publisher, _, name = entry_id.partition(".")
    return root / "entries" / publisher / name


def _add_fixture(entry: Path, source: str, name: str, binding: bytes | None = None) -> None:
    """A copy of a fixture under another name, listed in entry.json (the manifest row no longer holds)."""
    shutil.copytree(entry / "fixtures" / source, entry / "fixtures" / name)
    if binding is not None:
        (entry / "fixtures" / name / "binding.json").write_bytes(binding)
    document = json.loads((entry / "entry.json").read_text(encoding="utf-8"))
    listed = next(f for f in document["fixtures"] if f["name"] == source)
    document["fixtures"].append({**listed, "name": name, "path": f"fixtures/{name}"})
    (entry / "entry.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def _replace(path: Path, old: bytes, new: bytes) -> None:
    data = path.read_bytes()
    assert old in data, path
    path.write_bytes(data.replace(old, new, 1))


def _damaged(tmp_path: Path) -> Path:
    root = tmp_path / "catalog"
    shutil.copytree(DEMO, root)
    approvals = _entry(root, "gateway.vendor-approvals") / "fixtures"
    _replace(approvals / "approved" / "sources.json", b'"snapshot":"snap-1"', b'"snapshot":"snap-2"')  # signature
    (approvals / "unmatched" / "profiles.json").write_bytes(b'[{"id":')  # the verifier's phase 2
    _replace(_entry(root, "gateway.fx-exposure") / "fixtures" / "computed" / "case.json", b"1200", b"1300")
    tickets = _entry(root, "gateway.ticket-status")
    binding = (tickets / "fixtures" / "open" / "binding.json").read_bytes()
    _add_fixture(tickets, "open", "open-again")  # a second fixture under the same binding document
    _add_fixture(tickets, "open", "open-other", binding.replace(b'"dialect":"sha256:', b'"dialect":"sha256:0', 1))
    # ^ another binding document's bytes (its dialect digest one digit long), refused by the directory checks
    research = _entry(root, "gateway.company-research") / "fixtures" / "found" / "binding.json"
    research.write_bytes(json.dumps(json.loads(research.read_bytes()), indent=1).encode())  # same value, other bytes
    skipped = _entry(root, "kinds.intake-http-source") / "fixtures" / "vendor-7" / "profiles.json"
    skipped.write_bytes(b"[]")  # a skipped fixture still held to what the verifier reads
    dialect = _entry(root, "runner.intake-vendor-registry") / "dialect.json"
    dialect.write_bytes(dialect.read_bytes()[:-3])  # no checked dialect to hand on
    return root


def test_a_damaged_demo_catalog_reports_the_same_with_the_hand_on(tmp_path, monkeypatch):
    root = _damaged(tmp_path)
    handed, alone = _both(root, monkeypatch)
    codes = {(code, entry) for code, entry, *_ in handed[1]}
    # the damage reaches the verifier through the hand-on, and the directory checks around it
    assert {("acquisition-invalid", "gateway.vendor-approvals"), ("input-malformed", "gateway.vendor-approvals"),
            ("input-malformed", "gateway.ticket-status"), ("profile-mismatch", "kinds.intake-http-source"),
            ("acquisition-invalid", "gateway.fx-exposure")} <= codes, codes
    assert any(r.entry == "gateway.ticket-status" and r.fixture == "open-again" and r.result == "reading"
               for r in handed[3])
    assert any(r.entry == "gateway.company-research" and r.result == "reading" for r in handed[3])
    assert handed == alone


REPLAYED = [(n, c) for n, c in CASES if not c.get("scan")]


@pytest.mark.parametrize("name,case", REPLAYED, ids=[n for n, _ in REPLAYED])
def test_every_catalog_case_replayed_reports_the_same_with_the_hand_on(tmp_path, monkeypatch, name, case):
    root = tmp_path / "catalog"
    build(root, case)
    handed, alone = _both(root, monkeypatch)
    assert handed == alone
