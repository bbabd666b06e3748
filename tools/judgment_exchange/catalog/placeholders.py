"""Finding the scaffold's placeholder values in an entry (issue #9, "Placeholders never pass"; code
`placeholder-value`, the last directory check). The values are the scaffold's own
(catalog/placeholder_values.py); every one that remains in an entry is a part a person must still write.
"""

from __future__ import annotations

import re
from typing import TypeAlias

from ..quoting import schema_words
from .placeholder_values import (  # noqa: F401
    EXAMPLE_OPERATION,
    EXAMPLE_PLATFORM,
    EXAMPLE_TOOL,
    MARKERS,
    PACK_ID,
    PRESET_README_TEXT,
    README_TEXT,
    REPLACE_ME,
    TITLE_SUFFIX,
)

# Member names printed in a pointer: the segment grammar of RFC 0019 §3 "Reader locators"
# ([A-Za-z0-9_.-]), at most 64 characters; any other name is author text and is described by its
# position in its object instead (docs/entry-format.md "placeholder-value").
_SAFE_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")


_TOKEN = "A-Za-z0-9_-"

Step: TypeAlias = int | tuple[str, int]
"""One step of a path `in_json` finds: an array index, or a member as (its name, its 0-based position)."""
Where: TypeAlias = tuple[Step, ...]


def _pattern(marker: str) -> re.Pattern[str]:
    """A marker found as a whole token: where it begins or ends with a name character, the next
    character outside it is not one ([A-Za-z0-9_-]), so `example-platforms-team` or `no-replace-me`
    is not the marker while `https://example.org/packs/replace-me` and `x (describe it)` are."""
    before = f"(?<![{_TOKEN}])" if re.match(f"[{_TOKEN}]", marker) else ""
    after = f"(?![{_TOKEN}])" if re.match(f"[{_TOKEN}]", marker[-1]) else ""
    return re.compile(before + re.escape(marker) + after)


_PATTERNS = tuple((marker, _pattern(marker)) for marker in MARKERS)


def _may_hold(text: str) -> bool:
    """Whether a marker occurs in `text` at all, as a whole token or not. A text that holds a marker as
    a whole token holds it as a substring, so where this is False no part of `text` (a line of it, a
    string joined into it) holds one; most texts hold none, and substring search is far cheaper than
    the patterns (issue #12)."""
    return any(marker in text for marker in MARKERS)


def marker_in(text: str) -> str | None:
    """The first marker `text` holds as a whole token, or None (a value holding one anywhere is a
    placeholder)."""
    if not _may_hold(text):
        return None
    for marker, pattern in _PATTERNS:
        if pattern.search(text):
            return marker
    return None


def in_json(value: object, at: Where = ()) -> list[tuple[Where, str]]:
    """Every string value (at any depth) holding a marker: (the path as (name, position) or index
    steps, the marker), in document order. Member names are not values and are not searched."""
    if not _may_hold("\n".join(_strings(value))):  # most documents hold none: no paths are built
        return []
    out: list[tuple[Where, str]] = []
    stack: list[tuple[Where, object]] = [(at, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            marker = marker_in(item)
            if marker is not None:
                out.append((where, marker))
        elif isinstance(item, dict):
            stack.extend(reversed([(where + ((name, k),), v) for k, (name, v) in enumerate(item.items())]))
        elif isinstance(item, list):
            stack.extend(reversed([(where + (i,), v) for i, v in enumerate(item)]))
    return out


def _strings(value: object) -> list[str]:
    """Every string value (at any depth, in any order), member names left out."""
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


def pointer_text(where: Where) -> str:
    """An RFC 6901 pointer for a path from `in_json`; a member name outside the safe grammar is
    written as `[member N]` (its 1-based position in its object), never quoted."""
    parts = []
    for step in where:
        if isinstance(step, int):
            parts.append(str(step))
        else:
            name, position = step
            # shown only when it is one of our schema's names: a word of the segment grammar may still be a
            # token the author pasted (issue #11 item 3; quoting.schema_words)
            parts.append(name if name in schema_words() else f"[member {position + 1}]")
    return "/" + "/".join(parts) if parts else "(the root)"


def pointer_of(where: Where) -> str:
    """A JSON Pointer for a Refusal's `pointer` (annotations find its line): the path up to its first
    member name outside the safe grammar, so no author-chosen name is ever part of it."""
    parts = []
    for step in where:
        if isinstance(step, int):
            parts.append(str(step))
        elif _SAFE_NAME.fullmatch(step[0]):
            parts.append(step[0])
        else:
            break
    return "/" + "/".join(parts) if parts else ""


def in_text(text: str) -> list[tuple[int, str]]:
    """Every line of a text (README.md) holding a marker: (1-based line number, the marker)."""
    if not _may_hold(text):  # then no line holds one
        return []
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        marker = marker_in(line)
        if marker is not None:
            out.append((number, marker))
    return out
