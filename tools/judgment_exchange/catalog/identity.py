"""Artifact identity within a release, and the history walk, as the gate calls them (RFC 0019 §§3, 7)."""

from __future__ import annotations

import os

from ..refusal import Refusal, Report
from ..tree import Tree
from .directory import EntryCheck


def current_entries(checks: list[EntryCheck]) -> list:
    """The candidate release's entries in the form history reads."""
    from ..history import CurrentEntry

    out = []
    for c in checks:
        if c.entry is None:
            continue
        upgrade = c.entry.get("upgrade")
        out.append(CurrentEntry(id=c.id, path=c.path, entry_value=c.entry, dialect_digest=c.dialect_digest,
                                artifact=c.artifact,
                                upgrade_keys=list(upgrade) if isinstance(upgrade, dict) else []))
    return out


def identity_check(checks: list[EntryCheck]) -> list[Refusal]:
    """Two rows of this release with one artifact pair and different canonical digests."""
    from ..history import artifact_refusals

    return artifact_refusals(current_entries(checks))


def history_check(tree: Tree, checks: list[EntryCheck], options, report: Report) -> None:
    """Upgrade keys and artifact history against every previous release (no form-only fallback)."""
    from ..history import check_history

    repository = options.repository or getattr(tree, "repository", None)
    if repository is None or not os.path.exists(repository):
        report.refusals.append(Refusal("artifact-history-invalid", None, "no git repository to read releases from"))
        report.history = "checked"
        return
    result = check_history(repository, current_entries(checks), release_tag=options.release_tag, base=options.base,
                           max_releases=options.max_history)
    report.history = result.status
    report.refusals += result.refusals
    report.notes += result.notes
