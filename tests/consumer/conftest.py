"""Throwaway catalogs with releases for the consumer's tests (tests/support/gitrepo.py)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..support.catalog import CatalogBuilder, pretty
from ..support.gitrepo import GitRepo, files_of


def sha256(data: bytes) -> str:
    """An independent digest (hashlib), never the package's own."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


@dataclass
class Releases:
    """A repository, the working catalog it snapshots, and the entry acme.vendors at `entry`."""

    repo: GitRepo
    work: CatalogBuilder
    entry: Path

    @property
    def location(self) -> str:
        return str(self.repo.path)

    def entry_digest(self) -> str:
        """acme.vendors' entryDigest in the working catalog: hashlib over entry.json's bytes."""
        return sha256((self.entry / "entry.json").read_bytes())

    def release(self, tag: str, *, annotated: bool = False) -> str:
        self.work.write_manifest()
        commit = self.repo.snapshot(files_of(self.work.root), f"release {tag}")
        self.repo.tag(tag, annotated=annotated)
        return commit

    def edit_entry(self, **members) -> None:
        """Change entry.json's members (None removes one); the manifest is rewritten by `release`."""
        entry = json.loads((self.entry / "entry.json").read_bytes())
        for name, value in members.items():
            if value is None:
                entry.pop(name, None)
            else:
                entry[name] = value
        (self.entry / "entry.json").write_bytes(pretty(entry))


@pytest.fixture
def releases(tmp_path) -> Releases:
    """v0.1.0: the empty manifest; v0.2.0 (annotated): acme.vendors; v0.3.0: its title changed, with an
    upgrade note keyed by v0.2.0's entryDigest."""
    repo = GitRepo(tmp_path / "repo")
    work = CatalogBuilder(tmp_path / "work")
    repo.snapshot(files_of(work.root))
    repo.tag("v0.1.0")
    out = Releases(repo, work, work.add_runner_entry())
    out.release("v0.2.0", annotated=True)
    previous = out.entry_digest()
    out.edit_entry(title="Vendors, retitled", upgrade={previous: "Title only; the dialect is unchanged."})
    out.release("v0.3.0")
    return out
