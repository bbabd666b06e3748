"""The contributor's tools' codes (docs/recording.md, docs/fix.md): a Runner run export that cannot be
made a fixture, a fixture that exists, an entry that cannot take a recording.

Add a code as `"code": Code(section, meaning, fix, command)`; `python -m judgment_exchange.codes --write`
regenerates docs/codes.md from these records (tests/test_codes.py fails while it is stale).
"""

from ..coderecord import Code

RECORDING_PACK_UNLISTED = "recording-pack-unlisted"
RECORDING_MALFORMED = "recording-malformed"
RECORDING_VERSION_UNREAD = "recording-version-unread"
RECORDING_NOT_MAPPED = "recording-not-mapped"
RECORDING_AUDIT_BYTES_MISMATCH = "recording-audit-bytes-mismatch"
RECORDING_CHAIN_MISMATCH = "recording-chain-mismatch"
RECORDING_NOT_REGULAR = "recording-not-regular"
RECORDING_MAPPING_MISMATCH = "recording-mapping-mismatch"
FIXTURE_EXISTS = "fixture-exists"
ENTRY_NOT_RECORDABLE = "entry-not-recordable"

RECORDS: dict[str, Code] = {
    RECORDING_PACK_UNLISTED: Code(
        "RFC 0019 §3 pack: an entry names the packs it reads (id, versions or digests); a fixture is a run of "
        "one of them (issue #26 item 6)",
        "exchange fixture add: the run was recorded under a pack digest (release.packDigest) that entry.json's "
        "pack.digests does not list, so the fixture would show the entry reading a pack it does not claim.",
        "If the entry reads that pack release, add the digest the detail names to pack.digests in entry.json and "
        "run the command again (exchange fix re-pins the manifest row); otherwise record the run under a pack "
        "the entry lists.",
    ),
    RECORDING_MALFORMED: Code(
        "docs/recording.md: a Runner run export (run.json, versions 2 to 5) read strictly within 32 MiB (dialect "
        "§§1, 12)",
        "exchange fixture add / new --from-run: the run export (or its profiles) is over its bound, not strict "
        "JSON, or lacks a member a fixture is made of; or a member versions 3 to 5 add (run.auditBytes, chain, "
        "run.auditSignatures) is missing from its version, present before it, over its bound, not standard "
        "base64, or (the chain entry and checkpoint) not of the form the Runner writes.",
        "Give the Runner's own run.json (export the run again, never edit it); profiles are one JSON array "
        "(dialect §5.1).",
    ),
    RECORDING_VERSION_UNREAD: Code(
        "docs/recording.md \"Export versions 2 to 5\": the Runner's run export versions 2 to 5 (its "
        "docs/MAPPING-V2.md)",
        "exchange fixture add / new --from-run: run.json's /version is not a run export version read here "
        "(2, 3, 4 or 5).",
        "Export the run again, asking the Runner for a version it serves: ?version=2 (the default), 3, 4 or 5; "
        "every one of them gives the same fixture.",
    ),
    RECORDING_NOT_MAPPED: Code(
        "docs/recording.md \"Export versions 2 to 5\": an export without lineage holds no preparation or mapping v2",
        "exchange fixture add / new --from-run: the export is of a run without lineage (\"inputs\": \"not-mapped\", "
        "or no preparation under a release that froze no mapping v2: a job with no input mapping or a version-1 "
        "file mapping), so there is nothing to make an entry or a fixture from.",
        "Run the job with a mapping v2 (your dialect document as its input mapping) and export that run.",
    ),
    RECORDING_AUDIT_BYTES_MISMATCH: Code(
        "docs/recording.md \"Export versions 2 to 5\": run.auditBytes (versions 3 to 5) are the audit record's "
        "one line, the same JSON value as run.audit",
        "exchange fixture add / new --from-run: the export's run.auditBytes, decoded, hold a line break, are not "
        "strict JSON within the record's bounds, or are not the same JSON value as run.audit: the export is not "
        "one recording.",
        "Export the run again from the Runner; never edit an export.",
    ),
    RECORDING_CHAIN_MISMATCH: Code(
        "docs/recording.md \"Export versions 2 to 5\": a version 4 or 5 export's chain entry names its run and the "
        "SHA-256 of run.auditBytes, and its checkpoint is the entry's",
        "exchange fixture add / new --from-run: the export's chain entry names another run than run.id or other "
        "bytes than run.auditBytes, or its checkpoint is not the entry's (checkpointVersion \"1\", the SHA-256 of "
        "the entry's line, its sequence and trail).",
        "Export the run again from the Runner; never edit an export.",
    ),
    RECORDING_NOT_REGULAR: Code(
        "docs/recording.md; RFC 0019 §6: no symlink or special file is read as a recording",
        "exchange fixture add / new --from-run: the export, profiles or audit record is a symlink or not a "
        "regular file.",
        "Give the path of the regular file itself.",
    ),
    RECORDING_MAPPING_MISMATCH: Code(
        "RFC 0019 §§3-4, dialect §4.4: the recording's mappingDigest is the entry document's (bound) digest",
        "exchange fixture add: the run was made under another document than the entry's dialect.json (its "
        "mappingDigest is neither the document's canonical digest nor, unbound, the bound digest).",
        "Record the run under this entry's dialect.json, or add the fixture to the entry whose document it is.",
    ),
    FIXTURE_EXISTS: Code(
        "RFC 0019 §3: fixture names are distinct within an entry",
        "exchange fixture add: entry.json lists a fixture of this name, or fixtures/<name>/ exists.",
        "Choose another --name, or give --replace to re-record the fixture of that name.",
    ),
    ENTRY_NOT_RECORDABLE: Code(
        "RFC 0019 §3: fixtures belong to kind dialect with an input document that passes its checks",
        "exchange fixture add: the entry is a preset or output-only, or its entry.json or dialect.json does not "
        "pass its form and reference checks, so no fixture can be replayed against it.",
        "Fix the entry first (exchange check --entry ID), or add the fixture to a kind-dialect input entry.",
    ),
}
