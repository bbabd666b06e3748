"""The gate (RFC 0019 §4) on this repository's own catalog: one test id per entry and per fixture.

A pull request's failure names the entry and the check. The gate runs once for the whole module (a
module-scoped fixture, history included) and each id reports its own refusals from that one run, so
the file costs about one full gate however many entries the catalog holds (issue #12). Collection only
lists directories: entry ids from entries/<publisher>/<name>/, fixture names from each entry's
fixtures/ directory. The catalog holds zero entries until the first is reviewed; the whole-catalog
test then still says that it checked zero.

EXCHANGE_TEST_CATALOG=DIR runs this file on another catalog (benchmarks/run.py times it on the
generated one); the default is this repository.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judgment_exchange.catalog.gate import GateOptions, check_catalog, entry_directories
from judgment_exchange.catalog.directory import entry_id
from judgment_exchange.history.codes import RECORDS as HISTORY_CODES
from judgment_exchange.tree import DIR, WorkingTree

from .support.paths import REPO

CATALOG = Path(os.environ.get("EXCHANGE_TEST_CATALOG") or REPO)
TREE = WorkingTree(str(CATALOG))
PATHS, _ = entry_directories(TREE)
IDS = [entry_id(p) for p in PATHS]


def _fixture_names(path: str) -> list[str]:
    if TREE.stat(f"{path}/fixtures").kind != DIR:
        return []
    return sorted(item.name for item in TREE.list(f"{path}/fixtures") if item.kind == DIR)


FIXTURES = [(entry_id(p), p, name) for p in PATHS for name in _fixture_names(p)]


def _describe(refusals) -> str:
    return "\n".join(f"{r.code} {r.entry} {r.path}: {r.detail}" for r in refusals)


@pytest.fixture(scope="module")
def gate():
    """One run of the whole gate, history included; every test id below reads its part of it."""
    return check_catalog(TREE, GateOptions(repository=str(CATALOG)))


@pytest.mark.parametrize("entry_id", IDS)
def test_entry(gate, entry_id):
    path = PATHS[IDS.index(entry_id)]
    mine = [r for r in gate.refusals if r.entry == entry_id or (r.path or "").startswith(path + "/")]
    assert not mine, _describe(mine)


@pytest.mark.parametrize("entry_id,path,fixture", FIXTURES, ids=[f"{e}/{f}" for e, _, f in FIXTURES])
def test_fixture_replays_or_is_skipped_by_name(gate, entry_id, path, fixture):
    where = f"{path}/fixtures/{fixture}"
    mine = [r for r in gate.refusals if r.path and (r.path == where or r.path.startswith(where + "/"))]
    assert not mine, _describe(mine)


def test_whole_catalog(gate):
    assert gate.passed, _describe(gate.refusals)
    assert gate.entries == len(PATHS)


def test_history_of_this_repository(gate):
    """A fresh clone may carry no tags: then there is no earlier release, and nothing is refused."""
    history = [r for r in gate.refusals if r.code in HISTORY_CODES]
    assert not history, _describe(history)
    assert gate.history in ("checked", "no-releases")
