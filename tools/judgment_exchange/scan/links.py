"""README links: a relative link resolves inside the entry, to a file or directory that exists; no link names a local
path.

RFC 0019 §3 (README.md) and its Conformance section (a relative link that does not resolve). Links
are read from Markdown inline links and images, reference definitions, autolinks and HTML href/src
attributes, outside fenced code blocks and code spans.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator
from urllib.parse import unquote

from ..codes.shapes import README_LINK_LOCAL, README_LINK_MISSING, README_LINK_OUTSIDE
from .paths import find_local_paths

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_INLINE = re.compile(r"\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>\n]*>|\S+)")
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>")
_HTML = re.compile(r"""\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.I)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass(frozen=True)
class LinkFinding:
    """A link that is refused: its line, its code, and the shape's words (the target is not shown)."""

    line: int
    code: str
    what: str


_NEEDS: tuple[tuple[re.Pattern[str], str], ...] = ((_INLINE, "]("), (_REFERENCE, "]:"), (_AUTOLINK, "<"))
"""Each link pattern with a part every match of it holds: a line without that part is not searched for it."""


def links(text_lines: list[str]) -> Iterator[tuple[int, str]]:
    """(line number, target) of every link outside code.

    A pattern is tried only on a line holding the part every match of it holds (a fence three
    backticks or tildes, a code span a backtick, an HTML attribute `=`, the others `_NEEDS`).
    """
    fence: str | None = None
    for number, line in enumerate(text_lines, start=1):
        m = _FENCE.match(line) if "```" in line or "~~~" in line else None
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        bare = _CODE_SPAN.sub(lambda c: " " * len(c.group(0)), line) if "`" in line else line
        for pattern, part in _NEEDS:
            if part not in bare:
                continue
            for found in pattern.finditer(bare):
                target = found.group(1)
                if target.startswith("<") and target.endswith(">"):
                    target = target[1:-1]
                yield number, target.strip()
        if "=" in bare:
            for found in _HTML.finditer(bare):
                yield number, next(g for g in found.groups() if g is not None).strip()


def check_links(
    text_lines: list[str], directory: list[str], exists: Callable[[list[str]], bool]
) -> list[LinkFinding]:
    """Each refused link. `directory` is the file's directory inside the entry; `exists` asks the tree."""
    out: list[LinkFinding] = []
    for number, target in links(text_lines):
        finding = _judge(target, directory, exists)
        if finding:
            out.append(LinkFinding(number, *finding))
    return out


def _judge(target: str, directory: list[str], exists: Callable[[list[str]], bool]) -> tuple[str, str] | None:
    if not target or target.startswith("#"):
        return None
    if target.startswith("\\\\") or target.startswith("~") or any(find_local_paths(target)):
        return README_LINK_LOCAL, "a local path"
    if _SCHEME.match(target):
        scheme = target.split(":", 1)[0].lower()
        if scheme == "file" or len(scheme) == 1:
            return README_LINK_LOCAL, "a local path"
        return None
    if target.startswith("//"):
        return None
    if target.startswith("/") or target.startswith("\\"):
        return README_LINK_OUTSIDE, "a link from the repository's root, outside the entry"
    path = unquote(re.split(r"[?#]", target, maxsplit=1)[0]).replace("\\", "/")
    if not path:
        return None
    parts = list(directory)
    for segment in path.split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if not parts:
                return README_LINK_OUTSIDE, "a relative link leaving the entry"
            parts.pop()
            continue
        parts.append(segment)
    if not exists(parts):
        return README_LINK_MISSING, "a relative link to no file of the entry"
    return None
