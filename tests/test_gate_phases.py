"""docs/architecture.md lists the gate's phases in the order gate/pipeline.PHASES runs them (issue #37 item 1)."""

import re
from pathlib import Path

from judgment_exchange.gate.pipeline import PHASES

ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def documented() -> list[str]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("### The gate's phases", 1)[1].split("\n#", 1)[0]
    return re.findall(r"(?:^|, )\d+\. `([^`]+)`", section, flags=re.MULTILINE)


def test_the_documented_phases_are_the_codes_in_order():
    assert documented() == [phase.name for phase in PHASES]


def test_check_catalog_is_at_most_40_lines_its_docstring_aside():
    import inspect

    from judgment_exchange.gate.pipeline import check_catalog

    lines = inspect.getsource(check_catalog).splitlines()
    doc = (check_catalog.__doc__ or "").count("\n") + 1
    assert len([line for line in lines if line.strip()]) - doc <= 40


# --- each phase returns what it found; the pipeline alone records it (issue #37 item 1) ---------------------

import ast  # noqa: E402
import inspect  # noqa: E402

from judgment_exchange.gate import pipeline  # noqa: E402
from judgment_exchange.refusal import Refusal  # noqa: E402
from judgment_exchange.tree import WorkingTree  # noqa: E402

PACKAGE = Path(pipeline.__file__).resolve().parents[1]
HELPERS = [*sorted((PACKAGE / "gate").glob("*.py")), PACKAGE / "repository" / "skips.py",
           PACKAGE / "catalog" / "spdx.py"]
RECORDERS = {("pipeline.py", "_record"), ("pipeline.py", "check_catalog")}
"""The only functions that write the report: the pipeline's."""
MUTATORS = {"append", "extend", "insert", "remove", "pop", "clear", "update", "timed", "merge_into"}


def _names_report(node: ast.AST) -> bool:
    """True when an expression is the report or reaches into it (`report`, `run.report.refusals`, …)."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute) and node.attr == "report":
            return True
        node = node.value
    return isinstance(node, ast.Name) and node.id == "report"


def _writes(function: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(function):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AugAssign, ast.AnnAssign)) else []
        if any(isinstance(t, (ast.Attribute, ast.Subscript)) and _names_report(t) for t in targets):
            lines.append(node.lineno)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS \
                and _names_report(node.func.value):
            lines.append(node.lineno)
    return lines


def test_no_phase_or_helper_takes_or_writes_the_report():
    """No function of gate/ or the helpers the gate calls (skips.py, spdx.py) takes a Report or a `report`
    parameter, and none but the pipeline's `_record` and `check_catalog` (RECORDERS) writes into a report."""
    found = []
    for path in HELPERS:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if (path.name, node.name) in RECORDERS:
                continue
            for arg in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
                shown = ast.unparse(arg.annotation) if arg.annotation is not None else ""
                if arg.arg == "report" or "Report" in shown:
                    found.append(f"{path.name}:{node.lineno} {node.name}({arg.arg}: {shown})")
            found += [f"{path.name}:{line} {node.name} writes the report" for line in _writes(node)]
    assert found == []


def test_the_ast_test_sees_a_report_written():
    planted = ast.parse("def f(run):\n    run.report.refusals += []\n    run.report.notes.append('x')\n"
                        "    report.history = 'checked'\n")
    assert len(_writes(planted)) == 3


def test_each_phase_takes_the_run_alone():
    for phase in PHASES:
        parameters = list(inspect.signature(phase.run).parameters.values())
        assert [p.annotation for p in parameters] == ["Run"], phase.name


def test_the_per_entry_phases_are_declared():
    assert [phase.name for phase in PHASES if phase.per_entry] == ["entries", "skips", "edited"]


