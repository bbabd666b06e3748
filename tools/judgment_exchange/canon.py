"""The two canonical forms and digests (dialect §1 canon, §9.5 the preparation's form).

canon: members ordered by code point, no whitespace, strings raw UTF-8 with only `"`, `\\` and
controls below U+0020 escaped, integers in decimal with -0 written 0. Its domain is objects,
arrays, well-formed strings, integers (§1), true, false and null; anything else has no canon form.

The preparation's form (§9.5) is canon but for: &, <, >, U+2028 and U+2029 escaped, and every
number written as its literal (each must still be an integer; -0 stays -0).
"""

from __future__ import annotations

import hashlib
import re
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
_PREP_ESCAPES = _CANON_ESCAPES | {0x26: "\\u0026", 0x3C: "\\u003c", 0x3E: "\\u003e", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def _string(text: str, table: dict) -> str:
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


def _write(value: Any, table: dict, keep_literal: bool, out: list[str]) -> None:
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
        for i, key in enumerate(sorted(value)):
            if not isinstance(key, str):
                raise CanonError("a member name that is not a string")
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


def canon(value: Any) -> bytes:
    """The gateway canonical form's bytes (dialect §1); raise CanonError outside the domain."""
    out: list[str] = []
    _write(value, _CANON_ESCAPES, False, out)
    return "".join(out).encode("utf-8")


def preparation_form(value: Any) -> bytes:
    """The preparation's canonical bytes (dialect §9.5); raise CanonError outside its domain."""
    out: list[str] = []
    _write(value, _PREP_ESCAPES, True, out)
    return "".join(out).encode("utf-8")


def digest(data: bytes) -> str:
    """`sha256:` and the lowercase hex SHA-256 of the bytes as given (RFC 0001, dialect §1)."""
    return PREFIX + hashlib.sha256(data).hexdigest()


def canonical_digest(value: Any) -> str:
    """The digest of a value's canon bytes (dialect §1, §2)."""
    return digest(canon(value))


def preparation_binding(preparation_digest: str) -> bytes:
    """The preparation's binding, exactly these bytes (dialect §9.5)."""
    return ('{"kind":"judgment-pack-runner/preparation/1","digest":"' + preparation_digest + '"}').encode("ascii")
