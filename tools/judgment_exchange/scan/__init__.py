"""Scans of every file of an entry (RFC 0019 §§4, 6). STUB: being written."""

from __future__ import annotations

from ..refusal import Refusal
from ..tree import Tree


def scan_entry(tree: Tree, entry_path: str, entry_id: str | None = None) -> list[Refusal]:
    """Every file under `entry_path`: credentials, tokens, keys, local paths, code, README links."""
    return []
