"""Refusal codes of the release-history check: section, meaning, fix and fixing command."""

from ..coderecord import Code, Kind

ARTIFACT_HISTORY_INVALID = "artifact-history-invalid"
ARTIFACT_HISTORY_UNCHECKED = "artifact-history-unchecked"  # a consumer's report, never a refusal (RFC 0019 §7)
ARTIFACT_CONTENT_CHANGED = "artifact-content-changed"
UPGRADE_KEY_UNKNOWN = "upgrade-key-unknown"
UPGRADE_NOTE_MISSING = "upgrade-note-missing"  # a warning, never a refusal (RFC 0019 §3 makes notes optional)
RELEASE_TAG_INVALID = "release-tag-invalid"  # defined in codes/catalog.py (RFC 0019 §7), shared here
RELEASE_LEDGER_INVALID = "release-ledger-invalid"
RELEASE_LEDGER_CHANGED = "release-ledger-changed"
RELEASE_LEDGER_MISSING = "release-ledger-missing"
RELEASE_ROW_MISMATCH = "release-row-mismatch"
RELEASE_TAG_MISSING = "release-tag-missing"
RELEASE_TAG_MISMATCH = "release-tag-mismatch"
RELEASE_TAG_UNRECORDED = "release-tag-unrecorded"

_LEDGER = "docs/releasing.md 'The release ledger' (issue #10 item 1)"

RECORDS: dict[str, Code] = {
    ARTIFACT_HISTORY_INVALID: Code(
        "RFC 0019 §§3, 4, 7: the tag listing cannot be read, or a previous release's manifest or a pinned "
        "entry is missing, malformed, over its bound or fails its entryDigest",
        "A previous release cannot be read whole: its tags, its manifest or an entry it pins.",
        "Fetch every release tag (git fetch --tags); a damaged release is for the maintainers to repair.",
    ),
    ARTIFACT_HISTORY_UNCHECKED: Code(
        "RFC 0019 §7: \"The consumer checks history when it holds the previous manifest and otherwise checks form "
        "only, reporting artifact-history-unchecked; this is not a refusal or proof of immutable history\"",
        "A consumer's history report, never a refusal: release-check held no previous manifest (--no-history and "
        "no lock), so the release's artifact pairs and upgrade keys were checked by their form only.",
        "To hold the release to its history, check it with --history N (the earlier releases on the tag's own "
        "history), and keep a lock (--lock FILE) so the release you imported is held at every later check "
        "(docs/release-contract.md).",
        kind=Kind.NOTE,
    ),
    ARTIFACT_CONTENT_CHANGED: Code(
        "RFC 0019 §§3, 7: one (artifact.id, artifact.version) declared with two canonical dialect.digest "
        "values, within the release or against any previous release (withdrawn entries included)",
        "One artifact id and version names two different dialect documents.",
        "Give the changed dialect document a new artifact version; a published version never changes.",
    ),
    UPGRADE_KEY_UNKNOWN: Code(
        "RFC 0019 §3: an upgrade key that is not the entryDigest of this entry's row in a previous release",
        "An upgrade key is not this entry's entryDigest in any previous release.",
        "Key each upgrade by an entryDigest of this entry in an earlier release (the detail lists them).",
    ),
    UPGRADE_NOTE_MISSING: Code(
        "RFC 0019 §§3, 7: upgrade notes are optional, and a consumer locked to a released entryDigest is refused a "
        "change without one (issue #17 item 5); a warning on a pull request, never a refusal",
        "A warning: the pull request changes a released entry's entry.json and gives no upgrade note keyed by its "
        "latest released entryDigest, so every consumer locked to that release must approve the change by hand.",
        "Say what changed for reviewers upgrading from that release: exchange upgrade-note ENTRY_ID TEXT "
        "(CONTRIBUTING.md, \"Upgrade notes\").",
        "exchange upgrade-note ENTRY_ID TEXT",
        kind=Kind.WARNING,
    ),
    RELEASE_LEDGER_INVALID: Code(
        f"{_LEDGER}: releases.json is a JSON array of closed rows {{tag, manifestDigest, commit, previous, date}} "
        "in increasing tag order, within 1 MiB",
        "releases.json (the release ledger) is not in its form, or its rows are not in increasing tag order.",
        "Restore releases.json from main (git checkout origin/main -- releases.json); only `exchange release` "
        "writes it.",
    ),
    RELEASE_LEDGER_CHANGED: Code(
        f"{_LEDGER}: the ledger is append-only; a pull request does not change it",
        "A ledger row was changed or removed on main's history, or this tree's releases.json is not main's.",
        "Restore releases.json as the refusal's own fix names it (main's, or for a pull request the one its branch "
        "started from: git checkout COMMIT -- releases.json); a release row is added only by `exchange release` "
        "on main.",
    ),
    RELEASE_LEDGER_MISSING: Code(
        f"{_LEDGER}: a catalog whose releases kept a ledger keeps it",
        "releases.json is missing, but a release's commit holds one: the ledger was removed.",
        "Restore releases.json from main's history (git checkout <last release tag> -- releases.json).",
    ),
    RELEASE_ROW_MISMATCH: Code(
        f"{_LEDGER}: a row's manifestDigest, commit and previous against the commit that added it",
        "A ledger row does not match its release commit: the manifest, the checked commit, the previous "
        "release, or a release commit that changes more than the ledger.",
        "A release commit is never rewritten: restore main and the tag from a clone that has the original "
        "(docs/releasing.md).",
    ),
    RELEASE_TAG_MISSING: Code(
        f"{_LEDGER}: every ledger row's tag exists",
        "A release the ledger records has no tag here: the tag was deleted, or this clone lacks the tags.",
        "Fetch the tags from the remote main was read from (git fetch --tags upstream in a fork's clone, else "
        "origin: the refusal names it); a deleted release tag is restored on the commit the ledger records, never "
        "elsewhere.",
    ),
    RELEASE_TAG_MISMATCH: Code(
        f"{_LEDGER}: a release tag names the commit that added its ledger row",
        "A release tag names another commit than the one that added its ledger row: it was moved or re-created.",
        "Put the tag back on the commit the detail names (git tag -f vX.Y.Z <commit>); a release is never "
        "moved.",
    ),
    RELEASE_TAG_UNRECORDED: Code(
        f"{_LEDGER}: a release tag on main's first-parent history has a ledger row",
        "A tag in the release grammar on main has no ledger row: it was made without `exchange release`.",
        "Delete the tag (git push --delete origin vX.Y.Z; git tag -d vX.Y.Z) and release with "
        "`exchange release` under the next number.",
        "exchange release TAG",
    ),
}

CODES: dict[str, str] = {code: record.section for code, record in RECORDS.items()}
"""Each code's section (the table's first field), for callers that need only that."""
