"""Refusal codes of the entry scan (RFC 0019 §4, §6, §7), each with the section that defines it.

Every credential, token and key shape the scan recognises has its own code (`secret-…`); local
paths, code and binaries, README links and the scan's own limits have theirs. `SHAPES` (shapes.py)
gives each code the name and the one-line hint a report shows; a new `secret-…` shape needs only its row there (its
section is the credentials'), any other scan code a line here too (its section), and its record (meaning, fix) is
built from both.
"""

from ..coderecord import Code
from .shapes import (
    CODE_BINARY,
    CODE_EXECUTABLE,
    CODE_FILE,
    CODE_SCRIPT,
    LOCAL_PATH,
    README_LINK_LOCAL,
    README_LINK_MISSING,
    README_LINK_OUTSIDE,
    SCAN_DETECTOR_FAILED,
    SCAN_FILE_OVER_BOUND,
    SCAN_FILE_UNREADABLE,
    SCAN_FINDINGS_TRUNCATED,
    SCAN_INCOMPLETE,
    SHAPES,
)

_SECRETS = "RFC 0019 §4 (the scan), §6 (credentials, tokens and keys, of any kind and in any file)"
_PATHS = "RFC 0019 §4 (the scan refuses a local path), §6"
_CODE = "RFC 0019 §6 (code of any kind: no program, script, executable, image or package)"
_LINKS = "RFC 0019 Conformance (a relative link that does not resolve), §3 (README.md)"
_LIMITS = "RFC 0019 §4 (every file to a scan), §3 (bounds)"

_SECTIONS: dict[str, str] = {
    # credentials, tokens and keys (our own detectors and detect-secrets' standard plugins): each shape named secret-…
    **{code: _SECRETS for code in SHAPES if code.startswith("secret-")},
    # local paths
    LOCAL_PATH: _PATHS,
    # code and binaries
    CODE_EXECUTABLE: _CODE,
    CODE_SCRIPT: _CODE,
    CODE_BINARY: _CODE,
    CODE_FILE: _CODE,
    # README links
    README_LINK_OUTSIDE: _LINKS,
    README_LINK_MISSING: _LINKS,
    README_LINK_LOCAL: _LINKS,
    # the scan's own limits
    SCAN_FILE_OVER_BOUND: _LIMITS,
    SCAN_FILE_UNREADABLE: _LIMITS,
    SCAN_FINDINGS_TRUNCATED: _LIMITS,
    SCAN_DETECTOR_FAILED: _LIMITS,
    SCAN_INCOMPLETE: _LIMITS,
}

_MEANINGS: dict[str, str] = {
    _SECRETS: "A file of the entry holds a credential, token or key: {name}.",
    _PATHS: "A file of the entry holds a {name} of the author's machine.",
    _CODE: "The entry holds code: a {name}.",
    _LINKS: "README.md has a {name}.",
    _LIMITS: "A limit of the scan itself: {name}.",
}


def _record(code: str, section: str) -> Code:
    """A scan code's record: its meaning from its shape's name, its fix from the shape's hint (shapes.py)."""
    shape = SHAPES[code]
    return Code(section, _MEANINGS[section].format(name=shape.name), shape.hint[0].upper() + shape.hint[1:] + ".")


RECORDS: dict[str, Code] = {code: _record(code, section) for code, section in _SECTIONS.items()}

CODES: dict[str, str] = {code: record.section for code, record in RECORDS.items()}
"""Each code's section (the table's first field), for callers that need only that."""
