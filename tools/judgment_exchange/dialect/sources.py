"""§4: a source's members and its kind's — operation (§4.1, §4.4), selected-file (§4.2), http, sql, web, research
(§4.3)."""

from __future__ import annotations

from typing import Any

from ..canon import is_digest
from .shapes import (
    PARAMETER_TYPES,
    at,
    closed,
    describe,
    fail,
    need_array,
    need_integer,
    need_object,
    need_one_of,
    need_string,
    shown,
)
from .templates import Scope, check_form, check_object_template, check_string_template, check_template, is_template_form

KINDS_2 = ("operation", "selected-file")
KINDS_3 = KINDS_2 + ("http", "sql", "web", "research")
ALL_KINDS: frozenset[str] = frozenset(KINDS_3)
COMMON = ("name", "kind", "parameters", "read")
BINDING = ("profile", "profileDigest")
CATALOG = ("platform", "operation", "shape", "record")
RESEARCH_BINDING = ("profile", "profileDigest", "webProfiles")
SHAPES = ("mcp", "http", "airbyte")
CAPABILITIES = ("answer", "search", "page")
FIELD_TYPES = ("integer", "decimal", "boolean", "text", "text-list", "range")
MAX_AGE = 86400
MAX_TABLE_AGE = 315360000


def need_profile(source: dict[str, Any], path: str) -> None:
    """profile, a non-empty string, and profileDigest, a digest (§4.1)."""
    need_string(source["profile"], at(path, "profile"), non_empty=True)
    if not is_digest(source["profileDigest"]):
        raise fail(at(path, "profileDigest"), "expected a digest, sha256: and 64 lowercase hexadecimal characters, "
                                              f"found {describe(source['profileDigest'])} (§1)")


def _max_age(source: dict[str, Any], path: str) -> None:
    need_integer(source["maxAge"], at(path, "maxAge"), 1, MAX_AGE)


def _calculation(value: Any, path: str, scope: Scope) -> None:
    """§7: exactly inputs (input -> a parameter of the scope, never runAt) and tables (table -> 1..315360000)."""
    calc = closed(value, path, ("inputs", "tables"), what="calculation")
    for name, parameter in need_object(calc["inputs"], at(path, "inputs")).items():
        where = at(path, "inputs", name)
        need_string(parameter, where)
        if parameter == "runAt":
            raise fail(where, "a calculation input is bound to a parameter of the scope, never runAt (§7)")
        if parameter not in scope:
            raise fail(where, f"{shown(parameter)} is not a parameter in the source's scope (§7)")
    for name, limit in need_object(calc["tables"], at(path, "tables")).items():
        need_integer(limit, at(path, "tables", name), 1, MAX_TABLE_AGE)


def _operation(source: dict[str, Any], path: str, scope: Scope, family: int) -> None:
    """§4.1's bound form or, in version 3, §4.4's unbound form; a partial or mixed set is malformed."""
    bound = [m for m in BINDING if m in source]
    unbound = [m for m in CATALOG if m in source]
    if bound and unbound:
        raise fail(path, f"an operation mixes the bound form ({', '.join(bound)}) with the unbound form "
                         f"({', '.join(unbound)}) (§4.4)")
    if unbound:
        if family != 3:
            raise fail(path, "an unbound operation (platform, operation, shape, record) in a family-2 document; "
                             "version 2 and 2.0.0 have no unbound source (§4, §2.1)")
        missing = [m for m in CATALOG if m not in source]
        if missing:
            raise fail(path, f"a partial unbound operation: missing {', '.join(missing)} beside {', '.join(unbound)} "
                             "(§4.4)")
        closed(
            source,
            path,
            COMMON[:2] + ("read",) + CATALOG + ("maxAge", "arguments"),
            ("parameters", "calculation"),
            what="an unbound operation",
        )
        for member in ("platform", "operation", "record"):
            need_string(source[member], at(path, member), non_empty=True)
        need_one_of(source["shape"], at(path, "shape"), SHAPES)
    else:
        if len(bound) == 1:
            raise fail(path, f"a partial bound operation: {bound[0]} without "
                             f"{'profileDigest' if bound[0] == 'profile' else 'profile'} (§4.1, §4.4)")
        if not bound:
            raise fail(path, "an operation has either profile and profileDigest (§4.1) or, in version 3, platform, "
                             "operation, shape and record (§4.4); it has neither")
        closed(
            source,
            path,
            COMMON[:2] + ("read",) + BINDING + ("maxAge", "arguments"),
            ("parameters", "calculation"),
            what="an operation",
        )
        need_profile(source, path)
    _max_age(source, path)
    check_object_template(source["arguments"], scope, at(path, "arguments"), "arguments")
    if "calculation" in source:
        _calculation(source["calculation"], at(path, "calculation"), scope)


