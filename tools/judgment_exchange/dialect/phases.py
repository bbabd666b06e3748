"""The dialect's phases of §11 — count (3), version (4), form (5), kind (6) — and the whole check of one document."""

from __future__ import annotations

from typing import Any

from ..canon import CanonError, canonical_digest
from ..codes.dialect import INPUT_MALFORMED, INPUT_OVER_BOUND, KIND_UNREAD
from ..jsonstrict import OVER_BOUND as JSON_OVER_BOUND
from ..jsonstrict import Bounds, JsonRefusal, Number, measure, parse
from .counts import count_refusal
from .reads import SourceInfo, check_copy, check_read
from .root import document_format
from .rule import RuleTargets
from .scope import case_parameters, source_parameters
from .shapes import Malformed, at, closed, fail, need_array, shown
from .sources import ALL_KINDS, check_kind_members, check_name_and_kind
from .targets import check_admits, check_targets, check_unmapped
from .version import version_refusal

DIALECT_BYTES = 131072
DIALECT_BOUNDS = Bounds(max_bytes=DIALECT_BYTES, max_depth=64)


def _any_fraction(value: Any) -> bool:
    """Whether any number in the value is not an integer (§1); no pointer is built (order does not matter)."""
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        if isinstance(item, Number):
            if not item.is_integer:
                return True
        elif isinstance(item, dict):
            extend(item.values())
        elif isinstance(item, list):
            extend(item)
    return False


def _outside_canon(value: Any, path: str = "") -> str | None:
    """The pointer of the first number that is not an integer (§1), the one way a parsed value leaves canon.

    The pointer is built only when there is one (`_any_fraction` first; issue #12 item 2)."""
    if not _any_fraction(value):
        return None
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, Number) and not item.is_integer:
            return where
        if isinstance(item, dict):
            stack.extend((v, at(where, k)) for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((v, at(where, i)) for i, v in reversed(list(enumerate(item))))
    return None


def _form(document: Any, in_canon: bool = False) -> None:
    """§§2–8 and §2.1 on one dialect document; raises Malformed at the first form it breaks.

    `in_canon`: the caller wrote the document's canonical form (its digest), so every number in it is an
    integer and `_outside_canon` would find none (issue #20): the walk is not made."""
    fmt = document_format(document)
    doc: dict[str, Any] = document
    where = None if in_canon else _outside_canon(doc)
    if where is not None:
        raise fail(where, "a number that is not an integer (§1): the dialect is outside the canon domain and has no "
                          "digest (§2)")
    written: list[tuple[str, RuleTargets]] = []
    case_params: dict[str, str] = {}
    if "case" in doc:
        case = closed(doc["case"], "/case", ("facts", "evidence"), ("parameters",), what="case")
        case_params = case_parameters(case, fmt)
        written.append(("case", check_copy({"facts": case["facts"], "evidence": case["evidence"]}, "/case")))
    sources = need_array(doc.get("sources", []), "/sources")
    if "sources" in doc and not sources and fmt.one_spelling:
        raise fail("/sources", f"written as the empty array, which {fmt.label} refuses: leave it out (§2's encoding "
                               "rule)")
    if "case" not in doc and not sources:
        raise fail("", "a dialect has a case or at least one source; this one has neither (§3, §4)")
    earlier_targets: dict[str, set[str]] = {}
    earlier: list[SourceInfo] = []
    for i, source in enumerate(sources):
        path = at("/sources", i)
        name, kind = check_name_and_kind(source, path, fmt.family, set(earlier_targets))
        own = source_parameters(source, path, fmt, case_params, earlier_targets)
        scope = {**case_params, **own, "runAt": "timestamp"}
        fields = check_kind_members(source, path, kind, scope, fmt.family)
        targets = check_read(source["read"], at(path, "read"), scope, kind, fmt.family, i, name, fields, earlier)
        written.append((name, targets))
        earlier_targets[name] = set(targets.facts)
        earlier.append(SourceInfo(name, kind, fields))
    check_targets(written)
    if "admits" in doc:
        check_admits(doc["admits"], fmt, written)
    check_unmapped(doc, fmt)


def form_refusal(document: Any, in_canon: bool = False) -> tuple[str, str] | None:
    """§11 phase 5 on a dialect: (input-malformed, detail) for the first form broken, else None (`in_canon`:
    as `_form`'s)."""
    try:
        _form(document, in_canon)
    except Malformed as exc:
        return (INPUT_MALFORMED, exc.detail)
    except RecursionError:
        return (INPUT_OVER_BOUND, "nesting too deep to read (§12)")
    return None


def kind_refusal(document: Any, readable_kinds: frozenset[str] = ALL_KINDS) -> tuple[str, str] | None:
    """§11 phase 6: the first source, in order, of a kind the reader does not read; the detail starts with the kind."""
    sources = document.get("sources") if isinstance(document, dict) else None
    for i, source in enumerate(sources if isinstance(sources, list) else []):
        kind = source.get("kind") if isinstance(source, dict) else None
        if isinstance(kind, str) and kind not in readable_kinds:
            return (KIND_UNREAD, f"{kind}: the source {shown(source.get('name'))} at /sources/{i} is of a kind this "
                                 "reader does not read")
    return None


def check_phases(document: Any, readable_versions: frozenset[int | str], readable_kinds: frozenset[str],
                 in_canon: bool = False) -> tuple[str, str] | None:
    """Phases 3 to 6 on a parsed dialect, the first failing reported (`in_canon`: as `_form`'s; the answer
    is the same, tests/dialect/test_form_in_canon_fast.py)."""
    return (
        count_refusal(document)
        or version_refusal(document, readable_versions)
        or form_refusal(document, in_canon)
        or kind_refusal(document, readable_kinds)
    )


def _refusal(exc: JsonRefusal) -> tuple[str, str]:
    return (INPUT_OVER_BOUND if exc.kind == JSON_OVER_BOUND else INPUT_MALFORMED, exc.detail)


def measure_document(data: bytes, bounds: Bounds) -> tuple[str, str] | None:
    """Phase 1 alone: the byte bounds of §12, taken on every document before any is read (§11)."""
    if not isinstance(data, (bytes, bytearray)):
        return (INPUT_MALFORMED, "the document is not bytes")
    try:
        measure(bytes(data), bounds)
    except JsonRefusal as exc:
        return _refusal(exc)
    return None


def read_document(data: bytes, bounds: Bounds) -> tuple[Any, tuple[str, str] | None]:
    """Phases 1 and 2: the byte bounds of §12, then §1's strict reading."""
    refused = measure_document(data, bounds)
    if refused:
        return None, refused
    try:
        return parse(bytes(data)), None
    except JsonRefusal as exc:
        return None, _refusal(exc)


def digest_of(document: Any) -> str | None:
    try:
        return canonical_digest(document)
    except CanonError:
        return None
