"""The two canonical forms and digests (dialect §1 canon, §9.5 the preparation's form).

canon: members ordered by code point, no whitespace, strings raw UTF-8 with only `"`, `\\` and
controls below U+0020 escaped, integers in decimal with -0 written 0. Its domain is objects,
arrays, well-formed strings, integers (§1), true, false and null; anything else has no canon form.

The preparation's form (§9.5) is canon but for: &, <, >, U+2028 and U+2029 escaped, and every
number written as its literal (each must still be an integer; -0 stays -0).

Both forms are written by the standard library's C encoder when the value is provably in the domain
where its output is identical (`_plain`; docs/performance.md, "canon through the C encoder"), and by
the pure writer below otherwise, which also gives every CanonError. tests/test_canon_fast.py holds
the two to the same bytes and the same errors on generated values.
"""

from __future__ import annotations

import hashlib
import json.encoder
import re
from collections.abc import Callable
from typing import Any

from .jsonstrict import MAX_SAFE, Number

PREFIX = "sha256:"
DIGEST = re.compile(r"sha256:[0-9a-f]{64}")


def is_digest(value: Any) -> bool:
    """A digest (dialect §1, RFC 0019 §3): `sha256:` and 64 lowercase hexadecimal characters."""
    return isinstance(value, str) and DIGEST.fullmatch(value) is not None


class CanonError(Exception):
    """A value outside the canon domain: it has no canonical form and no digest."""


