"""Refusals as values: what every check returns (docs/architecture.md).

A refusal names its code (docs/entry-format.md lists them with their sections), the entry it
belongs to, the repository-relative path of the file, and a detail that names the member and what
was expected. Checks never raise on bad input; they return refusals.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Refusal:
    """One refusal: `code`, the file's `path`, a `detail` for people, the `entry` id when known."""

    code: str
    path: str | None
    detail: str
    entry: str | None = None

    def with_entry(self, entry: str | None) -> "Refusal":
        return Refusal(self.code, self.path, self.detail, entry)

    def as_json(self) -> dict:
        return {"code": self.code, "entry": self.entry, "path": self.path, "detail": self.detail}


@dataclass(frozen=True)
class Skip:
    """A fixture held by its digests only (RFC 0019 §4): the reason names the verifier's refusal."""

    entry: str
    fixture: str
    reason: str

    def as_json(self) -> dict:
        return {"entry": self.entry, "fixture": self.fixture, "reason": self.reason}


@dataclass
class Report:
    """The gate's one report (interfaces.md, `exchange check --format json`)."""

    entries: int = 0
    refusals: list[Refusal] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    replayed: int = 0
    history: str = "skipped"
    notes: list[str] = field(default_factory=list)
    touched: list[str] | None = None
    checks: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)

    def timed(self, phase: str, started: float) -> None:
        """Add the seconds since `started` to a phase's time (printed by benchmarks, never asserted)."""
        self.timings[phase] = self.timings.get(phase, 0.0) + time.perf_counter() - started

    @property
    def passed(self) -> bool:
        return not self.refusals

    def as_json(self) -> dict:
        return {
            "result": "pass" if self.passed else "fail",
            "entries": self.entries,
            "refusals": [r.as_json() for r in self.refusals],
            "skipped": [s.as_json() for s in self.skipped],
            "replayed": self.replayed,
            "history": self.history,
        } | ({"touched": self.touched} if self.touched is not None else {}) \
          | ({"notes": self.notes} if self.notes else {})

    def results(self) -> list[dict]:
        """Each checked entry's result: refused when any refusal names it (a consumer keeps these)."""
        refused = {r.entry for r in self.refusals}
        return [{"id": i, "result": "refused" if i in refused else "pass"} for i in self.checked]
