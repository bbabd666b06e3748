"""Strict JSON reading (dialect §1) with the byte bounds of dialect §12 measured before parsing.

A document is exactly one JSON value with only whitespace around it; no member name twice in one
object, at any depth; every string well-formed Unicode (a lone surrogate, raw or escaped, is
refused); NaN and Infinity refused; every number kept as its literal (`Number`), never a binary
float. The bounds — the document's size, its nesting (§12: the root at zero, each object and array
one level), each number literal's characters and its exponent's magnitude — are taken on the bytes
before any parser runs, so a 100,000-deep array is a refusal and never a RecursionError.

Values: dict (members in document order), list, str, `Number`, True, False, None.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any

MAX_SAFE = 2**53 - 1
_INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")

OVER_BOUND = "over-bound"
MALFORMED = "malformed"


class Number:
    """A JSON number read as its literal, its characters kept (dialect §1)."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal

    @property
    def is_integer(self) -> bool:
        """An integer in §1's sense: no fraction or exponent, magnitude at most 2^53−1."""
        return _INTEGER.fullmatch(self.literal) is not None and abs(int(self.literal)) <= MAX_SAFE

    def __int__(self) -> int:
        if not self.is_integer:
            raise ValueError(f"{self.literal} is not an integer")
        return int(self.literal)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Number) and other.literal == self.literal

    def __hash__(self) -> int:
        return hash(("Number", self.literal))

    def __repr__(self) -> str:
        return f"Number({self.literal!r})"


def integer(value: Any) -> int | None:
    """The value as a Python int when it is a JSON integer (§1), else None (booleans are not)."""
    if isinstance(value, Number) and value.is_integer:
        return int(value.literal)
    return None


@dataclass(frozen=True)
class Bounds:
    """Byte-measured bounds of dialect §12, checked before parsing."""

    max_bytes: int
    max_depth: int = 64
    max_number_chars: int = 128
    max_exponent: int = 308


class JsonRefusal(Exception):
    """A document not read: `kind` is OVER_BOUND (a §12 bound) or MALFORMED (§1's reading)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)  # an unclosed string runs to the end
_RUN = re.compile(rb"[0-9+\-.eE]+")
_EXPONENT_DIGITS = re.compile(rb"[eE][+-]?[0-9]")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


@lru_cache(maxsize=8)
def _long_run(bound: int) -> re.Pattern[bytes]:
    return re.compile(rb"[0-9+\-.eE]{%d}" % (bound + 1))


def _exponent(run: bytes) -> int | None:
    """The magnitude of a literal's exponent as §12 reads one: the digits after its first e or E."""
    at = next((i for i, c in enumerate(run) if c in b"eE"), None)
    if at is None:
        return None
    rest = run[at + 1:]
    if rest[:1] in (b"+", b"-"):
        rest = rest[1:]
    digits = re.match(rb"[0-9]+", rest)
    return int(digits.group()) if digits else None


def _blank(data: bytes) -> bytes:
    """The bytes with every string's content taken out (`"..."` becomes `""`; an unclosed string runs
    to the end). Without a backslash no string holds an escaped quote, so the strings are exactly the
    stretches between the 1st and 2nd quote, the 3rd and 4th, ...: one split and one join in C
    (issue #12 item 3), the regex `_STRING` otherwise. Either gives the same bytes."""
    if b"\\" in data:
        return _STRING.sub(b'""', data)
    pieces = data.split(b'"')
    bare = b'""'.join(pieces[0::2])
    return bare + b'""' if len(pieces) % 2 == 0 else bare


_RUN_MARK = bytes(1 if byte in b"0123456789+-.eE" else 0 for byte in range(256))
"""Each byte of a number literal's run (`_RUN`) read as 1, every other as 0."""
_EXPONENT_MARK = bytes(2 if byte in b"eE" else 3 if byte in b"+-" else 1 if byte in b"0123456789" else 0
                       for byte in range(256))
"""e and E read as 2, + and - as 3, a digit as 1, every other byte as 0 (`_EXPONENT_DIGITS`' three classes)."""


def _has_long_run(bare: bytes, bound: int) -> bool:
    """Whether `_long_run(bound)` matches: more than `bound` bytes of a number literal's run together, found
    by marking the run's bytes (one translate in C) and looking for as many marks together."""
    if bound + 1 > len(bare):
        return False
    return b"\x01" * (bound + 1) in bare.translate(_RUN_MARK)


def _has_exponent(bare: bytes) -> bool:
    """Whether `_EXPONENT_DIGITS` matches: an e or E, an optional sign, then a digit, in the marked bytes."""
    marked = bare.translate(_EXPONENT_MARK)
    return b"\x02\x01" in marked or b"\x02\x03\x01" in marked


