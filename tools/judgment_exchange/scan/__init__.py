"""Scans of every file of an entry (RFC 0019 §§4, 6, 7): credentials, tokens, keys, local paths, code, README links.

`scan_entry` reads every file under an entry's directory through a `Tree`, each within the bound its
name has (`file_bound`), scans the name of every directory and file of the entry and the entry's own
path, and returns refusals, never raising on what a file holds. `scan_manifest` scans the
repository's manifest.json. A report names the file, the line and the shape, never the value; a
name that holds a shape is described by its position and length, and a refusal below it names the
nearest directory whose name is clean. The scan's silence establishes nothing: credentials and
personal data in every file remain a maintainer's to refuse before merge (RFC 0019 §§3, 4).
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from ..codes.scan import CODES
from ..codes.shapes import (
    CODE_BINARY,
    CODE_EXECUTABLE,
    CODE_FILE,
    CODE_SCRIPT,
    SCAN_FILE_OVER_BOUND,
    SCAN_FILE_UNREADABLE,
    SCAN_FINDINGS_TRUNCATED,
    SHAPES,
)
from ..refusal import Refusal
from ..tree import DIR, FILE, TooLarge, Tree, TreeError, id_order
from .files import is_binary, is_script, name_says_code

__all__ = [
    "scan_entry", "scan_file", "scan_manifest", "file_bound", "CODES", "SHAPES", "FILE_LIMIT", "BOUNDS",
    "OTHER_FILE_BOUND", "ENTRY_BUDGET", "MANIFEST", "MANIFEST_BOUND", "MAX_PER_FILE",
]

KIB = 1024
MIB = 1024 * KIB

BOUNDS: tuple[tuple[str, int], ...] = (
    ("entry.json", 64 * KIB),
    ("README.md", 64 * KIB),
    ("dialect.json", 131_072),
    ("output.json", 131_072),
    ("fixtures/*/profiles.json", 65_536),
    ("fixtures/*/binding.json", 65_536),
    ("fixtures/*/case.json", 2_097_152),
    ("fixtures/*/sources.json", 2_097_152),
    ("fixtures/*/preparation.json", 8_388_608),
)
"""Each file the format names (path relative to the entry) and the most of it the scan reads: RFC 0019 §3
(entry.json and README.md 64 KiB; dialect.json 131,072) and dialect §12 (the profiles and a binding
document 65,536 each; the dialect, the case and the acquisitions together 2,097,152, so neither case.json
nor sources.json alone is more; the preparation 8,388,608). output.json has dialect.json's bound."""

OTHER_FILE_BOUND = 64 * KIB
"""Any other file (one the format does not name, refused by the directory check as well): §3's smallest
file bound. Such a file is scanned up to it, since a stray file is where a credential is likeliest, and
refused unread over it."""

FILE_LIMIT = max(bound for _, bound in BOUNDS)
"""The largest file the scan reads (the preparation's bound)."""

ENTRY_BUDGET = 64 * MIB
"""The most the scan reads of one entry, summed over its files (four fixture directories at §3's 16 MiB);
the files past it are refused as scan-incomplete, never passed."""

MANIFEST = "manifest.json"
MANIFEST_BOUND = MIB
"""manifest.json is at most 1 MiB (RFC 0019 §3, manifest form)."""

MAX_PER_FILE = 50
"""Findings shown for one file; more are summarised by scan-findings-truncated."""


def file_bound(relpath: str) -> int:
    """The scan's read bound for a file at `relpath` inside the entry (BOUNDS, else OTHER_FILE_BOUND).

    BOUNDS' patterns are names at the entry's root and `fixtures/*/<name>`: a path is looked up by its
    parts (`_file_bound_by_pattern` is the pattern-by-pattern reading; tests/scan/test_scan_text_fast.py)."""
    if _BY_NAME is None:
        return _file_bound_by_pattern(relpath)
    parts = relpath.split("/")
    if len(parts) == 1:
        return _BY_NAME[0].get(relpath, OTHER_FILE_BOUND)
    if len(parts) == 3 and parts[0] == "fixtures":
        return _BY_NAME[1].get(parts[2], OTHER_FILE_BOUND)
    return OTHER_FILE_BOUND


def _file_bound_by_pattern(relpath: str) -> int:
    depth = relpath.count("/")
    for pattern, bound in BOUNDS:
        if pattern.count("/") == depth and fnmatchcase(relpath, pattern):
            return bound
    return OTHER_FILE_BOUND


