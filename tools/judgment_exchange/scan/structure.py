"""Where a JSON document's strings are, and which members legitimately hold hex (RFC 0019 §3; dialect §§4.4, 5.1, 5.2,
9).

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
from collections import Counter
from fnmatch import fnmatchcase
from functools import lru_cache
from itertools import accumulate, repeat
from operator import add
from typing import Any, Callable, Iterator, Mapping, NamedTuple, cast

from ..codes.shapes import LOCAL_PATH

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
        return cast(str, json.loads(raw))  # raw is one JSON string's text (a _STRING match): json reads a str
    except ValueError:
        raise _NotJson from None


def strings(text: str, holding: Mapping[int, list[int]] | None = None) -> list[Token] | None:
    """Every string of one JSON text, or None when the text is not one JSON value (the form checks refuse it).

    With `holding` (line → sorted columns), only the strings that hold one of the columns of their
    line are given. A text json reads (NaN and Infinity refused) is read by json and its strings
    placed by `_STRING` (`_by_json`); any other text is walked (`_strings`), which gives None or the
    strings it can read.
    """
    fast = _by_json(text, holding)
    if fast is not None:
        return fast
    try:
        return _strings(text, holding)
    except _NotJson:
        return None


class _Members(list[tuple[str, Any]]):
    """An object's members in order, duplicates kept (json's object_pairs_hook)."""


def _by_json(text: str, wanted: Mapping[int, list[int]] | None) -> list[Token] | None:
    """The tokens `_strings` gives, for a text json reads as one value; None for any other text.

    What json reads, the walk reads too (its grammar is the walk's, narrowed), and then the walk's
    tokens are the value's strings in document order: each member name before its value, the
    elements of an array in order, each with its member path (`_path`). In such a text every `"`
    outside a string opens one, and a `"` inside one is escaped: so the k-th match of `_STRING`
    searched from the start is the k-th string's text, and in a text without a backslash the string
    holding an offset is found by counting the quotes before it (`_holding`). With `wanted`, only
    the strings holding a wanted column of their line are kept, as the walk keeps them.
    """
    if '"' not in text:
        return None  # no string: the walk's answer (an empty list or None) costs nothing
    try:
        value = json.loads(text, object_pairs_hook=_Members, parse_constant=_reject)
    except (ValueError, RecursionError):
        return None
    place = _Lines(text)
    spans: list[tuple[int, int]] | dict[int, tuple[int, int]]
    if wanted is None:
        spans = [m.span() for m in _STRING.finditer(text)]
        keep = list(range(len(spans)))
    elif "\\" in text:
        spans = [m.span() for m in _STRING.finditer(text)]
        opens = [a for a, _ in spans]
        chosen: set[int] = set()
        for line, offset in place.offsets(wanted):
            at = bisect_right(opens, offset) - 1
            if at >= 0 and spans[at][1] > offset and place.line(spans[at][0]) == line:
                chosen.add(at)
        keep = sorted(chosen)
    else:
        found = _holding(text, place, wanted)
        keep = sorted(found)
        spans = found
    if not keep:
        return []
    try:
        strings_at = _nth_strings(value, keep)
    except RecursionError:
        return None
    surrogates = _SURROGATE.search(text) is not None or "\\u" in text
    out: list[Token] = []
    for k, (path, is_key, decoded) in zip(keep, strings_at, strict=False):
        a, b = spans[k]
        line = place.line(a)
        col = a - place.start(line)
        value_text = _SURROGATE.sub("\ufffd", decoded) if surrogates else decoded
        out.append(_new_token(Token, (_path(path), is_key, line, col, col + (b - a), text[a:b], value_text)))
    return out


class _Lines:
    """Lines of a text (ending at CRLF, CR or LF): the line of an offset and where a line begins."""

    def __init__(self, text: str) -> None:
        if "\r" in text:
            self.starts = line_starts(text)
        else:  # the same offsets, summed in C: each line's length and its newline
            parts = text.split("\n")
            self.starts = list(accumulate(map(add, map(len, parts[:-1]), repeat(1)), initial=0))

    def line(self, offset: int) -> int:
        return bisect_right(self.starts, offset)

    def start(self, line: int) -> int:
        return self.starts[line - 1]

    def offsets(self, wanted: Mapping[int, list[int]]) -> list[tuple[int, int]]:
        """(line, offset) of each wanted column, in order of offset, on the lines the text has."""
        out: list[tuple[int, int]] = []
        for line in sorted(wanted):
            if 1 <= line <= len(self.starts):
                base = self.starts[line - 1]
                out.extend((line, base + column) for column in wanted[line])
        out.sort(key=lambda item: item[1])
        return out


def _holding(text: str, place: _Lines, wanted: Mapping[int, list[int]]) -> dict[int, tuple[int, int]]:
    """Index → span of each string holding a wanted column of its line, in a JSON text without a backslash.

    Every `"` of such a text opens or closes a string, so an offset with q quotes before it is inside
    string q // 2 when q is odd, at the opening quote of string q // 2 when q is even and a quote
    stands there, and in no string otherwise.
    """
    out: dict[int, tuple[int, int]] = {}
    quotes, counted, opened = 0, 0, -1
    for line, offset in place.offsets(wanted):  # in order of offset: each part of the text counted once
        between = text.count('"', counted, offset)
        if between:
            opened = text.rfind('"', counted, offset)  # the last quote before: it opens a string when q is odd
        quotes += between
        counted = offset
        if quotes % 2:
            start = opened
        elif offset < len(text) and text[offset] == '"':
            start = offset
        else:
            continue
        if place.line(start) != line:
            continue
        k = quotes // 2
        if k not in out:
            out[k] = (start, text.index('"', start + 1) + 1)
    return out


def _path(full: list[str]) -> Path:
    """A string's member path as the walk gives it: whole up to MAX_PATH, else the first three, DEEP, the last two."""
    if len(full) <= MAX_PATH:
        return tuple(full)
    return tuple(full[:3]) + (DEEP,) + tuple(full[-2:])


class _Found(Exception):
    """Every wanted string is found: the rest of the value is not visited."""


def _nth_strings(value: object, indices: list[int]) -> list[tuple[list[str], bool, str]]:
    """(member path, whether a member name, the string) of the strings at the given indices (ascending) of a
    value json read, counted in document order (a member's name, then its value)."""
    out: list[tuple[list[str], bool, str]] = []
    targets = iter(indices)
    want = next(targets)
    count = 0
    path: list[str] = []

    def take(is_key: bool, string: str) -> None:
        nonlocal want
        out.append((list(path), is_key, string))
        want = next(targets, -1)
        if want < 0:
            raise _Found

    def visit(node: list[Any]) -> None:  # a JSON array or object (_Members) as json read it
        nonlocal count
        path.append("")
        if type(node) is _Members:
            for name, item in node:
                path[-1] = name
                if count == want:
                    take(True, name)
                count += 1
                kind = type(item)
                if kind is str:
                    if count == want:
                        take(False, item)
                    count += 1
                elif kind is list or kind is _Members:
                    visit(item)
        else:
            for at, item in enumerate(node):
                kind = type(item)
                if kind is str:
                    if count == want:
                        path[-1] = str(at)
                        take(False, item)
                    count += 1
                elif kind is list or kind is _Members:
                    path[-1] = str(at)
                    visit(item)
        path.pop()

    try:
        if type(value) is str:
            take(False, value)
        elif type(value) is list or type(value) is _Members:
            visit(value)
    except _Found:
        pass
    return out


_KEY = re.compile("(" + _STRING.pattern + r")[ \t\r\n]*:[ \t\r\n]*", re.S)
"""A member name, the colon after it and the space around it."""
_VALUE = re.compile("(" + _STRING.pattern + r")[ \t\r\n]*", re.S)
"""A string value and the space after it."""


class _Frame:
    """An object or array the walk is in: its opening character, and the index of its element read (an array's)."""

    __slots__ = ("opening", "index")

    def __init__(self, opening: str) -> None:
        self.opening = opening
        self.index = 0


def _strings(text: str, wanted: Mapping[int, list[int]] | None) -> list[Token] | None:
    starts = line_starts(text)
    tokens: list[Token] = []
    kept = tokens.append

    def add(t: Token | None) -> None:
        if t is not None:
            kept(t)

    stack: list[_Frame] = []
    path: list[str] = []
    space = cast(Callable[[str, int], re.Match[str]], _SPACE.match)  # [ \t\r\n]* matches at every position
    key_at = _KEY.match
    value_at = _VALUE.match
    surrogates = _SURROGATE.search(text) is not None or "\\u" in text
    pos = space(text, 0).end()
    expect_value = True
    n = len(text)

    def token(m: re.Match[str], key: str | None, decoded: str) -> Token | None:
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
                stack.append(_Frame(ch))
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
            if frame.opening == "[":
                frame.index += 1
                path.append(str(frame.index))
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
        if ch == ("}" if frame.opening == "{" else "]"):
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
LOCAL = LOCAL_PATH

_RECEIPT: tuple[tuple[Path, re.Pattern[str]], ...] = (
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


def _under(
    prefixes: tuple[Path, ...], members: tuple[tuple[Path, re.Pattern[str]], ...]
) -> tuple[tuple[Path, re.Pattern[str]], ...]:
    return tuple((prefix + suffix, form) for prefix in prefixes for suffix, form in members)


_ACQUISITION_PREFIXES: tuple[Path, ...] = (("*", "response"), ("*", "response", "result", "responses", "*"))

HEX_MEMBERS: dict[str, tuple[tuple[Path, re.Pattern[str]], ...]] = {
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
    return (
        len(pattern) == len(path)
        and DEEP not in path
        and all(p == "*" or p == q for p, q in zip(pattern, path, strict=False))
    )


def exempt_from_secrets(relpath: str, token: Token) -> bool:
    """Whether "secret-" is among `exempt_prefixes`: a hex member of its document, in exactly its form."""
    return _exempt_at(hex_members(relpath), token.path, token.value)


def _exempt_at(members: tuple[tuple[Path, re.Pattern[str]], ...], path: Path, value: str) -> bool:
    for pattern, form in members:
        if _matches(pattern, path) and form.fullmatch(value):
            return True
    return False


_QUOTED = re.compile('"([^"]*)"')
"""A string of a JSON text without a backslash: from a quote to the next (every quote there opens or closes one)."""


def exempt_strings(relpath: str, text: str) -> tuple[Counter[str], Counter[str]] | None:
    """How many strings of each value `exempt_from_secrets` exempts, and how many strings of each value the text
    holds, for a JSON text json reads and that holds no backslash; None for any other text.

    Such a text's strings (member names included) are the walk's, and `_QUOTED` finds each of them
    whole. The exempt ones are found by following every hex member's path at once in the value
    json read (`_follow`): a value where a path ends, or a member name at a path's last step, in
    the form that path gives, counted once however many paths reach it.
    """
    if "\\" in text or '"' not in text:
        return None
    try:
        value = json.loads(text, object_pairs_hook=_Members, parse_constant=_reject)
    except (ValueError, RecursionError):
        return None
    exempt: Counter[str] = Counter()
    root = _member_trie(relpath)
    if root[0]:
        try:
            _follow(value, (root,), exempt)
        except RecursionError:
            return None
    return exempt, Counter(_QUOTED.findall(text)) if exempt else Counter()


def exempt_values(relpath: str, text: str) -> Callable[[str], bool] | None:
    """Whether every string of the text with a value is one `exempt_from_secrets` exempts (issue #20): the
    question `exempt_strings`' two counts answer (the value among the exempt, counted as often as among
    all strings), asked of the values the scan meets, for a JSON text json reads and that holds no
    backslash; None for any other text, as `exempt_strings`.

    The value json reads into dicts (no hook) is followed (`_follow_values`): where no member name is
    given twice in one object that is the reading of `exempt_strings`, so the exempt counts are its
    counts; where one is, a dict keeps one of its members, so a count is at most `exempt_strings`'
    count, and a value is said exempt only where `exempt_strings` says so too (never more often:
    tests/scan/test_exempt_values_fast.py). The strings of a value v are counted as the occurrences of
    `"v"`: an exempt value matches a form (hex, `sha256:` or `tls:sha256:` and hex), and in a JSON
    text without a backslash such an occurrence begins at a quote that opens a string (between a
    closing quote and the next opening one stand only spaces, `,:[]{}` and numbers, true, false and
    null, and at least one `,` or `:`; none of which spells a form), so each is one string of that
    value, `_QUOTED`'s count of it.
    """
    if "\\" in text or '"' not in text:
        return None
    try:
        value = json.loads(text, parse_constant=_reject)
    except (ValueError, RecursionError):
        return None
    exempt: Counter[str] = Counter()
    root = _member_trie(relpath)
    if root[0]:
        try:
            _follow_values(value, _state((root,)), exempt)
        except RecursionError:
            return None
    if not exempt:
        return _never
    known: dict[str, bool] = {}

    def all_exempt(value: str) -> bool:
        answer = known.get(value)
        if answer is None:
            count = exempt.get(value, 0)
            answer = known[value] = count > 0 and text.count(f'"{value}"') == count
        return answer

    return all_exempt


def _never(value: str) -> bool:
    return False


class _State(NamedTuple):
    """`_next` of a set of trie steps, made once: where each name named leads and where any other name leads,
    each as (a test of the forms of the paths ending there or None, the state going on or None)."""

    by_name: dict[str, _Lead]
    other: _Lead | None


_Lead = tuple[Callable[[str], object] | None, "_State | None"]
"""Where a name leads: a test of the forms of the paths ending there (None: none ends there), the state going on
(None: no path goes on)."""


_STATES: dict[tuple[int, ...], _State] = {}
"""The state of a set of trie steps, by their ids (the tries live as long as the process, `_trie_of`)."""


def _state(steps: tuple[_Trie, ...]) -> _State:
    key = tuple(id(step) for step in steps)
    found = _STATES.get(key)
    if found is None:
        by_name, other = _next(steps)

        def lead(step: _Step) -> _Lead:
            forms, deeper = step
            return _fullmatch(forms), (_state(deeper) if deeper else None)

        found = _STATES[key] = _State({name: lead(step) for name, step in by_name.items()},
                                      lead(other) if other is not None else None)
    return found


def _fullmatch(forms: tuple[re.Pattern[str], ...]) -> Callable[[str], object] | None:
    """A test whether a string fully matches one of the forms (None: no form): `any(form.fullmatch …)`."""
    if not forms:
        return None
    if len(forms) == 1:
        return forms[0].fullmatch
    return lambda text: any(form.fullmatch(text) for form in forms)


_CONTAINERS = (dict, list)


def _follow_values(node: object, state: _State, exempt: Counter[str]) -> None:
    """`_follow` over json's own reading (dicts): the same strings counted, for a text without a name given
    twice in one object (the trie's steps made into states once, `_state`). Where no step goes on from a
    name but from those named, only those are looked up."""
    by_name, other = state
    if type(node) is dict:
        if other is None and len(by_name) < len(node):
            members: Iterator[tuple[str, object, _Lead | None]] = (
                (name, node[name], lead) for name, lead in by_name.items() if name in node
            )
        else:
            members = ((name, item, by_name.get(name, other)) for name, item in node.items())
        for name, item, lead in members:
            if lead is None:
                continue
            match, deeper = lead
            if match is not None:
                if match(name):
                    exempt[name] += 1
                if type(item) is str and match(item):
                    exempt[item] += 1
            if deeper is not None and type(item) in _CONTAINERS:
                _follow_values(item, deeper, exempt)
    elif type(node) is list:
        for index, item in enumerate(node):
            lead = by_name.get(str(index), other) if by_name else other
            if lead is None:
                continue
            match, deeper = lead
            if match is not None and type(item) is str and match(item):
                exempt[item] += 1
            if deeper is not None and type(item) in _CONTAINERS:
                _follow_values(item, deeper, exempt)


_Trie = tuple[dict[str, "_Trie"], list[re.Pattern[str]]]
"""A step of the hex members' paths: the next steps by name ("*" any name or index), the forms of the paths
ending here."""


def _member_trie(relpath: str) -> _Trie:
    """The hex members of the document at `relpath` as a trie of their paths."""
    return _trie_of(_documents(relpath))


@lru_cache(maxsize=None)
def _trie_of(documents: tuple[str, ...]) -> _Trie:
    """The trie of the hex members of the document patterns given (few: the keys of HEX_MEMBERS). Kept for the
    process's life, so that `_NEXT` may know its steps by their ids."""
    root: _Trie = ({}, [])
    for pattern, form in (member for document in documents for member in HEX_MEMBERS[document]):
        node = root
        for step in pattern:
            if step not in node[0]:
                node[0][step] = ({}, [])
            node = node[0][step]
        node[1].append(form)
    return root


_Step = tuple[tuple[re.Pattern[str], ...], tuple[_Trie, ...]]
"""Where a name leads from a set of trie steps: the forms of the paths ending there, the steps going on."""

_NEXT: dict[tuple[int, ...], tuple[dict[str, _Step], _Step | None]] = {}
"""The next steps of a set of trie steps (by their ids; the tries live as long as the process, `_trie_of`)."""


def _next(steps: tuple[_Trie, ...]) -> tuple[dict[str, _Step], _Step | None]:
    """Where each name the steps name leads, and where any other name leads (None: nowhere)."""
    key = tuple(id(step) for step in steps)
    found = _NEXT.get(key)
    if found is None:
        wild = [step[0]["*"] for step in steps if "*" in step[0]]
        named: dict[str, list[_Trie]] = {}
        for step in steps:
            for name, child in step[0].items():
                if name != "*":
                    named.setdefault(name, []).append(child)

        def lead(children: list[_Trie]) -> _Step:
            forms = tuple(form for child in children for form in child[1])
            return forms, tuple({id(child): child for child in children if child[0]}.values())

        found = _NEXT[key] = ({name: lead(children + wild) for name, children in named.items()},
                              lead(wild) if wild else None)
    return found


def _follow(node: object, steps: tuple[_Trie, ...], exempt: Counter[str]) -> None:
    """Count the exempt strings below `node`, reached by the trie steps `steps` (every path at once)."""
    by_name, other = _next(steps)
    if type(node) is _Members:
        for name, item in node:
            lead = by_name.get(name, other)
            if lead is None:
                continue
            forms, deeper = lead
            if forms:
                if any(form.fullmatch(name) for form in forms):
                    exempt[name] += 1
                if type(item) is str and any(form.fullmatch(item) for form in forms):
                    exempt[item] += 1
            if deeper:
                _follow(item, deeper, exempt)
    elif type(node) is list:
        for index, item in enumerate(node):
            lead = by_name.get(str(index), other) if by_name else other
            if lead is None:
                continue
            forms, deeper = lead
            if forms and type(item) is str and any(form.fullmatch(item) for form in forms):
                exempt[item] += 1
            if deeper:
                _follow(item, deeper, exempt)


def hex_members(relpath: str) -> tuple[tuple[Path, re.Pattern[str]], ...]:
    """The hex members (HEX_MEMBERS) of every document pattern the path matches, in the table's order."""
    return _members_of(_documents(relpath))


@lru_cache(maxsize=None)
def _members_of(documents: tuple[str, ...]) -> tuple[tuple[Path, re.Pattern[str]], ...]:
    return tuple(member for document in documents for member in HEX_MEMBERS[document])


@lru_cache(maxsize=1024)
def _documents(relpath: str) -> tuple[str, ...]:
    """The document patterns of HEX_MEMBERS the path matches, in the table's order."""
    depth = _depth(relpath)
    return tuple(document for document in HEX_MEMBERS if depth == _depth(document) and fnmatchcase(relpath, document))


def exempt_prefixes(relpath: str, token: Token) -> tuple[str, ...]:
    """The code prefixes this string is exempt from: "secret-" at a hex member of its form, "local-path" for a
    pointer."""
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
