"""Replay never uses a desk's local binding (RFC 0019 §7; issue #11 item 6).

RFC 0019 §7: "Local binding means the binding document of RFC 0018 §4.4 for a family-3 dialect with
unbound sources, mapping those sources to the installation's input profiles. Its fixture replay uses
the fixture's own binding document and profiles, not the installation's replacement bindings."

In this repository a desk's local binding could reach replay only as a file or a variable the gate
might read beside the fixture: a binding.json (with the installation's profiles.json) in the working
directory, an EXCHANGE_* variable naming one, a binding.json at the catalog's root or beside
entry.json. The first two are never read (the replay takes the fixture's files from the tree and
nothing else); the last two are files the entry format does not give, refused by name
(tests/cases/catalog/local-binding-*). Each test here has its near-miss: the same local binding put
in the fixture's own binding.json is read, and refuses the entry, so the tests can fail.
The Desk's own import replay is the Desk's duty (docs/verifier.md, "Rules held by review, not by CI").
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from .support.catalog import CatalogBuilder, pretty, sha, stdlib_canon

OPTIONS = GateOptions(history=False)
EXAMPLE = Path(__file__).resolve().parent / "examples" / "http-unbound-v3"
ENTRY = "entries/examples/http-unbound-v3"
ENTRY_ID = "examples.http-unbound-v3"
FIXTURE = f"{ENTRY}/fixtures/open"


def describe(report) -> str:
    return "\n".join(f"{r.code} {r.entry} {r.path}: {r.detail}" for r in report.refusals)


@pytest.fixture
def unbound_catalog(tmp_path):
    """A catalog of one entry: the unbound http example (tests/examples/), whose fixture holds its binding.json."""
    builder = CatalogBuilder(tmp_path / "catalog")
    shutil.copytree(EXAMPLE, builder.root / ENTRY)
    builder.entries[ENTRY_ID] = builder.root / ENTRY
    builder.write_manifest()
    return builder


def local_binding(root) -> tuple[bytes, bytes]:
    """An installation's replacement: the same dialect bound to its own profile, another id and endpoint."""
    fixture = root / FIXTURE
    profiles = json.loads((fixture / "profiles.json").read_bytes())
    local = dict(profiles[0], id="desk-local", endpoint="https://desk.internal/api")
    binding = json.loads((fixture / "binding.json").read_bytes())
    binding["sources"] = {name: {"profile": "desk-local", "profileDigest": sha(stdlib_canon(local))}
                          for name in binding["sources"]}
    return stdlib_canon(binding), stdlib_canon([local])


def test_the_fixture_binding_replays(unbound_catalog):
    report = check_catalog(WorkingTree(str(unbound_catalog.root)), OPTIONS)
    assert report.passed, describe(report)
    assert report.replayed == 1


def test_local_binding_in_working_directory_and_environment_is_never_read(unbound_catalog, tmp_path, monkeypatch):
    binding, profiles = local_binding(unbound_catalog.root)
    desk = tmp_path / "desk"
    desk.mkdir()
    (desk / "binding.json").write_bytes(binding)
    (desk / "profiles.json").write_bytes(profiles)
    monkeypatch.chdir(desk)
    for name, path in (("EXCHANGE_BINDING", "binding.json"), ("EXCHANGE_PROFILES", "profiles.json"),
                       ("EXCHANGE_LOCAL_BINDING", "binding.json")):
        monkeypatch.setenv(name, str(desk / path))
    report = check_catalog(WorkingTree(str(unbound_catalog.root)), OPTIONS)
    assert report.passed, describe(report)
    assert report.replayed == 1


def test_near_miss_local_binding_as_the_fixtures_own_is_read(unbound_catalog):
    """The same replacement written into the fixture's binding.json is what replay reads: it binds a profile
    the fixture's profiles.json does not hold, profile-mismatch (dialect §5.1), so the entry is refused."""
    binding, _ = local_binding(unbound_catalog.root)
    (unbound_catalog.root / FIXTURE / "binding.json").write_bytes(binding)
    unbound_catalog.write_manifest()
    report = check_catalog(WorkingTree(str(unbound_catalog.root)), OPTIONS)
    assert [(r.code, r.entry) for r in report.refusals] == [("profile-mismatch", ENTRY_ID)], \
        describe(report)


def test_near_miss_local_binding_and_profiles_as_the_fixtures_own(unbound_catalog):
    """With the installation's profiles too, the receipts were signed under the fixture's profile, not the
    desk's: the bound dialect's digest changes, and the replay does not agree."""
    binding, profiles = local_binding(unbound_catalog.root)
    (unbound_catalog.root / FIXTURE / "binding.json").write_bytes(binding)
    (unbound_catalog.root / FIXTURE / "profiles.json").write_bytes(profiles)
    unbound_catalog.write_manifest()
    report = check_catalog(WorkingTree(str(unbound_catalog.root)), OPTIONS)
    assert not report.passed and report.replayed == 0, describe(report)
    assert {r.entry for r in report.refusals} == {ENTRY_ID}


def test_local_binding_beside_the_entry_is_refused_not_read(unbound_catalog):
    binding, _ = local_binding(unbound_catalog.root)
    (unbound_catalog.root / f"{ENTRY}/binding.json").write_bytes(binding)
    report = check_catalog(WorkingTree(str(unbound_catalog.root)), OPTIONS)
    assert [(r.code, r.entry) for r in report.refusals] == [("entry-file-unexpected", ENTRY_ID)], \
        describe(report)
    assert report.refusals[0].path.startswith(ENTRY)


def test_pretty_printed_fixture_binding_is_still_the_one_read(unbound_catalog):
    """Near-miss for the form: the fixture's own binding in other whitespace binds the same (dialect §4.4 reads
    the document's value), so replay agrees; only the fixture's bytes were changed."""
    path = unbound_catalog.root / FIXTURE / "binding.json"
    path.write_bytes(pretty(json.loads(path.read_bytes())))
    report = check_catalog(WorkingTree(str(unbound_catalog.root)), OPTIONS)
    assert report.passed, describe(report)
    assert report.replayed == 1
