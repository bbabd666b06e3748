"""structure.exempt_values, the scan's early skip of exempt hex (issue #20), held to structure.exempt_strings.

`exempt_values(relpath, text)(v)` says whether every string of the text with the value v is one
`exempt_from_secrets` exempts. It reads the text into json's own dicts (no hook), follows the hex
members' paths through states made once, and counts the strings of a value as the occurrences of
`"v"`. `exempt_strings` (json's reading with every member kept, and `_QUOTED`'s count of every
string) is the reference: on a text with no member name given twice in one object the answers are
its answers (v among the exempt, as often as among all strings); on one with a name given twice a
dict keeps one member, and the fast answer may be no where the reference says yes, never yes where
it says no. A no only leaves the value to `_judge_json`'s own reading, so the scan's findings do not
move (test_scan_one_pass.py holds findings with the skip to the long way without it).
"""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judgment_exchange.scan import structure

from .scan_samples import hex_of
from .test_scan_one_pass import (
    _CORPUS,
    _HEX_POOL,
    _RELPATHS,
    GENERATED_DOCUMENTS,
    _hex_documents,
    _walk_only,
    generated_document,
)

_DOCUMENTS = ("fixtures/basic/sources.json", "fixtures/basic/profiles.json", "fixtures/basic/preparation.json",
              "fixtures/basic/binding.json", "entry.json", "dialect.json", "README.md")


class _Twice(Exception):
    pass


def _once(pairs):
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        raise _Twice
    return dict(pairs)


def _names_twice(text: str) -> bool:
    try:
        json.loads(text, object_pairs_hook=_once)
    except _Twice:
        return True
    except ValueError:
        return False
    return False


def _reference(relpath: str, text: str):
    counted = structure.exempt_strings(relpath, text)
    if counted is None:
        return None
    exempt, every = counted
    return lambda value: value in exempt and exempt[value] == every[value]


def _values_of(text: str) -> set[str]:
    """Every string of the text (the walk's), the pool's hex and what stands between quotes."""
    tokens = _walk_only(text) or []
    return {t.value for t in tokens} | set(_HEX_POOL) | set(text.split('"')[1::2])


def _held(relpath: str, text: str) -> int:
    """Hold the fast answers to the reference on every value; the number of values both say are exempt."""
    fast = structure.exempt_values(relpath, text)
    slow = _reference(relpath, text)
    assert (fast is None) == (slow is None), relpath
    if fast is None:
        return 0
    twice = _names_twice(text)
    both = 0
    for value in sorted(_values_of(text)):
        got, want = bool(fast(value)), bool(slow(value))
        if twice:
            assert not got or want, (relpath, value)
        else:
            assert got == want, (relpath, value)
        both += got and want
    return both


def test_the_corpus_is_answered_as_exempt_strings_counts() -> None:
    """Every file of the scan's corpus (demo catalog, vectors, scan cases, hostile plantings) as each document."""
    exempt = 0
    for _, text in _CORPUS:
        for relpath in _RELPATHS:
            exempt += _held(relpath, text)
    assert exempt > 20  # the demo's signatures, digests, keys and salts are among them


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(*GENERATED_DOCUMENTS)
def test_generated_documents_are_answered_as_exempt_strings_counts(assignments, noise, indent) -> None:
    """Hex at the members that hold it and beside them (a step short, one more, renamed, a member named twice),
    in arrays and as member names, with documents of the hex members' names around them."""
    text = generated_document(assignments, noise, indent)
    for relpath in _DOCUMENTS:
        _held(relpath, text)


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_hex_documents, st.sampled_from(_DOCUMENTS))
def test_documents_of_hex_names_alone_are_answered_as_exempt_strings_counts(text, relpath) -> None:
    _held(relpath, text)


def test_a_member_named_twice_is_never_said_exempt_more_often() -> None:
    """Where a dict keeps the second of two members of one name, the first one's exempt signature is not counted:
    the fast answer is no (the reference's is yes), and the scan's own reading judges the value."""
    first, second = hex_of(128), hex_of(128)
    text = (f'{{"a": {{"response": {{"receipt": {{"signature": "{first}"}}, '
            f'"receipt": {{"signature": "{second}"}}}}}}}}')
    relpath = "fixtures/basic/sources.json"
    assert json.loads(text)  # json reads it; the strict reader would refuse the name given twice
    fast, slow = structure.exempt_values(relpath, text), _reference(relpath, text)
    assert slow(first) and slow(second)
    assert not fast(first) and fast(second)


def test_a_value_also_outside_an_exempt_member_is_not_exempt() -> None:
    signature = hex_of(128)
    receipt = {"a": {"response": {"receipt": {"signature": signature}, "note": signature}}}
    relpath = "fixtures/basic/sources.json"
    for text in (json.dumps(receipt), json.dumps(receipt, indent=2)):
        assert not structure.exempt_values(relpath, text)(signature)
        assert not _reference(relpath, text)(signature)
        receipt_only = json.dumps({"a": {"response": {"receipt": {"signature": signature}}}})
        assert structure.exempt_values(relpath, receipt_only)(signature)


def test_texts_json_does_not_read_or_with_a_backslash_are_not_read() -> None:
    relpath = "fixtures/basic/sources.json"
    for text in ('{"a": "\\u0041"}', '{"a": ', "[NaN]", "", "1", '{"a": 1} x', "[" * 5000 + "]" * 5000):
        assert structure.exempt_values(relpath, text) is None
        assert structure.exempt_strings(relpath, text) is None


def test_the_count_of_quoted_values_is_the_count_of_strings() -> None:
    """The strings of a form's value counted as occurrences of `"v"`, against `_QUOTED`'s count, on texts where a
    digest follows a closing quote, ends a member name and stands in arrays."""
    digest = "sha256:" + hex_of(64)
    texts = [json.dumps({digest: digest, "x": [digest, digest, {"y": digest}], "z": "tls:" + digest}),
             json.dumps([digest] * 3, indent=1), json.dumps({"a": digest + "x", "b": "x" + digest})]
    for text in texts:
        every = Counter(structure._QUOTED.findall(text))
        for value in (digest, "tls:" + digest):
            assert text.count(f'"{value}"') == every[value]


_DIGESTS = ["sha256:" + hex_of(64), "sha256:" + hex_of(64), hex_of(64), "plain"]


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["upgrade", "pack", "other"]), st.sampled_from(_DIGESTS + ["x", "y"]),
                          st.sampled_from(_DIGESTS)), min_size=1, max_size=6), st.booleans())
def test_names_at_a_members_last_step_are_counted_as_exempt_strings_counts(members, indent) -> None:
    """entry.json's upgrade/* and pack/digests/*: a member name there in a digest's form is an exempt string of its
    own (named twice, beside the same digest as a value, and elsewhere)."""
    parts = []
    for where, name, value in members:
        inner = json.dumps(name) + ": " + json.dumps(value)
        parts.append(json.dumps(where) + ": " + ("{" + json.dumps("digests") + ": {" + inner + "}}" if where == "pack"
                                                 else "{" + inner + "}"))
    text = "{" + (",\n " if indent else ", ").join(parts) + "}"
    _held("entry.json", text)


def test_a_digest_named_at_upgrade_is_counted_as_a_name_and_as_a_value() -> None:
    digest = "sha256:" + hex_of(64)
    text = json.dumps({"upgrade": {digest: "sha256:" + hex_of(64), "x": digest}})
    assert _reference("entry.json", text)(digest)
    assert structure.exempt_values("entry.json", text)(digest)
