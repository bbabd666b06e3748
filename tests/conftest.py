"""Fixtures shared across test folders: the package as a user gets it (tests/support/built.py, issue #33). And the
hooks that make a long list of cheap test ids cheap to run (issue #37 item 7): a module-level `IdChecks` collected
as its ids and run by a short protocol once what they read is made (tests/support/idchecks.py), and hypothesis's
pytest plugin dropped from a session that collected no hypothesis test."""

from __future__ import annotations

import sys

import pytest

from .support.built import Built, built
from .support.idchecks import IdCheck, IdChecks


@pytest.fixture(scope="session")
def built_package(tmp_path_factory) -> Built:
    """The run's wheel and sdist (`python -m build`), the wheelhouse of the locks, and a fresh virtual
    environment holding the wheel installed non-editable with its dependencies from that wheelhouse, offline."""
    return built(tmp_path_factory.getbasetemp())


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object) -> list[pytest.Item] | None:
    """A module's `test_x = IdChecks(check, values)`: its items, test_x[<id>] each (tests/support/idchecks.py)."""
    if isinstance(obj, IdChecks) and isinstance(collector, pytest.Module) and collector.funcnamefilter(name):
        return obj.items(collector, name)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """An `IdCheck` that only reads what is made, followed by another of its module: the short protocol
    (tests/support/idchecks.py says what it keeps); every other item, pytest's own."""
    return item.short_protocol(nextitem) if isinstance(item, IdCheck) else None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A session (or an xdist worker) whose collection imported no hypothesis unregisters hypothesis's pytest plugin.

    That plugin acts on a test only when `hypothesis` is imported (its hooks check sys.modules, or attributes a
    `@given` test sets), and every test module here imports hypothesis at its top, so once collection is over
    it has nothing left to do in such a session — yet it wraps each test's call and reports (about 0.15 ms a
    test) and imports hypothesis at the session's end for its summary (about 0.2 s): about a quarter of what
    `pytest tests/test_entries.py` (2,243 ids on the benchmark's catalog) cost beyond its one gate. A session
    given a hypothesis option imports hypothesis when it configures, so keeps the plugin. The whole suite
    collects the property tests, so keeps it too."""
    if "hypothesis" in sys.modules:
        return
    plugin = config.pluginmanager.get_plugin("hypothesispytest")
    if plugin is not None:
        config.pluginmanager.unregister(plugin)
