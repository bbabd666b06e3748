"""The strict reader's object hook in C (issue #20; jsonstrict `_pairs`): the members made into a dict at once,
and only where fewer members than pairs come of it (a name given twice) read one by one (`_pairs_once`,
the loop it was), so the value or the refusal is the loop's: held on generated pairs and on documents."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from judgment_exchange import jsonstrict
from judgment_exchange.jsonstrict import JsonRefusal

_names = st.sampled_from(["a", "b", "version", "kind", "é", "\U0001f600", "", "A"]) | st.text(max_size=3)


def _outcome(fn, pairs):
    try:
        value = fn(pairs)
    except JsonRefusal as exc:
        return ("refusal", exc.kind, exc.detail)
    return ("value", list(value.items()))


@settings(max_examples=600, deadline=None)
@given(st.lists(st.tuples(_names, st.integers(0, 3)), max_size=8))
def test_the_hook_is_the_loop(pairs) -> None:
    assert _outcome(jsonstrict._pairs, pairs) == _outcome(jsonstrict._pairs_once, pairs)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_names, st.integers(0, 3)), max_size=6), st.integers(0, 3))
def test_documents_with_names_given_twice_are_refused_as_by_the_loop(pairs, depth) -> None:
    text = "{" + ", ".join(json.dumps(k) + ": " + str(v) for k, v in pairs) + "}"
    for _ in range(depth):
        text = '{"x": [' + text + "]}"
    data = text.encode("utf-8")
    names = [k for k, _ in pairs]
    try:
        value = jsonstrict.parse(data)
    except JsonRefusal as exc:
        first = next(k for i, k in enumerate(names) if k in names[:i])
        assert exc.detail == f"the member name {jsonstrict.member(first)} is given twice in one object"
        return
    assert len(set(names)) == len(names)
    inner = value
    for _ in range(depth):
        inner = inner["x"][0]
    assert list(inner) == names
