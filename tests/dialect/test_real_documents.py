"""Real Runner mappings and the portable rule's own vectors, read from tests/vectors (a verbatim copy of
shared/vectors)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgment_exchange.dialect import check_form

SHARED = Path(__file__).resolve().parents[2] / "tests"
EXPORTS = SHARED / "vectors" / "runner-exports"
CORPUS = SHARED / "vectors" / "derivation-corpus"


def _raw_members(data: bytes, name: bytes) -> list[bytes]:
    """Every value of a member `name` in a JSON text, as the bytes the text writes (no re-encoding)."""
    text = data.decode("utf-8")
    decoder = json.JSONDecoder()
    key = '"' + name.decode() + '":'
    out, start = [], text.find(key)
    while start != -1:
        begin = start + len(key)
        _, end = decoder.raw_decode(text, begin)
        out.append(text[begin:end].encode("utf-8"))
        start = text.find(key, end)
    return out


@pytest.mark.parametrize("export", ["mapping-v2-before-calculators", "mapping-v2-unsigned-parameters"])
def test_runner_mapping_passes_with_the_runners_digest(export: str) -> None:
    """Each export's mapping bytes pass, and their digest is the mappingDigest the Runner recorded."""
    run = (EXPORTS / export / "run.json").read_bytes()
    mappings = _raw_members(run, b"mapping") + _raw_members(run, b"inputMapping")
    digests = set(json.loads(m) for m in _raw_members(run, b"mappingDigest"))
    assert mappings and len(digests) == 1
    for mapping in mappings:
        result = check_form(mapping)
        assert result.refusal is None, result.detail
        assert result.digest in digests


def _dialect_with_rule(rule: dict) -> bytes:
    return json.dumps({"version": 3, "sources": [{
        "name": "screening", "kind": "operation", "profile": "screening", "profileDigest": "sha256:" + "0" * 64,
        "maxAge": 300, "arguments": {"tool": "screen", "arguments": {}}, "read": {"rule": rule}}]}).encode()


@pytest.mark.parametrize("vector", ["adv-reject-bad-status", "adv-reject-float-literal-in-rule",
                                    "adv-reject-no-final-always", "adv-reject-unknown-op"])
def test_portable_rule_rejections_are_malformed(vector: str) -> None:
    """The rule corpus's rejected rule forms, given the declaration a dialect requires, are input-malformed."""
    rule = json.loads((CORPUS / f"{vector}.json").read_text())["rule"]
    assert json.loads((CORPUS / f"{vector}.json").read_text())["reject"] is True
    rule.setdefault("parameters", {})
    result = check_form(_dialect_with_rule(rule))
    assert result.refusal == "input-malformed"
    assert "parameters" not in result.detail


def test_portable_screening_rule_is_a_valid_read() -> None:
    """The corpus's screening rule, its parameters declared as case parameters, is a valid read."""
    rule = json.loads((CORPUS / "screening.rule.json").read_text())
    doc = json.loads(_dialect_with_rule(rule))
    doc["case"] = {"parameters": {"subject": {"pointer": "/subject", "type": "string"},
                                  "asOf": {"pointer": "/asOf", "type": "timestamp"},
                                  "maxAgeSeconds": {"pointer": "/maxAge", "type": "integer"}},
                   "facts": [], "evidence": []}
    result = check_form(json.dumps(doc).encode())
    assert result.refusal is None, result.detail
