"""§8: targets across the case and every source, admits (§8.2), and unmapped / unmappedEvidence (§2)."""

from __future__ import annotations

from typing import Any

from ..quoting import member as member_name
from .rule import RuleTargets
from .shapes import CLASSES, at, fail, need_array, need_fact_target, need_object, need_one_of, need_string, shown
from .version import Format


def check_targets(written: list[tuple[str, RuleTargets]]) -> None:
    """No fact target equal to or a whole-token prefix of another; a requirement in one source only (§8.1)."""
    owners: dict[tuple[str, ...], tuple[str, str]] = {}
    for owner, targets in written:
        for text, tokens in targets.facts.items():
            key = tuple(tokens)
            if key in owners:
                raise fail("", f"the fact target {shown(text)} of {shown(owner)} equals one of {shown(owners[key][0])} "
                               "(§8.1)")
            owners[key] = (owner, text)
    for key, (owner, text) in owners.items():
        for cut in range(len(key)):
            prefix = key[:cut]
            if prefix in owners:
                other, other_text = owners[prefix]
                raise fail("", f"the fact target {shown(other_text)} of {shown(other)} is a prefix by whole tokens of "
                               f"{shown(text)} of {shown(owner)} (§8.1)")
    requirements: dict[str, str] = {}
    for owner, targets in written:
        for requirement in targets.evidence:
            if requirement in requirements:
                raise fail("", f"the requirement {shown(requirement)} is an evidence target of both "
                               f"{shown(requirements[requirement])} and {shown(owner)} (§8.1)")
            requirements[requirement] = owner


def check_admits(value: Any, fmt: Format, written: list[tuple[str, RuleTargets]]) -> None:
    """admits: {facts?, evidence?}, each naming only written targets, each list 1–3 distinct classes (§8.2)."""
    admits = need_object(value, "/admits")
    for name in admits:
        if name not in ("facts", "evidence"):
            raise fail(at("/admits", name), f"unknown member {member_name(name)} of admits (§8.2)")
    facts = {text for _, t in written for text in t.facts}
    evidence = {r for _, t in written for r in t.evidence}
    for member, known, what in (("facts", facts, "fact target"), ("evidence", evidence, "requirement")):
        if member not in admits:
            continue
        table = need_object(admits[member], at("/admits", member))
        if not table and fmt.one_spelling:
            raise fail(at("/admits", member), f"written as the empty object, which {fmt.label} refuses: leave it out "
                                              "(§2's encoding rule)")
        for target, classes in table.items():
            where = at("/admits", member, target)
            if target not in known:
                raise fail(where, f"admits names the {what} {shown(target)}, which no source writes (§8.2)")
            classes = need_array(classes, where)
            if not 1 <= len(classes) <= len(CLASSES):
                raise fail(where, f"a list of one to three classes, found {len(classes)} (§8.2)")
            for i, cls in enumerate(classes):
                need_one_of(cls, at(where, i), CLASSES)
            if len(set(classes)) != len(classes):
                raise fail(where, "a class is listed twice (§8.2)")


def check_unmapped(doc: dict[str, Any], fmt: Format) -> None:
    """unmapped (fact pointers) and unmappedEvidence (requirement ids): form only (§2)."""
    for member in ("unmapped", "unmappedEvidence"):
        if member not in doc:
            continue
        items = need_array(doc[member], f"/{member}")
        if not items and fmt.one_spelling:
            raise fail(f"/{member}", f"written as the empty array, which {fmt.label} refuses: leave it out (§2's "
                                     "encoding rule)")
        seen = set()
        for i, item in enumerate(items):
            where = at(f"/{member}", i)
            if member == "unmapped":
                need_fact_target(item, where)
            else:
                need_string(item, where, non_empty=True)
            if item in seen:
                raise fail(where, f"{shown(item)} is listed twice")
            seen.add(item)
