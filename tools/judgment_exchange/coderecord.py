"""The form of one refusal or finding code's record (issue #9 item 5: every refusal says how to fix it).

Each area's table (codes/catalog.py, codes/dialect.py, codes/verifier.py, codes/history.py,
codes/scan.py) maps a code to a `Code`; judgment_exchange.codes joins them into one registry and
generates docs/codes.md from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# The commands that repair a refusal, named once so the tables and docs spell them alike.
FIX = "exchange fix"
MANIFEST = "exchange manifest --write"
FIXTURE_REPLACE = "exchange fixture add ENTRY_DIR RUN_EXPORT --name NAME --replace"
"""Re-recording a fixture entry.json already lists (or whose directory exists): the same command with --replace."""


class Kind(StrEnum):
    """What a code is in a report (issue #37 item 3): a refusal fails the gate; a warning is reported beside the
    refusals and never fails it (`Report.warnings`); a note is a report's value that is neither (a consumer's
    `artifact-history-unchecked`, RFC 0019 §7)."""

    REFUSAL = "refusal"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True)
class Code:
    """A code's `section` (the rule's source), one-line `meaning`, how to `fix` it, the `command`
    that fixes it where one does (None when a person must change the file), and its `kind`."""

    section: str
    meaning: str
    fix: str
    command: str | None = None
    kind: Kind = Kind.REFUSAL
