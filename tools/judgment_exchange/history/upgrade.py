"""Upgrade keys: each a released entryDigest of this entry's own row (RFC 0019 §3)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ..refusal import Refusal
from .codes import UPGRADE_KEY_UNKNOWN
from .model import CurrentEntry, HistoricalRow


def upgrade_refusals(current: Sequence[CurrentEntry], rows: Sequence[HistoricalRow], releases: int) -> list[Refusal]:
    """Refuse each key that is not the entryDigest of the row with this entry's id in a previous release.

    With no previous release, every key is refused (§3: a catalog with no earlier release admits none).
    """
    released: dict[tuple[str, str], list[str]] = defaultdict(list)
    holders: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        released[(row.id, row.entry_digest)].append(row.release)
        holders[row.entry_digest].add(row.id)
    refusals = []
    for entry in sorted(current, key=lambda e: e.id.encode("utf-8")):
        for key in entry.upgrade_keys:
            if (entry.id, key) in released:
                continue
            if releases == 0:
                why = "the catalog has no earlier release, so it admits no upgrade key"
            elif holders.get(key):
                why = f"it is the entryDigest of {', '.join(sorted(holders[key]))}'s row, not of this entry's"
            else:
                why = "it is not the entryDigest of this entry's row in any previous release"
            refusals.append(
                Refusal(UPGRADE_KEY_UNKNOWN, f"{entry.path}/entry.json", f"upgrade key {key}: {why}", entry.id)
            )
    return refusals
