"""Fixture replay in the gate (RFC 0019 §4), against the Runner's own recordings.

The two entries are made of real Runner exports: the dialect is the Runner's mapping, the fixture its
case, acquisitions, trusted profiles and recorded preparation; preparationDigest is taken over those
recorded bytes by the standard library. A replay that agrees is the verifier reproducing the Runner.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys

import pytest

from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from .support.catalog import CatalogBuilder, pretty

OPTIONS = GateOptions(history=False)


@pytest.fixture
def runner_catalog(tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry("acme.vendors", "mapping-v2-unsigned-parameters")
    builder.add_runner_entry("acme.vendors-calc", "mapping-v2-before-calculators")
    builder.write_manifest()
    return builder


def describe(report) -> str:
    return "\n".join(f"{r.code} {r.entry} {r.path}: {r.detail}" for r in report.refusals)


def test_runner_recordings_replay_with_agreement(runner_catalog):
    report = check_catalog(WorkingTree(str(runner_catalog.root)), OPTIONS)
    assert report.passed, describe(report)
    assert report.replayed == 2 and report.skipped == []


def test_a_changed_result_refuses_the_entry(runner_catalog):
    path = runner_catalog.root / "entries/acme/vendors/fixtures/vendor-7/sources.json"
    sources = json.loads(path.read_bytes())
    sources["registry"]["response"]["result"]["region"] = "south"
    path.write_bytes(pretty(sources))
    runner_catalog.write_manifest()
    report = check_catalog(WorkingTree(str(runner_catalog.root)), OPTIONS)
    assert [(r.code, r.entry) for r in report.refusals] == [("acquisition-invalid", "acme.vendors")]
    assert report.replayed == 1


def test_kind_unread_is_skipped_with_its_reason(tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_http_entry()
    builder.write_manifest()
    report = check_catalog(WorkingTree(str(builder.root)), OPTIONS)
    assert report.passed, describe(report)
    assert [(s.entry, s.fixture, s.reason) for s in report.skipped] == [("acme.vendors-http", "vendor-7",
                                                                         "kind-unread: http")]
    assert report.replayed == 0


def test_a_form_failure_refuses_even_when_every_fixture_is_skipped(tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    path = builder.add_http_entry()
    doc = json.loads((path / "dialect.json").read_bytes())
    doc["sources"][0]["method"] = "DELETE"
    (path / "dialect.json").write_bytes(pretty(doc))
    from .support.catalog import sha, stdlib_canon
    entry = json.loads((path / "entry.json").read_bytes())
    entry["dialect"]["digest"] = sha(stdlib_canon(doc))
    (path / "entry.json").write_bytes(pretty(entry))
    builder.write_manifest()
    report = check_catalog(WorkingTree(str(builder.root)), OPTIONS)
    assert [(r.code, r.entry) for r in report.refusals] == [("input-malformed", "acme.vendors-http")]
    assert report.skipped == [] and report.replayed == 0


@pytest.mark.parametrize("answer,reason", [
    ("kind-unread", "kind-unread: operation"),  # another verifier may read less than ours
    ("version-unread", "version-unread: 2"),
])
def test_another_verifier_by_environment(runner_catalog, monkeypatch, answer, reason):
    """EXCHANGE_VERIFIER names a program speaking dialect §11's contract; its answer is the gate's."""
    line = '{"refusal":"%s","result":"refusal"}' % answer
    script = f"import sys; sys.stdout.write({line!r} + chr(10)); sys.exit(1)"
    monkeypatch.setenv("EXCHANGE_VERIFIER", f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}")
    report = check_catalog(WorkingTree(str(runner_catalog.root)), OPTIONS)
    assert report.passed and report.replayed == 0
    assert [s.reason for s in report.skipped] == [reason, reason]


def test_another_verifier_that_finds(runner_catalog, monkeypatch):
    script = ("import sys; sys.stdout.write('{\"finding\":\"preparation-differs\",\"result\":\"finding\"}\\n'); "
              "sys.exit(2)")
    monkeypatch.setenv("EXCHANGE_VERIFIER", f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}")
    report = check_catalog(WorkingTree(str(runner_catalog.root)), OPTIONS)
    assert sorted({(r.code, r.entry) for r in report.refusals}) == [
        ("preparation-differs", "acme.vendors"), ("preparation-differs", "acme.vendors-calc")]


def test_the_example_entries_pass_the_whole_gate(tmp_path):
    """The recorder's examples (tests/examples) as a catalog: mcp v2, a calculator, an unbound
    operation over http bound by binding.json, research with answer, search and page. Their
    preparations were recorded by our own recorder, so agreement here is self-consistency; the
    independent evidence is the Runner recordings above."""
    from .support.paths import REPO

    builder = CatalogBuilder(tmp_path / "catalog")
    for example in sorted((REPO / "tests" / "examples").iterdir()):
        if example.is_dir():
            target = builder.root / "entries" / "examples" / example.name
            shutil.copytree(example, target)
            builder.entries[f"examples.{example.name}"] = target
    builder.write_manifest()
    report = check_catalog(WorkingTree(str(builder.root)), OPTIONS)
    assert report.passed, describe(report)
    assert report.entries == 4 and report.replayed == 6 and report.skipped == []


def test_a_reading_with_another_digest_refuses_the_entry(runner_catalog, monkeypatch):
    """RFC 0019 §4: a reading whose digest is not the fixture's preparationDigest refuses the entry."""
    line = '{"binding":"not-checked","digest":"sha256:%s","result":"reading"}' % ("0" * 64)
    script = f"import sys; sys.stdout.write({line!r} + chr(10))"
    monkeypatch.setenv("EXCHANGE_VERIFIER", f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}")
    report = check_catalog(WorkingTree(str(runner_catalog.root)), OPTIONS)
    assert sorted({(r.code, r.entry) for r in report.refusals}) == [
        ("replay-digest-mismatch", "acme.vendors"), ("replay-digest-mismatch", "acme.vendors-calc")]
    assert report.replayed == 0


def test_an_entry_filter_naming_no_entry_is_refused(runner_catalog):
    report = check_catalog(WorkingTree(str(runner_catalog.root)), GateOptions(history=False, entries=["acme.vendor"]))
    assert [(r.code, r.entry) for r in report.refusals] == [("entry-unknown", "acme.vendor")]
    report = check_catalog(WorkingTree(str(runner_catalog.root)), GateOptions(history=False, entries=["acme.vendors"]))
    assert report.passed and report.entries == 1
