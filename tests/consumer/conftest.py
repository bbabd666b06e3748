"""Throwaway catalogs with releases for the consumer's tests, made by the history simulator
(tests/support/simulator.py)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..support.catalog import CatalogBuilder
from ..support.gitrepo import GitRepo
from ..support.simulator import CatalogSimulator


def sha256(data: bytes) -> str:
    """An independent digest (hashlib), never the package's own."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


@dataclass
class Releases:
    """A catalog history (tests/support/simulator.py) whose work holds the entry acme.vendors at `entry`."""

    catalog: CatalogSimulator
    entry: Path

    @property
    def repo(self) -> GitRepo:
        return self.catalog.repo

    @property
    def work(self) -> CatalogBuilder:
        return self.catalog.builder

    @property
    def location(self) -> str:
        return self.catalog.location

    def entry_digest(self) -> str:
        """acme.vendors' entryDigest in the working catalog: hashlib over entry.json's bytes."""
        return sha256((self.entry / "entry.json").read_bytes())

    def release(self, tag: str, *, annotated: bool = False) -> str:
        return self.catalog.release(tag, annotated=annotated)

    def edit_entry(self, **members) -> None:
        """Change entry.json's members (None removes one); the manifest is rewritten by `release`."""
        self.catalog.change("acme.vendors", **members)


@pytest.fixture
def releases(tmp_path) -> Releases:
    """v0.1.0: the empty manifest; v0.2.0 (annotated): acme.vendors; v0.3.0: its title changed, with an
    upgrade note keyed by v0.2.0's entryDigest."""
    catalog = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "work")
    catalog.release("v0.1.0", message="snapshot")
    out = Releases(catalog, catalog.builder.add_runner_entry())
    out.release("v0.2.0", annotated=True)
    previous = out.entry_digest()
    out.edit_entry(title="Vendors, retitled", upgrade={previous: "Title only; the dialect is unchanged."})
    out.release("v0.3.0")
    return out
