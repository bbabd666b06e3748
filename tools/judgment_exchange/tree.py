"""One way to read a catalog: a working tree or the blobs of one git commit (docs/architecture.md).

Every check reads files through `Tree`: list a directory, learn what a path is, read a file's bytes
within a bound. The bound is checked on the size before any byte is read, so a file over its bound
is refused without being read whole. `GitTree` reads blobs through GitPython's object database (one
`git cat-file` process for the whole walk), never a checkout, so no line ending is converted
(RFC 0019 §7).
"""

from __future__ import annotations

import builtins
import errno
import os
import re
import stat as _stat
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, cast

from .gitfail import reason

FILE = "file"
DIR = "directory"
SYMLINK = "symlink"
SPECIAL = "special"
MISSING = "missing"

_KIND_TEXT = {FILE: "a regular file", DIR: "a directory", SYMLINK: "a symlink", MISSING: "missing",
              SPECIAL: "a special file (a FIFO, socket or device; in a commit, a submodule)"}


def id_order(name: str) -> bytes:
    """The sort key of RFC 0019's byte order: an id's (or a name's) UTF-8 bytes, a name read from a path that is
    not UTF-8 keeping its own bytes (surrogateescape). The one spelling of the order (issue #37 item 2): entries,
    manifest rows, a tree's names, a lock's and a report's ids are all sorted by it."""
    return name.encode("utf-8", "surrogateescape")


def kind_text(kind: str) -> str:
    """A node's kind in words, for a detail: `releases.json is a directory, not a regular file`."""
    return _KIND_TEXT.get(kind, kind)


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
        return sorted(nodes, key=lambda n: id_order(n.name))

    def kinds(self, path: str) -> builtins.list[tuple[str, str]]:
        """(name, kind) of each entry of a directory, in `list`'s order, kinds as `list` gives them, taken
        from the directory listing itself where the file system records them (no stat per entry)."""
        full = _join(self.root, path)
        try:
            with os.scandir(full) as it:
                found = [(e.name, _kind(e)) for e in it]
        except OSError as exc:
            raise TreeError(f"{path or '.'}: {exc.strerror}") from exc
        return sorted(found, key=lambda pair: id_order(pair[0]))

    def read(self, path: str, limit: int) -> bytes:
        full = _join(self.root, path)
        try:
            fd = open_regular(full)  # never blocks: a FIFO here is refused, not waited on (issue #11 item 4)
        except NotRegular as exc:
            raise TreeError(
                f"{path}: not a regular file (a FIFO, device, socket or directory); nothing was read"
            ) from exc
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


def _kind(entry: os.DirEntry[str]) -> str:
    """What `_node` would say of a directory entry's kind, from its recorded type (lstat if none)."""
    if entry.is_symlink():
        return SYMLINK
    if entry.is_dir(follow_symlinks=False):
        return DIR
    if entry.is_file(follow_symlinks=False):
        return FILE
    return SPECIAL


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


_UNREAD = object()
_PREFETCH_BATCH = 256  # requests written at once: 41 bytes each, 10.5 KB, within the smallest pipe buffer a
# supported system starts with (16 KiB on macOS; 64 KiB on Linux), so writing them never waits on git
_PREFETCH_MAX = 1 << 20  # a prefetched object over this keeps only its type and size


