"""Release history: tags, upgrade keys and artifact identity (RFC 0019 §§3, 7).

The gate calls `check_history` (needs the git repository) and `artifact_refusals` (within one
release, no git; called even with --no-history).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the same imports, for readers and the import contract (issue #29): a lazy export is a dependency
    from ..codes.history import CODES as CODES
    from ..tree import ObjectStore as ObjectStore
    from ..tree import ReleaseTree as ReleaseTree
    from .check import check_history as check_history
    from .check import check_retained as check_retained
    from .identity import artifact_refusals as artifact_refusals
    from .identity import history_artifact_refusals as history_artifact_refusals
    from .model import CHECKED as CHECKED
    from .model import NO_RELEASES as NO_RELEASES
    from .model import CurrentEntry as CurrentEntry
    from .model import HistoricalRow as HistoricalRow
    from .model import HistoryResult as HistoryResult
    from .model import Release as Release
    from .model import Retained as Retained
    from .tags import Tags as Tags
    from .tags import list_releases as list_releases
    from .tags import previous_releases as previous_releases
    from .tags import release_key as release_key
    from .walk import read_history as read_history

_FROM = {
    "check_history": ".check", "check_retained": ".check",
    "CODES": "..codes.history",
    "artifact_refusals": ".identity", "history_artifact_refusals": ".identity",
    "CHECKED": ".model", "NO_RELEASES": ".model", "CurrentEntry": ".model", "HistoricalRow": ".model",
    "HistoryResult": ".model", "Release": ".model", "Retained": ".model",
    "ObjectStore": "..tree", "ReleaseTree": "..tree",
    "Tags": ".tags", "list_releases": ".tags", "previous_releases": ".tags", "release_key": ".tags",
    "read_history": ".walk",
}
"""Where each name this package exports is defined: imported on first use (PEP 562; issue #20), so a run that
needs only artifact identity (`exchange check --no-history`, an empty catalog) does not load the walk."""


def __getattr__(name: str) -> Any:
    where = _FROM.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(where, __name__), name)
    globals()[name] = value
    return value


__all__ = sorted(_FROM)
