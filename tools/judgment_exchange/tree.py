"""One way to read a catalog: a working tree or the blobs of one git commit (docs/architecture.md).

Every check reads files through `Tree`: list a directory, learn what a path is, read a file's bytes
within a bound. The bound is checked on the size before any byte is read, so a file over its bound
is refused without being read whole. `GitTree` reads blobs through GitPython's object database (one
`git cat-file` process for the whole walk), never a checkout, so no line ending is converted
(RFC 0019 §7).
"""

from __future__ import annotations

import os
import stat as _stat
from dataclasses import dataclass
from typing import Protocol

FILE = "file"
DIR = "directory"
SYMLINK = "symlink"
SPECIAL = "special"
MISSING = "missing"


@dataclass(frozen=True)
class Node:
    """What a path is: its `kind`, its size in bytes (files only) and whether a run bit is set."""

    name: str
    kind: str
    size: int = 0
    executable: bool = False


class TreeError(Exception):
    """The tree itself could not be read (an I/O failure, an unreadable object)."""


class TooLarge(Exception):
    """A file is over the bound its reader gave; nothing of it was read."""

    def __init__(self, path: str, size: int, limit: int) -> None:
        super().__init__(f"{path} is {size} bytes, over its bound of {limit}")
        self.path, self.size, self.limit = path, size, limit


class Tree(Protocol):
    """The interface every check reads through; paths are '/'-separated and repository-relative."""

    label: str

    def stat(self, path: str) -> Node: ...

    def list(self, path: str) -> list[Node]: ...

    def read(self, path: str, limit: int) -> bytes: ...


def _join(root: str, path: str) -> str:
    parts = [p for p in path.split("/") if p]
    if any(p in (".", "..") for p in parts):
        raise TreeError(f"{path}: a path may not name '.' or '..'")
    return os.path.join(root, *parts)


class WorkingTree:
    """A directory on disk: a contributor's checkout or a pull request's working tree."""

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)
        self.label = self.root

    def stat(self, path: str) -> Node:
        full = _join(self.root, path)
        name = path.rsplit("/", 1)[-1]
        try:
            st = os.lstat(full)
        except FileNotFoundError:
            return Node(name, MISSING)
        except NotADirectoryError:
            return Node(name, MISSING)
        except OSError as exc:
            raise TreeError(f"{path}: {exc.strerror}") from exc
        return _node(name, st)

    def list(self, path: str) -> list[Node]:
        full = _join(self.root, path)
        try:
            with os.scandir(full) as it:
                nodes = [_node(e.name, e.stat(follow_symlinks=False)) for e in it]
        except OSError as exc:
            raise TreeError(f"{path or '.'}: {exc.strerror}") from exc
        return sorted(nodes, key=lambda n: n.name.encode("utf-8", "surrogateescape"))

    def read(self, path: str, limit: int) -> bytes:
        full = _join(self.root, path)
        try:
            fd = os.open(full, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError as exc:
            raise TreeError(f"{path}: {exc.strerror}") from exc
        try:
            st = os.fstat(fd)
            if not _stat.S_ISREG(st.st_mode):
                raise TreeError(f"{path}: not a regular file")
            if st.st_size > limit:
                raise TooLarge(path, st.st_size, limit)
            with os.fdopen(fd, "rb", closefd=False) as fh:
                data = fh.read(limit + 1)
        except OSError as exc:
            raise TreeError(f"{path}: {exc.strerror}") from exc
        finally:
            os.close(fd)
        if len(data) > limit:
            raise TooLarge(path, len(data), limit)
        return data


def _node(name: str, st: os.stat_result) -> Node:
    mode = st.st_mode
    if _stat.S_ISLNK(mode):
        return Node(name, SYMLINK)
    if _stat.S_ISDIR(mode):
        return Node(name, DIR)
    if _stat.S_ISREG(mode):
        return Node(name, FILE, st.st_size, bool(mode & 0o111))
    return Node(name, SPECIAL)


class GitTree:
    """The tree of one commit, read as blobs through the object database (RFC 0019 §7)."""

    def __init__(self, repo, rev: str) -> None:
        import git  # GitPython

        self.repo = repo if isinstance(repo, git.Repo) else git.Repo(repo)
        try:
            self.commit = self.repo.commit(rev)
            self.tree = self.commit.tree
        except Exception as exc:  # GitPython raises several types for a bad revision
            raise TreeError(f"{rev}: not a commit in {self.repo.git_dir} ({exc.__class__.__name__})") from exc
        self.label = f"{rev}@{self.commit.hexsha[:12]}"

    def _object(self, path: str):
        parts = [p for p in path.split("/") if p]
        obj = self.tree
        for part in parts:
            if obj.type != "tree":
                return None
            try:
                obj = obj[part]
            except KeyError:
                return None
        return obj

    def stat(self, path: str) -> Node:
        name = path.rsplit("/", 1)[-1]
        try:
            obj = self._object(path)
        except Exception as exc:
            raise TreeError(f"{path}: {exc}") from exc
        if obj is None:
            return Node(name, MISSING)
        return self._node(name, obj)

    @staticmethod
    def _node(name: str, obj) -> Node:
        mode = obj.mode
        if obj.type == "tree":
            return Node(name, DIR)
        if obj.type != "blob":
            return Node(name, SPECIAL)
        if mode & 0o170000 == 0o120000:
            return Node(name, SYMLINK)
        return Node(name, FILE, obj.size, bool(mode & 0o111))

    def list(self, path: str) -> list[Node]:
        try:
            obj = self._object(path)
            if obj is None or obj.type != "tree":
                raise TreeError(f"{path or '.'}: not a directory at {self.label}")
            nodes = [self._node(o.name, o) for o in obj]
        except TreeError:
            raise
        except Exception as exc:
            raise TreeError(f"{path}: {exc}") from exc
        return sorted(nodes, key=lambda n: n.name.encode("utf-8", "surrogateescape"))

    def blob_id(self, path: str) -> str | None:
        obj = self._object(path)
        return obj.hexsha if obj is not None and obj.type == "blob" else None

    def read(self, path: str, limit: int) -> bytes:
        try:
            obj = self._object(path)
        except Exception as exc:
            raise TreeError(f"{path}: {exc}") from exc
        if obj is None or obj.type != "blob" or obj.mode & 0o170000 == 0o120000:
            raise TreeError(f"{path}: no file at {self.label}")
        try:
            if obj.size > limit:
                raise TooLarge(path, obj.size, limit)
            return obj.data_stream.read()
        except TooLarge:
            raise
        except Exception as exc:
            raise TreeError(f"{path}: the object database did not answer ({exc.__class__.__name__})") from exc