class ObjectStore:
    """Objects of one repository read through one `cat-file --batch` process, trees and tags kept.

    `prefetch(ids)` asks that process for many objects at once (each request written before its
    answer is read, so one round trip serves a batch); what it read is handed, once, to the next
    read of that id, which applies the same bounds and type checks as a read of its own.

    `expect(ids)` streams (issue #20): a read of an expected object first asks for the next few, so
    git makes them while the caller works on this one, and their answers wait in the pipe (made larger
    where the system allows) rather than in memory. Answers are always read in the order asked: every
    other exchange, and every read through GitPython's own object database (which shares the process),
    first reads what is still owed (`_settle`), so no answer is ever read out of turn; `settle()` leaves
    nothing owed when the caller hands the repository to another reader.
    """

    def __init__(self, repo: Any) -> None:
        from collections import deque

        self._repo = repo
        self._odb = repo.odb
        self._trees: dict[str, dict[str, tuple[int, str]]] = {}
        self._headers: dict[str, tuple[str, bytes]] = {}
        self._fetched: dict[str, tuple[str, int, bytes | None]] = {}
        self._parents: dict[str, str | None] = {}
        self._roots: dict[str, str] = {}
        self._ahead: list[str] = []
        self._ahead_at: dict[str, int] = {}
        self._ahead_limit = _PREFETCH_MAX
        self._asked = 0  # how far into `_ahead` requests were written
        self._owed: deque[tuple[str, int]] = deque()  # requests written whose answers are unread
        self._owed_ids: set[str] = set()
        self._process: Any = None  # the process `_owed` was asked of
        self.blob_reads = 0

    def expect(self, ids: Iterable[str], limit: int = _PREFETCH_MAX, window: int = 8) -> None:
        """Say which large objects will be read, in order: a read of one of them asks for it, unless
        asked already, and for the ones after it up to `window` in all (a bounded read-ahead, so that
        large blobs, e.g. every release's manifest, are neither read one round trip each nor held all at
        once); their answers wait in the pipe, read when their objects are (issue #20)."""
        self._ahead = list(dict.fromkeys(ids))
        self._ahead_at = {hexsha: at for at, hexsha in enumerate(self._ahead)}
        self._ahead_limit, self._window = limit, max(1, window)
        self._asked = 0

    def prefetch(self, ids: Iterable[str], limit: int = _PREFETCH_MAX) -> None:
        """Read the objects `ids` names (40-hex ids; others, and ids already held, are left to their own
        read) through the store's one `cat-file --batch` process, a batch of requests per round trip.

        Only a speed-up: an object it could not read (missing, or any failure of the exchange) is simply
        not held, and its own read later meets the failure as it would have. Content over `limit` is
        drained and only its type and size kept. After a failed exchange the process is stopped, so the
        next read starts a fresh one and no answer is read out of turn.
        """
        wanted = [i for i in dict.fromkeys(ids) if isinstance(i, str) and len(i) == 40 and i not in self._fetched
                  and i not in self._trees and i not in self._headers and i not in self._owed_ids and _is_hex(i)]
        if wanted and not self._settle():
            return
        for start in range(0, len(wanted), _PREFETCH_BATCH):
            if not self._exchange(wanted[start:start + _PREFETCH_BATCH], limit):
                return

    def _exchange(self, ids: list[str], limit: int) -> bool:
        return self._ask(ids, limit) and self._receive(None)

    def _ask(self, ids: list[str], limit: int) -> bool:
        """Write requests for `ids` (answers owed, read by `_receive`); False after a failure."""
        try:
            cmd = self._repo.git._get_persistent_cmd("cat_file_all", "cat_file", batch=True)
            if cmd is not self._process:
                self._owed.clear()  # a new process owes nothing (the old one was stopped)
                self._owed_ids.clear()
                self._process = cmd
                _widen(cmd.stdout)
            cmd.stdin.write("".join(f"{i}\n" for i in ids).encode("ascii"))
            cmd.stdin.flush()
            self._owed.extend((i, limit) for i in ids)
            self._owed_ids.update(ids)
            return True
        except Exception:  # any failure: no answer may be left unread on the shared process
            self._stop()
            return False

    def _receive(self, until: str | None) -> bool:
        """Read the answers owed, in order, into what is held: all of them, or up to `until`'s."""
        try:
            stdout = self._process.stdout
            owed, owed_ids, fetched = self._owed, self._owed_ids, self._fetched
            while owed:
                hexsha, limit = owed.popleft()
                owed_ids.discard(hexsha)
                header = stdout.readline().split()
                if len(header) == 2 and header[0] == hexsha.encode() and header[1] == b"missing":
                    if hexsha == until:
                        break
                    continue
                if len(header) != 3 or header[0] != hexsha.encode() or not header[2].isdigit():
                    raise TreeError(f"an unexpected answer to the request for {hexsha}")
                kind, size = header[1].decode("ascii"), int(header[2])
                data: bytes | None
                if size > limit:
                    left = size
                    while left:
                        chunk = stdout.read(min(left, _CHUNK))
                        if not chunk:
                            raise TreeError(f"object {hexsha} ended early")
                        left -= len(chunk)
                    data = None
                else:
                    data = stdout.read(size)
                    if len(data) != size:
                        raise TreeError(f"object {hexsha} ended early")
                if stdout.read(1) != b"\n":
                    raise TreeError(f"object {hexsha} is not followed by a line feed")
                fetched[hexsha] = (kind, size, data)
                if hexsha == until:
                    break
            return True
        except Exception:  # any failure: no answer may be left unread on the shared process
            self._stop()
            return False

    def settle(self) -> None:
        """Read every answer still owed into what is held: afterwards the shared process owes nothing, so
        any other reader of the repository's object database, another store on the same handle
        included, reads in step (issue #20)."""
        self._settle()

    def _settle(self) -> bool:
        """Read every answer still owed (before any other exchange on the shared process)."""
        return not self._owed or self._receive(None)

    def _stop(self) -> None:
        """Stop the shared process after a failed exchange, so the next read starts a fresh one."""
        self._owed.clear()
        self._owed_ids.clear()
        self._process = None
        try:
            self._repo.git.clear_cache()
        except Exception:  # noqa: BLE001 - the process is gone either way
            pass

    def _stream(self, hexsha: str) -> None:
        """An expected object not yet held: ask for it unless asked already, and for the expected ones
        after it up to `window` in all (those held or asked for are skipped), so that git makes them
        while the caller works on this one; then read the answers up to its own."""
        at = self._ahead_at[hexsha]
        wanted = [] if hexsha in self._owed_ids else [hexsha]
        start, end = max(self._asked, at + 1), min(len(self._ahead), at + self._window)
        if start < end:
            wanted += [i for i in self._ahead[start:end] if i in self._ahead_at and i not in self._fetched
                       and i not in self._owed_ids and i not in self._trees and i not in self._headers]
            self._asked = end
        if wanted and not self._ask(wanted, self._ahead_limit):
            return
        if hexsha in self._owed_ids:
            self._receive(hexsha)

    def _read(self, hexsha: str, limit: int | None, path: str, kinds: tuple[str, ...] = ()) -> tuple[str, bytes]:
        """Type and bytes; content over `limit` raises TooLarge, content of a type outside `kinds` is skipped."""
        fetched = self._fetched.pop(hexsha, None)
        if fetched is None and hexsha in self._ahead_at:
            self._stream(hexsha)
            self._ahead_at.pop(hexsha, None)
            fetched = self._fetched.pop(hexsha, None)
        elif fetched is None and hexsha in self._owed_ids:
            self._receive(hexsha)
            fetched = self._fetched.pop(hexsha, None)
        if fetched is not None:
            self._ahead_at.pop(hexsha, None)
            kind, size, data = fetched
            if limit is not None and size > limit:
                raise TooLarge(path, size, limit)
            if kinds and kind not in kinds:
                return kind, b""
            if data is not None:
                return kind, data
        self._settle()  # GitPython's object database reads through the same process
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
            raise TooLarge(path, ostream.size, cast(int, limit))
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

    def tag_targets(self, ids: Iterable[str]) -> list[str]:
        """The objects the annotated tags among `ids` name (a prefetch hint: failures are left to peel)."""
        targets = []
        for hexsha in ids:
            try:
                kind, data = self.object_type(hexsha)
                if kind == "tag":
                    targets.append(_header(data, b"object ", hexsha))
            except TreeError:
                continue
        return targets

    def first_parent(self, commit: str) -> str | None:
        """A commit's first parent, or None for a root commit (git writes parents after the tree line);
        kept by commit id, as the commit's bytes are."""
        found = self._parents.get(commit, _UNREAD)
        if found is _UNREAD:
            kind, data = self.object_type(commit)
            if kind != "commit":
                raise TreeError(f"{commit} is a {kind}, not a commit")
            if b"\nparent " not in data.split(b"\n\n", 1)[0]:
                found = None
            else:
                found = _header(data, b"parent ", commit)
            self._parents[commit] = found
        return cast("str | None", found)

    def root_tree(self, commit: str) -> str:
        """The tree a commit records (kept by commit id)."""
        found = self._roots.get(commit)
        if found is None:
            kind, data = self.object_type(commit)
            if kind != "commit":
                raise TreeError(f"{commit} is a {kind}, not a commit")
            found = self._roots[commit] = _header(data, b"tree ", commit)
        return found

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
        """A blob's size (`stat` only): from the store's one process (issue #20), its content kept for the
        read that usually follows when it is small; else, and for what that cannot read, from its header
        through GitPython (a second process), which says why it cannot be read."""
        fetched = self._fetched.get(hexsha)
        if fetched is None and isinstance(hexsha, str) and hexsha not in self._trees and hexsha not in self._headers:
            self.prefetch([hexsha], _SIZE_KEEP)
            fetched = self._fetched.get(hexsha)
        if fetched is not None:
            return fetched[1]
        try:
            return cast(int, self._odb.info(bytes.fromhex(hexsha)).size)
        except Exception as exc:  # GitPython raises ValueError, BadObject or GitCommandError
            raise TreeError(f"object {hexsha} cannot be read ({reason(exc)})") from exc


