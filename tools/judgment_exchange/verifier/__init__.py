"""The preparation verifier (dialect §§5–11): recompute a preparation from its inputs and hold it.

`verify(Documents)` gives a `Refused`, a `Found` or a `Reading`; `report` / `report_bytes` write
§11's report; `program.main` is `exchange verify`; `replay_fixture` and `replay_with_program`
replay one fixture for the gate (`fixture_difference` names where a recorded preparation first
differs from the recomputed one), and `check_skipped` holds a fixture a verifier skipped to every check
that needs no unread source's claim (partial.py). docs/verifier.md states what is read and every reading chosen.
"""

from .partial import Partial, check_readable
from .replay import check_skipped, fixture_difference, replay_fixture, replay_with_program
from .results import Found, Reading, Refused
from .verify import READABLE_KINDS, Documents, report, report_bytes, verify

__all__ = ["READABLE_KINDS", "Documents", "Found", "Partial", "Reading", "Refused", "check_readable", "check_skipped",
           "fixture_difference", "replay_fixture", "replay_with_program", "report", "report_bytes", "verify"]
