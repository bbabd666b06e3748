"""The verifier handed a checked dialect answers as it does from the bytes alone (issue #12 item 2).

`verify(docs, checked=dialect.check_form(docs.dialect).checked)` skips the dialect's own part of §11's
phases 1–5 (and reads each binding document and receipt signature once per checked dialect). The
expectation is always the other computation: `verify(docs)` on the same bytes, with nothing handed on.
Compared over every case of tests/cases/verifier (each refusal phase and finding with its near-miss),
over mutations of each case's other documents (so another document's phase-1/2/3 refusal still comes
before anything the dialect's form would say), and with checked dialects of other bytes, which must be
ignored. The answer is compared whole: code and detail, or every member of the reading.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from judgment_exchange import dialect as dialect_form
from judgment_exchange.canon import canon
from judgment_exchange.jsonstrict import parse
from judgment_exchange.verifier import Documents, check_readable, report_bytes, verify
from judgment_exchange.verifier.verify import (
    MAX_BINDING,
    MAX_DIALECT,
    MAX_INPUTS,
    MAX_PREPARATION,
    MAX_PROFILES,
    MAX_RECORD,
)

from .test_cases import CASES, NAMES, documents

DEMO = Path(__file__).resolve().parents[2] / "docs" / "demo-catalog" / "entries"
READING_CASE = "f-binding-matches"  # a reading with receipts (sources.json)
BOUNDS = {"case": MAX_INPUTS, "acquisitions": MAX_INPUTS, "profiles": MAX_PROFILES, "preparation": MAX_PREPARATION,
          "binding": MAX_BINDING, "record": MAX_RECORD}
OTHERS = tuple(BOUNDS)


def _docs(name: str) -> Documents:
    expected = json.loads((CASES / name / "expected.json").read_text(encoding="utf-8"))
    return documents(CASES / name, expected.get("requireBinding", False))


def _same(a, b) -> None:
    assert type(a) is type(b), (a, b)
    assert a == b
    assert report_bytes(a) == report_bytes(b)


def _checked(data: bytes) -> dialect_form.CheckedDialect | None:
    return dialect_form.check_form(data).checked


CHECKED = [n for n in NAMES if _checked(_docs(n).dialect) is not None]
# the mutation and foreign-bytes comparisons (about a hundred verifications a case) run on every third
# case with a checked dialect; most of them have a binding document
SAMPLE = CHECKED[::3]


def test_the_checked_phases_are_the_verifiers_own():
    """What the hand-on stands for is what admit would have checked: the dialect measured within the
    verifier's bounds for it (phase 1), and the versions and kinds read by default (phases 4, 6)."""
    from judgment_exchange.dialect.phases import DIALECT_BOUNDS
    from judgment_exchange.jsonstrict import Bounds

    assert DIALECT_BOUNDS == Bounds(max_bytes=MAX_DIALECT, max_depth=64)
    assert dialect_form.check_form(_docs(READING_CASE).dialect, readable_versions=frozenset({2})).checked is None
    assert check_form_equal(_docs(READING_CASE).dialect)


def check_form_equal(data: bytes) -> bool:
    """FormResult compares as before: the checked dialect it carries is not part of its value."""
    return dialect_form.check_form(data) == dialect_form.check_form(data)


def test_most_cases_have_a_checked_dialect():
    """The comparisons below are not vacuous: most cases' dialects pass the form checker."""
    assert len(CHECKED) >= len(NAMES) * 2 // 3, (len(CHECKED), len(NAMES))


@pytest.mark.parametrize("name", NAMES)
def test_verify_with_the_checked_dialect_is_verify_from_bytes(name):
    docs = _docs(name)
    alone = verify(docs)
    checked = _checked(docs.dialect)
    _same(verify(docs, checked), alone)
    _same(verify(docs, checked), alone)  # again: the binding and signature memos now hold this fixture's
    assert check_readable(docs, checked=checked) == check_readable(docs)
    if checked is not None:  # the shared value is read, never changed
        assert canon(checked.document) == canon(parse(docs.dialect))


# phase 3 in two documents at once: the binding's count comes before the profiles' (verify.admit's order)
BINDING_OVER_COUNT = b'{"dialect":"sha256:' + b"0" * 64 + b'","sources":{"s":{"webProfiles":{"a":{},"b":{},"c":{}}}}}'
PROFILES_OVER_COUNT = b'[{"endpointScope":[' + b",".join([b'"https://a.example/"'] * 33) + b"]}]"


