"""RFC 6901 JSON Pointers as dialect §1 reads them: tokens, escaping, and where a pointer lies in a document's bytes
(`locate`)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

_BAD_ESCAPE = re.compile(r"~(?![01])")


def tokens(pointer: Any) -> list[str] | None:
    """A pointer's unescaped reference tokens, or None when the value is not a pointer."""
    if not isinstance(pointer, str):
        return None
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        return None
    out = []
    for raw in pointer[1:].split("/"):
        if _BAD_ESCAPE.search(raw):
            return None
        out.append(unescape(raw))
    return out


def escape(token: Any) -> str:
    """One RFC 6901 reference token, escaped (`~` as `~0`, then `/` as `~1`); an array index written in decimal.
    The one spelling of the escape (issue #37 item 2): every pointer the package builds is built here."""
    text = str(token)
    if "~" in text or "/" in text:
        return text.replace("~", "~0").replace("/", "~1")
    return text


def unescape(token: str) -> str:
    """One escaped reference token read back (`~1` as `/`, then `~0` as `~`)."""
    return token.replace("~1", "/").replace("~0", "~")


def pointer(steps: Any) -> str:
    """The RFC 6901 pointer of these tokens, each escaped ("" for none: the whole document)."""
    return "".join("/" + escape(step) for step in steps)


# --- where a pointer lies in a document's bytes (issue #37 item 2: the one pointer-to-span lookup) ---------------

_WS = b" \t\r\n"
_INDEX = re.compile(r"0|[1-9][0-9]*")


@dataclass(frozen=True)
class Span:
    """One value a pointer reaches in a document's bytes: `at`, where it is written (a member's key, an element's
    first byte; the root's first byte), `start` and `end` its value's bytes (`end` None unless asked for, or where
    the bytes stop being JSON)."""

    at: int
    start: int
    end: int | None = None


def locate(data: bytes, steps: Sequence[Any], *, text_indices: bool = False, ends: bool = False) -> list[Span]:
    """The one lookup of a pointer in a JSON document's bytes (annotations.line_of, authoring/jsonedit): the root
    and then each step's value, in order, each step a member name (str) or an array index (an int, never a bool;
    with `text_indices`, a str of RFC 6901's index grammar, as a pointer's text gives it). Fewer spans than
    steps + 1: the last is the nearest present ancestor (a member absent, a step into a scalar, or bytes that stop being
    JSON);
    none for bytes holding no value. The first member of a name is the one found. Never raises; reads only up to
    what it finds, and to each value's end only with `ends`."""
    at = _ws(data, 0)
    if at >= len(data):
        return []
    found = [Span(at, at, _end(data, at) if ends else None)]
    for step in steps:
        try:
            child = _child(data, found[-1].start, step, text_indices)
            if child is None:
                break
            start = _value_start(data, child)
        except (ValueError, IndexError):  # bytes that stop being JSON: the nearest ancestor found
            break
        found.append(Span(child, start, _end(data, start) if ends else None))
    return found


def _ws(data: bytes, i: int) -> int:
    while i < len(data) and data[i] in _WS:
        i += 1
    return i


def _string_end(data: bytes, i: int) -> int:
    """The index after the string starting at data[i] == '"'; raises ValueError when unterminated."""
    i += 1
    while True:
        if i >= len(data):
            raise ValueError("unterminated string")
        c = data[i]
        if c == 0x5C:
            i += 2
        elif c == 0x22:
            return i + 1
        else:
            i += 1


def _value_end(data: bytes, i: int) -> int:
    """The index after the JSON value starting at i, without recursion (depth is a counter)."""
    depth = 0
    while True:
        i = _ws(data, i)
        if i >= len(data):
            raise ValueError("truncated")
        c = data[i]
        if c == 0x22:
            i = _string_end(data, i)
        elif c in b"[{":
            depth += 1
            i += 1
            continue
        elif c in b"]}":
            depth -= 1
            i += 1
        elif c in b",:":
            if depth == 0:
                return i
            i += 1
            continue
        else:
            while i < len(data) and data[i] not in b",:]}" and data[i] not in _WS:
                i += 1
        if depth <= 0:
            return i


def _end(data: bytes, i: int) -> int | None:
    try:
        return _value_end(data, i)
    except (ValueError, IndexError):
        return None


def _key(data: bytes, i: int, end: int) -> str | None:
    try:
        key = json.loads(data[i:end].decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return key if isinstance(key, str) else None


def _child(data: bytes, i: int, step: Any, text_indices: bool) -> int | None:
    """The offset of the member `step` (its key) or element `step` of the container at i, or None."""
    i = _ws(data, i)
    if i >= len(data) or data[i] not in b"[{":
        return None
    is_object = data[i] == 0x7B
    if is_object:
        if not isinstance(step, str):
            return None
    elif isinstance(step, int) and not isinstance(step, bool):
        want = step
    elif text_indices and isinstance(step, str) and step.isascii() and _INDEX.fullmatch(step):
        want = int(step)
    else:
        return None
    i, index = i + 1, 0
    while True:
        i = _ws(data, i)
        if i >= len(data) or data[i] in b"]}":
            return None
        start = i
        if is_object:
            if data[i] != 0x22:
                return None
            end = _string_end(data, i)
            if _key(data, i, end) == step:
                return start
            i = _ws(data, end)
            if i >= len(data) or data[i] != 0x3A:
                return None
            i = _value_end(data, i + 1)
        else:
            if index == want:
                return start
            i = _value_end(data, i)
            index += 1
        i = _ws(data, i)
        if i < len(data) and data[i] == 0x2C:
            i += 1


def _value_start(data: bytes, i: int) -> int:
    """From a member's key (or an element) at i, the offset of its value."""
    if data[i] == 0x22:
        end = _ws(data, _string_end(data, i))
        if end < len(data) and data[end] == 0x3A:
            return _ws(data, end + 1)
    return i
