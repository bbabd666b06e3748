"""One file's text, scanned: credentials, tokens and keys, local paths, and (for Markdown) links (RFC 0019 §§4, 6).

A JSON document is scanned twice over: its lines as written, where detect-secrets sees quotes and
member names, and each string that holds an escape, decoded, so that an escape cannot hide a shape.
Exemptions are structural (structure.py): a hex string at a member the receipt, profile, binding,
preparation or entry form gives it, in exactly its form; a JSON pointer where a dialect or a
preparation holds one. A long base64 string in a fixture's recorded result is a payload: the
generic entropy plugin does not judge it, and its decoded text is scanned for every named shape.
"""

from __future__ import annotations

import base64
import binascii
import re
from bisect import bisect_right
from collections import defaultdict
from typing import Callable, Iterable

from .engine import Hit, engine
from .links import check_links
from .paths import anchored, find_local_paths
from .shapes import GENERIC, SHAPES
from .structure import LOCAL, NEWLINE, SECRETS, Token, exempt_from_secrets, exempt_prefixes, in_result, strings

Finding = tuple[int, str, str]

PAYLOAD_MIN = 256
"""A base64 value in a recorded result at least this long is a payload (far longer than any key it could be)."""

_BASE64 = re.compile(r"[A-Za-z0-9+/_-]+={0,2}")


def scan_text(relpath: str, text: str, exists: Callable[[list[str]], bool]) -> list[Finding]:
    """(line, code, words for the report) of every finding in one file, `relpath` relative to the entry."""
    lines = NEWLINE.split(text)
    name = relpath.rsplit("/", 1)[-1]
    hits = engine().scan_lines(name, enumerate(lines, start=1))
    found: list[tuple[Hit, str]] = []
    may_add = name.endswith(".json") and _strings_may_add(text)
    if not name.endswith(".json"):
        tokens: list[Token] | None = None
    elif may_add:
        tokens = strings(text)
    elif hits:
        tokens = strings(text, _occurrences(lines, hits))
    else:
        tokens = []
    if tokens is None:
        found.extend((hit, "") for hit in hits)
        found.extend(_local_paths_in_lines(lines))
    else:
        found.extend(_judge_json(relpath, lines, hits, tokens, may_add))
    out = _without_covered_generics(found)
    if name.lower().endswith(".md"):
        directory = relpath.split("/")[:-1]
        for link in check_links(lines, directory, exists):
            out.add((link.line, link.code, f"{SHAPES[link.code].name} (the target is not shown)"))
    return sorted(out)


_BASE64_MARKED = str.maketrans(
    dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-", "a")
)
"""Each character of a payload's alphabet read as "a", every other left as it is (none of them an "a")."""


def _strings_may_add(text: str) -> bool:
    """Whether a string of this JSON text could add a finding of its own, beside the lines' hits.

    Only an escaped string (a backslash), a local path (one of its anchors, in the text as in any
    string without an escape) or a payload (a run of base64 at least PAYLOAD_MIN - 2 long) can.
    Without one, only the strings holding a hit's value are needed (to judge the hits), and a text
    without hits gives no finding whether it is one JSON value or not.
    """
    return "\\" in text or anchored(text) or "a" * (PAYLOAD_MIN - 2) in text.translate(_BASE64_MARKED)


def _occurrences(lines: list[str], hits: list[Hit]) -> dict[int, list[int]]:
    """Line → columns at which a hit's value occurs on it, as `_exempt` finds them: the strings that can cover a hit."""
    columns: dict[int, set[int]] = defaultdict(set)
    for hit in hits:
        if hit.value:
            columns[hit.line].update(m.start() for m in re.finditer(re.escape(hit.value), lines[hit.line - 1]))
    return {line: sorted(found) for line, found in columns.items()}


