"""Refusal and finding codes of this package, each with the section that defines it."""

CODES: dict[str, str] = {
    "input-over-bound": "dialect §12; §11 phases 1 (bytes) and 3 (counts); a binding document's 65,536 bytes (§12)",
    "input-malformed": "dialect §1 (strict reading, §11 phase 2) and §§2–8, §2.1, §4.4 (forms, §11 phase 5)",
    "version-unread": "dialect §11 phase 4: a version 2 or 3 (or named 2.0.0 / 3.0.0) the reader does not read",
    "kind-unread": "dialect §11 phase 6: a defined source kind the reader does not read",
}

OVER_BOUND = "input-over-bound"
MALFORMED = "input-malformed"
VERSION_UNREAD = "version-unread"
KIND_UNREAD = "kind-unread"
