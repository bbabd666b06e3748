"""Refusal and finding codes of the preparation verifier, each with the section that defines it (dialect §11)."""

INPUT_OVER_BOUND = "input-over-bound"
INPUT_MALFORMED = "input-malformed"
VERSION_UNREAD = "version-unread"
KIND_UNREAD = "kind-unread"

PROFILE_MISMATCH = "profile-mismatch"
PARAMETER_INVALID = "parameter-invalid"
ACQUISITION_MISSING = "acquisition-missing"
ACQUISITION_UNEXPECTED = "acquisition-unexpected"
ACQUISITION_INVALID = "acquisition-invalid"
ACQUISITION_STALE = "acquisition-stale"
ACQUISITION_SESSIONS = "acquisition-sessions"
CALCULATION_INVALID = "calculation-invalid"
READ_FAILED = "read-failed"
ADMISSION_REFUSED = "admission-refused"
PREPARATION_DIFFERS = "preparation-differs"
RECORD_INPUTS_DIFFER = "record-inputs-differ"
BINDING_FOREIGN_KIND = "binding-foreign-kind"
BINDING_MISMATCH = "binding-mismatch"
UNBOUND = "unbound"

CODES: dict[str, str] = {
    INPUT_OVER_BOUND: "dialect §11 phases 1 and 3, §12 (also measured late: unwrap, §6.1)",
    INPUT_MALFORMED: "dialect §11 phases 2 and 5, §1",
    VERSION_UNREAD: "dialect §11 phase 4",
    KIND_UNREAD: "dialect §11 phase 6, §4.3",
    PROFILE_MISMATCH: "dialect §11 finding 1, §5.1, §4.1, §4.4",
    PARAMETER_INVALID: "dialect §11 findings 2–3, §3",
    ACQUISITION_MISSING: "dialect §11 finding 3, §5.2",
    ACQUISITION_UNEXPECTED: "dialect §11 finding 3, §5.2",
    ACQUISITION_INVALID: "dialect §11 finding 3, §5.2 checks 1–5",
    ACQUISITION_STALE: "dialect §11 finding 3, §5.2 times",
    ACQUISITION_SESSIONS: "dialect §11 finding 3, §5.2 sessions",
    CALCULATION_INVALID: "dialect §11 finding 3, §7",
    READ_FAILED: "dialect §11 findings 2–3, §6",
    ADMISSION_REFUSED: "dialect §11 finding 4, §8.2",
    PREPARATION_DIFFERS: "dialect §11 finding 5, §9.5",
    RECORD_INPUTS_DIFFER: "dialect §11 finding 6",
    BINDING_FOREIGN_KIND: "dialect §11 finding 7",
    BINDING_MISMATCH: "dialect §11 finding 8",
    UNBOUND: "dialect §11 finding 9",
}
REFUSALS = (INPUT_OVER_BOUND, INPUT_MALFORMED, VERSION_UNREAD, KIND_UNREAD)
