"""Every refusal and finding code the project reports, in one place, each with its section."""

from __future__ import annotations

from .catalog.codes import CODES as CATALOG
from .dialect.codes import CODES as DIALECT
from .history.codes import CODES as HISTORY
from .scan.codes import CODES as SCAN
from .verifier.codes import CODES as VERIFIER

ALL: dict[str, str] = {**VERIFIER, **DIALECT, **CATALOG, **HISTORY, **SCAN}
