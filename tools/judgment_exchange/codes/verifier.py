"""Refusal and finding codes of the preparation verifier (dialect §11): section, meaning, fix and fixing command."""

from typing import Any

from ..coderecord import FIXTURE_REPLACE, Code

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

_RERECORD = ("Re-record the fixture from a Runner run under the entry's dialect.json; a recording is never edited: if "
             "you changed one of its files, restore it from git (exchange check names the edited files and the "
             "commit where the repository's history holds the recording).")

RECORDS: dict[str, Code] = {
    INPUT_OVER_BOUND: Code(
        "dialect §11 phases 1 and 3, §12 (also measured late: unwrap, §6.1)",
        "A document, or a value unwrapped from it, exceeds one of dialect §12's bounds.",
        "Bring the document within dialect §12's bounds (the detail names the bound).",
    ),
    INPUT_MALFORMED: Code(
        "dialect §11 phases 2 and 5, §1",
        "A document is not strict JSON (§1) or not of its form (dialect §§2–8, §5.1, §5.2).",
        "Correct the document per the dialect section the detail names, or re-record a damaged fixture.",
    ),
    VERSION_UNREAD: Code(
        "dialect §11 phase 4",
        "The dialect's version is one the specification defines but this verifier does not read.",
        "Write the dialect at a version this verifier reads: 2 or 3, or the named formats 2.0.0 and 3.0.0.",
    ),
    KIND_UNREAD: Code(
        "dialect §11 phase 6, §4.3",
        "The dialect names a source kind the specification defines but this verifier does not read.",
        "Nothing in the entry: the gate holds such a fixture by its digests only (a skip, docs/skips.md); "
        "docs/verifier.md lists the kinds read.",
    ),
    PROFILE_MISMATCH: Code(
        "dialect §11 finding 1, §5.1, §4.1, §4.4",
        "A source's trusted profile is missing, has another digest, or does not fit the source.",
        "Pin each source's profileDigest to its trusted profile and re-record the fixture with those profiles.",
        FIXTURE_REPLACE,
    ),
    PARAMETER_INVALID: Code(
        "dialect §11 findings 2–3, §3",
        "A case or source parameter's value breaks its declaration.",
        "Correct the fixture's case.json parameter, or the declaration in the dialect, per dialect §3.",
    ),
    ACQUISITION_MISSING: Code(
        "dialect §11 finding 3, §5.2",
        "A source the reading needs has no acquisition.",
        _RERECORD,
        FIXTURE_REPLACE,
    ),
    ACQUISITION_UNEXPECTED: Code(
        "dialect §11 finding 3, §5.2",
        "The acquisitions hold a member no source calls for.",
        _RERECORD,
        FIXTURE_REPLACE,
    ),
    ACQUISITION_INVALID: Code(
        "dialect §11 finding 3, §5.2 checks 1–5",
        "An acquisition fails §5.2's checks (receipt form, scope, request, or the result its receipt commits).",
        "Re-record the fixture; never edit a recorded response or receipt.",
        FIXTURE_REPLACE,
    ),
    ACQUISITION_STALE: Code(
        "dialect §11 finding 3, §5.2 times",
        "An acquisition's instant is outside the source's maxAge window around verifiedAt.",
        _RERECORD,
        FIXTURE_REPLACE,
    ),
    ACQUISITION_SESSIONS: Code(
        "dialect §11 finding 3, §5.2 sessions",
        "The acquisitions' session set fails §5.2's session rule.",
        _RERECORD,
        FIXTURE_REPLACE,
    ),
    CALCULATION_INVALID: Code(
        "dialect §11 finding 3, §7",
        "A calculator source's calculation does not hold under dialect §7.",
        _RERECORD,
        FIXTURE_REPLACE,
    ),
    READ_FAILED: Code(
        "dialect §11 findings 2–3, §6",
        "A read (§6) of the case or of a source's result fails.",
        "Correct the read in the dialect per dialect §6, or re-record the fixture if the data changed.",
    ),
    ADMISSION_REFUSED: Code(
        "dialect §11 finding 4, §8.2",
        "The recomputed preparation is refused admission under dialect §8.2.",
        "Correct the dialect's targets or rules per dialect §8.2, then re-record the fixture.",
    ),
    PREPARATION_DIFFERS: Code(
        "dialect §11 finding 5, §9.5",
        "The recomputed preparation's canonical bytes are not the fixture's preparation.json.",
        _RERECORD,
        FIXTURE_REPLACE,
    ),
    RECORD_INPUTS_DIFFER: Code(
        "dialect §11 finding 6",
        "The record's inputs (facts, evidence or cites) are not the preparation's.",
        _RERECORD,
        FIXTURE_REPLACE,
    ),
    BINDING_FOREIGN_KIND: Code(
        "dialect §11 finding 7",
        "The record's binding is not an object of kind judgment-pack-runner/preparation/1.",
        _RERECORD,
        FIXTURE_REPLACE,
    ),
    BINDING_MISMATCH: Code(
        "dialect §11 finding 8",
        "The record's binding bytes are not the preparation's binding, byte for byte.",
        _RERECORD,
        FIXTURE_REPLACE,
    ),
    UNBOUND: Code(
        "dialect §11 finding 9",
        "A binding is required and no record, or no binding in the record, is given.",
        "Re-record the fixture with the run's record, which carries the binding.",
        FIXTURE_REPLACE,
    ),
}

