"""The scans (RFC 0019 §§4, 6: scan_entry over an entry's tree) on the scan cases' entries and the
catalog's entries, mutated: registered refusals only, never an exception."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from judgment_exchange.scan import scan_entry

from . import corpus
from .outcome import refusals_registered
from .profiles import bounded, budget
from .strategies import mutated_tree


@st.composite
def _scanned(draw):
    base, root = draw(st.sampled_from(corpus.scan_trees()))
    return draw(mutated_tree(base, root, corpus.json_documents(), max_ops=4)), root


@budget("scan")
@given(_scanned())
def test_scan_refuses_by_registered_code_and_never_raises(given_tree) -> None:
    tree, root = given_tree
    with bounded():
        refusals_registered(scan_entry(tree, root, root.split("/", 1)[1].replace("/", ".")), "scan")
