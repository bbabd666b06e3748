"""The values the history check reads and returns (RFC 0019 §§3, 7)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..refusal import Refusal

Pair = tuple[str, str]

CHECKED = "checked"
NO_RELEASES = "no-releases"


@dataclass(frozen=True)
class CurrentEntry:
    """One entry of the candidate release: its id, its directory and what identity and upgrade need.

    `path` is the entry directory, repository-relative (``entries/<publisher>/<name>``);
    `artifact` is (artifact.id, artifact.version) or None; `dialect_digest` is dialect.digest or None;
    `upgrade_keys` are the keys of the entry's `upgrade` member.
    """

    id: str
    path: str
    dialect_digest: str | None = None
    artifact: Pair | None = None
    upgrade_keys: Sequence[str] = ()

    @classmethod
    def from_entry(cls, path: str, value: Any) -> "CurrentEntry":
        """Take id, dialect.digest, artifact and upgrade keys from a parsed entry.json, tolerating bad forms."""
        value_dict = value if isinstance(value, dict) else {}
        entry_id = value_dict.get("id")
        dialect = value_dict.get("dialect")
        digest = dialect.get("digest") if isinstance(dialect, dict) else None
        artifact = value_dict.get("artifact")
        pair = None
        if isinstance(artifact, dict):
            artifact_id, version = artifact.get("id"), artifact.get("version")
            if isinstance(artifact_id, str) and isinstance(version, str):
                pair = (artifact_id, version)
        upgrade = value_dict.get("upgrade")
        return cls(
            id=entry_id if isinstance(entry_id, str) else path.removeprefix("entries/").replace("/", "."),
            path=path,
            dialect_digest=digest if isinstance(digest, str) else None,
            artifact=pair,
            upgrade_keys=tuple(upgrade) if isinstance(upgrade, dict) else (),
        )


@dataclass(frozen=True)
class Release:
    """A release (§3, §7): a tag in the grammar, its integer components, the commit it resolves to."""

    tag: str
    version: tuple[int, int, int]
    commit: str


@dataclass(frozen=True)
class Retained:
    """A previous release the caller holds apart from the catalog's tags and ledger (RFC 0019 §7: "The
    consumer retains the catalog location, tag, resolved commit and manifest for the import"): the tag
    and commit it was imported at, and the manifestDigest retained with it. `name` is how refusals and
    the facts name it (a consumer's lock: "the locked v0.1.0"), so it is never mistaken for a tag of
    the checked history."""

    tag: str
    commit: str
    manifest_digest: str
    name: str


@dataclass(frozen=True)
class HistoricalRow:
    """A previous release's row, with the pair and canonical digest its pinned entry declares."""

    release: str
    id: str
    entry_digest: str
    pair: Pair | None = None
    dialect_digest: str | None = None


@dataclass
class Facts:
    """What the previous releases published, each distinct fact once (issue #12 item 4): `entries` maps
    (id, entryDigest) to the releases whose row held it; `pairs` maps an artifact pair to each
    canonical digest a pinned entry declared for it, with (id, release) of each row, in walk order."""

    entries: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    pairs: dict[Pair, dict[str, list[tuple[str, str]]]] = field(default_factory=dict)

    @classmethod
    def of(cls, rows: Iterable[HistoricalRow]) -> "Facts":
        """The facts of rows given one by one (release by release, each release's rows in order)."""
        facts = cls()
        for row in rows:
            facts.entries.setdefault((row.id, row.entry_digest), []).append(row.release)
            if row.pair is not None and row.dialect_digest is not None:
                facts.pairs.setdefault(row.pair, {}).setdefault(row.dialect_digest, []).append((row.id, row.release))
        return facts


@dataclass
class HistoryResult:
    """What `check_history` found: `status`, the refusals, the previous releases read, and notes."""

    status: str
    refusals: list[Refusal] = field(default_factory=list)
    releases: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    released: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Each entry id a previous release holds: (the latest such release's tag, its row's entryDigest)."""
