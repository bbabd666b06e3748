"""The per-phase functions the preparation verifier interleaves (§11), and the `exchange form` report."""

from __future__ import annotations

import json
from pathlib import Path

from judgment_exchange.dialect import (
    CODES,
    check_binding,
    check_form,
    count_refusal,
    form_refusal,
    form_report,
    kind_refusal,
    requires_binding,
    source_kinds,
    version_refusal,
)

CASES = Path(__file__).resolve().parents[1] / "cases" / "dialect"


def _parsed(name: str):
    return check_form((CASES / name / "dialect.json").read_bytes()).document


def test_codes_name_their_sections() -> None:
    assert set(CODES) == {"input-over-bound", "input-malformed", "version-unread", "kind-unread"}
    assert all("§" in section for section in CODES.values())


def test_phases_on_a_valid_document_all_pass() -> None:
    doc = _parsed("valid-v3-all-kinds")
    assert count_refusal(doc) is None
    assert version_refusal(doc) is None
    assert form_refusal(doc) is None
    assert kind_refusal(doc, frozenset({"operation", "http", "sql", "web", "selected-file"})) is None


def test_each_phase_alone() -> None:
    """A document that fails phases 3 and 5 gives each phase's own answer when asked alone."""
    doc = _parsed("over-bound-65-clauses")
    assert count_refusal(doc)[0] == "input-over-bound"
    assert version_refusal(doc) is None
    assert version_refusal(doc, frozenset({2}))[0] == "version-unread"
    assert form_refusal(_parsed("malformed-rule-unknown-op"))[0] == "input-malformed"
    assert count_refusal(_parsed("malformed-rule-unknown-op")) is None
    kind = kind_refusal(_parsed("valid-v3-research-unbound"), frozenset({"operation"}))
    assert kind[0] == "kind-unread" and kind[1].startswith("research")


def test_phases_never_raise_on_odd_values() -> None:
    for value in [None, 1, "x", [], {}, {"sources": 5}, {"sources": [1, None, {"read": []}]},
                  {"version": 3, "sources": [{"read": {"rule": {"clauses": 3}}}]}]:
        assert count_refusal(value) is None or count_refusal(value)[0] == "input-over-bound"
        assert version_refusal(value) is None
        assert form_refusal(value)[0] == "input-malformed"
        assert kind_refusal(value, frozenset()) is None or kind_refusal(value, frozenset())[0] == "kind-unread"


def test_requires_binding_is_the_fixture_classification() -> None:
    assert requires_binding(_parsed("valid-v3-bound-and-unbound"))
    assert requires_binding(_parsed("valid-v3-research-unbound"))
    assert not requires_binding(_parsed("valid-v3-research-bound"))
    assert not requires_binding(_parsed("valid-v2-runner-encoding"))


def test_form_report_valid_and_refused() -> None:
    valid = form_report((CASES / "valid-v2-runner-encoding" / "dialect.json").read_bytes())
    assert set(valid) == {"result", "digest"} and valid["result"] == "valid"
    refused = form_report((CASES / "malformed-version-1" / "dialect.json").read_bytes())
    assert refused["result"] == "refusal" and refused["refusal"] == "input-malformed" and refused["detail"]


def test_form_report_with_binding() -> None:
    case = CASES / "binding-valid-operation"
    dialect = (case / "dialect.json").read_bytes()
    digest = form_report(dialect)["digest"]
    binding = (case / "binding.json").read_bytes().replace(b"$DIALECT_DIGEST", digest.encode())
    report = form_report(dialect, binding)
    assert report["result"] == "valid" and report["digest"] == digest
    assert report["boundDigest"].startswith("sha256:") and report["boundDigest"] != digest
    wrong = form_report(dialect, (case / "binding.json").read_bytes())
    assert wrong["result"] == "refusal" and wrong["refusal"] == "input-malformed"
    json.dumps(report)


def test_binding_phases_interleave_with_the_dialects() -> None:
    """§11: the binding's bytes (phase 1) before the dialect's form (phase 5); both counts before forms."""
    malformed = _parsed("malformed-rule-unknown-op")
    over = check_binding(b'{"pad":"' + b"p" * 65536 + b'"}', malformed, "sha256:" + "0" * 64)
    assert over.refusal == "input-over-bound" and over.detail.startswith("binding")
    web = {"profile": "w", "profileDigest": "sha256:" + "3" * 64}
    three = json.dumps({"dialect": "x",
                        "sources": {"company": {"webProfiles": {"answer": web, "search": web, "page": web}}}}).encode()
    counted = check_binding(three, malformed, "sha256:" + "0" * 64)
    assert counted.refusal == "input-over-bound" and "web assignments" in counted.detail
    formed = check_binding(b'{"dialect":"x","sources":{}}', malformed, "sha256:" + "0" * 64)
    assert formed.refusal == "input-malformed" and "unknown op" in formed.detail


def test_source_kinds_in_order_of_first_use() -> None:
    assert source_kinds(_parsed("valid-v3-all-kinds")) == ["http", "sql", "web", "selected-file", "operation"]
    assert source_kinds(_parsed("valid-v3-case-only")) == []


def test_form_report_with_binding_measures_both_documents_before_reading_either() -> None:
    """§11 phase 1 is "taken on every document before any is read", and phase 2 (reading) precedes the
    dialect's counts (phase 3): the pair's first refusal is the binding's over-bound or unreadable bytes."""
    unreadable_dialect = b'{"version": 3,'
    big_binding = b'{"pad":"' + b"p" * 65536 + b'"}'
    report = form_report(unreadable_dialect, big_binding)
    assert report["refusal"] == "input-over-bound" and report["detail"].startswith("binding")
    over_count_dialect = (CASES / "over-bound-17-sources" / "dialect.json").read_bytes()
    report = form_report(over_count_dialect, b'{"dialect": ')
    assert report["refusal"] == "input-malformed" and report["detail"].startswith("binding")
    assert form_report(over_count_dialect, b'{"dialect":"x","sources":{}}')["refusal"] == "input-over-bound"
    assert form_report(unreadable_dialect, b'{"dialect":"x","sources":{}}')["refusal"] == "input-malformed"
    web = {"profile": "w", "profileDigest": "sha256:" + "3" * 64}
    three = json.dumps({"dialect": "x",
                        "sources": {"company": {"webProfiles": {"answer": web, "search": web, "page": web}}}}).encode()
    malformed_dialect = (CASES / "malformed-rule-unknown-op" / "dialect.json").read_bytes()
    report = form_report(malformed_dialect, three)
    assert report["refusal"] == "input-over-bound" and "web assignments" in report["detail"]
