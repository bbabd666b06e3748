"""The form of one refusal or finding code's record (issue #9 item 5: every refusal says how to fix it).

Each area's table (codes/catalog.py, codes/dialect.py, codes/verifier.py, codes/history.py,
codes/scan.py) maps a code to a `Code`; judgment_exchange.codes joins them into one registry and
generates docs/codes.md from it.
"""

from __future__ import annotations

from dataclasses import dataclass

# The commands that repair a refusal, named once so the tables and docs spell them alike.
FIX = "exchange fix"
MANIFEST = "exchange manifest --write"
FIXTURE_REPLACE = "exchange fixture add ENTRY_DIR RUN_EXPORT --name NAME --replace"
"""Re-recording a fixture entry.json already lists (or whose directory exists): the same command with --replace."""


@dataclass(frozen=True)
class Code:
    """A code's `section` (the rule's source), one-line `meaning`, how to `fix` it, and the `command`
    that fixes it where one does (None when a person must change the file)."""

    section: str
    meaning: str
    fix: str
    command: str | None = None
