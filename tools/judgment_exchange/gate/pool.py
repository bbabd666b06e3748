"""Entries checked in parallel where it pays (issue #12 item 6), with the serial run's report.

Entries are independent: one entry's directory checks, replay and scan read only that entry's files
and return only that entry's findings (`refusal.Findings`). `check_entries` runs them — in this process, or in a
pool of worker processes when the catalog is large enough to win — and returns each entry's check and
its findings **in the order the entries were given**, so the merged report is the serial
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
from typing import Any, Callable

from ..refusal import Findings
from ..tree import GitTree, Tree, WorkingTree

MIN_ENTRIES = 48
"""Below this many fully checked entries the pool is not started unless asked for (docs/performance.md)."""
BATCH = 8
"""Entries per task: small enough to balance two to four workers, large enough to amortise a task's cost."""


CheckOne = Callable[[Tree, str, Any, Any], tuple[Any, Findings]]
"""One entry checked: (tree, its path, the options, the run's reader, chosen once by the parent) -> (its check,
its findings)."""


_WORKER: dict[str, Any] = {}


def _reopened(tree: Tree) -> Tree:
    """The tree a worker reads: a working tree as it is; a git tree's commit through the worker's own
    repository handle and `cat-file` process (the parent's pipes stay the parent's)."""
    if type(tree) is GitTree:
        return GitTree(tree.repository, tree.commit)
    return tree


def _start(check_one: CheckOne, tree: Tree, options: Any, reader: Any) -> None:
    _WORKER.update(check_one=check_one, tree=_reopened(tree), options=options, reader=reader)


def _batch(paths: list[str]) -> list[tuple[Any, Findings]]:
    w = _WORKER
    return [w["check_one"](w["tree"], path, w["options"], w["reader"]) for path in paths]


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


def check_entries(check_one: CheckOne, tree: Tree, paths: list[str], options: Any, reader: Any,
                  workers: int) -> list[tuple[Any, Findings]]:
    """Each entry of `paths` checked by `check_one`, with its findings, in the order given."""
    if workers > 1 and len(paths) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        batches = [paths[i:i + BATCH] for i in range(0, len(paths), BATCH)]
        try:
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(workers, context, initializer=_start,
                                     initargs=(check_one, tree, options, reader)) as pool:
                return [result for batch in pool.map(_batch, batches) for result in batch]
        except (BrokenProcessPool, OSError, NotImplementedError):
            pass  # the pool could not start or lost a worker: the serial run below gives the whole report
    return [check_one(tree, path, options, reader) for path in paths]
