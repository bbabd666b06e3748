"""Finding the scaffold's placeholders, held to the search it replaced (issue #12 item 2; catalog/placeholders.py).

`marker_in`, `in_json` and `in_text` first ask whether any marker occurs as a substring at all (most texts
hold none) and only then search the patterns and build paths. Each is compared with the previous
implementation, kept here as the reference: a search of every marker's pattern in order on every string,
every line, with every path built. Generated texts are made of the markers' pieces, name characters and
line breaks, so whole-token matches, near-misses (`no-replace-me`, `example-platforms`) and markers cut
by a line break all occur.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from judgment_exchange.catalog import placeholders
from judgment_exchange.catalog.placeholders import _PATTERNS, MARKERS, in_json, in_text, marker_in


def _marker_in_before(text: str) -> str | None:
    for marker, pattern in _PATTERNS:
        if pattern.search(text):
            return marker
    return None


def _in_json_before(value: object, at: tuple = ()) -> list:
    out = []
    stack = [(at, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            marker = _marker_in_before(item)
            if marker is not None:
                out.append((where, marker))
        elif isinstance(item, dict):
            stack.extend(reversed([(where + ((name, k),), v) for k, (name, v) in enumerate(item.items())]))
        elif isinstance(item, list):
            stack.extend(reversed([(where + (i,), v) for i, v in enumerate(item)]))
    return out


def _in_text_before(text: str) -> list:
    return [(n, m) for n, line in enumerate(text.splitlines(), 1) if (m := _marker_in_before(line)) is not None]


pieces = st.sampled_from(list(MARKERS) + [m[: len(m) // 2] for m in MARKERS] + [m[len(m) // 2:] for m in MARKERS]
                         + ["-", "a", "_", "0", " ", "\n", "\r\n", "\u2028", ".", "(", "x", "é"])
texts = st.lists(pieces, max_size=6).map("".join)
values = st.recursive(st.one_of(texts, st.none(), st.integers(0, 3)), lambda children: st.one_of(
    st.lists(children, max_size=3), st.dictionaries(texts, children, max_size=3)), max_leaves=12)


@settings(max_examples=600, deadline=None)
@given(texts)
def test_marker_in_and_in_text_find_what_every_pattern_finds(text):
    assert marker_in(text) == _marker_in_before(text)
    assert in_text(text) == _in_text_before(text)


@settings(max_examples=400, deadline=None)
@given(values)
def test_in_json_finds_what_the_full_walk_finds(value):
    assert in_json(value) == _in_json_before(value)


def test_near_misses_and_hits_by_hand():
    assert marker_in("no-replace-me") is None and marker_in("https://example.org/packs/replace-me") == "replace-me"
    assert in_text("a\nexample-platforms-team\nreplace\n-me") == []
    assert in_json({"a": ["x", {"b": "example-read"}]}) == [(( ("a", 0), 1, ("b", 0)), "example-read")]
    assert placeholders._may_hold("replace-me") and not placeholders._may_hold("replace me")
