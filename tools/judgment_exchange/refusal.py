"""Refusals as values: what every check returns (docs/architecture.md).

A refusal names its code (docs/codes.md lists them, generated from judgment_exchange.codes), the
entry it belongs to, the repository-relative path of the file, and a detail that names the member and
what was expected. Where the check knows it, a refusal also carries the JSON Pointer of the offending
member within that file (`pointer`) or the 1-based line (`line`); `exchange check --format github`
turns either into the annotation's line (docs/reports.md). A pointer may hold an author's member name,
so it is only used to find the line and is never printed. Checks never raise on bad input; they
return refusals.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class Refusal:
    """One refusal: `code`, the file's `path`, a `detail` for people, the `entry` id when known, and the
    offending member's `pointer` or `line` in that file when the check knows it."""

    code: str
    path: str | None
    detail: str
    entry: str | None = None
    pointer: str | None = None
    line: int | None = None
    fix: str | None = None
    """How to fix this one refusal where the gate knows better than its code's registry row (our own
    text, never an author's: e.g. 're-record' for a preparation.json a pull request changed; issue #17
    item 4); None: the registry's `fix_text(code)`."""

    def with_entry(self, entry: str | None) -> "Refusal":
        return replace(self, entry=entry)

    def how_to_fix(self) -> str | None:
        """This refusal's fix: its own `fix` when set, else its code's (codes.fix_text)."""
        from .codes import fix_text

        return self.fix if self.fix is not None else fix_text(self.code)

    def as_json(self) -> dict[str, Any]:
        """interfaces.md's refusal, with `fix` (how to fix it: `how_to_fix`) and `doc` (its row in docs/codes.md)."""
        from .codes import REGISTRY, doc_link

        return {"code": self.code, "entry": self.entry, "path": self.path, "detail": self.detail,
                "fix": self.how_to_fix(), "doc": doc_link(self.code) if self.code in REGISTRY else None}


@dataclass(frozen=True)
class Skip:
    """A fixture held by its digests only (RFC 0019 §4): the reason names the verifier's refusal.

    What was still checked (docs/skips.md): the unread `kinds` and their `sources` (/sources/N pointers,
    never the names an author wrote), the `receipts` still held to §5.2, each check that could not be
    made (`unchecked`), and whether skips.json acknowledges it (`acknowledged`: None when the catalog
    has no skips.json)."""

    entry: str
    fixture: str
    reason: str
    kinds: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    receipts: int = 0
    unchecked: tuple[str, ...] = ()
    acknowledged: bool | None = None
    reader: str | None = None
    """The reader that answered the skip (docs/verifier-pin.md): the pinned locator, `bundled: …`, or
    `EXCHANGE_VERIFIER: …`."""

    def as_json(self) -> dict[str, Any]:
        return {"entry": self.entry, "fixture": self.fixture, "reason": self.reason, "kinds": list(self.kinds),
                "sources": list(self.sources), "receipts": self.receipts, "unchecked": list(self.unchecked),
                "acknowledged": self.acknowledged} | ({"reader": self.reader} if self.reader else {})

    def text(self) -> str:
        """One line for people (the text report, a pull request's warning, the release notes)."""
        held = f"{self.reason}" + (f" at {', '.join(self.sources)}" if self.sources else "")
        held += (f"; held by its digests only, and {self.receipts} receipt(s) of kinds the verifier reads still "
                 "checked")
        if self.unchecked:
            held += f"; not checked: {'; '.join(self.unchecked)}"
        if self.acknowledged is not None:
            held += "; acknowledged in skips.json" if self.acknowledged else "; not acknowledged in skips.json"
        return held


@dataclass(frozen=True)
class Replay:
    """One fixture sent to a reader (RFC 0019 §4) and the `reader` that answered it (docs/verifier-pin.md);
    `result` is `reading` (its digest is preparationDigest), `skipped` or `refused`."""

    entry: str
    fixture: str
    reader: str
    result: str

    def as_json(self) -> dict[str, Any]:
        return {"entry": self.entry, "fixture": self.fixture, "reader": self.reader, "result": self.result}


@dataclass
class Findings:
    """What a check found, as values (issue #37 item 1; docs/architecture.md, "The gate's phases"): what it adds to
    the report's lists and counts. A check returns one; the gate's pipeline (gate/pipeline.py) alone records it."""

    refusals: list[Refusal] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[Refusal] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    replays: list[Replay] = field(default_factory=list)
    replayed: int = 0
    timings: dict[str, float] = field(default_factory=dict)

    def timed(self, phase: str, started: float) -> None:
        """Add the seconds since `started` to a phase's time (printed by benchmarks, never asserted)."""
        self.timings[phase] = self.timings.get(phase, 0.0) + time.perf_counter() - started

    def add(self, other: Findings) -> None:
        """`other`'s findings after these, in order; its times added to these."""
        add_findings(self, other)


def add_findings(into: Findings | Report, other: Findings) -> None:
    """`other`'s findings after those `into` holds (a phase's merged parts, or the report the pipeline records
    into), in order; its times added to theirs."""
    into.refusals += other.refusals
    into.notes += other.notes
    into.warnings += other.warnings
    into.skipped += other.skipped
    into.replays += other.replays
    into.replayed += other.replayed
    for phase, seconds in other.timings.items():
        into.timings[phase] = into.timings.get(phase, 0.0) + seconds


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
    reader: Any = None
    """The reader of this run when replay ran (repository/pin.py `ReaderChoice`: name, pinned, fallback)."""
    replays: list[Replay] = field(default_factory=list)
    gate_review: str | None = None
    """The note naming a change to the gate's own files the maintainers must review (also among `notes`): a
    `::notice` of its own in `--format github` (issue #38 item 5), since the change passes."""
    warnings: list[Refusal] = field(default_factory=list)
    """Findings that never fail the gate, shaped as refusals (code, path, detail, entry, pointer) so every
    surface places and clears them alike: a released entry changed without an upgrade note
    (`upgrade-note-missing`, issue #17 item 5)."""

    @property
    def passed(self) -> bool:
        return not self.refusals

    def as_json(self) -> dict[str, Any]:
        return {
            "result": "pass" if self.passed else "fail",
            "entries": self.entries,
            "refusals": [r.as_json() for r in self.refusals],
            "skipped": [s.as_json() for s in self.skipped],
            "replayed": self.replayed,
            "history": self.history,
        } | ({"touched": self.touched} if self.touched is not None else {}) \
          | ({"notes": self.notes} if self.notes else {}) \
          | ({"warnings": [w.as_json() for w in self.warnings]} if self.warnings else {}) \
          | ({"reader": self.reader.as_json(), "replays": [r.as_json() for r in self.replays]} if self.reader else {})

    def results(self) -> list[dict[str, Any]]:
        """Each checked entry's result: refused when any refusal names it (a consumer keeps these)."""
        refused = {r.entry for r in self.refusals}
        return [{"id": i, "result": "refused" if i in refused else "pass"} for i in self.checked]
