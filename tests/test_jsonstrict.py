"""Strict reading (dialect §1) and the byte bounds of §12, measured before parsing."""

from __future__ import annotations

import random

import pytest

from judgment_exchange.jsonstrict import MALFORMED, OVER_BOUND, Bounds, JsonRefusal, Number, depth, loads, measure

B = Bounds(max_bytes=1 << 20)


def refused(data: bytes, bounds: Bounds = B) -> str:
    with pytest.raises(JsonRefusal) as info:
        loads(data, bounds)
    return info.value.kind


@pytest.mark.parametrize("data", [
    b'{"a": 1, "a": 2}',
    b'[{"x": {"b": true, "b": false}}]',
    b'"\\ud800"',
    b'{"\\udc00": 1}',
    b'"\xed\xa0\x80"',
    b'NaN', b'[Infinity]', b'[-Infinity]',
    b'{} {}', b'1 2', b'', b'   ', b'\xef\xbb\xbf{}', b'{"a": "\x01"}', b"{'a': 1}", b'[1,]', b'01',
    b'\xff',
])
def test_malformed(data):
    assert refused(data) == MALFORMED


@pytest.mark.parametrize("data", [
    b' {"a": [1, 2, {"b": null}]} \n', b'"\\ud83d\\ude00"', b'{"a": 1, "A": 2}', b'[]', b'0', b'-0', b'true',
])
def test_near_misses_read(data):
    loads(data, B)


def test_numbers_keep_their_literal():
    value = loads(b'[1.0, -0, 1e2, 9007199254740993, 0.1]', B)
    assert [n.literal for n in value] == ["1.0", "-0", "1e2", "9007199254740993", "0.1"]
    assert [n.is_integer for n in value] == [False, True, False, False, False]
    assert Number("9007199254740991").is_integer and not Number("-9007199254740992").is_integer


def test_size_bound_is_on_bytes():
    assert refused(b'[' + b' ' * 20 + b']', Bounds(max_bytes=21)) == OVER_BOUND
    loads(b'[' + b' ' * 19 + b']', Bounds(max_bytes=21))


def test_nesting_counted_as_section_12_counts_it():
    assert depth(loads(b'{}', B)) == 1 and depth(loads(b'{"a": []}', B)) == 2 and depth(loads(b'"s"', B)) == 0
    loads(b'[' * 64 + b']' * 64, B)
    assert refused(b'[' * 65 + b']' * 65) == OVER_BOUND
    assert refused(b'{"a":' * 65 + b'1' + b'}' * 65) == OVER_BOUND


def test_deep_input_is_a_refusal_not_a_recursion_error():
    assert refused(b'[' * 100_000) == OVER_BOUND
    assert refused(b'[' * 100_000 + b']' * 100_000, Bounds(max_bytes=1 << 20)) == OVER_BOUND


def test_brackets_and_digits_in_strings_do_not_count():
    loads(b'["' + b'[' * 100 + b'", "' + b'9' * 200 + b'"]', B)


def test_number_literal_bounds():
    loads(b'[' + b'1' * 128 + b']', B)
    assert refused(b'[' + b'1' * 129 + b']') == OVER_BOUND
    loads(b'[1e308, 1E-308, 1e+308]', B)
    assert refused(b'[1e309]') == OVER_BOUND
    assert refused(b'[1e-0309]') == OVER_BOUND


def test_over_bound_is_measured_before_reading():
    # malformed and over the bound: the bound is reported, as §11 phase 1 precedes phase 2
    assert refused(b'[' * 70 + b'x') == OVER_BOUND


def _reference_measure(data: bytes, bounds: Bounds) -> str | None:
    """A second computation of §12's byte bounds, character by character (no regular expressions)."""
    if len(data) > bounds.max_bytes:
        return OVER_BOUND
    depth = best = 0
    in_string = escaped = False
    run = bytearray()
    runs = []
    for byte in data + b" ":
        c = chr(byte)
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
            continue
        if c in "0123456789+-.eE":
            run.append(byte)
            continue
        if run:
            runs.append(bytes(run))
            run.clear()
        if c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            best = max(best, depth)
        elif c in "]}":
            depth -= 1
    if best > bounds.max_depth:
        return OVER_BOUND
    for literal in runs:
        if len(literal) > bounds.max_number_chars:
            return OVER_BOUND
        text = literal.decode()
        cut = min((text.find(e) for e in "eE" if e in text), default=-1)
        if cut >= 0:
            rest = text[cut + 1:]
            if rest and rest[0] in "+-":
                rest = rest[1:]
            digits = ""
            for ch in rest:
                if not ch.isdigit():
                    break
                digits += ch
            if digits and int(digits) > bounds.max_exponent:
                return OVER_BOUND
    return None


def test_byte_bounds_agree_with_a_second_computation():
    rng = random.Random(12)
    alphabet = [b"[", b"]", b"{", b"}", b'"', b"\\", b"1", b"e", b"E", b"-", b"+", b".", b"9", b"0", b"a", b" ",
                b",", b":", b"3", b"e400", b"e-309", b"1" * 60, b'"[[["', b"true"]
    bounds = Bounds(max_bytes=4000, max_depth=6, max_number_chars=20, max_exponent=308)
    for _ in range(3000):
        data = b"".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
        try:
            measure(data, bounds)
            ours = None
        except JsonRefusal as exc:
            ours = exc.kind
        assert ours == _reference_measure(data, bounds), data