def _widen(stdout: Any) -> None:
    """Let the process's answers wait in a pipe of a mebibyte, where the system allows it (Linux's
    F_SETPIPE_SZ, within its unprivileged limit): git can then make the next few large objects while
    the reader works. Elsewhere, or refused, the pipe keeps its size and only the overlap is lost."""
    try:
        import fcntl

        fcntl.fcntl(stdout.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), _PIPE_BYTES)
    except Exception:  # noqa: BLE001 - no fcntl, not a pipe, or over the user's pipe limit: keep the size
        pass


_PIPE_BYTES = 1 << 20
_SIZE_KEEP = 1 << 16  # a blob whose size `stat` asks for is kept, for its read, up to this size


_MODES = frozenset({0o040000, 0o100644, 0o100664, 0o100755, 0o120000, 0o160000})  # 100664: early git
_GITLINK = 0o160000


def _is_hex(text: str) -> bool:
    return not text.strip("0123456789abcdef")


_TREE_ENTRY = re.compile(rb"(40000|100644|100664|100755|120000|160000) ([^\0/]+)\0(.{20})", re.S)
_MODE_OF = {b"40000": 0o40000, b"100644": 0o100644, b"100664": 0o100664, b"100755": 0o100755,
            b"120000": 0o120000, b"160000": 0o160000}


