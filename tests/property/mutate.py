"""Mutations of valid JSON documents for the property tests (issue #11 item 5).

A document is read with the standard library into a tree that keeps member order, duplicate-free
objects as lists of pairs and number literals as written, mutated, and written back as bytes —
so a mutation can say what a parsed value cannot: a member given twice, a lone surrogate raw
(invalid UTF-8) or escaped, a number literal of any length, nesting of any depth. Byte-level
mutations (truncation, invalid UTF-8, a byte changed, text after the value) come after.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import strategies as st


class Obj(list):
    """An object as its [name, value] pairs, in document order (duplicates allowed)."""


class Num(str):
    """A number literal as written."""


class Raw(str):
    """Text written exactly as given (a string with an escaped lone surrogate)."""


def read(data: bytes) -> Any:
    """A valid document as a mutable tree (raises ValueError when it is not JSON)."""
    return json.loads(data.decode("utf-8"), object_pairs_hook=lambda pairs: Obj([list(p) for p in pairs]),
                      parse_int=Num, parse_float=Num, parse_constant=Num)


def tree_of(value: Any) -> Any:
    """A Python JSON-like value (dicts, lists, ints, strings...) as a mutable tree."""
    if isinstance(value, dict):
        return Obj([[k, tree_of(v)] for k, v in value.items()])
    if isinstance(value, list):
        return [tree_of(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return Num(json.dumps(value))
    literal = getattr(value, "literal", None)  # jsonstrict.Number
    return Num(literal) if isinstance(literal, str) else value


def _string(value: str) -> str:
    if isinstance(value, Raw):
        return value
    return json.dumps(value, ensure_ascii=False)


def write_text(node: Any) -> str:
    out: list[str] = []
    stack: list[Any] = [node]
    while stack:  # iterative, so a mutation's deep nesting never exhausts the writer's stack
        item = stack.pop()
        if isinstance(item, _Token):
            out.append(item.text)
        elif isinstance(item, Obj):
            parts: list[Any] = [_Token("{")]
            for i, (key, value) in enumerate(item):
                parts += ([_Token(",")] if i else []) + [_Token(_string(key) + ":"), value]
            parts.append(_Token("}"))
            stack.extend(reversed(parts))
        elif isinstance(item, list):
            parts = [_Token("[")]
            for i, value in enumerate(item):
                parts += ([_Token(",")] if i else []) + [value]
            parts.append(_Token("]"))
            stack.extend(reversed(parts))
        elif isinstance(item, Num):
            out.append(str(item))
        elif item is True:
            out.append("true")
        elif item is False:
            out.append("false")
        elif item is None:
            out.append("null")
        else:
            out.append(_string(item))
    return "".join(out)


class _Token:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def write(node: Any) -> bytes:
    """The tree's bytes; a raw lone surrogate becomes the bytes UTF-8 refuses (surrogatepass)."""
    return write_text(node).encode("utf-8", "surrogatepass")


def paths(node: Any, limit: int = 4000) -> list[tuple[int, ...]]:
    """Every node's path (indices into pairs or elements), the root first, at most `limit` of them."""
    out: list[tuple[int, ...]] = []
    stack = [((), node)]
    while stack and len(out) < limit:
        path, item = stack.pop()
        out.append(path)
        if isinstance(item, Obj):
            stack.extend((path + (i,), pair[1]) for i, pair in reversed(list(enumerate(item))))
        elif isinstance(item, list):
            stack.extend((path + (i,), v) for i, v in reversed(list(enumerate(item))))
    return out


