"""Git objects read once, through one object-database process (RFC 0019 §7; issue 5, item 6).

`ObjectStore` reads every object through GitPython's persistent `git cat-file --batch` and keeps each
tree, commit and tag it parsed, keyed by object id, so a history walk over many releases resolves an
unchanged directory once. `ReleaseTree` is the `Tree` of one commit over a shared store: the history
walk reads through the same interface as every other check, byte for byte, with no checkout and no
line-ending conversion.
"""

from __future__ import annotations

from ..tree import DIR, FILE, MISSING, SPECIAL, SYMLINK, Node, TooLarge, TreeError

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
            raise TreeError(f"{path}: object {hexsha} cannot be read ({exc.__class__.__name__})") from exc
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
            raise TreeError(f"object {hexsha} cannot be read ({exc.__class__.__name__})") from exc


def _entries(data: bytes) -> dict[str, tuple[int, str]]:
    """A tree object's entries: `<octal mode> <name>\\0<20-byte id>` repeated."""
    entries: dict[str, tuple[int, str]] = {}
    pos, end = 0, len(data)
    while pos < end:
        space = data.index(b" ", pos)
        nul = data.index(b"\0", space)
        if nul + 21 > end:
            raise TreeError("a tree object ends inside an entry")
        name = data[space + 1 : nul].decode("utf-8", "surrogateescape")
        entries[name] = (int(data[pos:space], 8), data[nul + 1 : nul + 21].hex())
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

    def blob_id(self, path: str) -> str | None:
        """The id of the regular file at `path`, or None when there is none."""
        entry = self._entry(path)
        if entry is None or entry[0] & _TYPE_MASK != 0o100000:
            return None
        return entry[1]

    def read(self, path: str, limit: int) -> bytes:
        hexsha = self.blob_id(path)
        if hexsha is None:
            raise TreeError(f"{path}: no file at {self.label}")
        return self.store.blob(hexsha, limit, path)
