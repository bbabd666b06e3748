"""Entries checked in parallel where it pays (issue #12 item 6), with the serial run's report.

Entries are independent: one entry's directory checks, replay and scan read only that entry's files
and write only that entry's part of the report. `check_entries` runs them — in this process, or in a
pool of worker processes when the catalog is large enough to win — and returns each entry's check and
its part of the report **in the order the entries were given**, so the merged report is the serial
run's, refusal for refusal (tests/test_pool.py compares them).

The pool is used on a working tree (`tree.WorkingTree`, a directory: a worker reads the same files by
the same path) and on a git tree (`tree.GitTree`, a consumer's release check): its object database
holds open pipes to a `cat-file` process a worker must not share, so each worker opens the repository
again and reads the same commit's objects through a process of its own. Only where the platform can
fork; anything that stops the pool from starting or running leaves the serial run, never a partial
report. `GateOptions.workers` (`exchange check --workers N`) asks for N processes; `None` chooses: one
per usable core when at least `MIN_ENTRIES` entries get every check (docs/performance.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable

from ..refusal import Refusal, Replay, Report, Skip
from ..tree import GitTree, Tree, WorkingTree

MIN_ENTRIES = 48
"""Below this many fully checked entries the pool is not started unless asked for (docs/performance.md)."""
BATCH = 8
"""Entries per task: small enough to balance two to four workers, large enough to amortise a task's cost."""


@dataclass
class Part:
    """One entry's part of the report: what `_check_entry` adds to a Report, in the order it adds it."""

    refusals: list[Refusal] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    replays: list[Replay] = field(default_factory=list)
    replayed: int = 0
    timings: dict[str, float] = field(default_factory=dict)

    def merge_into(self, report: Report) -> None:
        report.refusals += self.refusals
        report.skipped += self.skipped
        report.replays += self.replays
        report.replayed += self.replayed
        for phase, seconds in self.timings.items():
            report.timings[phase] = report.timings.get(phase, 0.0) + seconds


CheckOne = Callable[[Tree, str, bool, Any, Report], Any]


def _one(check_one: CheckOne, tree: Tree, path: str, selected: bool, options: Any, reader: Any) -> tuple[Any, Part]:
    part = Report(reader=reader)  # the run's reader, chosen once by the parent: never chosen again here
    check = check_one(tree, path, selected, options, part)
    return check, Part(part.refusals, part.skipped, part.replays, part.replayed, part.timings)


_WORKER: dict[str, Any] = {}


def _reopened(tree: Tree) -> Tree:
    """The tree a worker reads: a working tree as it is; a git tree's commit through the worker's own
    repository handle and `cat-file` process (the parent's pipes stay the parent's)."""
    if type(tree) is GitTree:
        return GitTree(tree.repository, tree.commit)
    return tree


def _start(check_one: CheckOne, tree: Tree, options: Any, reader: Any) -> None:
    _WORKER.update(check_one=check_one, tree=_reopened(tree), options=options, reader=reader)


def _batch(items: list[tuple[str, bool]]) -> list[tuple[Any, Part]]:
    w = _WORKER
    return [_one(w["check_one"], w["tree"], path, selected, w["options"], w["reader"]) for path, selected in items]


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def workers_for(tree: Tree, count: int, requested: int | None) -> int:
    """How many processes check `count` entries: 1 (this process) unless a pool can and should run
    (multiprocessing is imported only when one might: issue #20, an empty catalog's check)."""
    if requested is None and count < MIN_ENTRIES or type(tree) not in (WorkingTree, GitTree):
        return 1
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if requested is not None:
        return max(1, min(requested, count))
    return max(1, min(usable_cores(), count // (MIN_ENTRIES // 2)))


def check_entries(check_one: CheckOne, tree: Tree, items: list[tuple[str, bool]], options: Any, reader: Any,
                  workers: int) -> list[tuple[Any, Part]]:
    """Each (path, selected) checked by `check_one`, with its part of the report, in the order given."""
    if workers > 1 and len(items) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        batches = [items[i:i + BATCH] for i in range(0, len(items), BATCH)]
        try:
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(workers, context, initializer=_start,
                                     initargs=(check_one, tree, options, reader)) as pool:
                return [result for batch in pool.map(_batch, batches) for result in batch]
        except (BrokenProcessPool, OSError, NotImplementedError):
            pass  # the pool could not start or lost a worker: the serial run below gives the whole report
    return [_one(check_one, tree, path, selected, options, reader) for path, selected in items]
