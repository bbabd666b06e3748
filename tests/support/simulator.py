"""One simulator of a catalog's history, for every test that needs a released catalog repository (issue #37 item 6;
as python-tuf's RepositorySimulator serves every updater test).

A `CatalogSimulator` holds two things: a **work** directory, the catalog a maintainer edits (a `CatalogBuilder`'s,
or a copy of a directory such as docs/demo-catalog), and a **repository** (`GitRepo`) whose history the verbs make:

- `commit(message, files=..., tree=...)` — main's tree made exactly the work's files (the manifest rewritten from
  them when a builder holds the work), with `files` laid over them (a path given `None` is left out); or, with
  `tree`, exactly those files, the work untouched;
- `release(tag, annotated=..., files=..., tree=...)` — a commit, tagged by hand: a release of tags alone, no
  ledger row;
- `release_by_command(tag)` — a commit, then the real `exchange release` (`releasing.release.make_release`): the
  ledger row, the release commit and its annotated tag; the ledger it wrote is copied back into the work
  (git's identity must be set first: `gitrepo.git_identity`);
- `change(entry_id, **members)` — entry.json's members changed (`None` removes one);
  `write(path, data)`, `edit_json(path, edit)` — any other file of the work changed;
- `withdraw(entry_id)` — the entry's directory and its manifest row gone from the work;
- `side_release(tag, start, tree=...)` — a commit on a branch off main from `start`, tagged; main checked out again;
- `new_root()` — main renamed away and a new main begun with no parent (a history of its own, as a mirror's fork);
- `tag(tag, target)` — a tag made by hand with no ledger row (a stray tag);
  `move_tag(tag, target)`, `delete_tag(tag)` — a published tag moved (kept annotated or lightweight) or deleted;
- `drop_object(rev)` — the loose object a revision names deleted from the object database (a damaged clone).

Histories several files share: `empty_released_twice` (gitrepo.two_releases) and `runner_released`
(gitrepo.runner_releases); tests/browse/releases.py makes the demonstration catalog's. tests/test_history_simulator.py
holds each verb to what it says.

Nothing here computes an expectation: digests are hashlib's over the bytes written, and every value a test asserts
is stated by the test or read back with git.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

from .catalog import CatalogBuilder, pretty
from .gitrepo import GitRepo, files_of


def sha256(data: bytes) -> str:
    """An independent digest (hashlib), never the package's own."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


