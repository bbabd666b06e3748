"""Publication identity: one canonical dialect.digest per artifact pair (RFC 0019 §§3, 7)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ..codes.history import ARTIFACT_CONTENT_CHANGED
from ..refusal import Refusal
from ..tree import id_order
from .model import CurrentEntry, Facts, HistoricalRow, Pair


def _named(entries: Sequence[CurrentEntry]) -> list[tuple[CurrentEntry, Pair, str]]:
    """The entries that name a pair and a dialect.digest, each with the two, in id order."""
    return sorted(
        ((e, e.artifact, e.dialect_digest) for e in entries if e.artifact is not None and e.dialect_digest is not None),
        key=lambda named: id_order(named[0].id),  # an id from a path that is not UTF-8
    )


def _pair_text(pair: Pair) -> str:
    return f"(artifact.id {pair[0]!r}, artifact.version {pair[1]!r})"


def artifact_refusals(current: Sequence[CurrentEntry]) -> list[Refusal]:
    """Within one release: rows declaring one pair with different dialect.digest (§3), one refusal per entry."""
    by_pair: dict[Pair, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for entry, pair, dialect_digest in _named(current):
        by_pair[pair][dialect_digest].append(entry.id)
    refusals = []
    for entry, pair, dialect_digest in _named(current):
        digests = by_pair[pair]
        if len(digests) > 1:
            others = "; ".join(
                f"{', '.join(ids)} with {d}" for d, ids in sorted(digests.items()) if d != dialect_digest
            )
            refusals.append(
                Refusal(
                    ARTIFACT_CONTENT_CHANGED,
                    f"{entry.path}/entry.json",
                    f"{_pair_text(pair)} has dialect.digest {dialect_digest} here and "
                    f"another in this release: {others}",
                    entry.id,
                )
            )
    return refusals


def history_artifact_refusals(current: Sequence[CurrentEntry], rows: Sequence[HistoricalRow]) -> list[Refusal]:
    """Against previous releases: a pair published there with another dialect.digest, withdrawn or not (§7)."""
    return history_artifact_refusals_of(current, Facts.of(rows))


def history_artifact_refusals_of(current: Sequence[CurrentEntry], facts: Facts) -> list[Refusal]:
    """`history_artifact_refusals` over the distinct (pair, dialect.digest) facts of the previous releases."""
    published = facts.pairs
    refusals = []
    for entry, pair, _ in _named(current):
        changed = {d: where for d, where in published.get(pair, {}).items() if d != entry.dialect_digest}
        if changed:
            earlier = "; ".join(f"{d} ({', '.join(f'{i} in {r}' for i, r in where)})"
                                for d, where in sorted(changed.items()))
            refusals.append(
                Refusal(
                    ARTIFACT_CONTENT_CHANGED,
                    f"{entry.path}/entry.json",
                    f"{_pair_text(pair)} has dialect.digest {entry.dialect_digest} here, but was "
                    f"published with {earlier}",
                    entry.id,
                )
            )
    return refusals
