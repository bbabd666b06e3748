"""Fixtures shared across test folders: the package as a user gets it (tests/support/built.py, issue #33)."""

from __future__ import annotations

import pytest

from .support.built import Built, built


@pytest.fixture(scope="session")
def built_package(tmp_path_factory) -> Built:
    """The run's wheel and sdist (`python -m build`), the wheelhouse of the locks, and a fresh virtual
    environment holding the wheel installed non-editable with its dependencies from that wheelhouse, offline."""
    return built(tmp_path_factory.getbasetemp())
