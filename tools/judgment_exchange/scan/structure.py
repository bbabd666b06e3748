"""Where a JSON document's strings are, and which members legitimately hold hex (RFC 0019 §3; dialect §§4.4, 5.1, 5.2, 9).

`strings(text)` walks a JSON text once and gives every string (member names included) with its
member path, its line and its column span, without building the value. `exempt(relpath, token)`
answers which scan codes a string is exempt from: only a member the receipt, profile, binding,
preparation or entry form gives to a digest, a signature, a key id, a key, a salt or a commitment,
and only when the value has exactly that form. The same hex anywhere else is still a finding.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left, bisect_right
from fnmatch import fnmatchcase
from typing import Mapping, NamedTuple

_STRING = re.compile(r'"[^"\\\x00-\x1f]*(?:\\.[^"\\\x00-\x1f]*)*"', re.S)
"""A JSON string's text, written unrolled (runs of plain characters between escapes): the same strings as the
alternation of a plain character or an escape under one star, without a backtracking entry per character
(which took 80 MB to match a 0.5 MB string)."""
_SCALAR = re.compile(r"-?[0-9][0-9eE.+-]*|true|false|null")
_SPACE = re.compile(r"[ \t\r\n]*")
NEWLINE = re.compile(r"\r\n|\r|\n")

Path = tuple[str, ...]

MAX_PATH = 32
"""Deeper strings keep a short path (first three members, a marker, the last two): no form member is that deep."""
DEEP = "\x00deep"
_SURROGATE = re.compile("[\ud800-\udfff]")


class Token(NamedTuple):
    """A JSON string: its member `path` (names and indices as strings), whether it is a member name.

    `value` is the decoded string, a lone surrogate replaced by U+FFFD (the form checks refuse one).
    """

    path: Path
    is_key: bool
    line: int
    start: int
    end: int
    raw: str
    value: str


def line_starts(text: str) -> list[int]:
    """Offsets at which each line begins, lines ending at CRLF, CR or LF."""
    return [0] + [m.end() for m in NEWLINE.finditer(text)]


_new_token = tuple.__new__


def _reject(constant: str) -> None:
    raise ValueError(constant)


def _strict_json(text: str) -> bool:
    """Whether json reads the text as one value, NaN and Infinity refused: then the walk below reads it as one too.

    json's grammar is the walk's, narrowed (numbers, constants): what json reads, the walk reads.
    """
    try:
        json.loads(text, parse_constant=_reject)
    except (ValueError, RecursionError):
        return False
    return True


class _NotJson(Exception):
    """A string whose escapes do not decode: the text is not one JSON value."""


def _decoded(raw: str) -> str:
    """A JSON string's value: the text between its quotes when it holds no escape, else json's reading."""
    if "\\" not in raw:
        return raw[1:-1]
    try:
        return json.loads(raw)
    except ValueError:
        raise _NotJson from None


def strings(text: str, holding: Mapping[int, list[int]] | None = None) -> list[Token] | None:
    """Every string of one JSON text, or None when the text is not one JSON value (the form checks refuse it).

    With `holding` (line → sorted columns), only the strings that hold one of the columns of their
    line are given; past the last of them, the rest of the text is read by json if it can be.
    """
    try:
        return _strings(text, holding)
    except _NotJson:
        return None


_KEY = re.compile("(" + _STRING.pattern + r")[ \t\r\n]*:[ \t\r\n]*", re.S)
"""A member name, the colon after it and the space around it."""
_VALUE = re.compile("(" + _STRING.pattern + r")[ \t\r\n]*", re.S)
"""A string value and the space after it."""


def _strings(text: str, wanted: Mapping[int, list[int]] | None) -> list[Token] | None:
    starts = line_starts(text)
    tokens: list[Token] = []
    kept = tokens.append

    def add(t: Token | None) -> None:
        if t is not None:
            kept(t)

    stack: list[list] = []
    path: list[str] = []
    space = _SPACE.match
    key_at = _KEY.match
    value_at = _VALUE.match
    surrogates = _SURROGATE.search(text) is not None or "\\u" in text
    pos = space(text, 0).end()
    expect_value = True
    n = len(text)

    def token(m: re.Match, key: str | None, decoded: str) -> Token | None:
        at = m.start()
        line = bisect_right(starts, at)
        col = at - starts[line - 1]
        raw = m.group(1)
        if wanted is not None:
            columns = wanted.get(line)
            if columns is None:
                return None
            i = bisect_left(columns, col)
            if i == len(columns) or columns[i] >= col + len(raw):
                return None
        value = _SURROGATE.sub("\ufffd", decoded) if surrogates else decoded
        if len(path) + (key is not None) <= MAX_PATH:
            tpath = (*path, key) if key is not None else tuple(path)
        else:
            tpath = tuple(path[:3]) + (DEEP,) + (tuple(path[-2:]) + ((key,) if key is not None else ()))[-2:]
        return _new_token(Token, (tpath, key is not None, line, col, col + len(raw), raw, value))

    beyond = n
    if wanted:
        beyond = max(
            (starts[line - 1] + columns[-1] for line, columns in wanted.items() if columns and line <= len(starts)),
            default=n,
        )
    while True:
        if pos > beyond:
            if _strict_json(text):
                return tokens
            beyond = n
        if pos >= n:
            return None
        ch = text[pos]
        if expect_value:
            if ch == "{" or ch == "[":
                stack.append([ch, 0])
                pos = space(text, pos + 1).end()
                if pos < n and text[pos] == ("}" if ch == "{" else "]"):
                    stack.pop()
                    pos = space(text, pos + 1).end()
                    expect_value = False
                    if not stack:
                        return tokens if pos == n else None
                    continue
                if ch == "{":
                    m = key_at(text, pos)
                    if not m:
                        return None
                    key = _decoded(m.group(1))
                    add(token(m, key, key))
                    path.append(key)
                    pos = m.end()
                else:
                    path.append("0")
                continue
            if ch == '"':
                m = value_at(text, pos)
                if not m:
                    return None
                add(token(m, None, _decoded(m.group(1))))
                pos = m.end()
            else:
                m = _SCALAR.match(text, pos)
                if not m:
                    return None
                pos = space(text, m.end()).end()
            expect_value = False
            if not stack:
                return tokens if pos == n else None
            continue
        frame = stack[-1]
        if ch == ",":
            pos = space(text, pos + 1).end()
            path.pop()
            if frame[0] == "[":
                frame[1] += 1
                path.append(str(frame[1]))
            else:
                m = key_at(text, pos)
                if not m:
                    return None
                key = _decoded(m.group(1))
                add(token(m, key, key))
                path.append(key)
                pos = m.end()
            expect_value = True
            continue
        if ch == ("}" if frame[0] == "{" else "]"):
            stack.pop()
            path.pop()
            pos = space(text, pos + 1).end()
            if not stack:
                return tokens if pos == n else None
            continue
        return None


DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
TLS_DIGEST = re.compile(r"tls:sha256:[0-9a-f]{64}")
HEX128 = re.compile(r"[0-9a-f]{128}")
HEX64 = re.compile(r"[0-9a-f]{64}")
HEX32 = re.compile(r"[0-9a-f]{32}")
POINTER = re.compile(r"(?:/(?:[^~/]|~[01])*)*", re.S)

SECRETS = "secret-"
LOCAL = "local-path"

_RECEIPT: tuple[tuple[Path, re.Pattern], ...] = (
    (("receipt", "signature"), HEX128),
    (("receipt", "prevSignature"), HEX128),
    (("receipt", "keyId"), HEX32),
    (("receipt", "argumentsCommitment"), DIGEST),
    (("receipt", "resultDigest"), DIGEST),
    (("receipt", "caller", "tokenDigest"), DIGEST),
    (("receipt", "acquisition", "adapter", "digest"), DIGEST),
    (("receipt", "acquisition", "peerIdentity"), TLS_DIGEST),
    (("receipt", "acquisition", "schema"), DIGEST),
    (("receipt", "acquisition", "statement"), DIGEST),
    (("salts", "args"), HEX64),
    (("salts", "statement"), HEX64),
)
"""Receipt (gateway §1.2a, version 3) and salt members (dialect §5.2) that hold hex by their form."""


def _under(prefixes: tuple[Path, ...], members: tuple[tuple[Path, re.Pattern], ...]):
    return tuple((prefix + suffix, form) for prefix in prefixes for suffix, form in members)


_ACQUISITION_PREFIXES: tuple[Path, ...] = (("*", "response"), ("*", "response", "result", "responses", "*"))

HEX_MEMBERS: dict[str, tuple[tuple[Path, re.Pattern], ...]] = {
    "entry.json": (
        (("dialect", "digest"), DIGEST),
        (("output", "digest"), DIGEST),
        (("fixtures", "*", "preparationDigest"), DIGEST),
        (("pack", "digests", "*"), DIGEST),
        (("requires", "inputProfile"), DIGEST),
        (("requires", "connectionProfile"), DIGEST),
        (("upgrade", "*"), DIGEST),
    ),
    "dialect.json": (
        (("sources", "*", "profileDigest"), DIGEST),
        (("sources", "*", "webProfiles", "*", "profileDigest"), DIGEST),
    ),
    "fixtures/*/sources.json": _under(_ACQUISITION_PREFIXES, _RECEIPT)
    + ((("*", "response", "result", "responses", "*", "profile", "digest"), DIGEST),),
    "fixtures/*/profiles.json": (
        (("*", "publicKey"), HEX64),
        (("*", "adapter", "digest"), DIGEST),
    ),
    "fixtures/*/binding.json": (
        (("dialect",), DIGEST),
        (("sources", "*", "profileDigest"), DIGEST),
        (("sources", "*", "webProfiles", "*", "profileDigest"), DIGEST),
    ),
    "fixtures/*/preparation.json": (
        (("mappingDigest",), DIGEST),
        (("cites", "*", "signature"), HEX128),
        (("lineage", "*", "receipt", "signature"), HEX128),
        (("lineage", "*", "receipts", "*", "signature"), HEX128),
        (("lineage", "*", "readDigest"), DIGEST),
    ),
}
"""Per document (path relative to the entry), the members that hold a digest, signature, key id, key or salt."""

POINTER_MEMBERS: frozenset[str] = frozenset({"pointer", "from", "field", "target"})
POINTER_ARRAYS: frozenset[str] = frozenset({"basis", "candidateFrom", "unmapped"})
POINTER_DOCUMENTS: tuple[str, ...] = ("dialect.json", "output.json", "fixtures/*/preparation.json")
"""Documents whose JSON pointers (dialect §§6, 9.3) may read like a path: /home/… is a member there."""

RESULT_PREFIX: Path = ("*", "response", "result")
RESULTS_DOCUMENT = "fixtures/*/sources.json"


def _matches(pattern: Path, path: Path) -> bool:
    return len(pattern) == len(path) and DEEP not in path and all(p == "*" or p == q for p, q in zip(pattern, path))


def exempt_from_secrets(relpath: str, token: Token) -> bool:
    """Whether "secret-" is among `exempt_prefixes`: a hex member of its document, in exactly its form."""
    depth = _depth(relpath)
    for document, members in HEX_MEMBERS.items():
        if depth == _depth(document) and fnmatchcase(relpath, document):
            for pattern, form in members:
                if _matches(pattern, token.path) and form.fullmatch(token.value):
                    return True
    return False


def exempt_prefixes(relpath: str, token: Token) -> tuple[str, ...]:
    """The code prefixes this string is exempt from: "secret-" at a hex member of its form, "local-path" for a pointer."""
    out: list[str] = []
    for document, members in HEX_MEMBERS.items():
        if _depth(relpath) == _depth(document) and fnmatchcase(relpath, document):
            for pattern, form in members:
                if _matches(pattern, token.path) and form.fullmatch(token.value):
                    out.append(SECRETS)
                    break
    if not token.is_key and any(
        _depth(relpath) == _depth(d) and fnmatchcase(relpath, d) for d in POINTER_DOCUMENTS
    ):
        name = token.path[-1] if token.path else ""
        parent = token.path[-2] if len(token.path) > 1 else ""
        if (name in POINTER_MEMBERS or parent in POINTER_ARRAYS) and POINTER.fullmatch(token.value):
            out.append(LOCAL)
    if relpath == "dialect.json" and _matches(("sources", "*", "path"), token.path) and token.value.startswith("/"):
        out.append(LOCAL)
    return tuple(out)


def in_result(relpath: str, token: Token) -> bool:
    """Whether a string is part of a fixture's recorded result, R of dialect §5.2, in sources.json."""
    return (
        _depth(relpath) == _depth(RESULTS_DOCUMENT)
        and fnmatchcase(relpath, RESULTS_DOCUMENT)
        and len(token.path) >= len(RESULT_PREFIX)
        and _matches(RESULT_PREFIX, token.path[: len(RESULT_PREFIX)])
    )


def _depth(path: str) -> int:
    return path.count("/")
