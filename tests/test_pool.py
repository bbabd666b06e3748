"""Entries checked in a pool of processes give the serial run's report (issue #12 item 6; gate/pool.py).

The expectation is the serial run of the same gate on the same tree — two different computations (one
process, entries in turn; several processes, entries in batches, parts merged) — on catalogs whose reports
hold refusals in several entries, skips and replays, so an order or a merge that went wrong shows.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judgment_exchange.catalog.placeholders import MARKERS
from judgment_exchange.gate import pool
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.refusal import Findings
from judgment_exchange.tree import GitTree, TreeError, WorkingTree

from .support.gitrepo import GitRepo
from .support.paths import REPO

DEMO = REPO / "docs" / "demo-catalog"
pytestmark = pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(),
                                reason="the pool runs only where processes fork")


def _damaged(tmp_path: Path) -> Path:
    """The demo catalog with a defect in four entries spread over the id order."""
    root = tmp_path / "catalog"
    shutil.copytree(DEMO, root)
    entries = root / "entries"
    (entries / "gateway" / "company-research" / "notes.txt").write_text("an unexpected file\n")
    prep = entries / "gateway" / "fx-exposure" / "fixtures" / "computed" / "preparation.json"
    prep.write_bytes(prep.read_bytes().replace(b"1", b"2", 1))
    (entries / "kinds" / "intake-preset" / "README.md").write_text(f"# Intake preset\n\n{MARKERS[1]}\n")
    dialect = entries / "runner" / "intake-vendor-registry" / "dialect.json"
    dialect.write_bytes(dialect.read_bytes()[:-3])
    return root


def _report(root: Path, workers: int) -> tuple[dict, list[str], list[tuple[str, str]]]:
    report = check_catalog(WorkingTree(str(root)), GateOptions(repository=str(root), history=False, workers=workers))
    return report.as_json(), report.checked, [(r.code, r.entry) for r in report.refusals]


@pytest.mark.parametrize("batch", [1, 3, pool.BATCH])
def test_pool_report_is_the_serial_report_on_a_catalog_with_refusals(tmp_path, monkeypatch, batch):
    root = _damaged(tmp_path)
    monkeypatch.setattr(pool, "BATCH", batch)
    serial, checked, codes = _report(root, 1)
    assert len({entry for _, entry in codes}) >= 4, codes  # the damage shows in four entries
    assert serial["skipped"] and serial["replayed"] > 0
    pooled, pooled_checked, pooled_codes = _report(root, 2)
    assert pooled_codes == codes
    assert pooled == serial
    assert pooled_checked == checked


def test_pool_report_is_the_serial_report_on_the_passing_demo():
    serial = check_catalog(WorkingTree(str(DEMO)), GateOptions(repository=str(DEMO), history=False, workers=1))
    pooled = check_catalog(WorkingTree(str(DEMO)), GateOptions(repository=str(DEMO), history=False, workers=3))
    assert serial.passed and pooled.as_json() == serial.as_json()


def _pid(tree, path, options, reader):
    return (path, os.getpid()), Findings(replayed=1)


def test_pool_runs_entries_in_other_processes_and_keeps_their_order():
    items = [f"entries/p/e{i:02}" for i in range(20)]
    results = pool.check_entries(_pid, WorkingTree(str(DEMO)), items, None, None, 2)
    assert [check[0] for check, _ in results] == items
    assert os.getpid() not in {check[1] for check, _ in results}
    assert all(part.replayed == 1 for _, part in results)


def _unreadable(tree, path, options, reader):
    if path.endswith("07"):
        raise TreeError(f"{path}: Input/output error")
    return path, Findings()


@pytest.mark.parametrize("workers", [1, 2])
def test_pool_worker_unreadable_tree_raises_as_the_serial_run_does(workers):
    items = [f"entries/p/e{i:02}" for i in range(12)]
    with pytest.raises(TreeError, match="e07"):
        pool.check_entries(_unreadable, WorkingTree(str(DEMO)), items, None, None, workers)


def test_pool_chooses_one_process_where_it_cannot_or_need_not_help(tmp_path):
    tree = WorkingTree(str(tmp_path))
    assert pool.workers_for(tree, pool.MIN_ENTRIES - 1, None) == 1
    assert pool.workers_for(tree, 5, 4) == 4 and pool.workers_for(tree, 2, 4) == 2
    assert pool.workers_for(tree, 1000, None) == min(pool.usable_cores(), 1000 // (pool.MIN_ENTRIES // 2))

    class TreeLike(WorkingTree):  # a tree the pool does not know how a worker would read
        pass

    assert pool.workers_for(TreeLike(str(tmp_path)), 1000, 4) == 1


def _git_catalog(tmp_path: Path) -> Path:
    root = _damaged(tmp_path)
    repo = GitRepo(root)
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "a damaged release")
    return root


def test_pool_report_is_the_serial_report_on_a_git_tree(tmp_path, monkeypatch):
    """A consumer's release check reads a commit's blobs (GitTree): each worker opens the repository again."""
    root = _git_catalog(tmp_path)
    monkeypatch.setattr(pool, "BATCH", 2)
    reports = []
    for workers in (1, 2):
        tree = GitTree(str(root), "HEAD")
        assert pool.workers_for(tree, 11, workers) == workers
        report = check_catalog(tree, GateOptions(repository=str(root), history=False, workers=workers))
        reports.append((report.as_json(), report.checked))
    assert len({r.entry for r in check_catalog(GitTree(str(root), "HEAD"), GateOptions(
        repository=str(root), history=False, workers=1)).refusals}) >= 4
    assert reports[1] == reports[0]


def _read_manifest(tree, path, options, reader):
    return (os.getpid(), tree is not PARENT[0], tree.read("manifest.json", 1 << 20)), Findings()


PARENT: list = []


def test_pool_workers_read_a_git_tree_through_their_own_handle_and_leave_the_parents_intact(tmp_path):
    root = _git_catalog(tmp_path)
    tree = GitTree(str(root), "HEAD")
    PARENT[:] = [tree]
    expected = (root / "manifest.json").read_bytes()
    assert tree.read("manifest.json", 1 << 20) == expected  # the parent's cat-file process is started
    results = pool.check_entries(_read_manifest, tree, [f"e{i}" for i in range(12)], None, None, 2)
    assert {check[2] for check, _ in results} == {expected}
    assert all(check[1] for check, _ in results) and os.getpid() not in {check[0] for check, _ in results}
    assert tree.read("manifest.json", 1 << 20) == expected  # and still answers the parent afterwards


def test_pool_cli_workers_gives_the_same_json_and_refuses_a_bad_count(tmp_path):
    root = _damaged(tmp_path)
    outputs = []
    for workers in ("1", "2"):
        run = subprocess.run([sys.executable, "-m", "judgment_exchange", "check", "--format", "json", "--no-history",
                              "--catalog", str(root), "--workers", workers], capture_output=True, text=True)
        assert run.returncode == 1, run.stderr
        outputs.append(json.loads(run.stdout))
    assert outputs[0] == outputs[1]
    for bad in ("0", "two", "-1", "65"):
        run = subprocess.run([sys.executable, "-m", "judgment_exchange", "check", "--catalog", str(root),
                              "--workers", bad], capture_output=True, text=True)
        assert run.returncode == 3 and "--workers" in run.stderr and "Traceback" not in run.stderr