class CatalogSimulator:
    """A catalog repository at `path` and the work directory its commits snapshot.

    `work` is a `CatalogBuilder` (the manifest is rewritten from the entries' files at each commit), a directory
    to copy as the work (`start`), or neither: an empty `CatalogBuilder` at `work_path`."""

    def __init__(self, path: Path, *, builder: CatalogBuilder | None = None, start: Path | None = None,
                 work_path: Path | None = None, files: dict[str, bytes] | None = None) -> None:
        path = Path(path)
        work_path = Path(work_path) if work_path is not None else path.parent / f"{path.name}-work"
        if start is not None:
            shutil.copytree(start, work_path)
            self.builder = None
            self.work = work_path
        else:
            self.builder = builder if builder is not None else CatalogBuilder(work_path)
            self.work = self.builder.root
        for rel, data in (files or {}).items():
            self.write(rel, data)
        self.repo = GitRepo(path)

    # --- reading -----------------------------------------------------------------------------------------

    @property
    def location(self) -> str:
        return str(self.repo.path)

    @property
    def path(self) -> Path:
        return self.repo.path

    def git(self, *args: str) -> str:
        return self.repo.git(*args)

    def rev(self, rev: str) -> str:
        return self.repo.rev(rev)

    def commit_of(self, tag: str) -> str:
        return self.repo.rev(f"{tag}^{{commit}}")

    def blob(self, rev: str) -> bytes:
        """The bytes `git cat-file blob REV` gives (REV as `commit:path`)."""
        return subprocess.run(["git", "-C", self.location, "cat-file", "blob", rev], capture_output=True,
                              check=True).stdout

    def files(self) -> dict[str, bytes]:
        """The work's files as a commit would hold them (the manifest rewritten first when a builder holds them)."""
        if self.builder is not None:
            self.builder.write_manifest()
        return files_of(self.work)

    def entry_dir(self, entry_id: str) -> Path:
        publisher, _, name = entry_id.partition(".")
        return self.work / "entries" / publisher / name

    # --- changing the work -------------------------------------------------------------------------------

    def write(self, rel: str, data: bytes | None) -> None:
        """One file of the work written (or, with `None`, deleted)."""
        target = self.work / rel
        if data is None:
            target.unlink(missing_ok=True)
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)

    def edit_json(self, rel: str, edit: Callable[[Any], Any]) -> None:
        """A JSON file of the work read, given to `edit` (which changes it in place or returns a new value),
        written back in the builder's pretty form."""
        value = json.loads((self.work / rel).read_bytes())
        changed = edit(value)
        self.write(rel, pretty(value if changed is None else changed))

    def change(self, entry_id: str, **members: Any) -> None:
        """An entry's entry.json members changed (`None` removes one); its manifest row follows at the next commit
        (a builder rewrites it; otherwise its entryDigest is re-pinned here by hashlib)."""
        rel = (self.entry_dir(entry_id) / "entry.json").relative_to(self.work).as_posix()

        def apply(entry: dict) -> None:
            for name, value in members.items():
                if value is None:
                    entry.pop(name, None)
                else:
                    entry[name] = value
        self.edit_json(rel, apply)
        if self.builder is None and (self.work / "manifest.json").is_file():
            digest = sha256((self.work / rel).read_bytes())
            self.edit_json("manifest.json", lambda rows: [dict(r, entryDigest=digest) if r.get("id") == entry_id
                                                          else r for r in rows])

    def withdraw(self, entry_id: str) -> None:
        """The entry gone from the work: its directory and its manifest row."""
        shutil.rmtree(self.entry_dir(entry_id))
        if self.builder is not None:
            self.builder.entries.pop(entry_id, None)
        elif (self.work / "manifest.json").is_file():
            self.edit_json("manifest.json", lambda rows: [r for r in rows if r.get("id") != entry_id])

    # --- making history ----------------------------------------------------------------------------------

    def commit(self, message: str = "work", files: dict[str, bytes | None] | None = None,
               tree: dict[str, bytes] | None = None) -> str:
        """main's tree made exactly the work's files with `files` laid over them (or exactly `tree`); its id."""
        if tree is not None:
            assert files is None, "a tree is given whole"
            return self.repo.snapshot(dict(tree), message)
        whole = self.files()
        for rel, data in (files or {}).items():
            if data is None:
                whole.pop(rel, None)
            else:
                whole[rel] = data
        return self.repo.snapshot(whole, message)

    def release(self, tag: str, *, annotated: bool = False, message: str | None = None,
                files: dict[str, bytes | None] | None = None, tree: dict[str, bytes] | None = None) -> str:
        """A release of tags alone: the work (or `tree`) committed on main and tagged TAG by hand; the commit's id."""
        commit = self.commit(message or f"release {tag}", files, tree)
        self.repo.tag(tag, annotated=annotated)
        return commit

    def release_by_command(self, tag: str, *, message: str | None = None,
                           files: dict[str, bytes | None] | None = None, commit: bool = True) -> str:
        """A release as `exchange release TAG` makes it (the ledger row, the release commit, the annotated tag),
        on the work committed first (unless `commit` is false: the repository's main as it stands); the work's
        releases.json is then the ledger the command wrote. The release commit's id."""
        from judgment_exchange.releasing.release import make_release

        if commit:
            if not (self.work / "releases.json").exists() and "releases.json" not in (files or {}):
                self.write("releases.json", b"[]\n")
            self.commit(message or f"catalog for {tag}", files)
        outcome = make_release(self.location, tag)
        assert outcome.status == 0, outcome.lines
        self.write("releases.json", (self.repo.path / "releases.json").read_bytes())
        return self.commit_of(tag)

    def side_release(self, tag: str, start: str, *, tree: dict[str, bytes] | None = None,
                     annotated: bool = True, branch: str | None = None, message: str | None = None) -> str:
        """A commit on a branch (`side-TAG`) from `start` holding exactly `tree` (or the work, when `tree` is not
        given), tagged TAG (annotated unless said); main checked out again. The commit's id."""
        self.repo.git("switch", "-q", "-c", branch or f"side-{tag}", start)
        made = self.commit(message or f"side release {tag}", tree=tree)
        self.repo.tag(tag, annotated=annotated)
        self.repo.git("switch", "-q", "-f", "main")
        return made

    def new_root(self, keep_as: str) -> None:
        """main renamed `keep_as` and a new main begun with no parent: the next commit starts a history of its own."""
        self.repo.git("branch", "-m", "main", keep_as)
        self.repo.git("checkout", "-q", "--orphan", "main")

    def tag(self, tag: str, target: str = "HEAD", *, annotated: bool = False) -> None:
        """TAG made to name `target` by hand, no ledger row: a stray tag, or a release of tags alone."""
        self.repo.tag(tag, target, annotated=annotated)

    def move_tag(self, tag: str, target: str, *, annotated: bool | None = None, message: str = "moved") -> None:
        """TAG made to name `target` (force-moved); annotated as it was unless `annotated` says."""
        if annotated is None:
            annotated = self.repo.git("cat-file", "-t", f"refs/tags/{tag}") == "tag"
        if annotated:
            self.repo.git("tag", "-f", "-a", "-m", message, tag, target)
        else:
            self.repo.git("tag", "-f", tag, target)

    def delete_tag(self, tag: str) -> None:
        self.repo.git("tag", "-d", tag)

    def drop_object(self, rev: str) -> str:
        """The loose object `rev` names deleted from the object database; its id."""
        oid = self.repo.rev(rev)
        loose = self.repo.git_dir / "objects" / oid[:2] / oid[2:]
        assert loose.is_file(), f"{rev} ({oid}) is not a loose object"
        loose.unlink()
        return oid


# --- the histories several test files share ----------------------------------------------------------------------


def empty_released_twice(root: Path) -> CatalogSimulator:
    """An empty catalog (manifest [] and ledger []) at `root` with releases v0.1.0 and v0.2.0 made by
    `exchange release` (`gitrepo.git_identity` set first), an empty commit between them."""
    catalog = CatalogSimulator(root, files={"releases.json": b"[]\n"})
    catalog.release_by_command("v0.1.0", message="snapshot")
    catalog.git("commit", "-q", "--allow-empty", "-m", "work")
    catalog.release_by_command("v0.2.0", commit=False)
    return catalog


def runner_released(tmp_path: Path) -> CatalogSimulator:
    """Tags alone: v0.1.0 the empty manifest; v0.2.0 (an annotated tag) one Runner entry. The repository is
    `tmp_path/repo`, the work `tmp_path/work`."""
    catalog = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "work")
    catalog.release("v0.1.0", message="snapshot")
    catalog.builder.add_runner_entry()
    catalog.release("v0.2.0", annotated=True, message="snapshot")
    return catalog
