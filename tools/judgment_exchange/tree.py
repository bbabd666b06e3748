"""One way to read a catalog: a working tree or the blobs of one git commit (docs/architecture.md).

Every check reads files through `Tree`: list a directory, learn what a path is, read a file's bytes
within a bound. The bound is checked on the size before any byte is read, so a file over its bound
is refused without being read whole. `GitTree` reads blobs through GitPython's object database (one
`git cat-file` process for the whole walk), never a checkout, so no line ending is converted
(RFC 0019 §7).
"""

from __future__ import annotations

from .gitfail import reason
import errno
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


class NotRegular(OSError):
    """A path that is not a regular file (a FIFO, a device, a socket, a directory): nothing was read."""

    def __init__(self, path: str) -> None:
        super().__init__(errno.EINVAL, "not a regular file; nothing was read", path)


def open_regular(path: str, follow: bool = False) -> int:
    """A descriptor open for reading on the regular file at `path`, or NotRegular / OSError.

    The path is opened without blocking (O_NONBLOCK: a FIFO with no writer opens at once instead of
    waiting for one forever) and, unless `follow`, without following a final symlink (O_NOFOLLOW);
    what it is is then decided on the opened descriptor (fstat), so no rename between a check and the
    open can substitute another kind of file. A regular file ignores O_NONBLOCK; it is cleared anyway.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        if not _stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegular(path)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: str, limit: int | None = None, follow: bool = False) -> bytes:
    """The bytes of the regular file at `path` (open_regular), at most `limit` + 1 of them when a
    limit is given so that a caller can tell a file over its bound; OSError / NotRegular otherwise."""
    fd = open_regular(path, follow)
    with os.fdopen(fd, "rb") as fh:
        return fh.read() if limit is None else fh.read(limit + 1)


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
        self.repository = self.root

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
            fd = open_regular(full)  # never blocks: a FIFO here is refused, not waited on (issue #11 item 4)
        except NotRegular as exc:
            raise TreeError(f"{path}: not a regular file (a FIFO, device, socket or directory); nothing was read") from exc
        except OSError as exc:
            raise TreeError(f"{path}: {exc.strerror}") from exc
        try:
            st = os.fstat(fd)
            if st.st_size > limit:
                raise TooLarge(path, st.st_size, limit)
            with os.fdopen(fd, "rb", closefd=False) as fh:
                data = fh.read(min(st.st_size, limit) + 1)  # a file that grew since fstat is caught below
        except OSError as exc:
            raise TreeError(f"{path}: {exc.strerror}") from exc
        finally:
            os.close(fd)
        if len(data) > limit:
            raise TooLarge(path, len(data), limit)
        return data


class ReadOnce:
    """A Tree that keeps the bytes it has read, so that the checks of one entry read each file once.

    The gate scopes one to an entry and drops it after; bounds still hold on every read.
    """

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.label = tree.label
        self.repository = getattr(tree, "repository", None)
        self._bytes: dict[str, bytes] = {}

    def stat(self, path: str) -> Node:
        return self.tree.stat(path)

    def list(self, path: str) -> list[Node]:
        return self.tree.list(path)

    def read(self, path: str, limit: int) -> bytes:
        data = self._bytes.get(path)
        if data is None:
            data = self._bytes[path] = self.tree.read(path, limit)
        elif len(data) > limit:
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


_CHUNK = 1 << 16
_LINK = 0o120000
_TYPE_MASK = 0o170000
_TREE_MODE = 0o040000


class ObjectStore:
    """Objects of one repository read through one `cat-file --batch` process, trees and tags kept."""

    def __init__(self, repo) -> None:
        self._odb = repo.odb
        self._trees: dict[str, dict[str, tuple[int, str]]] = {}
        self._headers: dict[str, tuple[str, bytes]] = {}
        self.blob_reads = 0

    def _read(self, hexsha: str, limit: int | None, path: str, kinds: tuple[str, ...] = ()) -> tuple[str, bytes]:
        """Type and bytes; content over `limit` raises TooLarge, content of a type outside `kinds` is skipped."""
        try:
            ostream = self._odb.stream(bytes.fromhex(hexsha))
            kind = ostream.type.decode("ascii") if isinstance(ostream.type, bytes) else str(ostream.type)
            over = limit is not None and ostream.size > limit
            if over or (kinds and kind not in kinds):
                while ostream.read(_CHUNK):
                    pass
                data = b""
            else:
                data = ostream.read()
        except Exception as exc:  # GitPython raises ValueError, BadObject, GitCommandError or OSError
            raise TreeError(f"{path}: object {hexsha} cannot be read ({reason(exc)})") from exc
        if over:
            raise TooLarge(path, ostream.size, limit)
        if kinds and kind not in kinds:
            return kind, b""
        if len(data) != ostream.size:
            raise TreeError(f"{path}: object {hexsha} ended after {len(data)} of {ostream.size} bytes")
        return kind, data

    def object_type(self, hexsha: str) -> tuple[str, bytes]:
        """A commit's or tag's type and bytes (kept); any other object's type, with empty bytes."""
        if hexsha not in self._headers:
            kind, data = self._read(hexsha, None, hexsha, ("commit", "tag"))
            self._headers[hexsha] = (kind, data)
        return self._headers[hexsha]

    def peel(self, hexsha: str) -> tuple[str, str]:
        """Follow annotated tags to the object they finally name: (type, id)."""
        seen: set[str] = set()
        kind, data = self.object_type(hexsha)
        while kind == "tag":
            if hexsha in seen:
                raise TreeError(f"tag object {hexsha} names itself")
            seen.add(hexsha)
            hexsha = _header(data, b"object ", hexsha)
            kind, data = self.object_type(hexsha)
        return kind, hexsha

    def first_parent(self, commit: str) -> str | None:
        """A commit's first parent, or None for a root commit (git writes parents after the tree line)."""
        kind, data = self.object_type(commit)
        if kind != "commit":
            raise TreeError(f"{commit} is a {kind}, not a commit")
        if b"\nparent " not in data.split(b"\n\n", 1)[0]:
            return None
        return _header(data, b"parent ", commit)

    def root_tree(self, commit: str) -> str:
        """The tree a commit records."""
        kind, data = self.object_type(commit)
        if kind != "commit":
            raise TreeError(f"{commit} is a {kind}, not a commit")
        return _header(data, b"tree ", commit)

    def tree(self, hexsha: str, path: str) -> dict[str, tuple[int, str]]:
        """A tree's entries, name to (mode, id), read once per tree id; `path` names it in errors."""
        entries = self._trees.get(hexsha)
        if entries is None:
            kind, data = self._read(hexsha, None, path)
            if kind != "tree":
                raise TreeError(f"{path or '.'}: object {hexsha} is a {kind}, not a tree")
            try:
                entries = self._trees[hexsha] = _entries(data)
            except (ValueError, TreeError) as exc:
                raise TreeError(f"{path or '.'}: tree object {hexsha} is malformed ({exc})") from exc
        return entries

    def blob(self, hexsha: str, limit: int, path: str) -> bytes:
        """A blob's exact bytes, refused as TooLarge before its content is kept when over `limit`."""
        self.blob_reads += 1
        kind, data = self._read(hexsha, limit, path)
        if kind != "blob":
            raise TreeError(f"{path}: object {hexsha} is a {kind}, not a blob")
        return data

    def size(self, hexsha: str) -> int:
        """A blob's size from its header alone (`stat` only; the walk never asks, so it starts no second process)."""
        try:
            return self._odb.info(bytes.fromhex(hexsha)).size
        except Exception as exc:  # GitPython raises ValueError, BadObject or GitCommandError
            raise TreeError(f"object {hexsha} cannot be read ({reason(exc)})") from exc


