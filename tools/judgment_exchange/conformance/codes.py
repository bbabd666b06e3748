"""Which refusal codes are RFC-named (docs/conformance.md, "Codes").

The rule, decided from each code record's `section` and RFC 0019's text: a code is RFC-named when RFC
0019 spells it as a refusal (its §3 reference refusals, bound-derivative, entry-version-unread, the §§3, 7
artifact-history codes, and the reader's refusals and findings §§4, 7 and Security and privacy name), or
when its record's section is RFC 0018 §11's (`dialect §11 …`: the preparation verifier's named refusals
and findings, which RFC 0019 §§4 and 7 adopt as "a verifier refusal" or "a finding"). Every other code
in the registry is this project's own name for a rule — RFC 0019 states many of those rules (manifest
order, id-to-path, the scans) but names no code for them, so another consumer may name them otherwise.
The kit compares RFC-named codes in every case and the project's own only in cases marked
`strictness: project`.
"""

from __future__ import annotations

from ..codes import REGISTRY
from ..codes.catalog import (
    ARTIFACT_FORBIDDEN,
    ARTIFACT_MALFORMED,
    ARTIFACT_MISMATCH,
    ARTIFACT_REQUIRED,
    BOUND_DERIVATIVE,
    DIALECT_DIGEST_MISMATCH,
    DIALECT_FORMAT_MISMATCH,
    DIALECT_REFERENCE_FORM,
    ENTRY_VERSION_UNREAD,
)
from ..codes.dialect import INPUT_MALFORMED, INPUT_OVER_BOUND, KIND_UNREAD
from ..codes.history import ARTIFACT_CONTENT_CHANGED, ARTIFACT_HISTORY_INVALID
from ..codes.verifier import ACQUISITION_INVALID, PROFILE_MISMATCH

RFC_0019_SPELLED = (
    ENTRY_VERSION_UNREAD,      # §3, Compatibility
    DIALECT_REFERENCE_FORM,    # §3 reference refusals, in order
    DIALECT_FORMAT_MISMATCH,
    ARTIFACT_REQUIRED,
    ARTIFACT_FORBIDDEN,
    ARTIFACT_MALFORMED,
    ARTIFACT_MISMATCH,
    DIALECT_DIGEST_MISMATCH,
    BOUND_DERIVATIVE,          # §3 presets
    ARTIFACT_CONTENT_CHANGED,  # §§3, 7 publication identity
    ARTIFACT_HISTORY_INVALID,  # §§3, 4, 7 history
    INPUT_OVER_BOUND,          # §3 the verifier's byte bound
    INPUT_MALFORMED,           # §3 classification, §4
    KIND_UNREAD,               # §4
    PROFILE_MISMATCH,          # Security and privacy
    ACQUISITION_INVALID,       # Security and privacy
)
"""The codes RFC 0019's own text spells (tests/conformance holds each to the text where shared/ is here)."""

DIALECT_SECTION = "dialect §11"


def rfc_named(code: str) -> bool:
    """True when the kit compares `code` in every case (the rule above)."""
    record = REGISTRY.get(code)
    return code in RFC_0019_SPELLED or (record is not None and record.section.startswith(DIALECT_SECTION))


RFC_NAMED: tuple[str, ...] = tuple(sorted(code for code in REGISTRY if rfc_named(code)))
"""Every RFC-named code of the registry, sorted (cases.json's `codes.rfc` is this list)."""
