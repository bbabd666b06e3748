"""§6 reads: unwrap (§6.1), copy (§6.2), rule (§6.3), research's closed pointers (§4.3) and reconciliation (§6.4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..pointers import pointer as json_pointer
from .rule import PointerCheck, RuleTargets, check_rule
from .shapes import (
    at,
    closed,
    describe,
    fail,
    need_array,
    need_fact_target,
    need_pointer,
    need_string,
    shown,
)
from .templates import Scope

_INDEX_DIGITS = "0123456789"


@dataclass
class SourceInfo:
    """What a later source may rely on: kind, declared research field names, fact targets."""

    name: str
    kind: str
    fields: tuple[str, ...] = ()


def is_index(token: str) -> bool:
    return token == "0" or (token != "" and token[0] in "123456789" and all(c in _INDEX_DIGITS for c in token))


def check_copy(value: Any, path: str, check: PointerCheck | None = None) -> RuleTargets:
    """A copy: exactly facts and evidence, both required arrays of closed entries (§6.2)."""
    copy = closed(value, path, ("facts", "evidence"), what="a copy")
    targets = RuleTargets()
    for i, entry in enumerate(need_array(copy["facts"], at(path, "facts"))):
        where = at(path, "facts", i)
        entry = closed(entry, where, ("target", "source"), what="a fact copy")
        tokens = need_fact_target(entry["target"], at(where, "target"))
        if entry["target"] in targets.facts:
            raise fail(at(where, "target"), f"the fact target {shown(entry['target'])} is copied twice (§8.1)")
        targets.facts[entry["target"]] = tokens
        source_tokens = need_pointer(entry["source"], at(where, "source"))
        if check:
            check(source_tokens, entry["source"], at(where, "source"), "from")
    for i, entry in enumerate(need_array(copy["evidence"], at(path, "evidence"))):
        where = at(path, "evidence", i)
        entry = closed(entry, where, ("requirement", "source"), what="an evidence copy")
        requirement = need_string(entry["requirement"], at(where, "requirement"), non_empty=True)
        if requirement in targets.evidence:
            raise fail(at(where, "requirement"), f"the requirement {shown(requirement)} is named twice by one copy "
                                                 "(§6.2)")
        targets.evidence.append(requirement)
        source_tokens = need_pointer(entry["source"], at(where, "source"))
        if check:
            check(source_tokens, entry["source"], at(where, "source"), "field")
    return targets


def research_pointer_check(fields: tuple[str, ...]) -> PointerCheck:
    """§4.3's closed list of the pointers a plain research read may read, with no fact from under values."""

    def check(tokens: list[str], text: str, path: str, role: str) -> None:
        ok = False
        if tokens == ["fields"]:
            ok = True
        elif len(tokens) >= 2 and tokens[0] == "fields":
            if tokens[1] not in fields:
                raise fail(path, f"{shown(text)} names the field {shown(tokens[1])}, which this source does not "
                                 "declare (§4.3)")
            rest = tokens[2:]
            if rest in ([], ["status"], ["cites"]) or rest[:1] == ["value"]:
                ok = True
            elif len(rest) >= 3 and rest[0] == "values" and is_index(rest[1]) and rest[2] == "value":
                if role == "from":
                    raise fail(path, f"{shown(text)}: a plain research read takes no fact from under values (§4.3, "
                                     "§6.4)")
                ok = True
        if not ok:
            raise fail(path, f"{shown(text)} is not among the pointers a research read may read: /fields, "
                             "/fields/<name>, its /value (and below), /status, /values/<i>/value (and below) or "
                             "/cites (§4.3)")

    return check


def _entry(
    tokens: list[str], listed: dict[str, tuple[str, ...]], current: tuple[str, ...], text: str, path: str
) -> tuple[tuple[str, ...], list[str]] | None:
    """(the field entry's tokens, the rest) for §6.4's combined value, or None when outside it."""
    if len(tokens) >= 4 and tokens[0] == "sources" and tokens[2] == "fields":
        if tokens[1] not in listed:
            raise fail(path, f"{shown(text)} names the source {shown(tokens[1])}, which the read's sources does not "
                             "list (§6.4)")
        if tokens[3] not in listed[tokens[1]]:
            raise fail(path, f"{shown(text)} names the field {shown(tokens[3])}, which the source {shown(tokens[1])} "
                             "does not declare (§6.4)")
        return tuple(tokens[:4]), tokens[4:]
    if len(tokens) >= 3 and tokens[0] == "current" and tokens[1] == "fields":
        if tokens[2] not in current:
            raise fail(path, f"{shown(text)} names the field {shown(tokens[2])}, which this source does not declare "
                             "(§6.4)")
        return tuple(tokens[:3]), tokens[3:]
    return None


def _text(tokens: tuple[str, ...]) -> str:
    return json_pointer(tokens)


def _guard(entry: tuple[str, ...], status: str) -> dict[str, str]:
    return {"op": "equals", "field": _text(entry) + "/status", "to": status}


def _absence(entry: tuple[str, ...]) -> dict[str, Any]:
    return {"op": "not", "of": {"op": "exists", "field": _text(entry)}}


