"""One test id per value, each a plain pytest item calling one check function (issue #37 item 7).

    test_entry = IdChecks(_entry, IDS, ready=...)   # ids test_entry[<id>], each calling _entry(<id>)

tests/conftest.py's `pytest_pycollect_makeitem` makes a module-level `IdChecks` into its items, with the node
ids and the order `@pytest.mark.parametrize` gives (`name[id]`, directly under the module). An item differs
from a parametrised function in having no fixtures, so pytest spends nothing per id resolving fixture
definitions and the parameter's pseudo-fixture (about 0.15 ms an id; tests/test_entries.py has 2,243 ids on
the benchmark's catalog). The check reads whatever it shares (one gate's report) from the module itself,
computed once. Its asserts are rewritten as any test's: it is a function of the test module.

The short protocol (`IdCheck.short_protocol`, called by tests/conftest.py's `pytest_runtest_protocol`). pytest's
own protocol runs each of an item's three phases (setup, call, teardown) inside its plugins' per-phase hooks —
output capture, log capture, the setup state of fixtures and collectors — about 0.25 ms an id on this
machine. An id whose check only reads what is already made (`ready()` is true: here, one gate's report and its
index, made by the first id under pytest's own protocol) does no I/O, prints nothing, logs nothing and has no
fixtures, so those hooks have nothing to capture or set up; such an id, followed by another id of the same
module, runs by a short protocol instead: the same three phases, each with its `CallInfo` (duration, the
exception) and its report made by `pytest_runtest_makereport` and logged by `pytest_runtest_logreport`, so every
reporter (the terminal, `-x`, `--lf`, junit XML, xdist's workers, `--pdb`) sees what it sees of any test, and the
hookwrappers around the whole protocol (warnings caught per test) still wrap it. The check's assert decides
the id's outcome exactly as under pytest's own protocol: a failing id fails, with the same message and traceback.
The first id, the last, and every id while `ready()` is false run by pytest's own protocol;
EXCHANGE_TEST_FULL_PROTOCOL=1 runs every id by it.
"""

from __future__ import annotations

import bdb
import os
from collections.abc import Callable, Sequence
from typing import Any

import pytest


class IdChecks:
    """A check and its values: one test id per value, `check(*value)` (a tuple) or `check(value)`."""

    def __init__(self, check: Callable[..., None], values: Sequence[Any], ids: Sequence[str] | None = None,
                 ready: Callable[[], bool] | None = None) -> None:
        self.check = check
        self.ready = ready
        self.values = list(values)
        self.ids = list(ids) if ids is not None else [str(v) for v in self.values]
        if len(self.ids) != len(self.values) or len(set(self.ids)) != len(self.ids):
            raise ValueError(f"{check.__name__}: one distinct id per value")

    def items(self, collector: pytest.Collector, name: str) -> list[IdCheck]:
        # the node id given as a string, so pytest reads it as it reads a parametrised function's (pytest 9 parses
        # `name[id]` into a name and its parameters; --lf and --sw compare those)
        if not self.values:  # as @pytest.mark.parametrize does with no values: one id that skips, saying so
            return [IdCheck.from_parent(collector, name=f"{name}[NOTSET]", nodeid=f"{collector.nodeid}::{name}[NOTSET]",
                                        check=_no_values, args=(self.check.__name__,))]
        return [
            IdCheck.from_parent(collector, name=f"{name}[{id_}]", nodeid=f"{collector.nodeid}::{name}[{id_}]",
                                check=self.check, args=value if isinstance(value, tuple) else (value,),
                                ready=self.ready)
            for id_, value in zip(self.ids, self.values, strict=True)
        ]


class IdCheck(pytest.Item):
    """One id: calls its check with its value; fails as the check's assert does."""

    def __init__(self, *, check: Callable[..., None], args: tuple, ready: Callable[[], bool] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check
        self.args = args
        self.ready = ready

    def runtest(self) -> None:
        __tracebackhide__ = True
        self.check(*self.args)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.path, self.check.__code__.co_firstlineno - 1, self.name

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """The traceback from the check down, as a test function's failure shows it from the function down."""
        if not self.config.getoption("fulltrace", False):
            code = self.check.__code__
            cut = excinfo.traceback.cut(path=code.co_filename, firstlineno=code.co_firstlineno - 1)
            excinfo.traceback = cut.filter(excinfo)
        return super().repr_failure(excinfo, style)

    def short_protocol(self, nextitem: pytest.Item | None) -> bool | None:
        """Run this id by the short protocol (the module's docstring) and return True; or None, for pytest's own,
        unless the check only reads what is made and the next item is an id of the same module (so no setup state
        is to change between them: the first id set the module up, and the last tears down what follows needs not)."""
        if (self.ready is None or not isinstance(nextitem, IdCheck) or nextitem.parent is not self.parent
                or os.environ.get("EXCHANGE_TEST_FULL_PROTOCOL") or not self.ready()):
            return None
        ihook = self.ihook
        ihook.pytest_runtest_logstart(nodeid=self.nodeid, location=self.location)
        for when, run in (("setup", _nothing), ("call", self.runtest), ("teardown", _nothing)):
            call = pytest.CallInfo.from_call(run, when=when, reraise=(pytest.exit.Exception, KeyboardInterrupt))
            report = ihook.pytest_runtest_makereport(item=self, call=call)
            ihook.pytest_runtest_logreport(report=report)
            if (call.excinfo is not None and not hasattr(report, "wasxfail")
                    and not isinstance(call.excinfo.value, (pytest.skip.Exception, bdb.BdbQuit))):
                ihook.pytest_exception_interact(node=self, call=call, report=report)
        ihook.pytest_runtest_logfinish(nodeid=self.nodeid, location=self.location)
        return True


def _no_values(check: str) -> None:
    pytest.skip(f"got empty parameter set: no value to call {check} with")


def _nothing() -> None:
    """An id's setup and teardown under the short protocol: it has no fixtures, and its module stays set up."""
