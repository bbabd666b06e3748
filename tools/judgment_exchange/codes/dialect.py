"""Refusal codes of the dialect form checker (dialect §11 phases): section, meaning, fix and fixing command."""

from ..coderecord import Code

INPUT_OVER_BOUND = "input-over-bound"
INPUT_MALFORMED = "input-malformed"
VERSION_UNREAD = "version-unread"
KIND_UNREAD = "kind-unread"

RECORDS: dict[str, Code] = {
    INPUT_OVER_BOUND: Code(
        "dialect §12; §11 phases 1 (bytes) and 3 (counts); a binding document's 65,536 bytes (§12)",
        "A document exceeds one of dialect §12's bounds (size, nesting, number literal, or a count).",
        "Bring the document within dialect §12's bounds (the detail names the bound).",
    ),
    INPUT_MALFORMED: Code(
        "dialect §1 (strict reading, §11 phase 2) and §§2–8, §2.1, §4.4 (forms, §11 phase 5)",
        "A document is not strict JSON (§1) or not of its form (dialect §§2–8, §4.4).",
        "Correct the document per the dialect section the detail names.",
    ),
    VERSION_UNREAD: Code(
        "dialect §11 phase 4: a version 2 or 3 (or named 2.0.0 / 3.0.0) the reader does not read",
        "The dialect's version is one the specification defines but this reader does not read.",
        "Write the dialect at a version this reader reads: 2 or 3, or the named formats 2.0.0 and 3.0.0.",
    ),
    KIND_UNREAD: Code(
        "dialect §11 phase 6: a defined source kind the reader does not read",
        "The dialect names a source kind the specification defines but this reader does not read.",
        "Nothing in the entry: the gate holds such a fixture by its digests only (a skip, docs/skips.md); "
        "docs/verifier.md lists the kinds read.",
    ),
}

CODES: dict[str, str] = {code: record.section for code, record in RECORDS.items()}
"""Each code's section (the table's first field), for callers that need only that."""
