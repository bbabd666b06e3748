"""The scan's smaller fast paths (issue #20), each held to the plain computation it replaces.

- file_scan.split_lines: `str.split("\\n")` where the text holds no CR, else NEWLINE.split (CRLF, CR, LF);
  held to NEWLINE.split on generated texts of every line ending, mixed and at the ends.

The entropy finders' order of questions (a run's distinct characters, the skip, the count; engine.py
`_finder`) changes no finding: test_scan_one_pass.py holds every file's findings to the long way, and
test_exempt_values_fast.py holds the skip to structure.exempt_strings.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from judgment_exchange.scan.file_scan import split_lines
from judgment_exchange.scan.structure import NEWLINE

_texts = st.lists(st.sampled_from(["a", " ", "\n", "\r", "\r\n", "\u2028", "\x85", "\x0b", "é"]),
                  max_size=40).map("".join)


@settings(max_examples=500, deadline=None, derandomize=True)
@given(st.one_of(_texts, st.lists(_texts).map("".join), st.text(max_size=30)))
def test_split_lines_is_the_newline_split(text: str) -> None:
    assert split_lines(text) == NEWLINE.split(text)


def test_split_lines_by_hand() -> None:
    assert split_lines("") == [""]
    assert split_lines("a\nb\n") == ["a", "b", ""]
    assert split_lines("a\r\nb\rc\n") == ["a", "b", "c", ""]
    assert split_lines("a\u2028b\x85c") == ["a\u2028b\x85c"]  # only CR and LF end a line


@settings(max_examples=500, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["a", "aa", "a" * 30, "b", " ", "\n", "é", "A"]), max_size=30).map("".join),
       st.integers(0, 200))
def test_the_marked_run_ends_where_the_first_unmarked_character_stands(marked: str, at: int) -> None:
    """engine._MARKED_RUN (a repeat of "a" matched from a position) against engine._NOT_MARKED searched from it."""
    from judgment_exchange.scan.engine import _MARKED_RUN, _NOT_MARKED

    at = min(at, len(marked))
    after = _NOT_MARKED.search(marked, at)
    assert _MARKED_RUN.match(marked, at).end() == (after.start() if after is not None else len(marked))


_PARTS = st.sampled_from(["entry.json", "README.md", "dialect.json", "output.json", "fixtures", "basic", "", "*",
                          "case.json", "sources.json", "profiles.json", "binding.json", "preparation.json", "x.json",
                          "fixtures*", "[a]", "Case.json", "readme.md", "."])


@settings(max_examples=600, deadline=None, derandomize=True)
@given(st.lists(_PARTS, min_size=1, max_size=4).map("/".join))
def test_file_bound_by_name_is_the_pattern_by_pattern_bound(relpath: str) -> None:
    """scan.file_bound (BOUNDS looked up by a path's parts) against the fnmatch of every pattern in order."""
    from judgment_exchange import scan

    assert scan._BY_NAME is not None  # the lookup is taken, not bypassed
    assert scan.file_bound(relpath) == scan._file_bound_by_pattern(relpath)


# --- prefilter.present by anchors (issue #20), held to every literal looked up alone ------------------------

def _engine_literals() -> list[str]:
    from judgment_exchange.scan.engine import engine

    e = engine()
    return sorted({w for c in e.lookup.anchored.values() for w, _ in c} | set(e.lookup.short))


_ENGINE_LITERALS = _engine_literals()
_AROUND = ["", "x", "a", "e", "k", "_", "-", "/", ":", "=", ".", " ", "\n", "é", "ñ", "y"]


@settings(max_examples=800, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_ENGINE_LITERALS + [w[:-1] for w in _ENGINE_LITERALS]
                                + [w[1:] for w in _ENGINE_LITERALS]
                                + _AROUND), max_size=14).map("".join))
def test_the_engines_lookup_finds_exactly_the_literals_that_stand(text: str) -> None:
    """The engine's own literals (every plugin's, lower case), whole, cut short at either end, touching, overlapping
    and around anchors: `present` against `w in text` for every literal."""
    from judgment_exchange.scan.engine import engine
    from judgment_exchange.scan.prefilter import present

    lookup = engine().lookup
    assert present(text, lookup) == {w for w in _ENGINE_LITERALS if w in text}


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.sets(st.text(alphabet=st.sampled_from(list("abk_-.()[]*+?\\|^$ñé")), min_size=1, max_size=6), max_size=12),
       st.lists(st.text(alphabet=st.sampled_from(list("abk_-.()[]*+?\\|^$ñé")), max_size=6), max_size=8).map("".join))
def test_any_literal_set_is_looked_up_exactly(literals: set[str], text: str) -> None:
    """Literals of pattern characters, repeated characters and characters outside the frequency table, each
    anchored somewhere: the lookup finds exactly those that stand, and every literal has an anchor of its own."""
    from judgment_exchange.scan.prefilter import lookup_order, present

    lookup = lookup_order(literals)
    for text_ in (text, "".join(sorted(literals)), " ".join(literals), text + "".join(literals)):
        assert present(text_, lookup) == {w for w in literals if w in text_}
    anchored = {w for found in lookup.anchored.values() for w, _ in found}
    assert anchored == {w for w in literals if len(w) > 2}
    assert all(w[i] == c for c, found in lookup.anchored.items() for w, i in found)


def test_the_anchors_are_rarer_than_first_characters() -> None:
    """The point of the anchors: the characters the search stops at stand less often than the literals' first ones."""
    from judgment_exchange.scan.engine import engine
    from judgment_exchange.scan.prefilter import FREQUENCY

    lookup = engine().lookup
    firsts = {w[0] for found in lookup.anchored.values() for w, _ in found}
    assert sum(FREQUENCY.get(c, 0) for c in lookup.anchored) < sum(FREQUENCY.get(c, 0) for c in firsts) / 2
