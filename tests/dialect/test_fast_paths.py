"""The dialect checker's hot pure functions, held to the straightforward ones they replaced (issue #12 item 2).

`phases._outside_canon` now looks for a number that is not an integer before it builds any pointer, and
`shapes.at`/`escape` skip the replacements a token does not need. Each is compared with the previous
implementation, kept here as the reference, on generated values: the same pointer (or None), the same text.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from judgment_exchange.dialect.phases import _outside_canon
from judgment_exchange.dialect.shapes import at, escape
from judgment_exchange.jsonstrict import Number


def _escape_before(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _at_before(path: str, *tokens: Any) -> str:
    return path + "".join("/" + _escape_before(str(t)) for t in tokens)


def _outside_canon_before(value: Any, path: str = "") -> str | None:
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, Number) and not item.is_integer:
            return where
        if isinstance(item, dict):
            stack.extend((v, _at_before(where, k)) for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((v, _at_before(where, i)) for i, v in reversed(list(enumerate(item))))
    return None


names = st.text(alphabet=st.sampled_from(list("ab~/01 é")), max_size=5)
numbers = st.sampled_from(["0", "-0", "7", "1.5", "1e2", "-3.0", "9007199254740992", "12"]).map(Number)
leaves = st.one_of(st.none(), st.booleans(), names, numbers)
documents = st.recursive(leaves, lambda children: st.one_of(
    st.lists(children, max_size=4), st.dictionaries(names, children, max_size=4)), max_leaves=30)


@settings(max_examples=500, deadline=None)
@given(documents, st.sampled_from(["", "/sources/0", "/a~1b"]))
def test_outside_canon_gives_the_pointer_the_straightforward_walk_gives(document, path):
    assert _outside_canon(document, path) == _outside_canon_before(document, path)


def test_outside_canon_names_the_first_fraction_in_document_order():
    """Hand-worked: the first non-integer in document order, with its name escaped."""
    document = {"a": [Number("1"), {"x/y": Number("2.5")}], "b": Number("1e3")}
    assert _outside_canon(document) == "/a/1/x~1y"
    assert _outside_canon({"a": [Number("1"), Number("-0")]}) is None


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab~/0é")), max_size=6),
       st.lists(st.one_of(names, st.integers(-5, 50)), max_size=4))
def test_at_and_escape_write_what_the_straightforward_ones_wrote(path, tokens):
    assert at(path, *tokens) == _at_before(path, *tokens)
    for token in tokens:
        if isinstance(token, str):
            assert escape(token) == _escape_before(token)


def test_at_by_hand():
    assert at("/sources", 0, "a/b~c") == "/sources/0/a~1b~0c"
    assert at("") == ""