_MODES = frozenset({0o040000, 0o100644, 0o100664, 0o100755, 0o120000, 0o160000})  # 100664: early git
_GITLINK = 0o160000


def _entries(data: bytes) -> dict[str, tuple[int, str]]:
    """A tree object's entries: `<octal mode> <name>\\0<20-byte id>` repeated, read strictly.

    A name listed twice, an empty name or one holding '/', '.' or '..', or a mode git does not write is a
    malformed tree (TreeError): never "the last copy" (issue #10 item 3; `git fsck` flags each).
    """
    entries: dict[str, tuple[int, str]] = {}
    pos, end = 0, len(data)
    while pos < end:
        space = data.index(b" ", pos)
        nul = data.index(b"\0", space)
        if nul + 21 > end:
            raise TreeError("a tree object ends inside an entry")
        raw_mode, raw_name = data[pos:space], data[space + 1 : nul]
        if not raw_mode.isdigit() or int(raw_mode, 8) not in _MODES:
            raise TreeError(f"an entry at byte {pos} has a mode git does not write")
        if raw_name in (b"", b".", b"..") or b"/" in raw_name:
            raise TreeError(f"an entry at byte {pos} has an empty, '.', '..' or '/'-holding name")
        name = raw_name.decode("utf-8", "surrogateescape")
        if name in entries:
            raise TreeError(f"the tree lists one name twice (entry at byte {pos})")
        entries[name] = (int(raw_mode, 8), data[nul + 1 : nul + 21].hex())
        pos = nul + 21
    return entries