def _selected_file(source: dict[str, Any], path: str, scope: Scope) -> None:
    """§4.2: provider local-file (no more), or google-drive with profile, profileDigest, maxAge and arguments."""
    provider = source.get("provider")
    if provider == "local-file":
        closed(source, path, ("name", "kind", "read", "provider"), ("parameters",), what="a local-file selected-file "
                                                                                         "source")
        return
    if provider == "google-drive":
        closed(
            source,
            path,
            ("name", "kind", "read", "provider") + BINDING + ("maxAge", "arguments"),
            ("parameters",),
            what="a google-drive selected-file source",
        )
        need_profile(source, path)
        _max_age(source, path)
        check_object_template(source["arguments"], scope, at(path, "arguments"), "arguments")
        return
    if "provider" not in source:
        raise fail(path, "a selected-file source requires the member 'provider' (§4.2)")
    need_one_of(provider, at(path, "provider"), ("local-file", "google-drive"))


def _http(source: dict[str, Any], path: str, scope: Scope) -> None:
    """§4.3 http: method, path, query?, body? (refused beside GET), headers?."""
    closed(
        source,
        path,
        ("name", "kind", "read") + BINDING + ("maxAge", "method", "path"),
        ("parameters", "query", "body", "headers"),
        what="an http source",
    )
    need_profile(source, path)
    _max_age(source, path)
    method = need_one_of(source["method"], at(path, "method"), ("GET", "POST"))
    check_string_template(source["path"], scope, at(path, "path"))
    if "query" in source:
        query = check_object_template(source["query"], scope, at(path, "query"), "query")
        for name, value in query.items():
            check_string_template(value, scope, at(path, "query", name))
    if "body" in source:
        if method == "GET":
            raise fail(at(path, "body"), "a body is refused beside GET (§4.3)")
        check_template(source["body"], scope, at(path, "body"))
    if "headers" in source:
        seen = set()
        for i, header in enumerate(need_array(source["headers"], at(path, "headers"))):
            need_string(header, at(path, "headers", i), non_empty=True)
            if header in seen:
                raise fail(at(path, "headers", i), f"the header {shown(header)} is named twice (§4.3)")
            seen.add(header)


def _sql(source: dict[str, Any], path: str, scope: Scope) -> None:
    """§4.3 sql: statement, a fixed string; bindings of exactly {name, type, value}, value a $param."""
    closed(
        source,
        path,
        ("name", "kind", "read") + BINDING + ("maxAge", "statement", "bindings"),
        ("parameters",),
        what="a sql source",
    )
    need_profile(source, path)
    _max_age(source, path)
    if not isinstance(source["statement"], str):
        raise fail(at(path, "statement"), "a statement is a fixed string and never a template, found "
                                          f"{describe(source['statement'])} (§4.3)")
    seen = set()
    for i, binding in enumerate(need_array(source["bindings"], at(path, "bindings"))):
        where = at(path, "bindings", i)
        binding = closed(binding, where, ("name", "type", "value"), what="a sql binding")
        name = need_string(binding["name"], at(where, "name"), non_empty=True)
        if name in seen:
            raise fail(at(where, "name"), f"the binding name {shown(name)} is given twice (§4.3)")
        seen.add(name)
        kind = need_one_of(binding["type"], at(where, "type"), PARAMETER_TYPES)
        value = binding["value"]
        if not (is_template_form(value) and "$param" in value):
            raise fail(at(where, "value"), f"a binding's value is a $param form, found {describe(value)} (§4.3)")
        check_form(value, scope, at(where, "value"))
        if scope[value["$param"]] != kind:
            raise fail(at(where, "value"), f"the binding is of type {kind}; its $param names a parameter of type "
                                           f"{scope[value['$param']]}")


def _web(source: dict[str, Any], path: str, scope: Scope) -> None:
    """§4.3 web: url, a string, or a $param naming a string parameter."""
    closed(source, path, ("name", "kind", "read") + BINDING + ("maxAge", "url"), ("parameters",), what="a web source")
    need_profile(source, path)
    _max_age(source, path)
    url = source["url"]
    if isinstance(url, str):
        return
    if not (is_template_form(url) and "$param" in url):
        raise fail(at(path, "url"), f"url is a string or a $param naming a string parameter, found {describe(url)} "
                                    "(§4.3)")
    check_form(url, scope, at(path, "url"))
    if scope[url["$param"]] != "string":
        raise fail(at(path, "url", "$param"), "url's $param names a string parameter, found one of type "
                                              f"{scope[url['$param']]} (§4.3)")