def _by_name() -> tuple[dict[str, int], dict[str, int]] | None:
    """BOUNDS as (root name → bound, fixture file name → bound), when every pattern is a plain name or
    `fixtures/*/` and a plain name (the first pattern of a name wins, as in the loop); else None."""
    root: dict[str, int] = {}
    fixture: dict[str, int] = {}
    for pattern, bound in BOUNDS:
        parts = pattern.split("/")
        if any(c in part for part in parts for c in "*?[]") and not (len(parts) == 3 and parts[1] == "*"):
            return None
        if len(parts) == 1:
            root.setdefault(pattern, bound)
        elif len(parts) == 3 and parts[0] == "fixtures" and parts[1] == "*" and not any(c in parts[2] for c in "*?[]"):
            fixture.setdefault(parts[2], bound)
        else:
            return None
    return root, fixture


_BY_NAME = _by_name()


def scan_entry(tree: Tree, entry_path: str, entry_id: str | None = None) -> list[Refusal]:
    """Every file and every name under `entry_path`, and the entry's own path (RFC 0019 §4)."""
    root = entry_path.strip("/")
    own = [(p, DIR) for p in _own_names(root)]
    try:
        files, others = _walk(tree, root)
    except TreeError:
        files, others = [], []
        listed = False
    else:
        listed = True
    names = own + [(p, kind) for p, kind in others if p != root] + [(p, FILE) for p, _ in files]
    from .file_scan import INCOMPLETE, scan_names  # the scan's engine, loaded when an entry is scanned

    flagged = scan_names(names)
    if any(not _below(root, p) for p in flagged):
        entry_id = None  # the entry's own path holds a shape: its id is not repeated in a report
    refusals: list[Refusal] = [
        _refusal(code, _parent(path), words, entry_id) for path, found in sorted(flagged.items())
        for code, words in found
    ]
    if not listed:
        refusals.append(_refusal(SCAN_FILE_UNREADABLE, root, "the entry's directory could not be listed", entry_id))
    spent = 0
    for index, (path, node_executable) in enumerate(files):
        if spent >= ENTRY_BUDGET:
            left = len(files) - index
            refusals.append(_refusal(INCOMPLETE, root, f"the scan's budget of {ENTRY_BUDGET} bytes for one entry is "
                                     f"spent; {left} more file{'s' if left != 1 else ''} not scanned", entry_id))
            break
        found, read = _scan_file(tree, root, path, node_executable, entry_id)
        refusals.extend(found)
        spent += read
    return _hidden(refusals, root, flagged)


def scan_file(tree: Tree, root: str, path: str, executable: bool, entry_id: str | None = None) -> list[Refusal]:
    """The refusals of one file of the entry rooted at `root`; `path` is repository-relative."""
    return _scan_file(tree, root, path, executable, entry_id)[0]


def scan_manifest(tree: Tree) -> list[Refusal]:
    """manifest.json at the repository's root, scanned as any file is, within its 1 MiB bound (RFC 0019 §3)."""
    try:
        node = tree.stat(MANIFEST)
    except TreeError:
        return [_refusal(SCAN_FILE_UNREADABLE, MANIFEST, "the manifest could not be read", None)]
    if node.kind != FILE:
        return []  # absent, or not a regular file: the manifest check refuses it, and nothing is opened
    return _scan_file(tree, "", MANIFEST, node.executable, None, MANIFEST_BOUND)[0]


def _walk(tree: Tree, root: str) -> tuple[list[tuple[str, bool]], list[tuple[str, str]]]:
    """Every regular file under `root`, and every other path under it (directories, with `root` itself,
    symlinks, special files) with its kind, in byte order of path.

    Symlinks and special files are the directory check's: their names are scanned, they are never opened."""
    files: list[tuple[str, bool]] = []
    others: list[tuple[str, str]] = []
    pending = [root]
    while pending:
        directory = pending.pop()
        others.append((directory, DIR))
        for node in tree.list(directory):
            path = f"{directory}/{node.name}" if directory else node.name
            if node.kind == DIR:
                pending.append(path)
            elif node.kind == FILE:
                files.append((path, node.executable))
            else:
                others.append((path, node.kind))
    return sorted(files, key=lambda item: id_order(item[0])), sorted(others, key=lambda item: id_order(item[0]))


def _own_names(root: str) -> list[str]:
    """The entry's own path, component by component (entries/<publisher>/<name>: the publisher and the name)."""
    parts = root.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts)) if not (i == 0 and parts[0] == "entries")]


