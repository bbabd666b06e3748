"""`scan.inert`: a text of JSON punctuation and whitespace alone is not given to the engine (issue #20, the
empty catalog). Held to `scan_text` itself: on every such text the engine finds nothing, so skipping it
changes no report; a near miss of one character more is still scanned."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from judgment_exchange.scan import INERT, inert
from judgment_exchange.scan.file_scan import scan_text

INERT_TEXTS = st.text(alphabet=sorted(INERT), max_size=200)


def _exists(parts: list[str]) -> bool:
    return True


@given(INERT_TEXTS, st.sampled_from(["manifest.json", "README.md", "entry.json", "fixtures/f/case.json", "x.txt"]))
def test_the_engine_finds_nothing_in_an_inert_text(text: str, relpath: str) -> None:
    assert inert(text)
    assert scan_text(relpath, text, _exists) == []


def test_by_hand() -> None:
    assert inert("[]\n") and inert("") and inert(" {}\r\n,:[ ]")
    assert not inert("[1]") and not inert('[""]') and not inert("[]#") and not inert("[]/")
    assert not inert("[" * 5000), "a long text is scanned whatever it holds"


@given(INERT_TEXTS, st.characters(blacklist_characters=sorted(INERT)), INERT_TEXTS)
def test_near_miss_one_other_character_is_scanned(before: str, other: str, after: str) -> None:
    assert not inert(before + other + after)
