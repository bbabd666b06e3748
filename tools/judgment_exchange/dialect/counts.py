"""§11 phase 3 for a dialect: the count bounds of §12, measured wherever measurable before any form.

Every access is guarded, since the forms are not yet checked: a member of the wrong type is not
measured here and is refused in phase 5 instead.
"""

from __future__ import annotations

from typing import Any, Iterator

from ..codes.dialect import INPUT_OVER_BOUND
from ..quoting import pointer_text
from .shapes import at, utf8_len

MAX_SOURCES = 16
MAX_SCOPE = 64
MAX_CLAUSES = 64
MAX_CONDITIONS = 64
MAX_UNWRAP = 4
MAX_FACT_TARGETS = 256
MAX_EVIDENCE_TARGETS = 128
MAX_FIELDS = 64
MAX_FIELD_NAME = 64
MAX_DESCRIPTION = 2048
MAX_MODEL = 256
MAX_EVIDENCE_INSTRUCTION = 4096
MAX_CAPABILITIES = 3
MAX_WEB_ASSIGNMENTS = 2
MAX_READ_SOURCES = 15

Count = tuple[str, str]


def _over(path: str, message: str) -> Count:
    return (INPUT_OVER_BOUND, f"{pointer_text(path) or '/'}: {message}")


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _conditions(condition: Any, path: str) -> Iterator[tuple[Any, str]]:
    """Every condition object under `condition`, itself included, with its pointer."""
    stack = [(condition, path)]
    while stack:
        item, where = stack.pop()
        if not isinstance(item, dict):
            continue
        yield item, where
        inner = item.get("of")
        if isinstance(inner, list):
            stack.extend((c, at(where, "of", i)) for i, c in reversed(list(enumerate(inner))))
        elif isinstance(inner, dict):
            stack.append((inner, at(where, "of")))


def _rule_counts(rule: Any, path: str) -> Count | None:
    clauses = _dict(rule).get("clauses")
    if isinstance(clauses, list) and len(clauses) > MAX_CLAUSES:
        return _over(at(path, "clauses"), f"{len(clauses)} clauses in one rule, over {MAX_CLAUSES} (§12)")
    for i, clause in enumerate(_list(clauses)):
        for condition, where in _conditions(_dict(clause).get("when"), at(path, "clauses", i, "when")):
            listed = condition.get("of")
            if condition.get("op") in ("all", "any") and isinstance(listed, list) and len(listed) > MAX_CONDITIONS:
                return _over(where, f"{len(listed)} conditions listed by one {condition['op']}, over {MAX_CONDITIONS} "
                                    "(§12)")
    return None


def _targets(read: Any) -> tuple[set[str], set[str]]:
    """The fact and evidence targets a read names, as far as they can be found (§8)."""
    facts: set[str] = set()
    evidence: set[str] = set()
    read = _dict(read)
    copy = _dict(read.get("copy"))
    for entry in _list(copy.get("facts")):
        target = _dict(entry).get("target")
        if isinstance(target, str):
            facts.add(target)
    for entry in _list(copy.get("evidence")):
        requirement = _dict(entry).get("requirement")
        if isinstance(requirement, str):
            evidence.add(requirement)
    for clause in _list(_dict(read.get("rule")).get("clauses")):
        claim = _dict(_dict(clause).get("claim"))
        for entry in _list(claim.get("facts")):
            pointer = _dict(entry).get("pointer")
            if isinstance(pointer, str):
                facts.add(pointer)
        evidence.update(name for name in _dict(claim.get("evidence")))
    return facts, evidence


