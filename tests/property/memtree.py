"""An in-memory `Tree` (tools/judgment_exchange/tree.py's protocol) for the property tests.

Files are bytes with a run bit; a path may also be given a node kind of its own (symlink, special)
or be marked unreadable, so a test can stand in for what a checkout can hold without touching disk.
Directories are implied by the paths under them, as in a git tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from judgment_exchange.tree import DIR, FILE, MISSING, Node, TooLarge, TreeError


def _order(name: str) -> bytes:
    return name.encode("utf-8", "surrogateescape")


@dataclass
class MemoryTree:
    """`files`: path -> (bytes, executable); `kinds`: path -> a node kind other than file or directory;
    `unreadable`: paths whose read fails as an I/O failure would (TreeError); `sizes`: a size claimed
    for a file over a bound (stat gives it, a read within a bound that admits it gets that many bytes),
    so a huge file costs no memory unless a reader would really read it."""

    files: dict[str, tuple[bytes, bool]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    unreadable: set[str] = field(default_factory=set)
    sizes: dict[str, int] = field(default_factory=dict)
    label: str = "memory"
    repository: str | None = None

    @staticmethod
    def _clean(path: str) -> str:
        parts = [p for p in path.split("/") if p]
        if any(p in (".", "..") for p in parts):
            raise TreeError(f"{path}: a path may not name '.' or '..'")
        return "/".join(parts)

    def _is_dir(self, path: str) -> bool:
        if not path:
            return True
        prefix = path + "/"
        return any(p.startswith(prefix) for p in self.files) or any(p.startswith(prefix) for p in self.kinds)

    def stat(self, path: str) -> Node:
        path = self._clean(path)
        name = path.rsplit("/", 1)[-1]
        if path in self.kinds:
            return Node(name, self.kinds[path])
        if path in self.files:
            data, executable = self.files[path]
            return Node(name, FILE, self.sizes.get(path, len(data)), executable)
        if self._is_dir(path):
            return Node(name, DIR)
        return Node(name, MISSING)

    def list(self, path: str) -> list[Node]:
        path = self._clean(path)
        if path in self.files or path in self.kinds or not self._is_dir(path):
            raise TreeError(f"{path or '.'}: not a directory")
        prefix = path + "/" if path else ""
        names = {p[len(prefix):].split("/", 1)[0] for p in (*self.files, *self.kinds) if p.startswith(prefix)}
        nodes = [self.stat(prefix + name) for name in names]
        return sorted(nodes, key=lambda n: _order(n.name))

    def read(self, path: str, limit: int) -> bytes:
        path = self._clean(path)
        if path in self.unreadable:
            raise TreeError(f"{path}: Input/output error")
        if path in self.kinds or path not in self.files:
            raise TreeError(f"{path}: not a regular file")
        data = self.files[path][0]
        size = self.sizes.get(path, len(data))
        if size > limit:
            raise TooLarge(path, size, limit)
        return data if size == len(data) else b" " * size

    def copy(self) -> "MemoryTree":
        return MemoryTree(dict(self.files), dict(self.kinds), set(self.unreadable), dict(self.sizes), self.label,
                          self.repository)


def load(root, prefix: str = "") -> MemoryTree:
    """Every regular file under a directory on disk, with its run bit, under `prefix`."""
    import os
    import stat as _stat
    from pathlib import Path

    tree = MemoryTree()
    root = Path(root)
    for path in sorted(root.rglob("*")):
        st = os.lstat(path)
        if _stat.S_ISREG(st.st_mode):
            rel = path.relative_to(root).as_posix()
            tree.files[f"{prefix}/{rel}" if prefix else rel] = (path.read_bytes(), bool(st.st_mode & 0o111))
    return tree


__all__ = ["MemoryTree", "load", "DIR", "FILE", "MISSING"]
