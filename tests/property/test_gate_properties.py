"""The gate (RFC 0019 §4: gate.pipeline.check_catalog, history off) on an in-memory catalog of the test
builder's entries and the examples, mutated anywhere — entries, fixtures, the manifest, entries/ itself:
a report whose every refusal code is registered, never an exception (CatalogUnreadable only when the
tree was made to fail a read)."""

from __future__ import annotations

import json
import os
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from judgment_exchange.gate.pipeline import CatalogUnreadable, GateOptions, check_catalog

from . import corpus
from .memtree import MemoryTree
from .outcome import refusals_registered
from .profiles import bounded, budget
from .strategies import mutated_tree


def _subset(roots: list[str]) -> MemoryTree:
    """The catalog with only the entries at `roots`, its manifest's rows filtered to them."""
    tree = corpus.catalog()
    files = {p: f for p, f in tree.files.items() if any(p.startswith(r + "/") for r in roots)}
    rows = json.loads(tree.files["manifest.json"][0])
    kept = [row for row in rows if row["path"] in roots]
    files["manifest.json"] = ((json.dumps(kept, indent=2, ensure_ascii=False) + "\n").encode("utf-8"), False)
    return MemoryTree(files)


@st.composite
def _catalog(draw):
    roots = corpus.entry_roots(corpus.catalog())
    chosen = draw(st.lists(st.sampled_from(roots), min_size=1, max_size=2, unique=True))
    under = draw(st.sampled_from(["", "entries", *chosen]))
    return draw(mutated_tree(_subset(sorted(chosen)), under, corpus.json_documents(), max_ops=3))


@budget("gate")
@given(_catalog())
def test_gate_reports_registered_refusals_and_never_raises(tree: MemoryTree) -> None:
    with bounded(), mock.patch.dict(os.environ):
        os.environ.pop("EXCHANGE_VERIFIER", None)  # the built-in verifier, in process
        try:
            report = check_catalog(tree, GateOptions(history=False))
        except CatalogUnreadable:
            assert tree.unreadable, "the gate gave up on a tree that never failed a read"
            return
        refusals_registered(report.refusals, "gate")
        json.dumps(report.as_json(), ensure_ascii=True)