def _research_counts(source: dict[str, Any], path: str) -> Count | None:
    fields = source.get("fields")
    if isinstance(fields, list):
        if len(fields) > MAX_FIELDS:
            return _over(at(path, "fields"), f"{len(fields)} declared fields, over {MAX_FIELDS} (§12)")
        for i, field in enumerate(fields):
            field = _dict(field)
            name, description = field.get("name"), field.get("description")
            if isinstance(name, str) and utf8_len(name) > MAX_FIELD_NAME:
                return _over(at(path, "fields", i, "name"), f"a field name of {utf8_len(name)} UTF-8 bytes, over "
                                                            f"{MAX_FIELD_NAME} (§12)")
            if isinstance(description, str) and utf8_len(description) > MAX_DESCRIPTION:
                return _over(at(path, "fields", i, "description"), f"a description of {utf8_len(description)} UTF-8 "
                                                                   f"bytes, over {MAX_DESCRIPTION} (§12)")
    model = source.get("model")
    if isinstance(model, str) and utf8_len(model) > MAX_MODEL:
        return _over(at(path, "model"), f"a model name of {utf8_len(model)} UTF-8 bytes, over {MAX_MODEL} (§12)")
    for i, instruction in enumerate(_list(source.get("evidence"))):
        if isinstance(instruction, str) and utf8_len(instruction) > MAX_EVIDENCE_INSTRUCTION:
            return _over(at(path, "evidence", i), f"an evidence instruction of {utf8_len(instruction)} UTF-8 bytes, "
                                                  f"over {MAX_EVIDENCE_INSTRUCTION} (§12)")
    capabilities = source.get("capabilities")
    if isinstance(capabilities, list) and len(capabilities) > MAX_CAPABILITIES:
        return _over(at(path, "capabilities"), f"{len(capabilities)} capabilities, over {MAX_CAPABILITIES} (§12)")
    web = source.get("webProfiles")
    if isinstance(web, dict) and len(web) > MAX_WEB_ASSIGNMENTS:
        return _over(at(path, "webProfiles"), f"{len(web)} web assignments, over {MAX_WEB_ASSIGNMENTS} (§12)")
    return None


def count_refusal(document: Any) -> Count | None:
    """§11 phase 3 on a dialect: (input-over-bound, detail) for the first count bound exceeded, else None."""
    doc = _dict(document)
    sources = doc.get("sources")
    if isinstance(sources, list) and len(sources) > MAX_SOURCES:
        return _over("/sources", f"{len(sources)} sources, over {MAX_SOURCES} (§12)")
    case = _dict(doc.get("case"))
    case_parameters = _dict(case.get("parameters"))
    if len(case_parameters) + 1 > MAX_SCOPE:
        return _over("/case/parameters", f"a scope of {len(case_parameters) + 1} parameters with runAt, over "
                                         f"{MAX_SCOPE} (§3, §12)")
    fact_count, evidence_count = 0, 0
    if "case" in doc:
        facts, evidence = _targets({"copy": case})
        fact_count, evidence_count = len(facts), len(evidence)
    for i, source in enumerate(_list(sources)):
        path = at("/sources", i)
        if not isinstance(source, dict):
            continue
        own = _dict(source.get("parameters"))
        if len(case_parameters) + len(own) + 1 > MAX_SCOPE:
            return _over(at(path, "parameters"), f"a scope of {len(case_parameters) + len(own) + 1} parameters with "
                                                 f"runAt, over {MAX_SCOPE} (§3, §12)")
        read = _dict(source.get("read"))
        unwrap = read.get("unwrap")
        if isinstance(unwrap, list) and len(unwrap) > MAX_UNWRAP:
            return _over(at(path, "read", "unwrap"), f"{len(unwrap)} unwrap pointers, over {MAX_UNWRAP} (§12)")
        listed = read.get("sources")
        if isinstance(listed, list) and len(listed) > MAX_READ_SOURCES:
            return _over(at(path, "read", "sources"), f"{len(listed)} earlier sources in one reconciliation read, over "
                                                      f"{MAX_READ_SOURCES} (§6.4, §12)")
        found = _rule_counts(read.get("rule"), at(path, "read", "rule"))
        if found:
            return found
        if source.get("kind") == "research":
            found = _research_counts(source, path)
            if found:
                return found
        facts, evidence = _targets(read)
        fact_count += len(facts)
        evidence_count += len(evidence)
    if fact_count > MAX_FACT_TARGETS:
        return _over("", f"{fact_count} fact targets in all, over {MAX_FACT_TARGETS} (§8.1, §12)")
    if evidence_count > MAX_EVIDENCE_TARGETS:
        return _over("", f"{evidence_count} evidence targets in all, over {MAX_EVIDENCE_TARGETS} (§8.1, §12)")
    return None