def _research(source: dict[str, Any], path: str, scope: Scope) -> tuple[str, ...]:
    """§4.3 research and §4.4's research binding; returns the declared field names in order."""
    catalog = [m for m in CATALOG if m in source]
    if catalog:
        raise fail(at(path, catalog[0]), "a research source carries no operation catalog member "
                                         f"({', '.join(catalog)}) (§4.4)")
    present = [m for m in RESEARCH_BINDING if m in source]
    if present and len(present) != len(RESEARCH_BINDING):
        missing = [m for m in RESEARCH_BINDING if m not in source]
        raise fail(path, f"a research source with only some of its binding members: {', '.join(present)} without "
                         f"{', '.join(missing)} (§4.4)")
    members = (
        "name",
        "kind",
        "read",
        "maxAge",
        "question",
        "constraints",
        "model",
        "evidence",
        "fields",
        "capabilities",
    )
    closed(source, path, members + (RESEARCH_BINDING if present else ()), ("parameters",), what="a research source")
    _max_age(source, path)
    check_string_template(source["question"], scope, at(path, "question"))
    need_object(source["constraints"], at(path, "constraints"), "constraints to be an object")
    need_string(source["model"], at(path, "model"), non_empty=True)
    for i, instruction in enumerate(need_array(source["evidence"], at(path, "evidence"))):
        need_string(instruction, at(path, "evidence", i), non_empty=True)
    fields = need_array(source["fields"], at(path, "fields"))
    if not fields:
        raise fail(at(path, "fields"), "fields is an array of 1 to 64 field declarations, found none (§4.3)")
    names: list[str] = []
    for i, declaration in enumerate(fields):
        where = at(path, "fields", i)
        declaration = closed(
            declaration, where, ("name", "type", "required", "description"), what="a field declaration"
        )
        name = need_string(declaration["name"], at(where, "name"), non_empty=True)
        if name == "case":
            raise fail(at(where, "name"), "a field name has a source name's form: not 'case' (§4.3)")
        if name in names:
            raise fail(at(where, "name"), f"the field name {shown(name)} is declared twice (§4.3)")
        names.append(name)
        need_one_of(declaration["type"], at(where, "type"), FIELD_TYPES)
        if declaration["required"] is not True and declaration["required"] is not False:
            raise fail(
                at(where, "required"), f"required is a boolean, found {describe(declaration['required'])} (§4.3)"
            )
        need_string(declaration["description"], at(where, "description"), non_empty=True)
    capabilities = need_array(source["capabilities"], at(path, "capabilities"))
    for i, capability in enumerate(capabilities):
        need_one_of(capability, at(path, "capabilities", i), CAPABILITIES)
    if not capabilities or capabilities[0] != "answer":
        raise fail(at(path, "capabilities"), "capabilities names answer, which is REQUIRED, first (§4.3)")
    if len(set(capabilities)) != len(capabilities) or capabilities != sorted(capabilities, key=CAPABILITIES.index):
        raise fail(at(path, "capabilities"), "capabilities are distinct and in the order answer, search, page (§4.3)")
    if present:
        need_profile(source, path)
        check_web_profiles(source["webProfiles"], at(path, "webProfiles"), capabilities)
    return tuple(names)


def check_web_profiles(value: Any, path: str, capabilities: list[Any]) -> None:
    """webProfiles: exactly the requested web capabilities, each exactly {profile, profileDigest} (§4.4)."""
    web = need_object(value, path, "webProfiles to be an object")
    requested = [c for c in capabilities if c != "answer"]
    for capability in web:
        if capability not in requested:
            raise fail(at(path, capability), f"an assignment for {shown(capability)}, which the source does not "
                                             "request (§4.4)")
    for capability in requested:
        if capability not in web:
            raise fail(path, f"no assignment for the requested capability {capability!r} (§4.4)")
        where = at(path, capability)
        assignment = closed(web[capability], where, BINDING, what="a web assignment")
        need_profile(assignment, where)


def check_kind_members(source: dict[str, Any], path: str, kind: str, scope: Scope, family: int) -> tuple[str, ...]:
    """The members `kind` adds, by §4.1–§4.4; returns the research field names (empty for other kinds)."""
    if kind == "operation":
        _operation(source, path, scope, family)
    elif kind == "selected-file":
        _selected_file(source, path, scope)
    elif kind == "http":
        _http(source, path, scope)
    elif kind == "sql":
        _sql(source, path, scope)
    elif kind == "web":
        _web(source, path, scope)
    else:
        return _research(source, path, scope)
    return ()


def check_name_and_kind(source: Any, path: str, family: int, seen: set[str]) -> tuple[str, str]:
    """§4's name (non-empty, not case, distinct) and a kind of the document's family."""
    source = need_object(source, path, "a source (an object)")
    for member in ("name", "kind", "read"):
        if member not in source:
            raise fail(path, f"a source requires the member {member!r} (§4)")
    name = need_string(source["name"], at(path, "name"), non_empty=True)
    if name == "case":
        raise fail(at(path, "name"), "a source may not be named 'case', the case's name (§3, §4)")
    if name in seen:
        raise fail(at(path, "name"), f"the source name {shown(name)} is given twice (§4)")
    kind = source["kind"]
    if family == 2 and kind in KINDS_3 and kind not in KINDS_2:
        raise fail(at(path, "kind"), f"{kind} is a kind of version 3; a family-2 document (version 2 or 2.0.0) names "
                                     "none (§4, §2.1)")
    need_one_of(kind, at(path, "kind"), KINDS_3 if family == 3 else KINDS_2)
    return name, kind


def source_kinds(document: Any) -> list[str]:
    """The kinds a dialect's sources use, distinct, in order of first use (RFC 0019 §3's sourceKinds)."""
    sources = document.get("sources") if isinstance(document, dict) else None
    kinds: list[str] = []
    for source in sources if isinstance(sources, list) else []:
        kind = source.get("kind") if isinstance(source, dict) else None
        if isinstance(kind, str) and kind not in kinds:
            kinds.append(kind)
    return kinds
