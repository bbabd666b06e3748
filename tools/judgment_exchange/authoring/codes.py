"""The contributor's tools' codes (docs/recording.md, docs/fix.md): a Runner run export that cannot be
made a fixture, a fixture that exists, an entry that cannot take a recording.

Add a code as `"code": Code(section, meaning, fix, command)`; `python -m judgment_exchange.codes --write`
regenerates docs/codes.md from these records (tests/test_codes.py fails while it is stale).
"""

from ..coderecord import Code

RECORDS: dict[str, Code] = {
    "recording-malformed": Code(
        "docs/recording.md: a Runner run export (run.json, version 2) read strictly within 32 MiB (dialect §§1, 12)",
        "exchange fixture add / new --from-run: the run export (or its profiles) is over its bound, not strict "
        "JSON, or lacks a member a fixture is made of.",
        "Give the Runner's own run.json (export the run again); profiles are one JSON array (dialect §5.1).",
    ),
    "recording-not-regular": Code(
        "docs/recording.md; RFC 0019 §6: no symlink or special file is read as a recording",
        "exchange fixture add / new --from-run: the export, profiles or audit record is a symlink or not a "
        "regular file.",
        "Give the path of the regular file itself.",
    ),
    "recording-mapping-mismatch": Code(
        "RFC 0019 §§3-4, dialect §4.4: the recording's mappingDigest is the entry document's (bound) digest",
        "exchange fixture add: the run was made under another document than the entry's dialect.json (its "
        "mappingDigest is neither the document's canonical digest nor, unbound, the bound digest).",
        "Record the run under this entry's dialect.json, or add the fixture to the entry whose document it is.",
    ),
    "fixture-exists": Code(
        "RFC 0019 §3: fixture names are distinct within an entry",
        "exchange fixture add: entry.json lists a fixture of this name, or fixtures/<name>/ exists.",
        "Choose another --name, or give --replace to re-record the fixture of that name.",
    ),
    "entry-not-recordable": Code(
        "RFC 0019 §3: fixtures belong to kind dialect with an input document that passes its checks",
        "exchange fixture add: the entry is a preset or output-only, or its entry.json or dialect.json does not "
        "pass its form and reference checks, so no fixture can be replayed against it.",
        "Fix the entry first (exchange check --entry ID), or add the fixture to a kind-dialect input entry.",
    ),
}
