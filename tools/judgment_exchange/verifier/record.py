"""Reading the record and findings 6–9 (dialect §11, "Reading the record")."""

from __future__ import annotations

import json
import re
from typing import Any

from ..canon import preparation_binding
from ..codes import verifier as codes
from .results import Found
from .values import json_equal

BINDING_KIND = "judgment-pack-runner/preparation/1"
_DECODER = json.JSONDecoder()


_WHITESPACE = re.compile(r"[ \t\n\r]*")


def _ws(text: str, pos: int) -> int:
    """The position after JSON whitespace (RFC 8259 §2) from `pos`."""
    match = _WHITESPACE.match(text, pos)
    assert match is not None  # [ \t\n\r]* matches at any position, if only the empty string
    return match.end()


def raw_member(text: str, name: str) -> str | None:
    """The text of a top-level member's value as the object's text writes it, or None when absent."""
    pos = _ws(text, 0)
    if pos >= len(text) or text[pos] != "{":
        return None
    pos = _ws(text, pos + 1)
    while pos < len(text) and text[pos] != "}":
        key, pos = _DECODER.raw_decode(text, pos)  # the member's name: the text was read strictly (phase 2)
        pos = _ws(text, _ws(text, pos) + 1)
        _, end = _DECODER.raw_decode(text, pos)
        if key == name:
            return text[pos:end]
        pos = _ws(text, end)
        if text[pos] == ",":
            pos = _ws(text, pos + 1)
    return None


def record_refusal(line: bytes, record: Any) -> str | None:
    """Phase 5 for the record: one line, one object with an object inputs, no binding but for case."""
    if b"\n" in line or b"\r" in line:
        return "the record is one line, with no line feed or carriage return"
    if not isinstance(record, dict) or not isinstance(record.get("inputs"), dict):
        return "the record is one object with an object inputs"
    for key in record:
        if key != "binding" and key.translate(_ASCII_LOWER) == "binding":
            return f"the record names {key!r}, a binding but for case"
    return None


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _same_set(a: list[Any], b: list[Any]) -> bool:
    return all(any(json_equal(x, y) for y in b) for x in a) and all(any(json_equal(y, x) for x in a) for y in b)


def findings(line: bytes | None, record: Any, facts: dict[str, Any], evidence: dict[str, Any], cites: list[Any],
             preparation_digest: str, require_binding: bool) -> tuple[Found | None, str]:
    """Findings 6–9 in order, and the reading's binding: matches, absent or not-checked."""
    if line is None:
        if require_binding:
            return Found(codes.UNBOUND, "a binding is required and no record is given"), ""
        return None, "not-checked"
    inputs = record["inputs"]
    record_cites = record.get("cites", [])
    if (
        "facts" not in inputs
        or "evidence" not in inputs
        or not json_equal(inputs["facts"], facts)
        or not json_equal(inputs["evidence"], evidence)
        or not isinstance(record_cites, list)
        or not _same_set(record_cites, cites)
    ):
        return Found(codes.RECORD_INPUTS_DIFFER, "the record's inputs or cites are not the preparation's"), ""
    if "binding" not in record:
        if require_binding:
            return Found(codes.UNBOUND, "a binding is required and the record carries none"), ""
        return None, "absent"
    binding = record["binding"]
    if not isinstance(binding, dict) or binding.get("kind") != BINDING_KIND:
        return Found(codes.BINDING_FOREIGN_KIND, f"the record's binding is not of kind {BINDING_KIND}"), ""
    raw = raw_member(line.decode("utf-8"), "binding")
    if raw is None or raw.encode("utf-8") != preparation_binding(preparation_digest):
        return Found(codes.BINDING_MISMATCH, "the record's binding bytes are not the preparation's binding"), ""
    return None, "matches"
