"""The catalog's refusal codes (RFC 0019 §§3–4, 6, 7): each code's section, meaning, fix and fixing command.

Add a code as `"code": Code(section, meaning, fix, command)`; `python -m judgment_exchange.codes --write`
regenerates docs/codes.md from these records (tests/test_codes.py fails while it is stale).
"""

from ..coderecord import FIX, FIXTURE_REPLACE, MANIFEST, Code

ENTRY_VERSION_UNREAD = "entry-version-unread"
ENTRY_MEMBER_MISSING = "entry-member-missing"
ENTRY_MEMBER_UNKNOWN = "entry-member-unknown"
ENTRY_MEMBER_INVALID = "entry-member-invalid"
ENTRY_MEMBER_FORBIDDEN = "entry-member-forbidden"
LICENCE_NOT_LISTED = "licence-not-listed"
LICENCE_SPELLING = "licence-spelling"
ASSERTION_MISMATCH = "assertion-mismatch"
ENTRY_ID_PATH = "entry-id-path"
VERIFICATION_RECORD_INVALID = "verification-record-invalid"
READER_LOCATOR_INVALID = "reader-locator-invalid"
SOURCE_KINDS_MISMATCH = "source-kinds-mismatch"
DIALECT_REFERENCE_FORM = "dialect-reference-form"
DIALECT_FORMAT_MISMATCH = "dialect-format-mismatch"
ARTIFACT_REQUIRED = "artifact-required"
ARTIFACT_FORBIDDEN = "artifact-forbidden"
ARTIFACT_MALFORMED = "artifact-malformed"
ARTIFACT_MISMATCH = "artifact-mismatch"
DIALECT_DIGEST_MISMATCH = "dialect-digest-mismatch"
BOUND_DERIVATIVE = "bound-derivative"
OUTPUT_MALFORMED = "output-malformed"
OUTPUT_VERSION_MISMATCH = "output-version-mismatch"
OUTPUT_DIGEST_MISMATCH = "output-digest-mismatch"
PLACEHOLDER_VALUE = "placeholder-value"
FILE_OVER_BOUND = "file-over-bound"
FILE_UNREADABLE = "file-unreadable"
JSON_MALFORMED = "json-malformed"
JSON_OVER_BOUND = "json-over-bound"
ENTRY_FILE_MISSING = "entry-file-missing"
ENTRY_FILE_UNEXPECTED = "entry-file-unexpected"
ENTRY_FILE_NOT_REGULAR = "entry-file-not-regular"
CATALOG_STRAY_FILE = "catalog-stray-file"
FIXTURE_MISSING = "fixture-missing"
FIXTURE_UNEXPECTED = "fixture-unexpected"
FIXTURE_FILE_MISSING = "fixture-file-missing"
FIXTURE_FILE_UNEXPECTED = "fixture-file-unexpected"
FIXTURE_OVER_BOUND = "fixture-over-bound"
BINDING_REQUIRED = "binding-required"
BINDING_FORBIDDEN = "binding-forbidden"
PREPARATION_DIGEST_MISMATCH = "preparation-digest-mismatch"
PREPARATION_NOT_CANONICAL = "preparation-not-canonical"
REPLAY_DIGEST_MISMATCH = "replay-digest-mismatch"
REPLAY_FAILED = "replay-failed"
MANIFEST_MALFORMED = "manifest-malformed"
MANIFEST_OVER_BOUND = "manifest-over-bound"
MANIFEST_ROW_INVALID = "manifest-row-invalid"
MANIFEST_ROW_VERSION_1 = "manifest-row-version-1"
MANIFEST_ORDER = "manifest-order"
MANIFEST_ID_DUPLICATE = "manifest-id-duplicate"
MANIFEST_ENTRY_UNLISTED = "manifest-entry-unlisted"
MANIFEST_ENTRY_MISSING = "manifest-entry-missing"
MANIFEST_KIND_MISMATCH = "manifest-kind-mismatch"
MANIFEST_DIGEST_MISMATCH = "manifest-digest-mismatch"
MANIFEST_FIXTURES_MISMATCH = "manifest-fixtures-mismatch"
ENTRY_UNKNOWN = "entry-unknown"
RELEASE_TAG_INVALID = "release-tag-invalid"
RELEASE_TAG_MOVED = "release-tag-moved"
UPGRADE_TARGET_NOT_HIGHER = "upgrade-target-not-higher"
RELEASE_TAG_LOWER = "release-tag-lower"
ENTRY_CHANGED_WITHOUT_UPGRADE = "entry-changed-without-upgrade"
LOCK_MALFORMED = "lock-malformed"
LOCK_LOCATION_MISMATCH = "lock-location-mismatch"