def _all_conditions(condition: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    stack = [condition]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out.append(item)
            inner = item.get("of")
            if isinstance(inner, list):
                stack.extend(inner)
            elif isinstance(inner, dict):
                stack.append(inner)
    return out


def check_reconciliation(
    read: dict[str, Any], path: str, scope: Scope, index: int, name: str, fields: tuple[str, ...],
    earlier: list[SourceInfo],
) -> RuleTargets:
    """§6.4: exactly {sources, rule} on a version-3 research source, its pointers and its guards."""
    closed(read, path, ("sources", "rule"), what="a reconciliation read (no copy or unwrap beside sources)")
    names = need_array(read["sources"], at(path, "sources"))
    if not names:
        raise fail(at(path, "sources"), "a reconciliation read lists 1 to 15 earlier research sources, found none "
                                        "(§6.4)")
    by_name = {info.name: info for info in earlier}
    listed: dict[str, tuple[str, ...]] = {}
    for i, listed_name in enumerate(names):
        where = at(path, "sources", i)
        need_string(listed_name, where)
        if listed_name in listed:
            raise fail(where, f"the source {shown(listed_name)} is listed twice (§6.4)")
        if listed_name == name:
            raise fail(where, f"{shown(listed_name)} is the current source; a reconciliation read lists earlier "
                              "sources (§6.4)")
        if listed_name not in by_name:
            raise fail(where, f"{shown(listed_name)} names no earlier source (a missing or later name) (§6.4)")
        if by_name[listed_name].kind != "research":
            raise fail(where, f"{shown(listed_name)} is a source of kind {by_name[listed_name].kind}; a reconciliation "
                              "read lists research sources (§6.4)")
        listed[listed_name] = by_name[listed_name].fields

    def check(tokens: list[str], text: str, where: str, role: str) -> None:
        found = _entry(tokens, listed, fields, text, where)
        if found is None:
            raise fail(where, f"{shown(text)} is outside §6.4's closed list: /sources/<source>/fields/<field> or "
                              "/current/fields/<field>, with /status, /value, /values or below (§6.4)")
        rest = found[1]
        if role == "from":
            if rest[:1] != ["value"]:
                raise fail(where, f"{shown(text)}: a reconciliation fact's from is a field entry's /value or below it "
                                  "(§6.4)")
        elif not (rest in ([], ["status"]) or rest[:1] in (["value"], ["values"])):
            raise fail(where, f"{shown(text)} is outside §6.4's closed list: a field entry, its /status, or its /value "
                              "or /values and below (§6.4)")

    rule_path = at(path, "rule")
    targets = check_rule(read["rule"], rule_path, scope, check)
    clauses = read["rule"]["clauses"]
    whens = [clause["when"] for clause in clauses]
    every = [c for when in whens for c in _all_conditions(when)]
    for i, clause in enumerate(clauses):
        claim = clause["claim"]
        where = at(rule_path, "clauses", i, "claim")
        if claim["evidence"] != {}:
            raise fail(at(where, "evidence"), "a reconciliation claim writes fact targets only: its evidence is {} "
                                              "(§6.4)")
        for j, fact in enumerate(claim["facts"]):
            from_path = at(where, "facts", j, "from")
            # check_rule held every from to a pointer (need_pointer) in §6.4's closed list (check): neither refuses
            selected = _entry(need_pointer(fact["from"], from_path), listed, fields, fact["from"], from_path)
            assert selected is not None
            entry = selected[0]
            found = _guard(entry, "found")
            when = clause["when"]
            direct = when == found or (when.get("op") == "all" and found in when["of"])
            if not direct:
                raise fail(
                    at(rule_path, "clauses", i, "when"),
                    f'the clause selects {shown(_text(entry))}/value; its when must be the guard '
                    f'{{"op":"equals","field":"{shown(_text(entry))}/status","to":"found"}} or an all holding it '
                    'directly (§6.4)',
                )
            for status in ("not-found", "stale", "conflicting"):
                if _guard(entry, status) not in every:
                    raise fail(rule_path, f"the selected field {shown(_text(entry))} has no guard for status "
                                          f"{status!r} in any clause (§6.4)")
            if _absence(entry) not in every:
                raise fail(
                    rule_path,
                    f'the selected field {shown(_text(entry))} has no absence guard '
                    f'{{"op":"not","of":{{"op":"exists","field":"{shown(_text(entry))}"}}}} (§6.4)',
                )
    last = clauses[-1]["claim"]
    if last["facts"] or last["acquisitionStatus"] not in ("unknown", "absent"):
        raise fail(at(rule_path, "clauses", len(clauses) - 1, "claim"), "the last always clause has no facts and "
                                                                        "status unknown or absent (§6.4)")
    return targets


def check_read(
    value: Any,
    path: str,
    scope: Scope,
    kind: str,
    family: int,
    index: int,
    name: str,
    fields: tuple[str, ...],
    earlier: list[SourceInfo],
) -> RuleTargets:
    """A source's read (§6): unwrap? and exactly one of copy and rule; research's forms (§4.3, §6.4)."""
    if not isinstance(value, dict):
        raise fail(path, f"a read is an object, found {describe(value)} (§6)")
    if "sources" in value:
        if kind != "research" or family != 3:
            raise fail(at(path, "sources"), "the reconciliation read is admitted on a version-3 research source only, "
                                            f"not on a source of kind {kind} (§6.4)")
        return check_reconciliation(value, path, scope, index, name, fields, earlier)
    research = kind == "research"
    optional = ("copy", "rule") if research else ("unwrap", "copy", "rule")
    read = closed(value, path, (), optional, what="a research read" if research else "a read")
    if ("copy" in read) == ("rule" in read):
        raise fail(path, "a read has exactly one of copy and rule (§6)")
    if "unwrap" in read:
        unwrap = need_array(read["unwrap"], at(path, "unwrap"))
        if not unwrap:
            raise fail(at(path, "unwrap"), "unwrap is an array of one to four pointers, found none (§6.1)")
        for i, pointer in enumerate(unwrap):
            need_pointer(pointer, at(path, "unwrap", i))
    check = research_pointer_check(fields) if research else None
    if "copy" in read:
        return check_copy(read["copy"], at(path, "copy"), check)
    return check_rule(read["rule"], at(path, "rule"), scope, check)
