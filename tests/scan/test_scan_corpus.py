"""Every recognised shape in every position of a realistic entry, and the near-misses that must pass (RFC 0019 §§4, 6).

The entry is built from a real Runner export (shared/vectors), so its receipts, signatures, key ids,
salts and profile keys are real data at the members their forms give them. Samples are built from
pieces at test time (scan_samples.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judgment_exchange.scan import CODES, SHAPES, scan_entry
from judgment_exchange.tree import WorkingTree

from . import scan_entry_builder as builder
from .scan_samples import MORE_SAMPLES, NEAR_MISS_FOR, NEAR_MISSES, SAMPLES, hex_of, long_base64


def _scan(tmp_path: Path, docs: dict) -> list:
    builder.write(tmp_path, docs)
    return scan_entry(WorkingTree(str(tmp_path)), builder.ENTRY, "acme.vendor-intake")


def _windows_with_a_digit(sample: str, width: int = 10) -> set[str]:
    return {sample[i : i + width] for i in range(len(sample) - width + 1)
            if any(c.isdigit() for c in sample[i : i + width])}


def test_the_real_export_as_an_entry_scans_clean(tmp_path: Path) -> None:
    assert _scan(tmp_path, builder.fresh()) == []


def test_every_secret_code_has_a_sample_a_near_miss_and_a_shape() -> None:
    secret_codes = {code for code in CODES if code.startswith("secret-")}
    assert secret_codes == set(SAMPLES) == set(NEAR_MISS_FOR)
    assert all(name in NEAR_MISSES for names in NEAR_MISS_FOR.values() for name in names)
    assert set(CODES) == set(SHAPES)


@pytest.mark.parametrize("position", builder.POSITIONS)
@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_each_shape_is_caught_in_each_position(tmp_path: Path, code: str, position: str) -> None:
    docs = builder.fresh()
    rel, marker = builder.place(docs, position, SAMPLES[code])
    refusals = _scan(tmp_path, docs)
    line = builder.line_of(tmp_path, rel, marker)
    where = [(r.code, r.path, r.detail.split(":", 1)[0]) for r in refusals]
    assert (code, f"{builder.ENTRY}/{rel}", f"line {line}") in where
    for refusal in refusals:
        assert refusal.entry == "acme.vendor-intake"
        assert "(the value is not shown)" in refusal.detail and "fix:" not in refusal.detail  # the fix is printed once
        assert refusal.how_to_fix() and refusal.how_to_fix().endswith(".")                # from the registry
        assert not any(w in refusal.detail for w in _windows_with_a_digit(SAMPLES[code]))


@pytest.mark.parametrize(
    "code, sample", [(code, sample) for code, samples in sorted(MORE_SAMPLES.items()) for sample in samples]
)
@pytest.mark.parametrize("position", ["sources.json result", "README.md"])
def test_other_forms_of_a_shape_are_caught(tmp_path: Path, code: str, sample: str, position: str) -> None:
    docs = builder.fresh()
    rel, marker = builder.place(docs, position, sample)
    refusals = _scan(tmp_path, docs)
    line = builder.line_of(tmp_path, rel, marker)
    assert (code, f"line {line}") in [(r.code, r.detail.split(":", 1)[0]) for r in refusals]


@pytest.mark.parametrize("position", builder.POSITIONS)
@pytest.mark.parametrize("name", sorted(NEAR_MISSES))
def test_near_misses_pass_in_each_position(tmp_path: Path, name: str, position: str) -> None:
    docs = builder.fresh()
    builder.place(docs, position, NEAR_MISSES[name])
    assert _scan(tmp_path, docs) == []


def _result(docs: dict) -> dict:
    return docs["fixtures/basic/sources.json"]["registry"]["response"]["result"]


def _receipt(docs: dict) -> dict:
    return docs["fixtures/basic/sources.json"]["vendor"]["response"]["receipt"]


def _codes(refusals: list) -> list[tuple[str, str]]:
    return [(r.code, r.path.rsplit("/", 1)[-1]) for r in refusals]


def test_a_long_base64_payload_of_a_known_format_in_a_result_passes(tmp_path: Path) -> None:
    """A payload is exempt from the entropy plugin when its bytes are classified (here a PNG's signature);
    random bytes are not (test_scan_payloads.py: the entropy check is the fallback, never silence)."""
    import base64

    docs = builder.fresh()
    _result(docs)["attachment"] = base64.b64encode(b"\x89PNG\r\n\x1a\n" + base64.b64decode(long_base64())).decode()
    assert _scan(tmp_path, docs) == []


def test_the_same_payload_outside_a_result_is_a_finding(tmp_path: Path) -> None:
    docs = builder.fresh()
    docs["entry.json"]["description"] = long_base64()
    assert _codes(_scan(tmp_path, docs)) == [("secret-high-entropy-base64", "entry.json")]


def test_a_short_base64_value_in_a_result_is_a_finding(tmp_path: Path) -> None:
    docs = builder.fresh()
    _result(docs)["attachment"] = long_base64(45)
    assert _codes(_scan(tmp_path, docs)) == [("secret-high-entropy-base64", "sources.json")]


def test_a_named_shape_inside_a_base64_payload_is_caught(tmp_path: Path) -> None:
    import base64

    docs = builder.fresh()
    text = "config\n" + SAMPLES["secret-private-key"] + "\n" + "padding " * 40
    _result(docs)["attachment"] = base64.b64encode(text.encode()).decode()
    assert _codes(_scan(tmp_path, docs)) == [("secret-private-key", "sources.json")]


def test_a_signature_outside_its_member_is_a_finding(tmp_path: Path) -> None:
    docs = builder.fresh()
    _result(docs)["signature"] = hex_of(128)
    assert _codes(_scan(tmp_path, docs)) == [("secret-high-entropy-hex", "sources.json")]


def test_a_profile_key_moved_into_a_case_is_a_finding(tmp_path: Path) -> None:
    docs = builder.fresh()
    docs["fixtures/basic/case.json"]["key"] = docs["fixtures/basic/profiles.json"][0]["publicKey"]
    assert _codes(_scan(tmp_path, docs)) == [("secret-high-entropy-hex", "case.json")]


@pytest.mark.parametrize(
    "member, value",
    [("signature", "upper"), ("keyId", 64), ("prevSignature", 64)],
)
def test_a_receipt_member_not_of_its_form_is_not_exempt(tmp_path: Path, member: str, value) -> None:
    docs = builder.fresh()
    receipt = _receipt(docs)
    receipt[member] = receipt[member].upper() if value == "upper" else hex_of(value)
    assert _codes(_scan(tmp_path, docs)) == [("secret-high-entropy-hex", "sources.json")]


def test_the_same_hex_in_the_wrong_document_is_not_exempt(tmp_path: Path) -> None:
    docs = builder.fresh()
    docs["fixtures/basic/other.json"] = docs["fixtures/basic/sources.json"]
    found = _codes(_scan(tmp_path, docs))
    assert ("secret-high-entropy-hex", "other.json") in found
    assert all(name == "other.json" for _, name in found)


def test_a_pointer_that_reads_like_a_path_passes_where_a_dialect_holds_a_pointer(tmp_path: Path) -> None:
    docs = builder.fresh()
    docs["dialect.json"]["sources"][0]["read"]["rule"]["clauses"][0]["claim"]["facts"][0]["from"] = "/home/address"
    assert _scan(tmp_path, docs) == []


def test_the_same_string_in_a_case_is_a_local_path(tmp_path: Path) -> None:
    docs = builder.fresh()
    docs["fixtures/basic/case.json"]["from"] = "/home/address"
    assert _codes(_scan(tmp_path, docs)) == [("local-path", "case.json")]


def test_an_escape_does_not_hide_a_shape(tmp_path: Path) -> None:
    docs = builder.fresh()
    builder.write(tmp_path, docs)
    key = SAMPLES["secret-aws-access-key"]
    escaped = "".join(f"\\u{ord(c):04x}" for c in key[:4]) + key[4:]
    path = tmp_path / builder.ENTRY / "fixtures/basic/case.json"
    path.write_text('{\n  "id": 7,\n  "note": "' + escaped + '"\n}\n', encoding="utf-8")
    refusals = scan_entry(WorkingTree(str(tmp_path)), builder.ENTRY)
    assert [(r.code, r.detail.split(":", 1)[0]) for r in refusals] == [("secret-aws-access-key", "line 3")]


def test_a_private_key_in_one_json_string_is_caught_on_its_line(tmp_path: Path) -> None:
    docs = builder.fresh()
    _result(docs)["pem"] = SAMPLES["secret-private-key"]
    refusals = _scan(tmp_path, docs)
    line = builder.line_of(tmp_path, "fixtures/basic/sources.json", '"pem"')
    assert [(r.code, r.detail.split(":", 1)[0]) for r in refusals] == [("secret-private-key", f"line {line}")]


def test_an_allowlist_comment_does_not_silence_the_scan(tmp_path: Path) -> None:
    docs = builder.fresh()
    docs["README.md"] += "\nkey: " + SAMPLES["secret-aws-access-key"] + "  # pragma: allowlist secret\n"
    assert [r.code for r in _scan(tmp_path, docs)] == ["secret-aws-access-key"]


def test_a_one_line_document_reports_once_per_code(tmp_path: Path) -> None:
    import json

    docs = builder.fresh()
    builder.write(tmp_path, docs)
    value = docs["fixtures/basic/sources.json"]
    value["registry"]["response"]["result"]["a"] = SAMPLES["secret-github-token"]
    value["registry"]["response"]["result"]["b"] = MORE_SAMPLES["secret-github-token"][0]
    (tmp_path / builder.ENTRY / "fixtures/basic/sources.json").write_text(json.dumps(value), encoding="utf-8")
    refusals = scan_entry(WorkingTree(str(tmp_path)), builder.ENTRY)
    assert [(r.code, r.detail.split(":", 1)[0]) for r in refusals] == [("secret-github-token", "line 1")]
    assert re.search(r"\bghp_|github_pat_", refusals[0].detail) is None


def test_every_code_is_documented() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "scanning.md").read_text(encoding="utf-8")
    assert [code for code in CODES if f"`{code}`" not in doc] == []
