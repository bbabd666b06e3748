"""Crashes the property tests found, each kept as a named case with its near-miss (docs/fuzzing.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judgment_exchange.canon import CanonError, canon
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from ..support.catalog import CatalogBuilder


def test_canon_refuses_mixed_member_names_by_name() -> None:
    """Names of mixed types raised TypeError from sorting, not CanonError."""
    with pytest.raises(CanonError):
        canon({"a": 1, 0: 2})
    assert canon({"b": 1, "a": 2}) == b'{"a":2,"b":1}'  # near-miss: string names are written, sorted


def _named_catalog(root: Path, directory: bytes) -> WorkingTree:
    builder = CatalogBuilder(root)
    builder.add_named_entry()
    builder.write_manifest()
    publisher = os.path.join(os.fsencode(root), b"entries", b"acme")
    if directory != b"vendors-named":
        os.rename(os.path.join(publisher, b"vendors-named"), os.path.join(publisher, directory))
    return WorkingTree(str(root))


def test_named_entry_in_a_directory_whose_name_is_not_utf8_is_refused_not_a_crash(tmp_path: Path) -> None:
    """A pull request adds an entry with an artifact pair under a directory named by the byte 0xFF:
    artifact identity sorted the ids as strict UTF-8 and the gate ended in UnicodeEncodeError."""
    report = check_catalog(_named_catalog(tmp_path, b"\xff"), GateOptions(history=False))
    codes = {r.code for r in report.refusals}
    assert "entry-id-path" in codes and "manifest-entry-missing" in codes


def test_named_entry_in_its_own_directory_is_checked_as_before(tmp_path: Path) -> None:
    report = check_catalog(_named_catalog(tmp_path, b"vendors-named"), GateOptions(history=False))
    codes = {r.code for r in report.refusals}
    assert not codes & {"entry-id-path", "manifest-entry-missing", "manifest-entry-unlisted"}  # near-miss
