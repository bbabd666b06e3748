"""Refusal codes of the release-history check, each with the section that defines it."""

ARTIFACT_HISTORY_INVALID = "artifact-history-invalid"
ARTIFACT_CONTENT_CHANGED = "artifact-content-changed"
UPGRADE_KEY_UNKNOWN = "upgrade-key-unknown"
RELEASE_TAG_INVALID = "release-tag-invalid"  # defined in catalog/codes.py (RFC 0019 §7), shared here

CODES: dict[str, str] = {
    ARTIFACT_HISTORY_INVALID: (
        "RFC 0019 §§3, 4, 7: the tag listing cannot be read, or a previous release's manifest or a pinned "
        "entry is missing, malformed, over its bound or fails its entryDigest"
    ),
    ARTIFACT_CONTENT_CHANGED: (
        "RFC 0019 §§3, 7: one (artifact.id, artifact.version) declared with two canonical dialect.digest "
        "values, within the release or against any previous release (withdrawn entries included)"
    ),
    UPGRADE_KEY_UNKNOWN: (
        "RFC 0019 §3: an upgrade key that is not the entryDigest of this entry's row in a previous release"
    ),
}