def _judge_json(
    relpath: str, lines: list[str], hits: list[Hit], tokens: list[Token], strings_may_add: bool = True
) -> Iterable[tuple[Hit, str]]:
    """The hits not exempt by structure, then (unless `_strings_may_add` says none can) the strings' own findings."""
    by_line: dict[int, list[Token]] = defaultdict(list)
    if hits:
        for token in tokens:
            by_line[token.line].append(token)
    for hit in hits:
        if not _exempt(relpath, lines[hit.line - 1], hit, by_line[hit.line]):
            yield hit, ""
    if not strings_may_add:
        return
    escaped = [token for token in tokens if "\\" in token.raw]
    decoded_lines = [(k, sub) for k, token in enumerate(escaped) for _, sub in _numbered(token.value)]
    for hit in engine().scan_lines(relpath.rsplit("/", 1)[-1], decoded_lines) if decoded_lines else ():
        token = escaped[hit.line]
        if SECRETS not in exempt_prefixes(relpath, token):
            yield Hit(token.line, hit.code, hit.value), ""
    for token in tokens:
        paths = list(find_local_paths(token.value))
        if paths and LOCAL not in exempt_prefixes(relpath, token):
            for _start, _end, shape in paths:
                yield Hit(token.line, "local-path", shape), f"{shape} (the value is not shown)"
        if _is_payload(token.value) and not token.is_key and in_result(relpath, token):
            for hit in _scan_payload(token.value):
                words = f"{SHAPES[hit.code].name} inside a base64 value (the value is not shown)"
                yield Hit(token.line, hit.code, hit.value), words


def _exempt(relpath: str, line: str, hit: Hit, tokens: list[Token]) -> bool:
    """Whether every occurrence of the hit's value on its line sits in a string exempt from it by structure.

    `tokens` are the line's strings in order (or those of them holding an occurrence); they do not
    overlap, so the one that can hold an occurrence is the last to begin at or before it.
    """
    if not hit.value:
        return False
    covering = []
    starts = [t.start for t in tokens]
    for m in re.finditer(re.escape(hit.value), line):
        at = bisect_right(starts, m.start()) - 1
        if at < 0 or tokens[at].end < m.end():
            return False
        covering.append(tokens[at])
    if not covering:
        return False
    if all(exempt_from_secrets(relpath, t) for t in covering):
        return True
    return hit.code == "secret-high-entropy-base64" and all(
        in_result(relpath, t) and not t.is_key and _is_payload(t.value) for t in covering
    )


def _is_payload(value: str) -> bool:
    return len(value) >= PAYLOAD_MIN and _BASE64.fullmatch(value) is not None


def _scan_payload(value: str) -> list[Hit]:
    """Named shapes in a base64 payload's decoded text; a payload that is not text holds none we can recognise."""
    try:
        raw = base64.b64decode(value.replace("-", "+").replace("_", "/") + "=" * (-len(value) % 4), validate=True)
        text = raw.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return []
    if "\x00" in text:
        return []
    return [hit for hit in engine().scan_lines("payload", _numbered(text)) if hit.code not in GENERIC]


def _numbered(text: str) -> Iterable[tuple[int, str]]:
    return enumerate(NEWLINE.split(text), start=1)


def _local_paths_in_lines(lines: list[str]) -> Iterable[tuple[Hit, str]]:
    for number, line in enumerate(lines, start=1):
        for _start, _end, shape in find_local_paths(line):
            yield Hit(number, "local-path", shape), f"{shape} (the value is not shown)"


def _without_covered_generics(found: list[tuple[Hit, str]]) -> set[Finding]:
    """One finding per line and code; a generic code is dropped where a named shape on its line covers its value."""
    named: dict[int, list[str]] = defaultdict(list)
    for hit, _ in found:
        if hit.code.startswith(SECRETS) and hit.code not in GENERIC:
            named[hit.line].append(hit.value)
    out: set[Finding] = set()
    for hit, words in found:
        if hit.code in GENERIC and any(hit.value in v or v in hit.value for v in named[hit.line]):
            continue
        out.add((hit.line, hit.code, words or f"{SHAPES[hit.code].name} (the value is not shown)"))
    return out
