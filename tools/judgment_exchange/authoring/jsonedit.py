"""Replace one member's value in a JSON document's bytes, keeping every other byte (issue #9, `exchange fix`).

`exchange fix` rewrites only the derived pins of entry.json (RFC 0019 §3: `dialect.digest`,
`output.digest`, a fixture's `preparationDigest`, a named document's `artifact`); everything a person
wrote — member order, indentation, number literals, escapes, the final newline — stays byte for byte.
The new value is written in the document's own style: pretty-printed (the document's indent unit,
continuation lines under the member's own line) where the document or the replaced container spans
lines, compact (the document's own separators) where it does not.

Values are plain JSON values as `judgment_exchange.jsonstrict` reads them: dict, list, str, `Number`
(written as its literal), bool, None; a Python int is accepted too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterator

from ..jsonstrict import Number
from ..pointers import Span, escape, locate

Pointer = tuple["str | int", ...]

_WS = " \t\n\r"


class JsonEditError(ValueError):
    """The edit was not made: the bytes are not one JSON value, or the pointer names no member."""


class PointerNotFound(JsonEditError, LookupError):
    """The pointer names no value in the document (a missing member, an index out of range, a step
    into a scalar, or a member name that appears twice in one object)."""


@dataclass
class _Style:
    key_sep: str | None = None      # text between a member name and its value, e.g. ": "
    item_sep: str | None = None     # a one-line container's separator, e.g. ", "
    unit: str | None = None         # the pretty-printed indent unit, e.g. "  "


class _Scanner:
    """A minimal scanner over well-formed JSON text: spans of values, members and elements."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.style = _Style()

    def ws(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in _WS:
            i += 1
        return i

    def value_end(self, i: int) -> int:
        """The end of the value starting at i (i on its first character)."""
        c = self.text[i]
        if c == "{":
            for _name, _s, _e, _j in self.members(i):
                pass
            return self._close
        if c == "[":
            for _k, _s, _e in self.elements(i):
                pass
            return self._close
        if c == '"':
            return self.string_end(i)
        j = i
        while j < len(self.text) and self.text[j] not in _WS + ",]}":
            j += 1
        return j

    def string_end(self, i: int) -> int:
        j = i + 1
        while True:
            c = self.text[j]
            if c == "\\":
                j += 2
            elif c == '"':
                return j + 1
            else:
                j += 1

    def _note_sep(self, a: int, b: int) -> None:
        """Record the document's one-line item separator (the text from a comma to the next value)."""
        sep = self.text[a:b]
        if self.style.item_sep is None and "\n" not in sep and "\r" not in sep:
            self.style.item_sep = sep

    def members(self, i: int) -> Iterator[tuple[str, int, int, int]]:
        """Yield (name, value start, value end, key start) for each member of the object at i."""
        j = self.ws(i + 1)
        if self.text[j] == "}":
            self._close = j + 1
            return
        while True:
            key_start = j
            key_end = self.string_end(j)
            name = json.loads(self.text[key_start:key_end])
            colon = self.ws(key_end)
            vstart = self.ws(colon + 1)
            sep = self.text[key_end:vstart]
            if self.style.key_sep is None and "\n" not in sep:
                self.style.key_sep = sep
            vend = self.value_end(vstart)
            yield name, vstart, vend, key_start
            j = self.ws(vend)
            if self.text[j] == "}":
                self._close = j + 1
                return
            nxt = self.ws(j + 1)
            self._note_sep(j, nxt)
            j = nxt

    def elements(self, i: int) -> Iterator[tuple[int, int, int]]:
        """Yield (index, start, end) for each element of the array at i."""
        j = self.ws(i + 1)
        if self.text[j] == "]":
            self._close = j + 1
            return
        k = 0
        while True:
            end = self.value_end(j)
            yield k, j, end
            k += 1
            j = self.ws(end)
            if self.text[j] == "]":
                self._close = j + 1
                return
            nxt = self.ws(j + 1)
            self._note_sep(j, nxt)
            j = nxt


def _describe(pointer: Pointer, depth: int) -> str:
    """The pointer up to `depth` steps as an RFC 6901 string, for messages."""
    steps = [escape(s) for s in pointer[:depth]]
    return "/" + "/".join(steps) if steps else "(the root)"


def _locate(text: str, pointer: Pointer) -> tuple[int, int, tuple[int, int]]:
    """The span of the value the pointer names, and the span of its enclosing container (the whole
    document for the root), as offsets into `text` (one well-formed document: a name appears once in an
    object, jsonstrict having refused a duplicate). The lookup is pointers.locate, the package's one."""
    data = text.encode("utf-8")
    found = locate(data, pointer, ends=True)
    if len(found) < len(pointer) + 1:
        depth = len(found) - 1
        kind = {0x7B: "an object", 0x5B: "an array"}.get(data[found[-1].start], "a scalar")
        raise PointerNotFound(f"{_describe(pointer, depth + 1)}: no such member "
                              f"({_describe(pointer, depth)} is {kind})")

    def offset(at: int) -> int:  # a byte offset of `data` as an offset of `text`
        return at if data.isascii() else len(data[:at].decode("utf-8"))

    def end(span: Span) -> int:  # with `ends`, locate gives every value's end in a well-formed document
        assert span.end is not None
        return offset(span.end)

    last = found[-1]
    parent = (0, len(text)) if len(found) == 1 else (offset(found[-2].start), end(found[-2]))
    return offset(last.start), end(last), parent


def _survey(scan: _Scanner, root: int) -> None:
    """Walk the whole document once so the style holds its separators and indent unit."""
    scan.value_end(root)
    text = scan.text
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and stripped != line:
            scan.style.unit = line[: len(line) - len(stripped)]
            break


def _scalar(value: Any, ensure_ascii: bool) -> str:
    if isinstance(value, Number):
        return value.literal
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=ensure_ascii)
    if isinstance(value, int):
        return str(value)
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def serialise(value: Any, *, indent: str | None, base: str = "", key_sep: str = ": ", item_sep: str = ", ",
              ensure_ascii: bool = False) -> str:
    """`value` as JSON text: pretty with `indent` (continuation lines after `base`) or one line."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        if not all(isinstance(k, str) for k in value):
            raise TypeError("object member names must be strings")
        inner = base + indent if indent is not None else ""
        parts = [json.dumps(k, ensure_ascii=ensure_ascii) + key_sep
                 + serialise(v, indent=indent, base=inner, key_sep=key_sep, item_sep=item_sep,
                             ensure_ascii=ensure_ascii) for k, v in value.items()]
        if indent is None:
            return "{" + item_sep.join(parts) + "}"
        return "{\n" + ",\n".join(inner + p for p in parts) + "\n" + base + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        inner = base + indent if indent is not None else ""
        parts = [serialise(v, indent=indent, base=inner, key_sep=key_sep, item_sep=item_sep,
                           ensure_ascii=ensure_ascii) for v in value]
        if indent is None:
            return "[" + item_sep.join(parts) + "]"
        return "[\n" + ",\n".join(inner + p for p in parts) + "\n" + base + "]"
    return _scalar(value, ensure_ascii)


def _line_indent(text: str, pos: int) -> str:
    """The leading whitespace of the line holding `pos`."""
    start = max(text.rfind("\n", 0, pos), text.rfind("\r", 0, pos)) + 1
    j = start
    while j < len(text) and text[j] in " \t":
        j += 1
    return text[start:j]


def _document(data: bytes) -> tuple[str, "_Scanner", int]:
    """The text of one well-formed JSON document (read strictly, dialect §1), its scanner and where its
    value starts; JsonEditError otherwise."""
    from ..jsonstrict import JsonRefusal, parse

    try:
        parse(data)
        text = data.decode("utf-8")
    except (JsonRefusal, UnicodeDecodeError, RecursionError) as exc:
        raise JsonEditError(f"not one well-formed JSON document: {exc}") from None
    scan = _Scanner(text)
    return text, scan, scan.ws(0)


def replace_member(data: bytes, pointer: Pointer, value: Any) -> bytes:
    """`data` with the value at `pointer` (member names as str, array indices as int) replaced by `value`,
    every other byte kept. Raises JsonEditError when `data` is not one JSON value in UTF-8 and
    PointerNotFound when the pointer names no value."""
    text, scan, root = _document(data)
    try:
        start, end, (ps, pe) = _locate(text, tuple(pointer))
        _survey(scan, root)
    except RecursionError:
        raise JsonEditError("nested too deeply to edit") from None
    old = text[start:end]
    if old[:1] in "{[" and scan.ws(1 + start) < end - 1:
        context = old  # a non-empty container keeps its own layout
    else:
        context = text[ps:pe].strip()  # a scalar or empty container takes its container's layout
    pretty = "\n" in context or "\r" in context
    unit = scan.style.unit or "  "
    ensure_ascii = text.isascii() and "\\u" in text
    new = serialise(value, indent=unit if pretty else None, base=_line_indent(text, start),
                    key_sep=scan.style.key_sep if scan.style.key_sep is not None else (": " if pretty else ":"),
                    item_sep=scan.style.item_sep if scan.style.item_sep is not None else ",",
                    ensure_ascii=ensure_ascii)
    return (text[:start] + new + text[end:]).encode("utf-8")


def insert_member(data: bytes, pointer: Pointer, name: str, value: Any, after: str | None = None) -> bytes:
    """`data` with member `name: value` added to the object at `pointer`, right after member `after`
    (or last when `after` is None or absent), in the object's own layout; every other byte kept.
    Raises PointerNotFound when the pointer names no object and JsonEditError when `name` is there."""
    text, scan, root = _document(data)
    try:
        start, end, _parent = _locate(text, tuple(pointer))
        _survey(scan, root)
        if text[start] != "{":
            raise PointerNotFound(f"{_describe(tuple(pointer), len(pointer))}: not an object")
        members = list(scan.members(start))
    except RecursionError:
        raise JsonEditError("nested too deeply to edit") from None
    if any(m[0] == name for m in members):
        raise JsonEditError(f"{_describe(tuple(pointer) + (name,), len(pointer) + 1)}: the member exists already")
    if not members:
        return replace_member(data, pointer, {name: value})
    anchor = next((m for m in members if m[0] == after), members[-1])
    _name, _vs, vend, key_start = anchor
    block = text[start:end]
    pretty = "\n" in block or "\r" in block
    ensure_ascii = text.isascii() and "\\u" in text
    key_sep = scan.style.key_sep if scan.style.key_sep is not None else (": " if pretty else ":")
    if pretty:
        indent = _line_indent(text, key_start)
        body = serialise(value, indent=scan.style.unit or "  ", base=indent, key_sep=key_sep, ensure_ascii=ensure_ascii,
                         item_sep=scan.style.item_sep or ",")
        piece = ",\n" + indent + json.dumps(name, ensure_ascii=ensure_ascii) + key_sep + body
    else:
        sep = scan.style.item_sep if scan.style.item_sep is not None else ","
        body = serialise(value, indent=None, key_sep=key_sep, item_sep=sep, ensure_ascii=ensure_ascii)
        piece = sep + json.dumps(name, ensure_ascii=ensure_ascii) + key_sep + body
    return (text[:vend] + piece + text[vend:]).encode("utf-8")
