"""The consumer's side of RFC 0019 §7: `release-check` (check.py), its lock (lock.py) and `upgrade-diff`
(diff.py, with shown.py for the author's values a reviewer sees); docs/release-contract.md."""

from .check import (
           MAX_HISTORY,
           UNCHECKED,
           LocationError,
           ReleaseCheck,
           full_commit,
           open_location,
           release_check,
           resolve_tag,
)
from .diff import upgrade_diff
from .lock import Lock

__all__ = ["LocationError", "Lock", "MAX_HISTORY", "ReleaseCheck", "UNCHECKED", "full_commit", "open_location",
           "release_check", "resolve_tag", "upgrade_diff"]
