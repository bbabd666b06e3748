"""The gate (RFC 0019 §4) on this repository's own catalog: one test id per entry and per fixture.

A pull request's failure names the entry and the check. The gate runs once for the whole module (`_gate`,
history included, run on first use and kept) and each id reports its own refusals from that one run, so
the file costs about one full gate however many entries the catalog holds (issue #12). Collection only
lists directories: entry ids from entries/<publisher>/<name>/, fixture names from each entry's
fixtures/ directory (its listing's kinds, no stat per name). The catalog holds zero entries until the
first is reviewed; the whole-catalog test then still says that it checked zero.

What the file costs beyond its one gate (issues #20, #37 item 7) is pytest's: a fixed start (its plugins) and
its protocol per test id (setup, call, teardown and their reports). The ids here add as little to that as
pytest allows: each is an `IdChecks` item (tests/support/idchecks.py: no fixtures to resolve, the node ids a
parametrised function would have; once the report is made, each id after the first runs by a short protocol
that reports it as pytest's own does), and each finds its refusals in an index made once (by entry, and by every
directory a refusal's path lies in), not by a pass over all of them. A session that collects no hypothesis
test, as this file alone, drops hypothesis's plugin (tests/conftest.py). docs/performance.md measures it.

EXCHANGE_TEST_CATALOG=DIR runs this file on another catalog (benchmarks/run.py times it on the
generated one); the default is this repository.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from judgment_exchange.catalog.directory import entry_id
from judgment_exchange.catalog.layout import entry_directories
from judgment_exchange.codes.history import RECORDS as HISTORY_CODES
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import DIR, WorkingTree

from .support.idchecks import IdChecks
from .support.paths import REPO

CATALOG = Path(os.environ.get("EXCHANGE_TEST_CATALOG") or REPO)
TREE = WorkingTree(str(CATALOG))
PATHS, _ = entry_directories(TREE)
IDS = [entry_id(p) for p in PATHS]
PATH_OF = dict(zip(IDS, PATHS, strict=True))


def _fixture_names(path: str) -> list[str]:
    if TREE.stat(f"{path}/fixtures").kind != DIR:
        return []
    return sorted(name for name, kind in TREE.kinds(f"{path}/fixtures") if kind == DIR)


FIXTURES = [(entry_id(p), p, name) for p in PATHS for name in _fixture_names(p)]


def _describe(refusals) -> str:
    return "\n".join(f"{r.code} {r.entry} {r.path}: {r.detail}" for r in refusals)


class _Index:
    """A report's refusals by entry and by each directory their path lies in (its every '/'-prefix), in
    report order: what each id's filter below selects, found without a pass over every refusal."""

    def __init__(self, refusals) -> None:
        self.refusals = refusals
        self.by_entry: dict[str, list[int]] = {}
        self.under: dict[str, list[int]] = {}
        self.at: dict[str, list[int]] = {}
        for number, refusal in enumerate(refusals):
            self.by_entry.setdefault(refusal.entry, []).append(number)
            path = refusal.path or ""
            self.at.setdefault(path, []).append(number)
            cut = path.find("/")
            while cut >= 0:
                self.under.setdefault(path[:cut], []).append(number)
                cut = path.find("/", cut + 1)

    def of_entry(self, entry: str, path: str) -> list:
        """r.entry == entry or (r.path or "").startswith(path + "/")."""
        return self._pick(self.by_entry.get(entry, []) + self.under.get(path, []))

    def under_or_at(self, where: str) -> list:
        """r.path and (r.path == where or r.path.startswith(where + "/"))."""
        return self._pick(self.at.get(where, []) + self.under.get(where, []) if where else [])

    def _pick(self, numbers: list[int]) -> list:
        return [self.refusals[n] for n in sorted(set(numbers))]


_MADE: dict[str, object] = {}


def _gate():
    """One run of the whole gate, history included; every test id below reads its part of it. Made once, or raised
    once: if the gate raises, the id that ran it fails with that error and every later one says so, as ids whose
    module-scoped fixture raised did, without running the gate again."""
    if not _MADE:
        gc.freeze()  # what pytest made so far lives to the session's end: out of the collector's passes
        try:
            _MADE["report"] = check_catalog(TREE, GateOptions(repository=str(CATALOG)))
        except Exception as error:
            _MADE["error"] = error
            raise
        finally:
            gc.freeze()  # and the report, which every id reads
        _MADE["index"] = _Index(_MADE["report"].refusals)
    if "error" in _MADE:
        raise RuntimeError(f"the gate raised {_MADE['error']!r} under the first id that ran it: see its failure")
    return _MADE["report"]


def _index() -> _Index:
    _gate()
    return _MADE["index"]


def _made() -> bool:
    """Whether the gate ran (its report and index made, or its error kept): each id after the first only reads."""
    return bool(_MADE)


@pytest.fixture(scope="module")
def gate():
    return _gate()


def _entry(entry_id: str) -> None:
    path = PATH_OF[entry_id]
    mine = _index().of_entry(entry_id, path)
    assert not mine, _describe(mine)


def _fixture(entry_id: str, path: str, fixture: str) -> None:
    where = f"{path}/fixtures/{fixture}"
    mine = _index().under_or_at(where)
    assert not mine, _describe(mine)


test_entry = IdChecks(_entry, IDS, ready=_made)
test_fixture_replays_or_is_skipped_by_name = IdChecks(_fixture, FIXTURES, ids=[f"{e}/{f}" for e, _, f in FIXTURES],
                                                      ready=_made)


def test_whole_catalog(gate):
    assert gate.passed, _describe(gate.refusals)
    assert gate.entries == len(PATHS)


def test_history_of_this_repository(gate):
    """A fresh clone may carry no tags: then there is no earlier release, and nothing is refused."""
    history = [r for r in gate.refusals if r.code in HISTORY_CODES]
    assert not history, _describe(history)
    assert gate.history in ("checked", "no-releases")


def test_the_index_selects_what_each_ids_filter_selects():
    """`_Index` against the filters it stands for, on refusals at every kind of place: an entry's own,
    a sibling sharing a prefix, a fixture and its files, the manifest, no path, an empty path."""
    from judgment_exchange.refusal import Refusal

    places = [("acme.a", "entries/acme/a/entry.json"), (None, "entries/acme/a/fixtures/f/input.json"),
              ("acme.ab", "entries/acme/ab/entry.json"), (None, "entries/acme/a"), (None, "entries/acme/a/"),
              (None, "entries/acme/a/fixtures/f"), (None, "entries/acme/a/fixtures/fg/x"), ("acme.a", None),
              (None, ""), ("beta.c", "manifest.json"), (None, "entries/acme/a/fixtures/f/"), ("acme.a", "x/y")]
    refusals = [Refusal("code", path, "detail", entry) for entry, path in places]
    index = _Index(refusals)
    for entry, path in (("acme.a", "entries/acme/a"), ("acme.ab", "entries/acme/ab"), ("beta.c", "entries/beta/c")):
        assert index.of_entry(entry, path) == [
            r for r in refusals if r.entry == entry or (r.path or "").startswith(path + "/")]
    for where in ("entries/acme/a/fixtures/f", "entries/acme/a/fixtures/fg", "entries/acme/a/fixtures/h"):
        assert index.under_or_at(where) == [
            r for r in refusals if r.path and (r.path == where or r.path.startswith(where + "/"))]
