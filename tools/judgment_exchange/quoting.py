"""Describing a value an entry's author controls without repeating it (issue #11 item 3; docs/reports.md).

A refusal's detail, path and entry may quote a value only once it has passed the grammar RFC 0019 §3
(or the dialect companion) gives it: a digest, an id, a fixture name, a release tag, one of the
closed file names. Anything else — a member name, a key, a string that failed its grammar, a file or
directory name — is described by its position and length (`described`), never shown, so a token an
author pasted into a name or value is never echoed into a log, a JSON report or a pull request
annotation. The scan's own refusals hide a name that holds a credential's shape the same way
(scan/__init__.py: the nearest clean directory, the name by position and length).

Paths (`safe_path`): a repository path is quoted component by component while each component passes
the grammar its position has (the catalog layout below); from the first one that does not, the path
is cut to its nearest safe parent and the rest is described by length.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from .refusal import Refusal, Replay, Skip

_Named = TypeVar("_Named", Skip, Replay)

_PUBLISHER = re.compile(r"[a-z0-9]+")
_NAME = re.compile(r"[a-z0-9-]+(\.[a-z0-9-]+)*")
_ENTRY_ID = re.compile(r"[a-z0-9]+(\.[a-z0-9-]+)+")  # catalog/grammar.ENTRY_ID (§3), kept free of imports
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_FIXTURE = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")  # catalog/grammar.FIXTURE_NAME (§3)

ROOT_NAMES = frozenset({"entries", "manifest.json", "skips.json", "releases.json", "verifier-pin.json", "README.md",
                        "docs", "CONTRIBUTING.md", "LICENSE", ".github", "schemas", "tools", "tests"})
"""Names at the repository's root that a refusal may name (the catalog's own files and directories)."""

ENTRY_NAMES = frozenset({"entry.json", "README.md", "dialect.json", "output.json", "fixtures"})
"""The closed file set of an entry's root (RFC 0019 §3)."""

FIXTURE_FILES = frozenset({"case.json", "sources.json", "profiles.json", "preparation.json", "binding.json"})
"""The closed file set of a fixture directory (RFC 0019 §3)."""


def described(value: Any, what: str = "value") -> str:
    """`<what of N characters>` for a string, `<what: TYPE>` otherwise: the value itself never appears."""
    if isinstance(value, str):
        return f"<{what} of {len(value)} character{'s' if len(value) != 1 else ''}>"
    kind = {dict: "an object", list: "an array", bool: "true/false", type(None): "null"}.get(type(value))
    return f"<{what}: {kind or 'a number'}>"


def quoted(value: Any, grammar: re.Pattern[str], what: str = "value") -> str:
    """`value` in quotes when it is a string matching `grammar` (one the RFC gives it), else
    `described(value, what)`."""
    if isinstance(value, str) and grammar.fullmatch(value):
        return repr(value)
    return described(value, what)


def digest(value: Any) -> str:
    """A digest as written: shown when it is `sha256:` and 64 lowercase hexadecimal digits, else described."""
    return quoted(value, _DIGEST, "a value that is not a digest").strip("'")


def name(value: Any, what: str = "member name") -> str:
    """A member name, key or other author-chosen name with no grammar of its own (the dialect companion
    gives source, field and parameter names none): always described by length, never shown."""
    return described(value, what)


def entry_id(value: str | None) -> str | None:
    """An entry id fit to show: the id when it matches §3's grammar, else None."""
    return value if isinstance(value, str) and _ENTRY_ID.fullmatch(value) else None


def _component_safe(parts: list[str], i: int) -> bool:
    part = parts[i]
    if i == 0:
        return part in ROOT_NAMES
    if parts[0] != "entries":
        return False
    if i == 1:
        return _PUBLISHER.fullmatch(part) is not None
    if i == 2:
        return _NAME.fullmatch(part) is not None
    if i == 3:
        return part in ENTRY_NAMES
    if i == 4:
        return parts[3] == "fixtures" and _FIXTURE.fullmatch(part) is not None
    if i == 5:
        return parts[3] == "fixtures" and part in FIXTURE_FILES
    return False


def split_path(path: str) -> tuple[str, str | None]:
    """`(safe, rest)`: the longest prefix of `path` whose every component passes its grammar, and a
    description of the rest (None when the whole path is safe). An empty safe prefix is '.'."""
    parts = path.split("/")
    for i in range(len(parts)):
        if not _component_safe(parts, i):
            safe = "/".join(parts[:i]) or "."
            more = len(parts) - i - 1
            rest = described(parts[i], "a name") + (f" and {more} more level{'s' if more != 1 else ''} below it"
                                                     if more else "")
            return safe, rest
    return path, None


def safe_path(path: str) -> str:
    """`path` itself when every component passes its grammar, else its nearest safe parent."""
    return split_path(path)[0]


def path_text(path: str) -> str:
    """A path for a detail: the path when safe, else its safe parent and a description of the rest."""
    safe, rest = split_path(path)
    return path if rest is None else f"{safe}/{rest}"


def redact(refusal: Refusal) -> Refusal:
    """The refusal with its path cut to its nearest safe parent (the rest described in the detail) and its
    entry dropped when the id is outside §3's grammar. The pointer is kept: it only finds a line."""
    out = refusal
    if refusal.path is not None:
        safe, rest = split_path(refusal.path)
        if rest is not None:
            detail = out.detail.replace(refusal.path, f"{safe}/{rest}")  # a detail that repeats its own path
            out = replace(out, path=safe, detail=f"in {rest} below this path (the name is not shown): {detail}",
                          pointer=None, line=None)
    if out.entry is not None and entry_id(out.entry) is None:
        out = replace(out, entry=None)
    return out


def redact_skip(skip: _Named) -> _Named:
    """A skip's (or a replay record's) entry and fixture, shown only within their grammars."""
    entry = entry_id(skip.entry) or "<an entry outside the id grammar>"
    fixture = skip.fixture if _FIXTURE.fullmatch(skip.fixture or "") else described(skip.fixture, "a fixture name")
    return replace(skip, entry=entry, fixture=fixture) if (entry, fixture) != (skip.entry, skip.fixture) else skip


_INDEX = re.compile(r"0|[1-9][0-9]*")
_WORD = re.compile(r"\$?[A-Za-z][A-Za-z0-9]{0,39}")


@functools.cache
def schema_words() -> frozenset[str]:
    """Every member name this package spells (the string constants of the dialect, verifier and catalog
    modules that are words): a pointer token among them is one of OUR schema's names, never the author's
    own, and may be shown."""
    root = Path(__file__).resolve().parent
    words: set[str] = set()
    for package in ("dialect", "verifier", "catalog", "history", "repository"):
        for source in sorted((root / package).glob("*.py")):
            for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and _WORD.fullmatch(node.value):
                    words.add(node.value)
    return frozenset(words)


def pointer_text(pointer: str) -> str:
    """A JSON pointer for a detail: each token shown when it is an array index or one of our schema's
    member names (`schema_words`), else described by length (it is a name the author chose)."""
    if not pointer:
        return pointer
    out = []
    for token in pointer.split("/")[1:]:
        raw = token.replace("~1", "/").replace("~0", "~")
        out.append(token if _INDEX.fullmatch(token) or raw in schema_words() else described(raw, "a name"))
    return "/" + "/".join(out)


def member(value: Any) -> str:
    """A member name found in a document: quoted when it is one of our schema's names (`schema_words`:
    a name this package spells, so never a secret of the author's), else described by its length."""
    if isinstance(value, str) and value in schema_words():
        return repr(value)
    return described(value, "a member name")
