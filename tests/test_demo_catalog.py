"""The demonstration catalog (docs/demo-catalog/, issue #9 item 9): current, passing, and apart from this catalog.

The expected counts below are stated by hand from the entries' list (tests/support/demo.py's docstring),
never read back from the gate's report: 11 entries; fixtures replayed — the two Runner exports (1 each),
vendor-approvals (approved, unmatched), fx-exposure (computed, cannot-compute), ticket-status (open),
company-research (found), intake-both-directions (1), intake-named-format (1) = 10; one fixture
skipped by name, kinds.intake-http-source/vendor-7, kind-unread: http.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judgment_exchange.catalog.layout import entry_directories
from judgment_exchange.catalog.placeholders import MARKERS
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from .support import demo
from .support.catalog import CatalogBuilder
from .support.gitrepo import GitRepo, files_of
from .support.paths import REPO, VECTORS

DEMO = REPO / "docs" / "demo-catalog"
ENTRY_IDS = [
    "gateway.company-research", "gateway.fx-exposure", "gateway.ticket-status", "gateway.vendor-approvals",
    "kinds.intake-both-directions", "kinds.intake-http-source", "kinds.intake-named-format", "kinds.intake-preset",
    "kinds.work-item-writeback", "runner.intake-vendor-copy", "runner.intake-vendor-registry",
]
REPLAYED = 2 + 2 + 2 + 1 + 1 + 1 + 1
SKIPPED = [("kinds.intake-http-source", "vendor-7", "kind-unread: http")]
RUNNER = {"runner.intake-vendor-copy": "mapping-v2-before-calculators",
          "runner.intake-vendor-registry": "mapping-v2-unsigned-parameters",
          "kinds.intake-both-directions": "mapping-v2-before-calculators"}


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _describe(report) -> str:
    return "\n".join(f"{r.code} {r.entry} {r.path}: {r.detail}" for r in report.refusals)


def test_committed_demo_is_what_the_generator_builds(tmp_path):
    demo.build(tmp_path)
    built, committed = _tree(tmp_path), _tree(DEMO)
    assert sorted(built) == sorted(committed), "run `python -m tests.support.demo`"
    assert [p for p in built if built[p] != committed[p]] == [], "run `python -m tests.support.demo`"


def test_gate_passes_on_the_demo_with_replays_and_the_named_skip():
    report = check_catalog(WorkingTree(str(DEMO)), GateOptions(repository=str(DEMO)))
    assert report.passed, _describe(report)
    assert report.entries == len(ENTRY_IDS) == 11
    assert sorted(report.checked) == ENTRY_IDS
    assert report.replayed == REPLAYED == 10
    skipped = [(s.entry, s.fixture, s.reason) for s in report.skipped]
    assert [(e, f) for e, f, _ in skipped] == [(e, f) for e, f, _ in SKIPPED]
    assert all(reason.startswith(expected)
               for (_, _, reason), (_, _, expected) in zip(skipped, SKIPPED, strict=True)), skipped
    assert all(s.acknowledged for s in report.skipped), "the demo's skips.json acknowledges its one skip"


def test_demo_skip_unacknowledged_fails_the_gate(tmp_path):
    """Without its reviewed acknowledgement the demo's skip is refused (docs/skips.md)."""
    copy = tmp_path / "demo"
    shutil.copytree(DEMO, copy)
    (copy / "skips.json").write_bytes(b"[]\n")
    report = check_catalog(WorkingTree(str(copy)), GateOptions(history=False))
    assert [r.code for r in report.refusals] == ["skip-unacknowledged"], _describe(report)


def test_demo_history_is_skipped_with_a_note_not_refused():
    """The demo is a directory inside this repository, not a repository's root: it has no releases."""
    report = check_catalog(WorkingTree(str(DEMO)), GateOptions(repository=str(DEMO)))
    assert report.history == "skipped"
    assert "history" not in report.checks
    assert any("docs/demo-catalog" in n and "no releases of its own" in n for n in report.notes), report.notes