RECORDS: dict[str, Code] = {
    ENTRY_VERSION_UNREAD: Code(
        "RFC 0019 §3, Compatibility: entryVersion 1 or 2",
        "entry.json's entryVersion is 1 or 2, an earlier format a version-3 reader does not read.",
        "Move the entry to entryVersion 3, the current format (docs/entry-format.md).",
    ),
    ENTRY_MEMBER_MISSING: Code(
        "RFC 0019 §3 members list: a required or conditional member absent",
        "entry.json lacks a member its kind and direction require.",
        "Add the member the detail names, with a value of its grammar (docs/entry-format.md).",
    ),
    ENTRY_MEMBER_UNKNOWN: Code(
        "RFC 0019 §3: every object is closed",
        "entry.json holds a member the format does not define.",
        "Remove the member, or correct its spelling to a defined member's name.",
    ),
    ENTRY_MEMBER_INVALID: Code(
        "RFC 0019 §3 members list: a member's type, grammar or bound",
        "A member of entry.json has the wrong type, breaks its grammar or exceeds its bound.",
        "Correct the member's value to the type, grammar and bound docs/entry-format.md gives.",
    ),
    ENTRY_MEMBER_FORBIDDEN: Code(
        "RFC 0019 §3: a conditional member outside its condition (preset rules)",
        "entry.json holds a member its kind or direction does not allow.",
        "Remove the member, or change kind/direction to one that takes it.",
    ),
    LICENCE_NOT_LISTED: Code(
        "RFC 0019 §3 licence ('one SPDX licence identifier'), held by this catalog's gate to the SPDX licence list",
        "entry.json's licence passes §3's grammar but is neither an identifier of the SPDX licence list the "
        "gate pins nor a LicenseRef-<name> of SPDX's grammar (a consumer's release-check only notes this).",
        "Write the listed identifier the detail suggests ('did you mean'), find yours at https://spdx.org/licenses/, "
        "or name terms of your own LicenseRef-<name> (letters, digits, '.' and '-'; docs/entry-format.md).",
    ),
    LICENCE_SPELLING: Code(
        "RFC 0019 §3 licence, held by this catalog's gate to the SPDX licence list's spelling",
        "entry.json's licence is a listed identifier (or the LicenseRef- prefix) spelled otherwise than SPDX "
        "spells it (SPDX matches case-insensitively, this catalog keeps the listed spelling), or holds '+', "
        "SPDX's or-later operator and no part of an identifier.",
        "Write the identifier as the detail names it: the listed spelling, or for '+' the -or-later identifier "
        "(GPL-2.0+ is GPL-2.0-or-later).",
    ),
    ASSERTION_MISMATCH: Code(
        "RFC 0019 §3 'How the format is spelled': the assertion byte for byte",
        "entry.json's assertion is not the sentence the format requires, byte for byte.",
        "Copy the assertion verbatim from docs/entry-format.md (`exchange new` writes it).",
    ),
    ENTRY_ID_PATH: Code(
        "RFC 0019 §3: id equals the entry's path with '/' read as '.'",
        "entry.json's id is not the entry's directory path entries/PUBLISHER/NAME read as PUBLISHER.NAME.",
        "Make id equal PUBLISHER.NAME, or move the directory to match the id.",
    ),
    VERIFICATION_RECORD_INVALID: Code(
        "RFC 0019 §3: verification records {date, runner, runtime, readers, result}",
        "A verification record lacks a member, holds an unknown one, or has a value out of its grammar.",
        "Give each record exactly date, runner, runtime, readers and result in their grammars.",
    ),
    READER_LOCATOR_INVALID: Code(
        "RFC 0019 §3 'Reader locators'",
        "A reader locator does not follow the grammar of reader locators.",
        "Rewrite the locator in the form RFC 0019 §3 'Reader locators' gives.",
    ),
    SOURCE_KINDS_MISMATCH: Code(
        "RFC 0019 §3 sourceKinds ('the source kinds the dialect uses'; reading O6)",
        "sourceKinds is not the set of source kinds the dialect document uses.",
        "List exactly the source kinds the dialect's sources use (reading O6).",
    ),
    DIALECT_REFERENCE_FORM: Code(
        "RFC 0019 §3 reference refusals (1st)",
        "The dialect reference has neither or both of a document and a named artifact, or a malformed form.",
        "Give dialect exactly one form: the document in the entry, or a named artifact (RFC 0019 §3).",
    ),
    DIALECT_FORMAT_MISMATCH: Code(
        "RFC 0019 §3 reference refusals (2nd)",
        "dialect.format does not name the format of the referenced document.",
        "Set dialect.format to the document's format.",
    ),
    ARTIFACT_REQUIRED: Code(
        "RFC 0019 §3 reference refusals (3rd)",
        "The reference needs an artifact pair and has none.",
        "Add the artifact {id, version} the dialect document names.",
        FIX,
    ),
    ARTIFACT_FORBIDDEN: Code(
        "RFC 0019 §3 reference refusals (4th)",
        "The reference carries an artifact pair where the document names none.",
        "Remove artifact from the reference.",
    ),
    ARTIFACT_MALFORMED: Code(
        "RFC 0019 §3 reference refusals (5th)",
        "The artifact pair is not of the form {id, version} in their grammars.",
        "Correct artifact's id and version to their grammars.",
    ),
    ARTIFACT_MISMATCH: Code(
        "RFC 0019 §3 reference refusals (6th)",
        "The artifact pair is not the id and version the dialect document names.",
        "Copy the document's artifact id and version into the reference.",
        FIX,
    ),
    DIALECT_DIGEST_MISMATCH: Code(
        "RFC 0019 §3 reference refusals (7th); dialect.digest over canon bytes",
        "dialect.digest is not the digest of the dialect document's canonical bytes.",
        "Recompute dialect.digest from the document.",
        FIX,
    ),
    BOUND_DERIVATIVE: Code(
        "RFC 0019 §3: a preset with a bound source",
        "A preset entry's dialect has a bound source; a preset must leave its sources unbound.",
        "Publish the bound dialect as a kind-dialect entry, or unbind the preset's sources.",
    ),
    OUTPUT_MALFORMED: Code(
        "RFC 0018 §10 (dialect seed): the output document's form",
        "The output document does not have the form RFC 0018 §10 gives.",
        "Correct output.json to RFC 0018 §10's form.",
    ),
    OUTPUT_VERSION_MISMATCH: Code(
        "RFC 0019 §3 output.outputVersion equals the integer the document spells",
        "output.outputVersion is not the version the output document spells.",
        "Set output.outputVersion to the integer output.json spells.",
    ),
    OUTPUT_DIGEST_MISMATCH: Code(
        "RFC 0019 §3 'Digests': output.digest over the output document's canon bytes",
        "output.digest is not the digest of the output document's canonical bytes.",
        "Recompute output.digest from output.json.",
        FIX,
    ),
    PLACEHOLDER_VALUE: Code(
        "issue #9 / RFC 0019 §3 authoring members (stricter than the RFC: docs/entry-format.md placeholder-value)",
        "entry.json, dialect.json, output.json or README.md still holds a placeholder value `exchange new` wrote.",
        "Write the real value at the member (or README line) the detail names: title, description, author, "
        "pack.id, the dialect's platform and operation, the README's text.",
    ),
    FILE_OVER_BOUND: Code(
        "RFC 0019 §3: entry.json and README.md ≤ 64 KiB (output.json ≤ 131,072 B, reading O4)",
        "A file of the entry exceeds its size bound.",
        "Shorten the file below its bound (entry.json and README.md 64 KiB, output.json 131,072 bytes).",
    ),
    FILE_UNREADABLE: Code(
        "RFC 0019 §7: a file that cannot be read is a failure, not an absent file",
        "A file of the entry exists but cannot be read.",
        "Make the file a readable regular file (check permissions and encoding).",
    ),
    JSON_MALFORMED: Code(
        "dialect §1 (strict reading), applied to every catalog document",
        "A JSON document is not strict JSON (duplicate members, bad UTF-8, trailing data, lone surrogates…).",
        "Rewrite the document as strict JSON per dialect §1.",
    ),
    JSON_OVER_BOUND: Code(
        "dialect §12 nesting and number bounds, applied to every catalog document",
        "A JSON document nests too deeply or holds a number outside dialect §12's bounds.",
        "Flatten the document or bring its numbers within dialect §12's bounds.",
    ),
    ENTRY_FILE_MISSING: Code(
        "RFC 0019 §3: README.md, and the documents the direction gives",
        "A file the entry requires (README.md, or a document its direction gives) is absent.",
        "Add the file the detail names.",
    ),
    ENTRY_FILE_UNEXPECTED: Code(
        "RFC 0019 §3: a document the direction does not give; a closed entry root (O3)",
        "The entry root holds a file its kind and direction do not give.",
        "Remove the file; an entry root holds only the files RFC 0019 §3 lists.",
    ),
    ENTRY_FILE_NOT_REGULAR: Code(
        "RFC 0019 §§3, 6: symlinks, special files, a directory where a file belongs",
        "A path in the entry is a symlink, a special file, or a directory where a file belongs.",
        "Replace it with a regular file (commit the content, not a link).",
    ),
    CATALOG_STRAY_FILE: Code(
        "RFC 0019 §3: entries/<publisher>/<name>/ and nothing else under entries/",
        "Something under entries/ is not inside an entries/PUBLISHER/NAME/ directory.",
        "Move the file into its entry directory, or remove it.",
    ),
    FIXTURE_MISSING: Code(
        "RFC 0019 §§3, 6: every listed fixture has fixtures/<name>/",
        "entry.json lists a fixture whose fixtures/NAME/ directory is absent.",
        "Record the fixture into fixtures/NAME/, or remove it from entry.json's fixtures.",
        FIXTURE_REPLACE,
    ),
    FIXTURE_UNEXPECTED: Code(
        "RFC 0019 §3: no fixture directory entry.json does not list",
        "fixtures/ holds a directory entry.json's fixtures does not list.",
        "Remove the directory, or re-record it from its Runner export (which lists it in entry.json).",
        FIXTURE_REPLACE,
    ),
    FIXTURE_FILE_MISSING: Code(
        "RFC 0019 §3: case.json, profiles.json, preparation.json required",
        "A fixture lacks case.json, profiles.json or preparation.json (or sources/binding it needs).",
        "Re-record the fixture from its Runner export.",
        FIXTURE_REPLACE,
    ),
    FIXTURE_FILE_UNEXPECTED: Code(
        "RFC 0019 §3: the fixture file set is closed",
        "A fixture directory holds a file outside the fixture file set.",
        "Remove the file; a fixture holds only the files RFC 0019 §3 lists.",
    ),
    FIXTURE_OVER_BOUND: Code(
        "RFC 0019 §3: a fixture directory ≤ 16 MiB",
        "A fixture directory exceeds 16 MiB.",
        "Record a smaller case (fewer or smaller acquisitions).",
    ),
    BINDING_REQUIRED: Code(
        "RFC 0019 §3, dialect §4.4: binding.json for a dialect with an unbound source",
        "The dialect has an unbound source and the fixture has no binding.json.",
        "Re-record the fixture so it carries the binding the Runner used.",
        FIXTURE_REPLACE,
    ),
    BINDING_FORBIDDEN: Code(
        "RFC 0019 §3: no binding.json when the dialect has no unbound source",
        "A fixture holds binding.json though the dialect binds every source.",
        "Remove binding.json from the fixture.",
    ),
    PREPARATION_DIGEST_MISMATCH: Code(
        "RFC 0019 §3 'Digests': preparationDigest over preparation.json's bytes",
        "A fixture's preparationDigest is not the digest of its preparation.json bytes.",
        "Recompute preparationDigest from preparation.json.",
        FIX,
    ),
    PREPARATION_NOT_CANONICAL: Code(
        "RFC 0019 §3, dialect §9.5: preparation.json holds canonical bytes",
        "preparation.json is not in dialect §9.5's canonical bytes.",
        "Re-record the fixture, which writes preparation.json canonically.",
        FIXTURE_REPLACE,
    ),
    REPLAY_DIGEST_MISMATCH: Code(
        "RFC 0019 §4: a reading whose digest is not preparationDigest",
        "Replaying the fixture produced a preparation whose digest is not preparationDigest.",
        "Re-record the fixture from a Runner run under the entry's dialect.json; a recording is never edited: if you "
        "changed one of its files, restore it from git (exchange check names the edited files and the commit where "
        "the repository's history holds the recording).",
        FIXTURE_REPLACE,
    ),
    REPLAY_FAILED: Code(
        "RFC 0019 §4: the verifier gave no report",
        "The verifier gave no report for the fixture's replay.",
        "Check the fixture's files against the dialect; re-record it if they are damaged.",
        FIXTURE_REPLACE,
    ),
    MANIFEST_MALFORMED: Code(
        "RFC 0019 §3 manifest form: a JSON array read strictly",
        "manifest.json is not a strict JSON array.",
        "Regenerate manifest.json.",
        MANIFEST,
    ),
    MANIFEST_OVER_BOUND: Code(
        "RFC 0019 §3 manifest form: ≤ 1 MiB and ≤ 1,024 rows",
        "manifest.json exceeds 1 MiB or 1,024 rows.",
        "The catalog is full at this format; raise it with the maintainers.",
    ),
    MANIFEST_ROW_INVALID: Code(
        "RFC 0019 §3 manifest form: closed rows and their members",
        "A manifest row lacks a member, holds an unknown one or has a value out of its grammar.",
        "Regenerate manifest.json.",
        MANIFEST,
    ),
    MANIFEST_ROW_VERSION_1: Code(
        "RFC 0019 §3, Compatibility: a row without kind",
        "A manifest row has no kind (a version-1 row).",
        "Regenerate manifest.json, which writes kind on every row.",
        MANIFEST,
    ),
    MANIFEST_ORDER: Code(
        "RFC 0019 §3: rows ordered by id as UTF-8 bytes",
        "manifest.json's rows are not ordered by id as UTF-8 bytes.",
        "Regenerate manifest.json.",
        MANIFEST,
    ),
    MANIFEST_ID_DUPLICATE: Code(
        "RFC 0019 §3: distinct ids",
        "Two manifest rows carry the same id.",
        "Regenerate manifest.json.",
        MANIFEST,
    ),
    MANIFEST_ENTRY_UNLISTED: Code(
        "RFC 0019 §§3–4: one row per entry directory",
        "An entry directory has no manifest row.",
        "Regenerate manifest.json.",
        MANIFEST,
    ),
    MANIFEST_ENTRY_MISSING: Code(
        "RFC 0019 §§3–4: one entry per row",
        "A manifest row names an entry directory that does not exist.",
        "Regenerate manifest.json (or restore the entry).",
        MANIFEST,
    ),
    MANIFEST_KIND_MISMATCH: Code(
        "RFC 0019 §3: row kind equals the entry's",
        "A manifest row's kind is not its entry's kind.",
        "Regenerate manifest.json.",
        MANIFEST,
    ),
    MANIFEST_DIGEST_MISMATCH: Code(
        "RFC 0019 §§3–4: entryDigest, dialectDigest, outputDigest over stored bytes",
        "A manifest row's entryDigest, dialectDigest or outputDigest is not the digest of the stored bytes.",
        "Recompute the row's digests from the entry's files.",
        FIX,
    ),
    MANIFEST_FIXTURES_MISMATCH: Code(
        "RFC 0019 §3: fixtures rows in entry order, files equal to the file set",
        "A manifest row's fixtures are not entry.json's fixtures in order with their file sets.",
        "Regenerate the row from the entry's fixtures.",
        FIX,
    ),
    ENTRY_UNKNOWN: Code(
        "interfaces.md --entry ID: an id that names no entry directory is refused, never passed",
        "--entry names an id with no entry directory.",
        "Pass the id of an existing entry (PUBLISHER.NAME, as its entries/PUBLISHER/NAME/ path).",
    ),
    RELEASE_TAG_INVALID: Code(
        "RFC 0019 §7: a release is a tag of §3's grammar resolving to a commit",
        "A release tag breaks §3's tag grammar or does not resolve to a commit.",
        "Delete the tag and tag the release commit with a name in §3's grammar.",
    ),
    RELEASE_TAG_MOVED: Code(
        "RFC 0019 §7: a retained tag that now resolves to another commit",
        "release-check --expect-commit or --lock: the tag now resolves to another commit than the one retained at "
        "import (or no longer resolves at all).",
        "Do not import it: a release tag is never moved; ask the catalog's maintainers to restore the tag.",
    ),
    UPGRADE_TARGET_NOT_HIGHER: Code(
        "RFC 0019 §7: an upgrade moves to a higher tag",
        "upgrade-diff: TO_TAG is not a higher release than FROM_TAG.",
        "Give the release you have as FROM_TAG and a higher one as TO_TAG.",
    ),
    RELEASE_TAG_LOWER: Code(
        "RFC 0019 §7: 'A lower tag, ordered by its three integer components (§3), is refused' (the consumer's lock)",
        "release-check --lock: the tag is lower than the release the lock records as imported.",
        "Check the locked release or a higher one; a consumer never moves back to a lower release.",
    ),
    ENTRY_CHANGED_WITHOUT_UPGRADE: Code(
        "RFC 0019 §§3, 7: upgrade notes keyed by the imported entryDigest; an update is an explicit, reviewed upgrade",
        "release-check --lock: an imported entry's entryDigest changed, and the new entry.json has no upgrade note "
        "keyed by the locked entryDigest.",
        "Review the change with exchange upgrade-diff LOCATION --lock FILE TAG; to accept it, run release-check "
        "again with --update --approve-change ID (docs/release-contract.md).",
    ),
    LOCK_MALFORMED: Code(
        "docs/release-contract.md, 'The lock': the consumer's lock file is one closed JSON object",
        "release-check/upgrade-diff --lock: the lock file is not the lock's closed JSON form.",
        "Restore the lock from your records; or remove it and check the release you imported again to write it.",
    ),
    LOCK_LOCATION_MISMATCH: Code(
        "RFC 0019 §7: the consumer retains the catalog location with the tag and commit (the consumer's lock)",
        "release-check/upgrade-diff --lock: the lock records another catalog location than the one given.",
        "Give the location the lock records, or use that catalog's own lock.",
    ),
}

CODES: dict[str, str] = {code: record.section for code, record in RECORDS.items()}
"""Each code's section (the table's first field), for callers that need only that."""