def _below(root: str, path: str) -> bool:
    return path.startswith(root + "/")


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else "."


def _hidden(refusals: list[Refusal], root: str, flagged: dict[str, list[tuple[str, str]]]) -> list[Refusal]:
    """Refusals whose path passes through a name that holds a shape name the nearest clean directory instead."""
    if not flagged:
        return refusals
    out = []
    for r in refusals:
        path = r.path or ""
        first = next((p for p in sorted(flagged, key=len) if path == p or path.startswith(p + "/")), None)
        if first is None:
            out.append(r)
        else:
            out.append(Refusal(r.code, _parent(first), "in a file or directory below a name the scan refused (its "
                                                       "path "
                                                        f"is not shown): {r.detail}", r.entry))
    return out


def _scan_file(
    tree: Tree, root: str, path: str, executable: bool, entry_id: str | None, bound: int | None = None
) -> tuple[list[Refusal], int]:
    """The refusals of one file, and how many bytes of it were read (the file is read within its bound)."""
    name = path.rsplit("/", 1)[-1]
    relpath = path[len(root) + 1 :] if root else path
    limit = bound if bound is not None else file_bound(relpath)
    out: list[Refusal] = []
    if executable:
        out.append(_refusal(CODE_EXECUTABLE, path, "the file's mode has a run bit", entry_id))
    if name_says_code(name):
        out.append(
            _refusal(CODE_FILE, path, "the file's name says code, a package, an archive or an image", entry_id)
        )
    try:
        data = tree.read(path, limit)
    except TooLarge as exc:
        out.append(_refusal(SCAN_FILE_OVER_BOUND, path, f"{exc.size} bytes, over the scan's bound of {limit} bytes "
                                                          "for this file; not read", entry_id))
        return out, 0
    except TreeError as exc:
        reason = str(exc).removeprefix(f"{path}: ")  # the path is the refusal's, and may be hidden (_hidden)
        out.append(_refusal(SCAN_FILE_UNREADABLE, path, reason, entry_id))
        return out, 0
    if is_binary(data):
        out.append(
            _refusal(CODE_BINARY, path, "a NUL byte or bytes that are not UTF-8; not scanned further", entry_id)
        )
        return out, len(data)
    if is_script(data):
        out.append(_refusal(CODE_SCRIPT, path, "line 1: a #! line", entry_id))
    text = data.decode("utf-8")

    def exists(parts: list[str]) -> bool:
        target = "/".join(([root] if root else []) + parts)
        try:
            return tree.stat(target).kind in (FILE, DIR)
        except TreeError:
            return False

    if inert(text):
        findings = []  # nothing any shape could match (`inert`): the engine is not loaded for it
    else:
        from .file_scan import scan_text  # the scan's engine (detect-secrets), loaded when a text needs it

        findings = scan_text(relpath, text, exists)
    for line, code, what in findings[:MAX_PER_FILE]:
        out.append(_refusal(code, path, f"line {line}: {what}", entry_id, line))
    if len(findings) > MAX_PER_FILE:
        out.append(
            _refusal(
                SCAN_FINDINGS_TRUNCATED, path, f"{len(findings) - MAX_PER_FILE} more findings not shown", entry_id
            )
        )
    return out, len(data)


INERT = frozenset(" \t\r\n[]{},:")
"""JSON's punctuation and whitespace: a text of these characters alone holds no letter, digit, quote, slash,
`#`, `@`, `.`, `=` or `-`, so no credential shape, local path, link, script line or name a finding needs
(tests/scan/test_scan_inert.py holds `scan_text` to finding nothing in such texts)."""


def inert(text: str) -> bool:
    """Whether the text holds only INERT characters (an empty manifest `[]`; issue #20: such a text is not
    given to the engine, whose import is most of an empty catalog's check)."""
    return len(text) <= _INERT_MAX and not text.strip(_INERT_CHARACTERS)


_INERT_CHARACTERS = "".join(sorted(INERT))
_INERT_MAX = 4096  # a longer text is scanned whatever it holds: the short cut is for the smallest files


def _refusal(code: str, path: str, what: str, entry_id: str | None, line: int | None = None) -> Refusal:
    """A scan refusal: what was found where, never the value. Its fix is the code's (codes/shapes.py's hint, through
    the registry: `Refusal.how_to_fix`), printed once under the refusal, never repeated in the detail (issue #26
    item 5)."""
    return Refusal(code, path, what, entry_id, line=line)