def _mutations(docs: Documents):
    """Each other document made over its bound, malformed, of the wrong type, or removed; and two
    documents' count refusals at once."""
    for field in OTHERS:
        data = getattr(docs, field)
        if data is None:
            continue
        yield {field: b" " * (BOUNDS[field] + 1 - len(data)) + data}
        yield {field: data[: len(data) // 2]}
        yield {field: b"[" * 70 + b"]" * 70}
        yield {field: b"[]"}
        yield {field: b"{}"}
        if field in ("acquisitions", "binding", "record"):
            yield {field: None}
    yield {"case": b'{"x":"' + b"a" * (MAX_INPUTS - len(docs.dialect)) + b'"}'}
    yield {"require_binding": not docs.require_binding}
    yield {"binding": BINDING_OVER_COUNT, "profiles": PROFILES_OVER_COUNT}


@pytest.mark.parametrize("name", SAMPLE)
def test_other_documents_refusals_come_first_as_from_bytes(name):
    docs = _docs(name)
    checked = _checked(docs.dialect)
    for change in _mutations(docs):
        changed = replace(docs, **change)
        alone = verify(changed)
        assert verify(changed, checked) == alone, sorted(change)
        assert check_readable(changed, checked=checked) == check_readable(changed), sorted(change)


def _padded_over_bound(data: bytes) -> bytes:
    return data + b" " * (MAX_DIALECT + 1 - len(data))


@pytest.mark.parametrize("name", SAMPLE)
def test_a_checked_dialect_of_other_bytes_is_ignored(name):
    """The attack: a checked dialect handed on beside other bytes. It must not be trusted: the answer is
    the bytes'. Three kinds of other bytes: the same value over its bound (only the bytes show it),
    the same value written otherwise, and another case's dialect."""
    docs = _docs(name)
    checked = _checked(docs.dialect)
    over = replace(docs, dialect=_padded_over_bound(docs.dialect))
    assert verify(over).code == "input-over-bound"
    _same(verify(over, checked), verify(over))
    assert check_readable(over, checked=checked) == check_readable(over)
    spaced = replace(docs, dialect=b" " + docs.dialect)
    _same(verify(spaced, checked), verify(spaced))
    for other in CHECKED[:: max(1, len(CHECKED) // 4)]:
        foreign = _checked(_docs(other).dialect)
        _same(verify(docs, foreign), verify(docs))


def test_the_hand_on_skips_the_dialects_form_check(monkeypatch):
    """The fast path is taken: with a checked dialect of the same bytes, the dialect's form is not
    checked again (a binding's bound dialect still is, once per binding document)."""
    docs = _docs(READING_CASE)
    checked = _checked(docs.dialect)
    calls = []
    original = dialect_form.form_refusal
    monkeypatch.setattr(dialect_form, "form_refusal", lambda doc: calls.append(doc) or original(doc))
    assert verify(docs, checked).__class__.__name__ == "Reading"
    assert calls == []
    verify(docs)
    assert len(calls) == 1


def test_a_checked_dialect_crosses_a_process_boundary_without_its_memos():
    """A pool worker's entry arrives pickled: the value and digest come, the memos start empty."""
    import pickle

    docs = _docs(READING_CASE)
    checked = _checked(docs.dialect)
    verify(docs, checked)
    assert checked.signatures
    copy = pickle.loads(pickle.dumps(checked))
    assert copy.data == checked.data and copy.digest == checked.digest and copy.signatures == {}
    _same(verify(docs, copy), verify(docs))


def _demo_fixtures():
    for dialect in sorted(DEMO.glob("*/*/dialect.json")):
        for fixture in sorted((dialect.parent / "fixtures").glob("*")):
            yield dialect, fixture


@pytest.mark.parametrize("dialect,fixture", list(_demo_fixtures()),
                         ids=[f"{d.parent.name}/{f.name}" for d, f in _demo_fixtures()])
def test_demo_catalog_fixtures_read_the_same_with_the_checked_dialect(dialect, fixture):
    from judgment_exchange.verifier.replay import fixture_documents

    files = {p.name: p.read_bytes() for p in fixture.iterdir()}
    docs = fixture_documents(dialect.read_bytes(), files)
    checked = _checked(docs.dialect)
    assert checked is not None
    _same(verify(docs, checked), verify(docs))
    assert check_readable(docs, checked=checked) == check_readable(docs)


def test_a_signature_verdict_is_kept_for_its_exact_message():
    """The attack: a receipt changed after signing (its snapshot here), beside a fixture whose receipt under
    the same key and signature verified. The memo of the entry's signatures must not carry that verdict
    over to other signed bytes: the changed fixture is acquisition-invalid, as from its bytes alone."""
    docs = _docs(READING_CASE)
    checked = _checked(docs.dialect)
    assert b'"snapshot":"snap-1"' in docs.acquisitions
    tampered = replace(docs, acquisitions=docs.acquisitions.replace(b'"snapshot":"snap-1"', b'"snapshot":"snap-2"', 1))
    assert verify(docs, checked).__class__.__name__ == "Reading"
    alone = verify(tampered)
    assert alone.code == "acquisition-invalid" and "signature" in alone.detail
    _same(verify(tampered, checked), alone)


def test_bytes_read_within_one_bound_are_measured_again_within_another():
    """The entry's memo of measured documents is keyed by bytes and bounds: case.json nested 33 deep
    passed a 64-level bound elsewhere in the entry (as another document, or the gate's read of it), yet
    as the case (32 levels, §12) it is over bound, as from its bytes alone."""
    from judgment_exchange.jsonstrict import Bounds

    docs = _docs("p1-case-nesting-33")
    alone = verify(docs)
    assert alone.code == "input-over-bound"
    checked = _checked(docs.dialect)
    checked.read(docs.case, Bounds(max_bytes=MAX_PROFILES, max_depth=64), parse(docs.case))
    _same(verify(docs, checked), alone)