def _header(data: bytes, field: bytes, hexsha: str) -> str:
    for line in data.split(b"\n"):
        if not line:
            break
        if line.startswith(field):
            value = line[len(field):].decode("ascii", "replace")
            if len(value) == 40 and all(c in "0123456789abcdef" for c in value):
                return value
            break
    raise TreeError(f"object {hexsha} has no well-formed {field.decode().strip()} line")


class ReleaseTree:
    """The `Tree` of one commit (tree.py's protocol) over a shared `ObjectStore`."""

    def __init__(self, store: ObjectStore, commit: str, label: str) -> None:
        self.store = store
        self.commit = commit
        self.root = store.root_tree(commit)
        self.label = label

    def _entry(self, path: str) -> tuple[int, str] | None:
        entry: tuple[int, str] | None = (_TREE_MODE, self.root)
        for part in path.split("/"):
            if not part:
                continue
            if entry[0] == _GITLINK:
                raise TreeError(f"{path}: a submodule (gitlink) where a directory should be, at {self.label}")
            if entry[0] & _TYPE_MASK != _TREE_MODE:
                return None
            entry = self.store.tree(entry[1], path).get(part)
            if entry is None:
                return None
        return entry

    def stat(self, path: str) -> Node:
        name = path.rsplit("/", 1)[-1]
        entry = self._entry(path)
        if entry is None:
            return Node(name, MISSING)
        mode, hexsha = entry
        kind = mode & _TYPE_MASK
        if kind == _TREE_MODE:
            return Node(name, DIR)
        if kind == _LINK:
            return Node(name, SYMLINK)
        if kind != 0o100000:
            return Node(name, SPECIAL)
        return Node(name, FILE, self.store.size(hexsha), bool(mode & 0o111))

    def list(self, path: str) -> list[Node]:
        entry = self._entry(path)
        if entry is None or entry[0] & _TYPE_MASK != _TREE_MODE:
            raise TreeError(f"{path or '.'}: not a directory at {self.label}")
        names = self.store.tree(entry[1], path)
        prefix = f"{path.rstrip('/')}/" if path.strip("/") else ""
        nodes = [self.stat(prefix + name) for name in names]
        return sorted(nodes, key=lambda n: n.name.encode("utf-8", "surrogateescape"))

    def object_id(self, path: str) -> str | None:
        """The id of the object at `path` (a tree or a blob), or None when there is none."""
        entry = self._entry(path)
        return entry[1] if entry is not None else None

    def blob_id(self, path: str) -> str | None:
        """The id of the regular file at `path`, or None when there is none."""
        entry = self._entry(path)
        if entry is not None and entry[0] == _GITLINK:
            raise TreeError(f"{path}: a submodule (gitlink) where a file should be, at {self.label}")
        if entry is None or entry[0] & _TYPE_MASK != 0o100000:
            return None
        return entry[1]

    def read(self, path: str, limit: int) -> bytes:
        hexsha = self.blob_id(path)
        if hexsha is None:
            raise TreeError(f"{path}: no file at {self.label}")
        return self.store.blob(hexsha, limit, path)


class GitTree(ReleaseTree):
    """The tree of one revision of a repository, read as blobs through its object database (§7)."""

    def __init__(self, repo, rev: str) -> None:
        import git  # GitPython

        try:
            self.repo = repo if isinstance(repo, git.Repo) else git.Repo(repo)
            commit = self.repo.commit(rev).hexsha
        except Exception as exc:  # GitPython raises several types for a bad repository or revision
            raise TreeError(f"{rev}: not a commit of {repo} ({reason(exc)})") from exc
        super().__init__(ObjectStore(self.repo), commit, f"{rev}@{commit[:12]}")
        self.repository = str(self.repo.git_dir if self.repo.bare else self.repo.working_tree_dir)
