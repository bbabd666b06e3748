"""`exchange check --entry ID --no-history` reads only the entries it names plus the manifest (issue #12 item 5).

A tree that records every path read, stat'ed or listed shows that no other entry's directory is
opened; the verdict on the named entry is the full gate's, and a damaged other entry no longer costs
(or fails) a check that did not name it. With history, every entry is still read (the walk holds the
whole release).
"""

from __future__ import annotations

from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from .support.catalog import CatalogBuilder


class RecordingTree(WorkingTree):
    def __init__(self, root: str) -> None:
        super().__init__(root)
        self.touched: list[str] = []

    def stat(self, path):
        self.touched.append(path)
        return super().stat(path)

    def list(self, path):
        self.touched.append(path)
        return super().list(path)

    def read(self, path, limit):
        self.touched.append(path)
        return super().read(path, limit)


def _catalog(tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry("acme.vendors")
    builder.add_preset("other.preset")
    builder.write_manifest()
    return builder.root


def test_entry_without_history_reads_no_other_entry(tmp_path):
    root = _catalog(tmp_path)
    tree = RecordingTree(str(root))
    report = check_catalog(tree, GateOptions(entries=["acme.vendors"], history=False))
    assert report.passed, report.refusals
    assert report.checked == ["acme.vendors"]
    assert not [p for p in tree.touched if p.startswith("entries/other/preset/")]
    assert "manifest.json" in tree.touched


def test_entry_verdict_is_the_full_gates_on_that_entry(tmp_path):
    """Near miss: a damaged named entry is still refused under --entry, with the full gate's codes."""
    root = _catalog(tmp_path)
    dialect = root / "entries" / "acme" / "vendors" / "dialect.json"
    dialect.write_bytes(dialect.read_bytes() + b" ")
    full = check_catalog(WorkingTree(str(root)), GateOptions(history=False))
    one = check_catalog(WorkingTree(str(root)), GateOptions(entries=["acme.vendors"], history=False))
    mine = sorted((r.code, r.path) for r in full.refusals if r.entry in (None, "acme.vendors"))
    assert mine and sorted((r.code, r.path) for r in one.refusals) == mine


def test_entry_with_history_still_reads_every_entry(tmp_path):
    root = _catalog(tmp_path)
    tree = RecordingTree(str(root))
    check_catalog(tree, GateOptions(entries=["acme.vendors"], history=True, repository=str(root)))
    assert [p for p in tree.touched if p.startswith("entries/other/preset/")]