CODES: dict[str, str] = {code: record.section for code, record in RECORDS.items()}
"""Each code's section (the table's first field), for callers that need only that."""
REFUSALS = (INPUT_OVER_BOUND, INPUT_MALFORMED, VERSION_UNREAD, KIND_UNREAD)

UNREAD_VERSION = "unread-version"
"""RFC 0019 §4's spelling of the verifier's detail for an unread dialect version ("identified by the verifier's
unread-version detail"); the dialect companion (RFC 0018 §11 phase 4), and this package's verifier, spell it
`version-unread`. A reader may answer either; both mean the same skip (docs/replay-texts.md, "Two spellings")."""

SKIPS: dict[str, str] = {KIND_UNREAD: KIND_UNREAD, VERSION_UNREAD: VERSION_UNREAD, UNREAD_VERSION: VERSION_UNREAD}
"""Every refusal code a reader may answer for a fixture it cannot recompute (RFC 0019 §4), and the one spelling
each is reported under: a skip, never a failure."""


def skip_of(code: object) -> str | None:
    """The skip a verifier's refusal `code` means, in its reported spelling (`kind-unread`, `version-unread`), or
    None when the code is no skip. The one reading of the verifier's answer: the gate's replay, `exchange fix`,
    `exchange fixture add` and the conformance adapter all ask here."""
    return SKIPS.get(code) if isinstance(code, str) else None



AGREES, OTHER_DIGEST, SKIPPED, FAILED, NO_REPORT = "agrees", "other-digest", "skipped", "failed", "no-report"


class Answer:
    """A preparation verifier's answer to one fixture's replay (dialect §11's report), read against the digest the
    fixture is held to (RFC 0019 §4): `outcome` is AGREES (a reading of exactly that digest), OTHER_DIGEST (a reading
    of another: `digest`), SKIPPED (a refusal that is a skip: `code` in its reported spelling, `skip_of`), FAILED (any
    other refusal or finding: `result` and the answer's `code`, which a program may give as a non-string) or
    NO_REPORT (no report at all); `detail` is the answer's own (a program's words when it gave no report)."""

    __slots__ = ("outcome", "result", "code", "digest", "detail")

    def __init__(self, outcome: str, result: object = None, code: object = None, digest: object = None,
                 detail: object = None) -> None:
        self.outcome, self.result, self.code, self.digest, self.detail = outcome, result, code, digest, detail


def read_answer(answer: dict[str, Any], expected: object) -> Answer:
    """The one interpretation of the verifier's answer to a fixture's replay (issue #37 item 2): a reading agrees
    only when its digest is `expected` (the fixture's preparationDigest, or its preparation.json's digest); a
    refusal `skip_of` reads as a skip is a skip; any other refusal or finding fails with its code; anything else is
    no report. The gate's replay, `exchange fix`, `exchange fixture add` and `exchange new --from-run` ask here and
    word the outcome each in its own place (tests/test_rule_homes.py holds each of them to it)."""
    result, detail = answer.get("result"), answer.get("detail", "no report")
    if result == "reading":
        found = answer.get("digest")
        agrees = expected is not None and found == expected
        return Answer(AGREES if agrees else OTHER_DIGEST, result, None, found, detail)
    if result == "refusal" and skip_of(answer.get("refusal")):
        return Answer(SKIPPED, result, skip_of(answer.get("refusal")), None, detail)
    if result in ("refusal", "finding"):
        return Answer(FAILED, result, answer.get(result), None, detail)
    return Answer(NO_REPORT, result, None, None, detail)
