"""Strict JSON (dialect §1, §12) and canon (dialect §1, §9.5) on arbitrary and mutated input.

The standard library is the second computation: where both are defined, jsonstrict reads what
json.loads reads, and canon writes what json.dumps(sort_keys=True, separators=(',', ':'),
ensure_ascii=False) writes (shared/reference/receipts-and-canon.md §1); where they differ
(duplicates, NaN, lone surrogates, floats, integers beyond 2^53−1, §12's bounds) the strict side
refuses by name.
"""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from judgment_exchange.canon import CanonError, canon, canon_pure, preparation_form, preparation_form_pure
from judgment_exchange.jsonstrict import MALFORMED, MAX_SAFE, OVER_BOUND, Bounds, JsonRefusal, Number, loads

from . import corpus, mutate
from .profiles import bounded, budget

BOUNDS = Bounds(max_bytes=1 << 20, max_depth=64)


def _documents():
    return mutate.documents(corpus.json_documents())


@budget("strict-json")
@given(_documents())
def test_strict_json_reads_or_refuses_by_name(data: bytes) -> None:
    with bounded():
        try:
            value = loads(data, BOUNDS)
        except JsonRefusal as refusal:
            assert refusal.kind in (OVER_BOUND, MALFORMED)
            return
        try:
            canon(value)
        except CanonError:
            pass


# The standard library's reading, with what §1 and §12 add noted rather than enforced.
class _Lit(str):
    pass


def _stdlib(data: bytes) -> tuple[bool, object, list[str]]:
    """(read?, value, reasons the strict reader must refuse) by json.loads and a walk of its value."""
    reasons: list[str] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False, None, ["utf-8"]

    def pairs(items):
        out = {}
        for key, value in items:
            if key in out:
                reasons.append("duplicate")
            out[key] = value
        return _Pairs(items, out)

    def constant(name):
        reasons.append("constant")
        return _Lit(name)

    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_int=_Lit, parse_float=_Lit, parse_constant=constant)
    except (ValueError, RecursionError):
        return False, None, ["not-json"]
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, _Lit):
            if len(item) > BOUNDS.max_number_chars:
                reasons.append("number-length")
            exponent = re.search(r"[eE][+-]?([0-9]+)", item)
            if exponent and int(exponent.group(1)) > BOUNDS.max_exponent:
                reasons.append("exponent")
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                reasons.append("surrogate")
        elif isinstance(item, (_Pairs, list)):
            level += 1
            if level > BOUNDS.max_depth:
                reasons.append("depth")
            if isinstance(item, _Pairs):
                for key, member in item.items:
                    stack += [(key, level), (member, level)]
            else:
                stack += [(v, level) for v in item]
    return True, value, reasons


class _Pairs:
    def __init__(self, items, mapping) -> None:
        self.items, self.mapping = items, mapping


def _same(strict, stdlib) -> bool:
    stack = [(strict, stdlib)]
    while stack:
        a, b = stack.pop()
        if isinstance(a, Number):
            if not (isinstance(b, _Lit) and a.literal == b):
                return False
        elif isinstance(a, dict):
            if not isinstance(b, _Pairs) or list(a) != [k for k, _ in b.items]:
                return False
            stack += [(a[k], v) for k, v in b.items]
        elif isinstance(a, list):
            if not isinstance(b, list) or len(a) != len(b):
                return False
            stack += list(zip(a, b, strict=True))
        elif type(a) is not type(b) or a != b:
            return False
    return True


@budget("strict-json-stdlib")
@given(st.one_of(mutate.json_text(), mutate.mutated(corpus.json_documents())))
def test_strict_json_reads_what_the_standard_library_reads(data: bytes) -> None:
    with bounded():
        read, value, reasons = _stdlib(data)
        try:
            strict = loads(data, BOUNDS)
        except JsonRefusal:
            assert not read or reasons, ("the standard library reads a document §1 and §12 admit, the strict reader "
                                         "refused it")
            return
        assert read and not reasons, f"the strict reader read a document it must refuse ({reasons})"
        assert _same(strict, value)


# canon against json.dumps for in-domain values
_WELL_FORMED = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=12)
_IN_DOMAIN = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-MAX_SAFE, MAX_SAFE), _WELL_FORMED),
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(_WELL_FORMED, inner, max_size=6)),
    max_leaves=30,
)


def _stdlib_canon(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


@budget("canon-stdlib")
@given(_IN_DOMAIN)
def test_canon_is_the_standard_librarys_sorted_compact_form_in_domain(value) -> None:
    expected = _stdlib_canon(value)
    assert canon(value) == expected
    assert canon_pure(value) == expected  # canon takes the C encoder where it can: the pure writer too
    assert canon(loads(expected, BOUNDS)) == expected  # the same value read back as Numbers


@budget("preparation-form")
@given(_IN_DOMAIN)
def test_preparation_form_is_canon_with_five_characters_escaped(value) -> None:
    text = _stdlib_canon(value).decode("utf-8")
    for raw, escaped in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("\u2028", "\\u2028"),
                         ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)  # these occur only inside strings in JSON text
    assert preparation_form(value) == text.encode("utf-8")
    assert preparation_form_pure(value) == text.encode("utf-8")


def _in_domain(value) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if item is None or isinstance(item, bool):
            continue
        if isinstance(item, int):
            if abs(item) > MAX_SAFE:
                return False
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            for key, member in item.items():
                if not isinstance(key, str):
                    return False
                stack += [key, member]
        else:
            return False
    return True


_ANY = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
              st.sampled_from(["\ud800", "a\udfff", 2**53, -(2**53), 2**53 - 1, 1e300, -0.0]),
              st.binary(max_size=4), st.builds(Number, st.sampled_from(["1.0", "-0", "1e2", "9007199254740992", "7"]))),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner),
                            st.dictionaries(st.one_of(st.text(max_size=4), st.integers(), st.sampled_from(["\udc80"])),
                                            inner, max_size=4)),
    max_leaves=20,
)


@budget("canon-domain")
@given(_ANY)
def test_canon_writes_its_domain_and_refuses_the_rest_by_name(value) -> None:
    """Outside the domain (floats, integers beyond 2^53−1, lone surrogates, tuples, bytes, non-string
    names, Numbers that are not integers) canon raises CanonError and nothing else; inside, it agrees
    with the standard library."""
    has_number = "Number(" in repr(value)
    try:
        written = canon(value)
    except CanonError:
        assert has_number or not _in_domain(value)
        return
    if not has_number:
        assert _in_domain(value)
        assert written == _stdlib_canon(value)