def test_readme_command_exits_zero_and_reports_the_skip():
    done = subprocess.run([sys.executable, "-m", "judgment_exchange", "check", "--catalog", "docs/demo-catalog"],
                          cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert f"replayed: {REPLAYED} fixture(s)" in done.stdout
    assert "skipped kinds.intake-http-source fixture vendor-7: kind-unread: http" in done.stdout
    assert "history: skipped" in done.stdout
    assert "result: pass" in done.stdout


def test_demo_is_not_this_catalogs_entries():
    assert json.loads((REPO / "manifest.json").read_bytes()) == []
    paths, stray = entry_directories(WorkingTree(str(REPO)))
    assert stray == [] and not [p for p in paths if not p.startswith("entries/")]
    root = check_catalog(WorkingTree(str(REPO)), GateOptions(history=False))
    assert not set(root.checked) & set(ENTRY_IDS)


@pytest.mark.parametrize("entry_id", ENTRY_IDS)
def test_human_parts_are_written_not_placeholders(entry_id):
    path = DEMO / "entries" / entry_id.replace(".", "/", 1)
    entry = json.loads((path / "entry.json").read_bytes())
    readme = (path / "README.md").read_text(encoding="utf-8")
    assert entry["author"] == "judgment-pack-demo"
    assert entry["title"] and entry["description"]
    assert "demonstration catalog" in readme and "not an entry of the Exchange" in readme
    for name, data in _tree(path).items():
        text = data.decode("utf-8")
        assert not [m for m in MARKERS if m in text], name


@pytest.mark.parametrize("entry_id", sorted(RUNNER))
def test_runner_entries_hold_the_runners_own_recording(entry_id):
    """Independent evidence: the export's mappingDigest and its preparation, canonicalised by the stdlib."""
    run = json.loads((VECTORS / "runner-exports" / RUNNER[entry_id] / "run.json").read_bytes())
    source = run["run"]["input"]["source"]
    path = DEMO / "entries" / entry_id.replace(".", "/", 1)
    entry = json.loads((path / "entry.json").read_bytes())
    assert entry["dialect"]["digest"] == source["mappingDigest"]
    assert entry["pack"] == {"id": run["release"]["packId"], "digests": [run["release"]["packDigest"]]}
    fixture = path / entry["fixtures"][0]["path"]
    prep = json.dumps(run["run"]["input"]["preparation"], ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode("utf-8")
    assert (fixture / "preparation.json").read_bytes() == prep
    assert entry["fixtures"][0]["preparationDigest"] == "sha256:" + hashlib.sha256(prep).hexdigest()
    assert json.loads((fixture / "sources.json").read_bytes()) == source["sources"]
    assert json.loads((fixture / "case.json").read_bytes()) == source["case"]
    assert (fixture / "profiles.json").read_bytes() == (VECTORS / "runner-exports" / RUNNER[entry_id]
                                                         / "profiles.json").read_bytes()


def _catalog(root: Path) -> dict[str, bytes]:
    builder = CatalogBuilder(root)
    builder.add_output_entry("acme.writeback")
    builder.write_manifest()
    return files_of(root)


def test_nested_catalog_in_a_repository_has_history_skipped(tmp_path):
    files = _catalog(tmp_path / "build")
    repo = GitRepo(tmp_path / "repo")
    repo.snapshot({"manifest.json": b"[]\n", **{f"docs/demo/{k}": v for k, v in files.items()}})
    repo.tag("v0.1.0")
    nested = str(repo.path / "docs" / "demo")
    report = check_catalog(WorkingTree(nested), GateOptions(repository=nested))
    assert report.passed, _describe(report)
    assert report.history == "skipped"
    assert any("docs/demo" in n for n in report.notes)


def test_catalog_at_a_repository_root_still_reads_history(tmp_path):
    """Near miss: the same catalog at the root of its repository reads its releases."""
    files = _catalog(tmp_path / "build")
    repo = GitRepo(tmp_path / "repo")
    repo.snapshot(files)
    repo.tag("v0.1.0")
    report = check_catalog(WorkingTree(str(repo.path)), GateOptions(repository=str(repo.path)))
    assert report.passed, _describe(report)
    assert report.history == "checked"


def test_catalog_in_no_repository_is_still_refused(tmp_path):
    """Near miss: a directory inside no git work tree has no history to read: artifact-history-invalid."""
    root = tmp_path / "catalog"
    _catalog(root)
    report = check_catalog(WorkingTree(str(root)), GateOptions(repository=str(root)))
    assert [r.code for r in report.refusals] == ["artifact-history-invalid"]


def test_the_readmes_refusal_example_refuses_as_it_says(tmp_path):
    """docs/demo-catalog/README.md's "see a refusal" commands, done in Python on a copy."""
    readme = (DEMO / "README.md").read_text(encoding="utf-8")
    assert """sed -i 's/"maxAge": 300/"maxAge": 301/' /tmp/demo/entries/kinds/intake-preset/dialect.json""" in readme
    copy = tmp_path / "demo"
    shutil.copytree(DEMO, copy)
    target = copy / "entries" / "kinds" / "intake-preset" / "dialect.json"
    target.write_bytes(target.read_bytes().replace(b'"maxAge": 300', b'"maxAge": 301'))
    report = check_catalog(WorkingTree(str(copy)), GateOptions(history=False))
    assert sorted((r.code, r.entry) for r in report.refusals) == [
        ("dialect-digest-mismatch", "kinds.intake-preset"), ("manifest-digest-mismatch", "kinds.intake-preset")]