_SHORT = {0x22: '\\"', 0x5C: "\\\\", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"}
_CANON_ESCAPES = {c: f"\\u{c:04x}" for c in range(0x20)} | _SHORT
_PREP_ESCAPES = _CANON_ESCAPES | {
    0x26: "\\u0026",
    0x3C: "\\u003c",
    0x3E: "\\u003e",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def _string(text: str, table: dict[int, str]) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise CanonError("a string that is not well-formed Unicode") from None
    return '"' + text.translate(table) + '"'


def _number(value: Any, keep_literal: bool) -> str:
    if isinstance(value, Number):
        if not value.is_integer:
            raise CanonError(f"the number {value.literal} is not an integer (§1)")
        return value.literal if keep_literal else str(int(value.literal))
    if abs(value) > MAX_SAFE:
        raise CanonError(f"the integer {value} is beyond 2^53-1")
    return str(value)


def _write(value: Any, table: dict[int, str], keep_literal: bool, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_string(value, table))
    elif isinstance(value, (Number, int)):
        out.append(_number(value, keep_literal))
    elif isinstance(value, dict):
        out.append("{")
        if not all(isinstance(key, str) for key in value):  # before sorting: mixed names do not sort
            raise CanonError("a member name that is not a string")
        for i, key in enumerate(sorted(value)):
            if i:
                out.append(",")
            out.append(_string(key, table))
            out.append(":")
            _write(value[key], table, keep_literal, out)
        out.append("}")
    elif isinstance(value, list):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _write(item, table, keep_literal, out)
        out.append("]")
    else:
        raise CanonError(f"a {type(value).__name__} is not a JSON value")


def canon_pure(value: Any) -> bytes:
    """canon (dialect §1) by the pure writer: the reference the fast path is held to."""
    out: list[str] = []
    _write(value, _CANON_ESCAPES, False, out)
    return "".join(out).encode("utf-8")


def preparation_form_pure(value: Any) -> bytes:
    """The preparation's form (dialect §9.5) by the pure writer: the reference the fast path is held to."""
    out: list[str] = []
    _write(value, _PREP_ESCAPES, True, out)
    return "".join(out).encode("utf-8")


# --- the fast path: the standard library's C encoder, only where its output is provably the same ------
#
# On the values `_plain` admits the C encoder (ensure_ascii off, sort_keys on, "," and ":") writes what
# `_write` writes: None/True/False as null/true/false; an exact int (within ±(2^53−1)) by int's repr,
# which is str(); an exact str with " \ \b \t \n \f \r escaped and every other code point below U+0020
# as \u00 and two lowercase hex digits, everything else raw (U+007F and non-ASCII included); an exact
# list in order; an exact dict whose names are all exact str, sorted as (name, value) pairs — distinct
# names decide every comparison, so the order is sorted(names), code point order as §1 requires (Python
# compares str by code point, never by UTF-16 unit). A Number reaches `_number_hook`: an integer one is
# written as its value; anything else falls back. The UTF-8 encoding of the result refuses a lone
# surrogate (fall back, so the pure writer raises its CanonError). The preparation's form then escapes
# & < > U+2028 U+2029 over the whole text: outside strings the encoder writes only brackets, commas,
# colons, digits, '-', true, false and null, and its escapes hold only \, u, hex digits and b f n r t,
# so each of those five characters stands inside a string and is escaped exactly where `_write` would.

_MAX_PLAIN_DEPTH = 200  # deeper (or circular) values take the pure writer, which behaves as it always did
_PREP_REPLACE = (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))


class _Fallback(Exception):
    """The value is outside what the fast path is proven for: the pure writer decides."""


def _plain(value: Any, depth: int = 0) -> bool:
    """Every node of an exact type the C encoder writes as `_write` does (see above)."""
    kind = type(value)
    if kind is dict:
        for key in value:  # a loop, not any(): no generator per object (issue #12)
            if type(key) is not str:
                return False
        items = value.values()
    elif kind is list:
        items = value
    elif kind is str or kind is Number or kind is bool or value is None:
        return True
    else:
        return kind is int and -MAX_SAFE <= value <= MAX_SAFE
    if depth > _MAX_PLAIN_DEPTH:
        return False
    for item in items:
        t = type(item)
        if t is str or t is Number or t is bool or item is None:
            continue
        if t is int:
            if -MAX_SAFE <= item <= MAX_SAFE:
                continue
            return False
        if not _plain(item, depth + 1):
            return False
    return True


def _number_hook(keep_literal: bool) -> Callable[[Any], int]:
    known: dict[str, int] = {}  # a literal's integer, once proven (the hook is asked of the same literals often)

    def hook(value: Any) -> int:
        if type(value) is not Number:
            raise _Fallback
        literal = value.literal
        number = known.get(literal) if type(literal) is str else None
        if number is not None:
            return number
        if not value.is_integer:
            raise _Fallback
        number = int(literal)
        if keep_literal and literal != str(number):  # -0: the preparation keeps the literal
            raise _Fallback
        if type(literal) is str and len(known) < _KNOWN_LITERALS:
            known[literal] = number
        return number
    return hook


_KNOWN_LITERALS = 4096


def _encoder(keep_literal: bool) -> Any:
    make = getattr(json.encoder, "c_make_encoder", None)
    escape = getattr(json.encoder, "c_encode_basestring", None)
    if make is None or escape is None:  # no C accelerator: everything takes the pure writer
        return None
    return make(None, _number_hook(keep_literal), escape, None, ":", ",", True, False, False)


_CANON_C = _encoder(False)
_PREP_C = _encoder(True)


def _fast(value: Any, encoder: Any) -> str | None:
    if encoder is None or not _plain(value):
        return None
    try:
        return "".join(encoder(value, 0))
    except (_Fallback, RecursionError, ValueError, TypeError):
        return None


def canon(value: Any) -> bytes:
    """The gateway canonical form's bytes (dialect §1); raise CanonError outside the domain."""
    text = _fast(value, _CANON_C)
    if text is not None:
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:
            pass
    return canon_pure(value)


def preparation_form(value: Any) -> bytes:
    """The preparation's canonical bytes (dialect §9.5); raise CanonError outside its domain."""
    text = _fast(value, _PREP_C)
    if text is not None:
        for raw, escaped in _PREP_REPLACE:
            if raw in text:
                text = text.replace(raw, escaped)
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:
            pass
    return preparation_form_pure(value)


def digest(data: bytes) -> str:
    """`sha256:` and the lowercase hex SHA-256 of the bytes as given (RFC 0001, dialect §1)."""
    return PREFIX + hashlib.sha256(data).hexdigest()


def canonical_digest(value: Any) -> str:
    """The digest of a value's canon bytes (dialect §1, §2)."""
    return digest(canon(value))


def preparation_binding(preparation_digest: str) -> bytes:
    """The preparation's binding, exactly these bytes (dialect §9.5)."""
    return ('{"kind":"judgment-pack-runner/preparation/1","digest":"' + preparation_digest + '"}').encode("ascii")