def _entries(data: bytes) -> dict[str, tuple[int, str]]:
    """A tree object's entries (`_entries_exact`), read in C when the tree is plainly well formed
    (issue #12; issue #20: every match at once, then each field of every entry mapped in C): the
    matches cover the whole object exactly when their lengths add up to its length, as matches do not
    overlap. Anything else — a gap, a mode written another way, a name `.`, `..` or listed twice — is
    read by `_entries_exact`, which says what is wrong."""
    found = _TREE_ENTRY.findall(data)
    if not found:
        return {} if not data else _entries_exact(data)
    modes, raw_names, oids = zip(*found, strict=False)
    if (sum(map(len, modes)) + sum(map(len, raw_names)) + 22 * len(found) != len(data)
            or b"." in raw_names or b".." in raw_names):
        return _entries_exact(data)
    names = [name.decode("utf-8", "surrogateescape") for name in raw_names]
    entries = dict(zip(names, zip(map(_MODE_OF.__getitem__, modes), map(bytes.hex, oids), strict=False), strict=False))
    return entries if len(entries) == len(found) else _entries_exact(data)


def _entries_exact(data: bytes) -> dict[str, tuple[int, str]]:
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

    own: bool = False
    """True only for a commit of the catalog's own repository whose verifier pin may run (GitTree(own=True)):
    the maintainer's committed HEAD that `exchange release` checks, and a pull request's base whose pin
    replays the change (docs/verifier-pin.md, "Which reader replays"; docs/trust.md). A release read from
    git by a consumer is never `own`."""

    def __init__(self, store: ObjectStore, commit: str, label: str) -> None:
        self.store = store
        self.commit = commit
        self.root = store.root_tree(commit)
        self.label = label

    def _entry(self, path: str) -> tuple[int, str] | None:
        entry: tuple[int, str] = (_TREE_MODE, self.root)
        for part in path.split("/"):
            if not part:
                continue
            if entry[0] == _GITLINK:
                raise TreeError(f"{path}: a submodule (gitlink) where a directory should be, at {self.label}")
            if entry[0] & _TYPE_MASK != _TREE_MODE:
                return None
            found = self.store.tree(entry[1], path).get(part)
            if found is None:
                return None
            entry = found
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
        return sorted(nodes, key=lambda n: id_order(n.name))

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


def _named_commit(store: ObjectStore, rev: object) -> str | None:
    """The commit a full lowercase hex id names, its annotated tags followed (what GitPython's
    `repo.commit(rev)` gives for one), read through the store's own process (issue #20: no second
    process for the lookup); None for any other revision, or one that names no commit: GitPython then
    resolves it, and says why it cannot."""
    if not isinstance(rev, str) or len(rev) != 40 or not _is_hex(rev):
        return None
    try:
        kind, commit = store.peel(rev)
    except TreeError:
        return None
    return commit if kind == "commit" else None


class GitTree(ReleaseTree):
    """The tree of one revision of a repository, read as blobs through its object database (§7)."""

    def __init__(self, repo: Any, rev: str, *, own: bool = False) -> None:
        import git  # GitPython

        store = None
        try:
            self.repo = repo if isinstance(repo, git.Repo) else git.Repo(repo)
            store = ObjectStore(self.repo)
            commit = _named_commit(store, rev) or self.repo.commit(rev).hexsha
        except Exception as exc:  # GitPython raises several types for a bad repository or revision
            raise TreeError(f"{rev}: not a commit of {repo} ({reason(exc)})") from exc
        super().__init__(store, commit, f"{rev}@{commit[:12]}")
        self.repository = str(self.repo.git_dir if self.repo.bare else self.repo.working_tree_dir)
        self.own = own
