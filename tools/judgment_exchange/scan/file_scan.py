"""One file's text, scanned: credentials, tokens and keys, local paths, and (for Markdown) links (RFC 0019 §§4, 6).

A JSON document is scanned twice over: its lines as written, where detect-secrets sees quotes and
member names, and each string that holds an escape, decoded, so that an escape cannot hide a shape.
Exemptions are structural (structure.py): a hex string at a member the receipt, profile, binding,
preparation or entry form gives it, in exactly its form; a JSON pointer where a dialect or a
preparation holds one. A long base64 string in a fixture's recorded result is a payload: its
decoded bytes are scanned for every named shape in each encoding payloads.py reads and for DER and
binary OpenSSH private keys; the generic entropy plugin judges it only when its bytes are neither
text nor a recognised file format (payloads.py), so an unclassified payload is never passed in silence.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from typing import Callable, Iterable

from ..codes.shapes import GENERIC, LOCAL_PATH, SCAN_INCOMPLETE, SECRET_HIGH_ENTROPY_BASE64, SECRET_PRIVATE_KEY, SHAPES
from .engine import Hit, engine
from .links import check_links
from .paths import anchored, find_local_paths
from .payloads import decode, read_payload
from .structure import (
    LOCAL,
    NEWLINE,
    SECRETS,
    Token,
    exempt_from_secrets,
    exempt_prefixes,
    exempt_values,
    hex_members,
    in_result,
    strings,
)

Finding = tuple[int, str, str]

INCOMPLETE = SCAN_INCOMPLETE

PAYLOAD_MIN = 256
"""A base64 value in a recorded result at least this long is a payload (far longer than any key it could be)."""

_BASE64 = re.compile(r"[A-Za-z0-9+/_-]+={0,2}")


def scan_text(relpath: str, text: str, exists: Callable[[list[str]], bool]) -> list[Finding]:
    """(line, code, words for the report) of every finding in one file, `relpath` relative to the entry."""
    lines = split_lines(text)
    name = relpath.rsplit("/", 1)[-1]
    skip = _exempt_skip(relpath, text, lines) if name.endswith(".json") else None
    hits = engine().scan_lines(name, enumerate(lines, start=1), skip)
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
        found.extend(_local_paths_in_lines(lines, text))
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


def _exempt_skip(relpath: str, text: str, lines: list[str]) -> Callable[[int, str], bool] | None:
    """The values `_judge_json` would exempt by structure (its first reading), or None where none can be.

    A value is skipped when each of its occurrences on its line (as `_exempt` finds them) is a whole
    string (a quote on each side) and every string of the text with that value is exempt
    (structure.exempt_values, which says so only where structure.exempt_strings' counts do): the
    string holding each occurrence is then exempt, as `_exempt` requires. The text is read on the
    first value asked.
    """
    if not hex_members(relpath):
        return None
    read: list[Callable[[str], bool]] = []  # [whether every string of a value is exempt], once read
    asked: dict[tuple[int, str], bool] = {}

    def skip(number: int, value: str) -> bool:
        if not read:
            read.append(exempt_values(relpath, text) or _never)
        if not value or not 1 <= number <= len(lines) or not read[0](value):
            return False
        answer = asked.get((number, value))
        if answer is None:
            answer = asked[(number, value)] = _whole_strings_only(value, lines[number - 1])
        return answer

    return skip


def _never(value: str) -> bool:
    return False


def _whole_strings_only(value: str, line: str) -> bool:
    """Whether the value occurs in the line, each occurrence (as `_exempt` finds them) with a quote on each side."""
    found = False
    for column in _literal(value, line):
        if column == 0 or line[column - 1] != '"' or line[column + len(value) : column + len(value) + 1] != '"':
            return False
        found = True
    return found


def _occurrences(lines: list[str], hits: list[Hit]) -> dict[int, list[int]]:
    """Line → columns at which a hit's value occurs on it, as `_exempt` finds them: the strings that can cover a hit."""
    columns: dict[int, set[int]] = defaultdict(set)
    for hit in hits:
        if hit.value:
            columns[hit.line].update(_literal(hit.value, lines[hit.line - 1]))
    return {line: sorted(found) for line, found in columns.items()}


def _judge_json(
    relpath: str, lines: list[str], hits: list[Hit], tokens: list[Token], strings_may_add: bool = True
) -> Iterable[tuple[Hit, str]]:
    """The hits not exempt by structure, then (unless `_strings_may_add` says none can) the strings' own findings."""
    by_line: dict[int, list[Token]] = defaultdict(list)
    if hits:
        for token in tokens:
            by_line[token.line].append(token)
    judged: dict[tuple[int, str, bool], bool] = {}  # _exempt reads a hit's line, value and whether base64's code
    for hit in hits:
        key = (hit.line, hit.value, hit.code == SECRET_HIGH_ENTROPY_BASE64)
        exempt = judged.get(key)
        if exempt is None:
            exempt = judged[key] = _exempt(relpath, lines[hit.line - 1], hit, by_line[hit.line])
        if not exempt:
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
                yield Hit(token.line, LOCAL_PATH, shape), f"{shape} (the value is not shown)"
        if _is_payload(token.value) and not token.is_key and in_result(relpath, token):
            for code, words in _scan_payload(token.value):
                yield Hit(token.line, code, token.value), words


def _exempt(relpath: str, line: str, hit: Hit, tokens: list[Token]) -> bool:
    """Whether every occurrence of the hit's value on its line sits in a string exempt from it by structure.

    `tokens` are the line's strings in order (or those of them holding an occurrence); they do not
    overlap, so the one that can hold an occurrence is the last to begin at or before it.
    """
    if not hit.value:
        return False
    covering = []
    starts = [t.start for t in tokens]
    for start in _literal(hit.value, line):
        at = bisect_right(starts, start) - 1
        if at < 0 or tokens[at].end < start + len(hit.value):
            return False
        covering.append(tokens[at])
    if not covering:
        return False
    if all(exempt_from_secrets(relpath, t) for t in covering):
        return True
    return hit.code == SECRET_HIGH_ENTROPY_BASE64 and all(
        in_result(relpath, t) and not t.is_key and _is_payload(t.value) for t in covering
    )


def _literal(value: str, line: str) -> Iterable[int]:
    """Where the value occurs in the line, left to right without overlap (re.finditer of the escaped value,
    without compiling a pattern as long as the value)."""
    at = line.find(value)
    while at >= 0:
        yield at
        at = line.find(value, at + len(value))


def _is_payload(value: str) -> bool:
    return len(value) >= PAYLOAD_MIN and _BASE64.fullmatch(value) is not None


def _scan_payload(value: str) -> list[tuple[str, str]]:
    """(code, words) of each finding in a base64 payload: named shapes in every text its bytes read as,
    a DER or binary OpenSSH private key, and, for bytes neither text nor a known format, the entropy check."""
    raw = decode(value)
    if raw is None:
        return _entropy_check(value)
    payload = read_payload(raw)
    found: dict[str, str] = {}
    if payload.key:
        found[SECRET_PRIVATE_KEY] = f"{payload.key} inside a base64 value (the value is not shown)"
    if payload.incomplete:
        found[INCOMPLETE] = "a base64 value holding more candidate key structures than the scan confirms"
    if not payload.classified:
        judged = _entropy_check(value)
        if judged:  # refused whatever else it holds: its readings as text are not scanned for more codes
            return list(found.items()) + judged
    for text in payload.texts:
        for hit in engine().scan_lines("payload", _numbered(text)):
            if hit.code not in GENERIC:
                found.setdefault(hit.code, f"{SHAPES[hit.code].name} inside a base64 value (the value is not shown)")
    return list(found.items())


def _entropy_check(value: str) -> list[tuple[str, str]]:
    """A payload that cannot be classified is judged as any base64 string is: by the base64 plugin's entropy limit."""
    plugin = engine().base64_entropy
    normal = value.replace("-", "+").replace("_", "/").rstrip("=")
    if plugin is None or plugin.calculate_shannon_entropy(normal) <= plugin.entropy_limit:
        return []
    code = SECRET_HIGH_ENTROPY_BASE64
    return [(code, f"{SHAPES[code].name}: a base64 value that is neither text nor a known file format "
                   "(the value is not shown)")]


def scan_names(paths: list[tuple[str, str]]) -> dict[str, list[tuple[str, str]]]:
    """Path → (code, words) of each named shape or local path in the last component of each (path, kind).

    A name is one line of text to every named shape's plugin; the generic codes (a secret-named
    member's value, high-entropy strings) are not applied to names, since a name has no member and a
    digest or run id is an ordinary name. The words give the name's kind and length, never the name.
    """
    names = [NEWLINE.sub(" ", path.rsplit("/", 1)[-1]) for path, _ in paths]
    out: dict[str, dict[str, str]] = defaultdict(dict)

    def add(index: int, code: str, shape: str) -> None:
        path, kind = paths[index]
        kind = {"special": "special file"}.get(kind, kind)
        words = f"the name of a {kind} in it ({len(names[index])} characters): {shape} (the value is not shown)"
        out[path].setdefault(code, words)

    for hit in engine().scan_lines("name", enumerate(names, start=1)) if names else ():
        if hit.code not in GENERIC:
            add(hit.line - 1, hit.code, SHAPES[hit.code].name)
    for index, name in enumerate(names):
        for _start, _end, shape in find_local_paths(name):
            add(index, LOCAL_PATH, shape)
    return {path: sorted(found.items()) for path, found in out.items()}


def _numbered(text: str) -> Iterable[tuple[int, str]]:
    return enumerate(split_lines(text), start=1)


def split_lines(text: str) -> list[str]:
    """NEWLINE.split(text): lines ending at CRLF, CR or LF; split at LF in C where the text holds no CR."""
    return text.split("\n") if "\r" not in text else NEWLINE.split(text)


def _local_paths_in_lines(lines: list[str], text: str) -> Iterable[tuple[Hit, str]]:
    """Every local path, line by line; none where the whole text holds no anchor (a line's anchor is the text's)."""
    if not anchored(text):
        return
    for number, line in enumerate(lines, start=1):
        for _start, _end, shape in find_local_paths(line):
            yield Hit(number, LOCAL_PATH, shape), f"{shape} (the value is not shown)"


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
