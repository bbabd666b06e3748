"""placeholder-value (issue #9 item 4): the scaffold's values never pass; near-misses do; author text
is never quoted in the detail. Case directories in tests/cases/catalog/placeholder-value-* and
near-miss-placeholder-* cover each file kind through the gate; these tests cover the matching rules."""

from __future__ import annotations

import json

import pytest

from judgment_exchange.catalog import placeholders as ph
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from ..support.catalog import CatalogBuilder, pretty, sha, stdlib_canon


@pytest.mark.parametrize("text", ["acme.vendors (describe it)", "replace-me", "https://example.org/packs/replace-me",
                                  "example-platform", "example-read", "example_tool",
                                  "What this dialect is for, in the publisher's words. No credentials.",
                                  "What this preset is for, in the publisher's words.", "a replace-me b"])
def test_every_scaffold_value_is_a_placeholder(text):
    assert ph.marker_in(text) is not None


@pytest.mark.parametrize("text", ["Replace the screening", "replacement", "example-publisher", "describe it",
                                  "example-platforms-team", "no-replace-me", "replace-me2", "an example platform",
                                  "example_tools", "What this dialect is for: vendors.", "sha256:" + "0" * 64])
def test_near_misses_are_not_placeholders(text):
    assert ph.marker_in(text) is None


def test_the_scaffold_writes_only_markers_the_gate_knows():
    # every value the scaffold module names is among the markers (the two lists cannot drift)
    for name in ("TITLE_SUFFIX", "REPLACE_ME", "PACK_ID", "EXAMPLE_PLATFORM", "EXAMPLE_OPERATION", "EXAMPLE_TOOL",
                 "README_TEXT", "PRESET_README_TEXT"):
        assert ph.marker_in(getattr(ph, name)) is not None, name


def test_pointer_names_members_and_indices():
    found = ph.in_json({"sources": [{"platform": "example-platform"}], "title": "x (describe it)"})
    assert [(ph.pointer_text(w), m) for w, m in found] == [("/sources/0/platform", "example-platform"),
                                                           ("/title", "(describe it)")]
    assert ph.pointer_of(found[0][0]) == "/sources/0/platform"


def test_member_names_are_not_searched():
    assert ph.in_json({"replace-me": "fine"}) == []


def test_attack_author_member_name_in_pointer_is_described_not_quoted(tmp_path):
    """An output.json policy named with a bidi override and a terminal escape, holding a placeholder:
    the detail locates it by position and quotes only the marker."""
    root = tmp_path / "catalog"
    builder = CatalogBuilder(root)
    path = builder.add_output_entry()
    evil = "\u202e\x1b[31mpolicy"
    doc = {"outputVersion": "1", "platform": "azure-devops", "policies": {evil: {"note": "replace-me"}}}
    (path / "output.json").write_bytes(pretty(doc))
    entry = json.loads((path / "entry.json").read_bytes())
    entry["output"]["digest"] = sha(stdlib_canon(doc))
    (path / "entry.json").write_bytes(pretty(entry))
    builder.write_manifest()
    report = check_catalog(WorkingTree(str(root)), GateOptions(history=False, replay=False, scan=False))
    found = [r for r in report.refusals if r.code == "placeholder-value"]
    assert len(found) == 1
    # "note" is the author's own member name too (no schema of ours spells it): described, never quoted
    assert found[0].detail.startswith("/policies/[member 1]/[member 1]: ")
    assert "policy" not in found[0].detail and "\u202e" not in found[0].detail and "\x1b" not in found[0].detail
    assert found[0].pointer == "/policies"


def test_readme_placeholder_names_its_line(tmp_path):
    root = tmp_path / "catalog"
    builder = CatalogBuilder(root)
    path = builder.add_runner_entry()
    (path / "README.md").write_text("# Vendors\n\nSecret words here.\n" + ph.README_TEXT + "\n", encoding="utf-8")
    builder.write_manifest()
    report = check_catalog(WorkingTree(str(root)), GateOptions(history=False, replay=False, scan=False))
    found = [r for r in report.refusals if r.code == "placeholder-value"]
    assert [(r.path, r.line) for r in found] == [("entries/acme/vendors/README.md", 4)]
    assert "Secret" not in found[0].detail


def test_a_readme_over_its_bound_is_not_read_for_placeholders(tmp_path):
    root = tmp_path / "catalog"
    builder = CatalogBuilder(root)
    path = builder.add_runner_entry()
    (path / "README.md").write_text(ph.README_TEXT + "\n" + "x" * 70000, encoding="utf-8")
    builder.write_manifest()
    report = check_catalog(WorkingTree(str(root)), GateOptions(history=False, replay=False, scan=False))
    assert [r.code for r in report.refusals] == ["file-over-bound"]
