"""Release history: tags, upgrade keys and artifact identity (RFC 0019 §§3, 7).

The gate calls `check_history` (needs the git repository) and `artifact_refusals` (within one
release, no git; called even with --no-history).
"""

from .check import check_history
from .codes import CODES
from .identity import artifact_refusals, history_artifact_refusals
from .model import CHECKED, NO_RELEASES, CurrentEntry, HistoricalRow, HistoryResult, Release
from ..tree import ObjectStore, ReleaseTree
from .tags import Tags, list_releases, previous_releases, release_key
from .walk import read_history

__all__ = [
    "CHECKED",
    "CODES",
    "NO_RELEASES",
    "CurrentEntry",
    "HistoricalRow",
    "HistoryResult",
    "ObjectStore",
    "Release",
    "ReleaseTree",
    "Tags",
    "artifact_refusals",
    "check_history",
    "history_artifact_refusals",
    "list_releases",
    "previous_releases",
    "read_history",
    "release_key",
]
