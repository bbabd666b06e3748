"""§6.3: the derivation rule, version 1 — its form, conditions and claim forms, and the targets it names."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .shapes import (
    PARAMETER_TYPES,
    at,
    closed,
    describe,
    fail,
    need_array,
    need_fact_target,
    need_object,
    need_one_of,
    need_pointer,
    need_string,
    shown,
)

AVAILABILITY = ("present", "absent", "unknown")
STATUSES = ("resolved", "absent", "unknown")
ALWAYS = {"op": "always"}

_LEAVES = {
    "exists": ("field",),
    "isTrue": ("field",),
    "isDecimalString": ("field",),
    "equals": ("field", "to"),
    "equalsParam": ("field", "param"),
    "freshWithin": ("field", "asOf", "maxAge"),
}
OPS = ("always", "all", "any", "not") + tuple(_LEAVES)

# Called with (pointer tokens, the pointer string, its JSON pointer path, role "field" or "from").
PointerCheck = Callable[[list[str], str, str, str], None]


@dataclass
class RuleTargets:
    """What a rule writes (§8): its fact targets (pointer -> tokens) and its evidence targets."""

    facts: dict[str, list[str]] = field(default_factory=dict)
    evidence: list[str] = field(default_factory=list)


def _condition(value: Any, path: str, declared: dict[str, Any], check: PointerCheck | None) -> None:
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        obj = need_object(item, where, "a condition (an object)")
        op = obj.get("op")
        if not isinstance(op, str) or op not in OPS:
            found = shown(op) if isinstance(op, str) else describe(op)
            raise fail(at(where, "op"), f"unknown op {found}; the ops are {', '.join(OPS)} (§6.3)")
        if op == "always":
            closed(obj, where, ("op",), what="an always condition")
        elif op in ("all", "any"):
            closed(obj, where, ("op", "of"), what=f"an {op} condition")
            items = need_array(obj["of"], at(where, "of"))
            stack.extend((c, at(where, "of", i)) for i, c in reversed(list(enumerate(items))))
        elif op == "not":
            closed(obj, where, ("op", "of"), what="a not condition")
            stack.append((obj["of"], at(where, "of")))
        else:
            closed(obj, where, ("op",) + _LEAVES[op], what=f"an {op} condition")
            tokens = need_pointer(obj["field"], at(where, "field"))
            if check:
                check(tokens, obj["field"], at(where, "field"), "field")
            for member in ("param", "asOf", "maxAge"):
                if member in obj:
                    name = need_string(obj[member], at(where, member))
                    if name not in declared:
                        raise fail(at(where, member), f"{shown(name)} is not a parameter the rule declares (§6.3)")


def _claim(value: Any, path: str, targets: RuleTargets, check: PointerCheck | None) -> None:
    claim = closed(value, path, ("facts", "evidence", "acquisitionStatus"), what="a claim form")
    seen = set()
    for i, entry in enumerate(need_array(claim["facts"], at(path, "facts"))):
        where = at(path, "facts", i)
        entry = closed(entry, where, ("pointer", "from"), what="a claim form's fact")
        tokens = need_fact_target(entry["pointer"], at(where, "pointer"))
        if entry["pointer"] in seen:
            raise fail(at(where, "pointer"), f"the fact target {shown(entry['pointer'])} is written twice by one claim "
                                             "form (§8.1)")
        seen.add(entry["pointer"])
        targets.facts.setdefault(entry["pointer"], tokens)
        from_tokens = need_pointer(entry["from"], at(where, "from"))
        if check:
            check(from_tokens, entry["from"], at(where, "from"), "from")
    evidence = need_object(claim["evidence"], at(path, "evidence"))
    for requirement, availability in evidence.items():
        if requirement == "":
            raise fail(at(path, "evidence"), "a requirement id is a non-empty string (§6.3)")
        need_one_of(availability, at(path, "evidence", requirement), AVAILABILITY)
        if requirement not in targets.evidence:
            targets.evidence.append(requirement)
    need_one_of(claim["acquisitionStatus"], at(path, "acquisitionStatus"), STATUSES)


def check_rule(value: Any, path: str, scope: dict[str, str], check: PointerCheck | None = None) -> RuleTargets:
    """A derivation rule, version 1, over a source's scope (§6.3); returns the targets it names (§8)."""
    rule = closed(value, path, ("ruleVersion", "parameters", "clauses"), what="a derivation rule")
    if rule["ruleVersion"] != "1":
        raise fail(
            at(path, "ruleVersion"),
            'expected the string "1", found '
            # one replacement field, which Python 3.11 cannot break across lines
            f'{describe(rule["ruleVersion"]) if not isinstance(rule["ruleVersion"], str) else shown(rule["ruleVersion"])}'  # noqa: E501
            " (§6.3)",
        )
    declared = need_object(rule["parameters"], at(path, "parameters"))
    for name, kind in declared.items():
        where = at(path, "parameters", name)
        need_one_of(kind, where, PARAMETER_TYPES)
        if name not in scope:
            raise fail(where, f"the rule declares {shown(name)}, which is not in the source's scope (§3, §6.3)")
        if scope[name] != kind:
            raise fail(where, f"the rule declares {shown(name)} as {kind}; in the scope it is {scope[name]} (§6.3)")
    clauses = need_array(rule["clauses"], at(path, "clauses"))
    if not clauses:
        raise fail(at(path, "clauses"), "a rule has one to 64 clauses, found none (§6.3)")
    targets = RuleTargets()
    for i, clause in enumerate(clauses):
        where = at(path, "clauses", i)
        clause = closed(clause, where, ("when", "claim", "reason"), what="a clause")
        _condition(clause["when"], at(where, "when"), declared, check)
        _claim(clause["claim"], at(where, "claim"), targets, check)
        need_string(clause["reason"], at(where, "reason"))
    last = clauses[-1]["when"]
    if last != ALWAYS:
        raise fail(at(path, "clauses", len(clauses) - 1, "when"), "the last clause's when is {\"op\": \"always\"} "
                                                                  "(§6.3)")
    return targets
