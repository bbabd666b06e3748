"""Scans of every file of an entry (RFC 0019 §§4, 6, 7): credentials, tokens, keys, local paths, code, README links.

`scan_entry` reads every file under an entry's directory through a `Tree` and returns refusals,
never raising on what a file holds. A report names the file, the line and the shape, never the
value. The scan's silence establishes nothing: credentials and personal data in every file remain
a maintainer's to refuse before merge (RFC 0019 §§3, 4).
"""

from __future__ import annotations

from ..refusal import Refusal
from ..tree import DIR, FILE, TooLarge, Tree, TreeError
from .codes import CODES
from .file_scan import scan_text
from .files import is_binary, is_script, name_says_code
from .shapes import SHAPES

__all__ = ["scan_entry", "scan_file", "CODES", "SHAPES", "FILE_LIMIT", "MAX_PER_FILE"]

FILE_LIMIT = 16 * 1024 * 1024
"""The per-file read bound: the largest a fixture directory may be (RFC 0019 §3)."""

MAX_PER_FILE = 50
"""Findings shown for one file; more are summarised by scan-findings-truncated."""


def scan_entry(tree: Tree, entry_path: str, entry_id: str | None = None) -> list[Refusal]:
    """Every file under `entry_path`: credentials, tokens, keys, local paths, code, README links (RFC 0019 §4)."""
    root = entry_path.strip("/")
    refusals: list[Refusal] = []
    try:
        files = _walk(tree, root)
    except TreeError as exc:
        return [_refusal("scan-file-unreadable", root, f"the entry's directory could not be listed ({exc})", entry_id)]
    for path, node_executable in files:
        refusals.extend(scan_file(tree, root, path, node_executable, entry_id))
    return refusals


def _walk(tree: Tree, root: str) -> list[tuple[str, bool]]:
    """Every regular file under `root`, in byte order of path; symlinks and special files are the directory check's."""
    out: list[tuple[str, bool]] = []
    pending = [root]
    while pending:
        directory = pending.pop()
        for node in tree.list(directory):
            path = f"{directory}/{node.name}" if directory else node.name
            if node.kind == DIR:
                pending.append(path)
            elif node.kind == FILE:
                out.append((path, node.executable))
    return sorted(out, key=lambda item: item[0].encode("utf-8", "surrogateescape"))


def scan_file(tree: Tree, root: str, path: str, executable: bool, entry_id: str | None = None) -> list[Refusal]:
    """The refusals of one file of the entry rooted at `root`; `path` is repository-relative."""
    name = path.rsplit("/", 1)[-1]
    relpath = path[len(root) + 1 :] if root else path
    out: list[Refusal] = []
    if executable:
        out.append(_refusal("code-executable", path, "the file's mode has a run bit", entry_id))
    if name_says_code(name):
        out.append(_refusal("code-file", path, "the file's name says code, a package, an archive or an image", entry_id))
    try:
        data = tree.read(path, FILE_LIMIT)
    except TooLarge as exc:
        out.append(_refusal("scan-file-over-bound", path, f"{exc.size} bytes, over {FILE_LIMIT}; not read", entry_id))
        return out
    except TreeError as exc:
        out.append(_refusal("scan-file-unreadable", path, str(exc), entry_id))
        return out
    if is_binary(data):
        out.append(_refusal("code-binary", path, "a NUL byte or bytes that are not UTF-8; not scanned further", entry_id))
        return out
    if is_script(data):
        out.append(_refusal("code-script", path, "line 1: a #! line", entry_id))
    text = data.decode("utf-8")

    def exists(parts: list[str]) -> bool:
        target = "/".join(([root] if root else []) + parts)
        try:
            return tree.stat(target).kind in (FILE, DIR)
        except TreeError:
            return False

    findings = scan_text(relpath, text, exists)
    for line, code, what in findings[:MAX_PER_FILE]:
        out.append(_refusal(code, path, f"line {line}: {what}", entry_id))
    if len(findings) > MAX_PER_FILE:
        out.append(
            _refusal("scan-findings-truncated", path, f"{len(findings) - MAX_PER_FILE} more findings not shown", entry_id)
        )
    return out


def _refusal(code: str, path: str, what: str, entry_id: str | None) -> Refusal:
    shape = SHAPES[code]
    return Refusal(code, path, f"{what}; fix: {shape.hint}", entry_id)
