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

RFC_0019_SPELLED = (
    "entry-version-unread",      # §3, Compatibility
    "dialect-reference-form",    # §3 reference refusals, in order
    "dialect-format-mismatch",
    "artifact-required",
    "artifact-forbidden",
    "artifact-malformed",
    "artifact-mismatch",
    "dialect-digest-mismatch",
    "bound-derivative",          # §3 presets
    "artifact-content-changed",  # §§3, 7 publication identity
    "artifact-history-invalid",  # §§3, 4, 7 history
    "input-over-bound",          # §3 the verifier's byte bound
    "input-malformed",           # §3 classification, §4
    "kind-unread",               # §4
    "profile-mismatch",          # Security and privacy
    "acquisition-invalid",       # Security and privacy
)
"""The codes RFC 0019's own text spells (tests/conformance holds each to the text where shared/ is here)."""

DIALECT_SECTION = "dialect §11"


def rfc_named(code: str) -> bool:
    """True when the kit compares `code` in every case (the rule above)."""
    record = REGISTRY.get(code)
    return code in RFC_0019_SPELLED or (record is not None and record.section.startswith(DIALECT_SECTION))


RFC_NAMED: tuple[str, ...] = tuple(sorted(code for code in REGISTRY if rfc_named(code)))
"""Every RFC-named code of the registry, sorted (cases.json's `codes.rfc` is this list)."""