def measure(data: bytes, bounds: Bounds) -> None:
    """Hold the bytes to the §12 bounds measured on bytes; raise JsonRefusal(OVER_BOUND).

    Strings are blanked first (their brackets and digits are no nesting and no number); nesting is
    the running sum over the brackets left; a number literal is a maximal run of 0-9 + - . e E.
    """
    if len(data) > bounds.max_bytes:
        raise JsonRefusal(OVER_BOUND, f"{len(data)} bytes, over the bound of {bounds.max_bytes}")
    bare = _blank(data)
    brackets = bare.translate(None, _NOT_BRACKETS)
    if brackets and max(accumulate(map(_STEP.__getitem__, brackets))) > bounds.max_depth:
        raise JsonRefusal(OVER_BOUND, f"nesting deeper than {bounds.max_depth} levels")
    if _has_long_run(bare, bounds.max_number_chars):
        longest = max(map(len, _RUN.findall(bare)))
        raise JsonRefusal(OVER_BOUND, f"a number literal of {longest} characters, over {bounds.max_number_chars}")
    if _has_exponent(bare):
        for run in _RUN.findall(bare):
            exponent = _exponent(run)
            if exponent is not None and exponent > bounds.max_exponent:
                raise JsonRefusal(OVER_BOUND, f"an exponent of magnitude over {bounds.max_exponent}")


def _constant(name: str) -> Any:
    raise JsonRefusal(MALFORMED, f"{name} is not JSON")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)  # in C; a name given twice leaves fewer members than pairs, and the loop below names it
    if len(out) == len(pairs):
        return out
    return _pairs_once(pairs)


def _pairs_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The members one by one, refused at the first name given a second time: `_pairs`' reference."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            # the name is the author's: shown only when it is one of our schema's names (issue #11 item 3)
            raise JsonRefusal(MALFORMED, f"the member name {member(key)} is given twice in one object")
        out[key] = value
    return out


_DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs,
    parse_float=Number,
    parse_int=Number,
    parse_constant=_constant,
    strict=True,
)


def well_formed(text: str) -> bool:
    """Well-formed Unicode (dialect §1): no lone surrogate."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_strings(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not well_formed(item):
                raise JsonRefusal(MALFORMED, "a string holds a lone surrogate")
        elif isinstance(item, dict):
            for key, member in item.items():
                if not well_formed(key):
                    raise JsonRefusal(MALFORMED, "a member name holds a lone surrogate")
                stack.append(member)
        elif isinstance(item, list):
            stack.extend(item)


def parse(data: bytes) -> Any:
    """Read already-measured bytes as exactly one strict JSON value (§1); raise JsonRefusal."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JsonRefusal(MALFORMED, f"not UTF-8 at byte {exc.start}") from None
    try:
        value, end = _DECODER.raw_decode(text, _skip_ws(text, 0))
    except JsonRefusal:
        raise
    except json.JSONDecodeError as exc:
        raise JsonRefusal(MALFORMED, f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:  # unreachable after measure(); kept so no input can raise it
        raise JsonRefusal(OVER_BOUND, "nesting too deep") from None
    if _skip_ws(text, end) != len(text):
        raise JsonRefusal(MALFORMED, "more than one JSON value, or text after the value")
    if _SURROGATE_ESCAPE.search(text):  # raw surrogates are not UTF-8; only an escape can make one
        _check_strings(value)
    return value


def _skip_ws(text: str, pos: int) -> int:
    n = len(text)
    while pos < n and text[pos] in " \t\n\r":
        pos += 1
    return pos


def loads(data: bytes, bounds: Bounds) -> Any:
    """Measure, then read: the whole of §1's reading under §12's byte bounds."""
    measure(data, bounds)
    return parse(data)


def depth(value: Any) -> int:
    """Nesting as §12 counts it: the root at zero, each object and array one level."""
    best = 0
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            level += 1
            best = max(best, level)
            stack.extend((v, level) for v in (item.values() if isinstance(item, dict) else item))
    return best

# --- naming a value or a member name without repeating it (quoting.py re-exports these; issue #29: the lowest
# layer imports no module of the package, so the duplicate member's name is described here) ------------------

SCHEMA_WORDS = "schemawords.txt"
"""The package data holding the schema words, one a line (`#` lines are its header): generated from the sources
by tests/support/schemawords.py at development time, and held fresh by tests/test_schemawords.py."""


def described(value: Any, what: str = "value") -> str:
    """`<what of N characters>` for a string, `<what: TYPE>` otherwise: the value itself never appears."""
    if isinstance(value, str):
        return f"<{what} of {len(value)} character{'s' if len(value) != 1 else ''}>"
    kind = {dict: "an object", list: "an array", bool: "true/false", type(None): "null"}.get(type(value))
    return f"<{what}: {kind or 'a number'}>"


@functools.cache
def schema_words() -> frozenset[str]:
    """Every member name this package spells (the string constants of the dialect, verifier, catalog and the
    other schema-spelling modules that are words): a pointer token among them is one of OUR schema's names,
    never the author's own, and may be shown. Read as data (`SCHEMA_WORDS`), never from the sources: this
    module imports nothing of the package and reads none of its code (issue #37 item 5)."""
    from importlib import resources  # when a name is first shown, not at every start

    text = resources.files(__package__ or "judgment_exchange").joinpath(SCHEMA_WORDS).read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def member(value: Any) -> str:
    """A member name found in a document: quoted when it is one of our schema's names (`schema_words`:
    a name this package spells, so never a secret of the author's), else described by its length."""
    if isinstance(value, str) and value in schema_words():
        return repr(value)
    return described(value, "a member name")