def depth(node: Any) -> int:
    """Nesting as dialect §12 counts it (the root at zero, each object and array one level)."""
    best, stack = 0, [(node, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, list):  # Obj is a list too
            level += 1
            best = max(best, level)
            stack.extend((pair[1] if isinstance(item, Obj) else pair, level) for pair in item)
    return best


def get(node: Any, path: tuple[int, ...]) -> Any:
    for i in path:
        node = node[i][1] if isinstance(node, Obj) else node[i]
    return node


def replace(root: Any, path: tuple[int, ...], value: Any) -> Any:
    if not path:
        return value
    parent = get(root, path[:-1])
    if isinstance(parent, Obj):
        parent[path[-1]][1] = value
    else:
        parent[path[-1]] = value
    return root


HUGE = ["9007199254740992", "-9007199254740992", "9007199254740991", "-0", "1e309", "1E400", "-1e-400", "2e308",
        "1" * 129, "1" * 128, "0." + "0" * 200 + "1", "123456789012345678901234567890", "1.0", "1e2", "1.5",
        "0.1e-999999", "1e99999999999999999999"]
SURROGATES = ["\ud800", "\udfff", "\udc80", "\ud83d"]
ODD_TEXT = ["", " ", "\u0000", "\u2028", "a\nb", "../..", "/etc/passwd", "C:\\Users\\x", "\ufffd", "😀", "~1/~0",
            "sha256:" + "0" * 64, "2026-10-01T12:00:00Z", "-----BEGIN PRIVATE KEY-----"]
OPS = ("delete", "duplicate", "rename", "type", "huge", "nest", "surrogate", "splice", "text", "integer")


def _keys(node: Any) -> list[str]:
    out = []
    for path in paths(node, 2000):
        item = get(node, path)
        if isinstance(item, Obj):
            out.extend(k for k, _ in item if isinstance(k, str))
    return out


def _surrogate(draw, base: str) -> str:
    lone = draw(st.sampled_from(SURROGATES))
    at = draw(st.integers(0, len(base)))
    if draw(st.booleans()):  # escaped: valid UTF-8 bytes, a lone surrogate once read
        escaped = (json.dumps(base[:at], ensure_ascii=False)[:-1] + "\\u%04x" % ord(lone)
                   + json.dumps(base[at:], ensure_ascii=False)[1:])
        return Raw(escaped)
    return base[:at] + lone + base[at:]  # raw: written with surrogatepass, so not UTF-8


def _value_pool(draw, node: Any, other: Any) -> Any:
    choice = draw(st.integers(0, 12))
    pool = [None, True, False, Num("0"), Num("-1"), "", "x", [], Obj([]), Num("1.5"), [node], Obj([["value", node]])]
    if choice < len(pool):
        return pool[choice]  # fresh each call; `node` is already the mutation's own copy
    if other is None:
        found = paths(node, 2000)
        return get(node, found[draw(st.integers(0, len(found) - 1))])
    found = paths(other, 2000)
    return copy.deepcopy(get(other, found[draw(st.integers(0, len(found) - 1))]))  # never alias the corpus


def mutate_tree(draw, root: Any, other: Any = None) -> Any:
    """One structural mutation of `root` (mutated in place where it can be); the new root."""
    op = draw(st.sampled_from(OPS))
    found = paths(root)
    path = found[draw(st.integers(0, len(found) - 1))]
    node = get(root, path)
    if op in ("delete", "duplicate", "rename"):
        containers = [p for p in found if isinstance(get(root, p), (Obj, list)) and get(root, p)]
        if op != "delete":
            containers = [p for p in containers if isinstance(get(root, p), Obj)]
        if not containers:
            return root
        parent = get(root, containers[draw(st.integers(0, len(containers) - 1))])
        i = draw(st.integers(0, len(parent) - 1))
        if op == "delete":
            del parent[i]
        elif op == "duplicate":
            key, value = parent[i]
            twin = value if draw(st.booleans()) else _value_pool(draw, value, other)
            parent.insert(draw(st.integers(0, len(parent))), [key, twin])  # shared, never copied: it may be deep
        else:
            keys = _keys(root) + ODD_TEXT
            how = draw(st.integers(0, 3))
            old = parent[i][0] if isinstance(parent[i][0], str) else ""
            parent[i][0] = (draw(st.sampled_from(keys)) if how == 0 else draw(st.text(max_size=12)) if how == 1
                            else old + "x" if how == 2 else _surrogate(draw, old))
        return root
    if op == "type":
        return replace(root, path, _value_pool(draw, node, None))
    if op == "huge":
        return replace(root, path, Num(draw(st.sampled_from(HUGE))))
    if op == "nest":
        depth = draw(st.sampled_from([1, 2, 30, 63, 64, 65, 66, 129, 1000, 5000]))
        wrapped = node
        as_object = draw(st.booleans())
        for _ in range(depth):
            wrapped = Obj([["a", wrapped]]) if as_object else [wrapped]
        return replace(root, path, wrapped)
    if op == "surrogate":
        strings = [p for p in found if isinstance(get(root, p), str) and not isinstance(get(root, p), (Num, Raw))]
        if not strings:
            return replace(root, path, _surrogate(draw, ""))
        target = strings[draw(st.integers(0, len(strings) - 1))]
        return replace(root, target, _surrogate(draw, get(root, target)))
    if op == "splice":
        return replace(root, path, _value_pool(draw, node, other))
    if op == "text":
        return replace(root, path, draw(st.one_of(st.sampled_from(ODD_TEXT), st.text(max_size=40))))
    return replace(root, path, Num(str(draw(st.integers(-(2**64), 2**64)))))


BAD_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xef\xbb\xbf", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\x80"]


def mutate_bytes(draw, data: bytes) -> bytes:
    """Truncation, an invalid UTF-8 sequence, a changed byte, or text after the value."""
    op = draw(st.sampled_from(("truncate", "invalid", "flip", "append", "none")))
    at = draw(st.integers(0, len(data)))
    if op == "truncate":
        return data[:at]
    if op == "invalid":
        return data[:at] + draw(st.sampled_from(BAD_BYTES)) + data[at:]
    if op == "flip" and data:
        at = min(at, len(data) - 1)
        return data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
    if op == "append":
        return data + draw(st.sampled_from([b"x", b"{}", b" 1", b"\n\n", b"\x00"]))
    return data


@st.composite
def mutated(draw, corpus: list[Any], max_ops: int = 3, byte_level: bool = True) -> bytes:
    """A document of `corpus` (trees from `read`) after 0..max_ops structural mutations, then maybe a byte-level one."""
    root = copy.deepcopy(corpus[draw(st.integers(0, len(corpus) - 1))])
    other = corpus[draw(st.integers(0, len(corpus) - 1))]
    for _ in range(draw(st.integers(0, max_ops))):
        root = mutate_tree(draw, root, other)
    data = write(root)
    if byte_level and draw(st.integers(0, 3)) == 0:
        data = mutate_bytes(draw, data)
    return data


def json_values(max_leaves: int = 20):
    """Arbitrary JSON-like values, as the standard library reads them (floats, big integers and lone surrogates
    included)."""
    leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                       st.text(max_size=20))
    return st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                        st.dictionaries(st.text(max_size=8), inner, max_size=5)),
                        max_leaves=max_leaves)


@st.composite
def json_text(draw) -> bytes:
    """Arbitrary JSON text (sometimes with whitespace around and between tokens), as bytes."""
    value = draw(json_values())
    indent = draw(st.sampled_from([None, None, 0, 2]))
    text = json.dumps(value, ensure_ascii=draw(st.booleans()), indent=indent)
    return text.encode("utf-8", "surrogatepass")


def documents(corpus: list[Any], max_ops: int = 3):
    """What a reader is given: arbitrary bytes, arbitrary JSON text, or a mutated valid document."""
    return st.one_of(st.binary(max_size=256), json_text(), *[mutated(corpus, max_ops)] * 4)
