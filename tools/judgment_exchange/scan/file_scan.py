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
from collections import defaultdict
from typing import Callable, Iterable

from .engine import Hit, engine
from .links import check_links
from .paths import find_local_paths
from .shapes import GENERIC, SHAPES
from .structure import LOCAL, NEWLINE, SECRETS, Token, exempt_prefixes, in_result, strings

Finding = tuple[int, str, str]

PAYLOAD_MIN = 256
"""A base64 value in a recorded result at least this long is a payload (far longer than any key it could be)."""

_BASE64 = re.compile(r"[A-Za-z0-9+/_-]+={0,2}")


def scan_text(relpath: str, text: str, exists: Callable[[list[str]], bool]) -> list[Finding]:
    """(line, code, words for the report) of every finding in one file, `relpath` relative to the entry."""
    lines = NEWLINE.split(text)
    name = relpath.rsplit("/", 1)[-1]
    hits = engine().scan_lines(name, enumerate(lines, start=1))
    tokens = strings(text) if name.endswith(".json") else None
    found: list[tuple[Hit, str]] = []
    if tokens is None:
        found.extend((hit, "") for hit in hits)
        found.extend(_local_paths_in_lines(lines))
    else:
        found.extend(_judge_json(relpath, lines, hits, tokens))
    out = _without_covered_generics(found)
    if name.lower().endswith(".md"):
        directory = relpath.split("/")[:-1]
        for link in check_links(lines, directory, exists):
            out.add((link.line, link.code, f"{SHAPES[link.code].name} (the target is not shown)"))
    return sorted(out)


def _judge_json(relpath: str, lines: list[str], hits: list[Hit], tokens: list[Token]) -> Iterable[tuple[Hit, str]]:
    by_line: dict[int, list[Token]] = defaultdict(list)
    for token in tokens:
        by_line[token.line].append(token)
    for hit in hits:
        if not _exempt(relpath, lines[hit.line - 1], hit, by_line[hit.line]):
            yield hit, ""
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
        if in_result(relpath, token) and not token.is_key and _is_payload(token.value):
            for hit in _scan_payload(token.value):
                words = f"{SHAPES[hit.code].name} inside a base64 value (the value is not shown)"
                yield Hit(token.line, hit.code, hit.value), words


def _exempt(relpath: str, line: str, hit: Hit, tokens: list[Token]) -> bool:
    """Whether every occurrence of the hit's value on its line sits in a string exempt from it by structure."""
    if not hit.value:
        return False
    covering = []
    for m in re.finditer(re.escape(hit.value), line):
        inside = [t for t in tokens if t.start <= m.start() and m.end() <= t.end]
        if not inside:
            return False
        covering.append(inside[0])
    if not covering:
        return False
    if all(SECRETS in exempt_prefixes(relpath, t) for t in covering):
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
