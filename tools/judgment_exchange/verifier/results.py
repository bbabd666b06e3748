"""The three answers of a preparation verifier (dialect §11): a refusal, a finding, a reading."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Refused:
    """A refusal: the reading is not admitted (§11 phases 1–6, or a bound measured late)."""

    code: str
    detail: str


@dataclass(frozen=True)
class Found:
    """A finding: the first of §11's findings 1–9 that holds."""

    code: str
    detail: str


@dataclass
class Reading:
    """A reading: the recomputed preparation agrees; its report members (§11 "The reading")."""

    digest: str
    binding: str
    facts: dict[str, Any]
    evidence: dict[str, Any]
    targets_by_class: dict[str, int]
    unsigned_parameters: list[dict[str, Any]] = field(default_factory=list)
    unsigned_freshness: dict[str, Any] | None = None
    preparation: dict[str, Any] | None = None
