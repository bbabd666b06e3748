"""The derivation rule, version 1 (dialect §6.3): its evaluation.

The rule's form is the dialect form checker's (dialect/rule.py), checked before anything is
recomputed (§11 phase 5), so the evaluator only meets rules of §6.3's form. `evaluate` derives the claim: the first
clause whose condition is true, with basis the fields of
the leaves evaluated up to and including it, as the short-circuit path defines it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..jsonstrict import integer
from .values import ABSENT, in_canon, instant, json_equal, resolve, write

_DECIMAL = re.compile(r"0|[1-9][0-9]*")


@dataclass(frozen=True)
class ReadFailed:
    """The read failed (§6.3): a matched from that does not resolve, or a value outside canon."""

    detail: str


class _Evaluation:
    def __init__(self, value: Any, declared: dict[str, Any] | None, params: dict[str, Any]) -> None:
        self.value = value
        self.declared = declared
        self.params = params
        self.basis: set[str] = set()

    def truth(self, cond: dict[str, Any]) -> bool:
        op = cond["op"]
        if op == "always":
            return True
        if op == "all":
            return all(self.truth(c) for c in cond["of"])
        if op == "any":
            return any(self.truth(c) for c in cond["of"])
        if op == "not":
            return not self.truth(cond["of"])
        self.basis.add(cond["field"])
        found = resolve(self.value, cond["field"])
        if op == "exists":
            return found is not ABSENT
        if found is ABSENT:
            return False
        if op == "isTrue":
            return found is True
        if op == "isDecimalString":
            return isinstance(found, str) and _DECIMAL.fullmatch(found) is not None
        if op == "equals":
            return json_equal(found, cond["to"])
        if op == "equalsParam":
            return cond["param"] in self.params and json_equal(found, self.params[cond["param"]])
        return self._fresh(found, cond)

    def _fresh(self, found: Any, cond: dict[str, Any]) -> bool:
        if self.declared is not None and (
            self.declared.get(cond["asOf"]) != "timestamp" or self.declared.get(cond["maxAge"]) != "integer"
        ):
            return False
        observed, as_of = instant(found), instant(self.params.get(cond["asOf"]))
        max_age = integer(self.params.get(cond["maxAge"]))
        if observed is None or as_of is None or max_age is None:
            return False
        return 0 <= as_of - observed <= max_age


def evaluate(rule: dict[str, Any], value: Any, params: dict[str, Any]) -> dict[str, Any] | ReadFailed:
    """The claim a well-formed rule derives from the value read (§6.3); params maps names to values."""
    run = _Evaluation(value, rule.get("parameters"), params)
    match = next(c for c in rule["clauses"] if run.truth(c["when"]))
    facts: dict[str, Any] = {}
    for entry in match["claim"]["facts"]:
        found = resolve(value, entry["from"])
        if found is ABSENT:
            return ReadFailed(f"the matched clause's from {entry['from']} does not resolve")
        if not in_canon(found):
            return ReadFailed(f"the value at {entry['from']} is outside the canon domain")
        write(facts, entry["pointer"], found)
    return {
        "facts": facts,
        "evidenceAvailability": dict(match["claim"]["evidence"]),
        "acquisitionStatus": match["claim"]["acquisitionStatus"],
        "reason": match["reason"],
        "basis": sorted(run.basis),
    }
