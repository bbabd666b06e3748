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
from bisect import bisect_right
from dataclasses import dataclass
from fnmatch import fnmatchcase

_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\.)*"', re.S)
_SCALAR = re.compile(r"-?[0-9][0-9eE.+-]*|true|false|null")
_SPACE = re.compile(r"[ \t\r\n]*")
NEWLINE = re.compile(r"\r\n|\r|\n")

Path = tuple[str, ...]

MAX_PATH = 32
"""Deeper strings keep a short path (first three members, a marker, the last two): no form member is that deep."""
DEEP = "\x00deep"
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Token:
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


def strings(text: str) -> list[Token] | None:
    """Every string of one JSON text, or None when the text is not one JSON value (the form checks refuse it)."""
    starts = line_starts(text)
    tokens: list[Token] = []
    stack: list[list] = []
    path: list[str] = []
    pos = _SPACE.match(text, 0).end()
    expect_value = True
    n = len(text)

    def token(m: re.Match, key: str | None) -> Token | None:
        try:
            value = _SURROGATE.sub("\ufffd", json.loads(m.group(0)))
        except ValueError:
            return None
        line = bisect_right(starts, m.start())
        col = m.start() - starts[line - 1]
        depth = len(path) + (key is not None)
        if depth <= MAX_PATH:
            tpath = tuple(path) + ((key,) if key is not None else ())
        else:
            tpath = tuple(path[:3]) + (DEEP,) + (tuple(path[-2:]) + ((key,) if key is not None else ()))[-2:]
        return Token(tpath, key is not None, line, col, col + len(m.group(0)), m.group(0), value)

    while True:
        if pos >= n:
            return None
        ch = text[pos]
        if expect_value:
            if ch == "{" or ch == "[":
                stack.append([ch, 0])
                pos = _SPACE.match(text, pos + 1).end()
                if pos < n and text[pos] == ("}" if ch == "{" else "]"):
                    stack.pop()
                    pos += 1
                    expect_value = False
                elif ch == "{":
                    m = _STRING.match(text, pos)
                    if not m:
                        return None
                    key = json.loads(m.group(0))
                    t = token(m, key)
                    if t is None:
                        return None
                    tokens.append(t)
                    path.append(key)
                    pos = _SPACE.match(text, m.end()).end()
                    if pos >= n or text[pos] != ":":
                        return None
                    pos = _SPACE.match(text, pos + 1).end()
                    continue
                else:
                    path.append("0")
                    continue
            elif ch == '"':
                m = _STRING.match(text, pos)
                if not m:
                    return None
                t = token(m, None)
                if t is None:
                    return None
                tokens.append(t)
                pos = m.end()
                expect_value = False
            else:
                m = _SCALAR.match(text, pos)
                if not m:
                    return None
                pos = m.end()
                expect_value = False
            pos = _SPACE.match(text, pos).end()
            if not stack:
                return tokens if pos == n else None
            continue
        frame = stack[-1]
        if ch == ",":
            pos = _SPACE.match(text, pos + 1).end()
            path.pop()
            if frame[0] == "[":
                frame[1] += 1
                path.append(str(frame[1]))
            else:
                m = _STRING.match(text, pos)
                if not m:
                    return None
                key = json.loads(m.group(0))
                t = token(m, key)
                if t is None:
                    return None
                tokens.append(t)
                path.append(key)
                pos = _SPACE.match(text, m.end()).end()
                if pos >= n or text[pos] != ":":
                    return None
                pos = _SPACE.match(text, pos + 1).end()
            expect_value = True
            continue
        if ch == ("}" if frame[0] == "{" else "]"):
            stack.pop()
            path.pop()
            pos = _SPACE.match(text, pos + 1).end()
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


def exempt_prefixes(relpath: str, token: Token) -> tuple[str, ...]:
    """The code prefixes this string is exempt from: "secret-" at a hex member of its form, "local-path" for a pointer."""
    out: list[str] = []
    for document, members in HEX_MEMBERS.items():
        if fnmatchcase(relpath, document) and _depth(relpath) == _depth(document):
            for pattern, form in members:
                if _matches(pattern, token.path) and form.fullmatch(token.value):
                    out.append(SECRETS)
                    break
    if not token.is_key and any(
        fnmatchcase(relpath, d) and _depth(relpath) == _depth(d) for d in POINTER_DOCUMENTS
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
        fnmatchcase(relpath, RESULTS_DOCUMENT)
        and _depth(relpath) == _depth(RESULTS_DOCUMENT)
        and len(token.path) >= len(RESULT_PREFIX)
        and _matches(RESULT_PREFIX, token.path[: len(RESULT_PREFIX)])
    )


def _depth(path: str) -> int:
    return path.count("/")