def test_a_release_wide_finding_of_an_entry_outside_the_selection_is_not_recorded():
    found = pipeline.Found([Refusal("c", None, "d", "a.b"), Refusal("c", None, "d", "c.d"), Refusal("c", None, "d")],
                           warnings=[Refusal("w", None, "d", "a.b"), Refusal("w", None, "d", "c.d"),
                                     Refusal("w", None, "d")])
    kept = pipeline._selected(found, ["a.b"])
    assert [r.entry for r in kept.refusals] == ["a.b", None] and [w.entry for w in kept.warnings] == ["a.b"]
    assert pipeline._selected(found, []) is found


DEMO = PACKAGE.parents[1] / "docs" / "demo-catalog"
CHOSEN = "runner.intake-vendor-copy"


def test_selection_happens_before_each_per_entry_phase(monkeypatch):
    """With --entry, the per-entry phases (replay, scan, licence, the edited-recording notes) see the selected
    entry alone, while the release-wide identity phase reads every row (RFC 0019 §7)."""
    seen: dict[str, list[str]] = {"replay": [], "scan": [], "licence": [], "edited": [], "identity": []}
    from judgment_exchange.catalog import spdx

    def spy(name, real, ids):
        def wrapped(*args, **kwargs):
            seen[name] += ids(*args)
            return real(*args, **kwargs)
        return wrapped

    monkeypatch.setattr(pipeline, "replay_entry", spy("replay", pipeline.replay_entry, lambda t, c, r: [c.id]))
    monkeypatch.setattr(pipeline, "scan_entry", spy("scan", pipeline.scan_entry, lambda t, p, i: [i]))
    monkeypatch.setattr(spdx, "check_licence", spy("licence", spdx.check_licence, lambda c, o: [c.id]))
    monkeypatch.setattr(pipeline, "unreplayed_notes", spy("edited", pipeline.unreplayed_notes,
                                                          lambda cs, r: [c.id for c in cs]))
    monkeypatch.setattr(pipeline, "identity_check", spy("identity", pipeline.identity_check,
                                                        lambda cs: [c.id for c in cs]))
    options = pipeline.GateOptions(entries=[CHOSEN], repository=str(DEMO), workers=1)
    report = pipeline.check_catalog(WorkingTree(str(DEMO)), options)
    assert report.checked == [CHOSEN]
    assert {name: set(ids) for name, ids in seen.items() if name != "identity"} == {
        "replay": {CHOSEN}, "scan": {CHOSEN}, "licence": {CHOSEN}, "edited": {CHOSEN}}
    every = sorted(f"{p.parent.name}.{p.name}" for p in (DEMO / "entries").glob("*/*") if p.is_dir())
    assert sorted(seen["identity"]) == every and len(every) > 1


def test_an_acknowledgement_of_a_held_entry_is_not_judged(tmp_path):
    """A pinned (held) entry was not replayed, so its acknowledgements are not held to skips it has none of: the
    gate on the base held them (the `skips` phase passes the held entries; docs/performance.md)."""
    from judgment_exchange.repository.skips import acknowledge

    (tmp_path / "skips.json").write_text('[{"entry": "acme.held", "fixture": "f", "why": "reviewed"}]')
    tree = WorkingTree(str(tmp_path))
    judged = acknowledge(tree, [], [], [])
    assert [r.code for r in judged.found.refusals] == ["skip-acknowledgement-stale"] and judged.skipped == []
    assert acknowledge(tree, [], [], [], held=frozenset({"acme.held"})).found.refusals == []
    assert acknowledge(tree, [], [], ["acme.other"]).found.refusals == []


def test_a_revising_helper_returns_a_new_list_and_leaves_its_input():
    from dataclasses import dataclass

    from judgment_exchange.gate.replay import rerecord_changed

    @dataclass
    class Change:
        paths: list

    path = "entries/acme/a/fixtures/f/preparation.json"
    given = [Refusal("preparation-digest-mismatch", path, "d", "acme.a"), Refusal("other", path, "d", "acme.a")]
    kept = list(given)
    revised = rerecord_changed(given, Change([path]))
    assert given == kept and revised[0].fix is not None and revised[1] is given[1]
    assert rerecord_changed(given, None) is given
