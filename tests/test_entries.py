"""The gate (RFC 0019 §4) on this repository's own catalog: one test id per entry and per fixture.

A pull request's failure names the entry and the check. The catalog holds zero entries until the
first is reviewed; the whole-catalog test then still says that it checked zero.
"""

from __future__ import annotations

import pytest

from judgment_exchange.catalog.directory import check_entry_directory
from judgment_exchange.catalog.gate import GateOptions, check_catalog, entry_directories
from judgment_exchange.tree import WorkingTree

from .support.paths import REPO

TREE = WorkingTree(str(REPO))
PATHS, _ = entry_directories(TREE)
CHECKS = [check_entry_directory(TREE, p) for p in PATHS]
FIXTURES = [(c.id, f.name) for c in CHECKS for f in c.fixtures]


def _describe(report) -> str:
    return "\n".join(f"{r.code} {r.entry} {r.path}: {r.detail}" for r in report.refusals)


@pytest.mark.parametrize("entry_id", [c.id for c in CHECKS])
def test_entry(entry_id):
    report = check_catalog(TREE, GateOptions(entries=[entry_id], history=False))
    assert report.passed, _describe(report)


@pytest.mark.parametrize("entry_id,fixture", FIXTURES, ids=[f"{e}/{f}" for e, f in FIXTURES])
def test_fixture_replays_or_is_skipped_by_name(entry_id, fixture):
    report = check_catalog(TREE, GateOptions(entries=[entry_id], history=False, scan=False))
    assert not [r for r in report.refusals if r.path and f"/fixtures/{fixture}" in r.path], _describe(report)


def test_whole_catalog():
    report = check_catalog(TREE, GateOptions(history=False))
    assert report.passed, _describe(report)
    assert report.entries == len(PATHS)


def test_history_of_this_repository():
    """A fresh clone may carry no tags: then there is no earlier release, and nothing is refused."""
    report = check_catalog(TREE, GateOptions(repository=str(REPO)))
    assert report.passed, _describe(report)
    assert report.history in ("checked", "no-releases")
