"""Every case directory under tests/cases/dialect/: a dialect.json, an expected.json, and for the
binding cases a binding.json (and, when the binding is valid, bound.json, the bound dialect written
by hand). Adding a case needs no code.

expected.json: "refusal" (a §11 code or null) and "detail" (a substring of the detail) for
check_form; optional "readableVersions" / "readableKinds" for a reader that reads less;
optional "unbound" / "bound" source names; "binding": {"refusal", "detail"} for check_binding.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgment_exchange.canon import canonical_digest
from judgment_exchange.dialect import (
    ALL_KINDS,
    READABLE_VERSIONS,
    bound_sources,
    check_binding,
    check_form,
    unbound_sources,
)
from judgment_exchange.jsonstrict import Bounds, loads

CASES = Path(__file__).resolve().parents[1] / "cases" / "dialect"
PLACEHOLDER = b"$DIALECT_DIGEST"


def _cases() -> list[Path]:
    return sorted(p for p in CASES.iterdir() if p.is_dir())


@pytest.mark.parametrize("case", _cases(), ids=lambda p: p.name)
def test_case(case: Path) -> None:
    expected = json.loads((case / "expected.json").read_text())
    versions = frozenset(expected.get("readableVersions", READABLE_VERSIONS))
    kinds = frozenset(expected.get("readableKinds", ALL_KINDS))
    result = check_form((case / "dialect.json").read_bytes(), readable_versions=versions, readable_kinds=kinds)
    assert result.refusal == expected["refusal"], result.detail
    assert expected.get("detail", "") in result.detail
    if expected["refusal"] is None:
        assert result.digest is not None and result.digest.startswith("sha256:")
    if "unbound" in expected:
        assert unbound_sources(result.document) == expected["unbound"]
    if "bound" in expected:
        assert bound_sources(result.document) == expected["bound"]
    if "binding" in expected:
        binding = (case / "binding.json").read_bytes().replace(PLACEHOLDER, result.digest.encode())
        bound = check_binding(binding, result.document, result.digest)
        assert bound.refusal == expected["binding"]["refusal"], bound.detail
        assert expected["binding"].get("detail", "") in bound.detail
        if bound.refusal is None:
            by_hand = loads((case / "bound.json").read_bytes(), Bounds(max_bytes=131072))
            assert bound.bound_digest == canonical_digest(by_hand)
            assert bound.bound_digest != result.digest
            assert unbound_sources(bound.bound_document) == []


def test_every_code_has_a_case_and_a_valid_near_miss() -> None:
    """Each refusal code is triggered by some case; valid documents are among the cases too."""
    seen = {json.loads((c / "expected.json").read_text())["refusal"] for c in _cases()}
    assert {None, "input-over-bound", "input-malformed", "version-unread", "kind-unread"} <= seen
