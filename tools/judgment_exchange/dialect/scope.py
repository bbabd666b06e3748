"""§3: the case's form and its parameters; source parameters and a source's scope."""

from __future__ import annotations

from typing import Any

from .shapes import PARAMETER_TYPES, at, closed, fail, need_object, need_one_of, need_pointer, need_string, shown
from .version import Format


def _name(name: str, path: str) -> None:
    if name == "":
        raise fail(path, "a parameter name is a non-empty string (§3)")
    if name == "runAt":
        raise fail(path, "runAt is reserved: it is in every scope and cannot be declared (§3)")


def case_parameters(case: dict[str, Any], fmt: Format) -> dict[str, str]:
    """The case parameters, name -> type (§3)."""
    if "parameters" not in case:
        return {}
    params = need_object(case["parameters"], "/case/parameters")
    if not params and fmt.one_spelling:
        raise fail("/case/parameters", f"written as the empty object, which {fmt.label} refuses: leave it out (§2's "
                                       "encoding rule)")
    out = {}
    for name, decl in params.items():
        path = at("/case/parameters", name)
        _name(name, path)
        decl = closed(decl, path, ("pointer", "type"), what="a case parameter")
        need_pointer(decl["pointer"], at(path, "pointer"))
        out[name] = need_one_of(decl["type"], at(path, "type"), PARAMETER_TYPES)
    return out


def source_parameters(
    source: dict[str, Any], path: str, fmt: Format, case_params: dict[str, str], earlier: dict[str, set[str]]
) -> dict[str, str]:
    """A source's parameters, name -> type (§3): each from an earlier source and one of its fact targets.

    `earlier` maps each earlier source's name to its set of fact targets (as strings).
    """
    if "parameters" not in source:
        return {}
    params_path = at(path, "parameters")
    params = need_object(source["parameters"], params_path)
    if not params and fmt.one_spelling:
        raise fail(params_path, f"written as the empty object, which {fmt.label} refuses: leave it out (§2's encoding "
                                "rule)")
    out = {}
    for name, decl in params.items():
        where = at(params_path, name)
        _name(name, where)
        if name in case_params:
            raise fail(where, f"a source parameter cannot have the name of a case parameter, {shown(name)} (§3)")
        decl = closed(decl, where, ("from", "pointer", "type"), what="a source parameter")
        origin = need_string(decl["from"], at(where, "from"))
        if origin not in earlier:
            if origin == source.get("name"):
                raise fail(at(where, "from"), f"{shown(origin)} names the source that declares the parameter; from "
                                              "names an earlier source (§3)")
            raise fail(at(where, "from"), f"{shown(origin)} names no source earlier in sources (§3)")
        need_pointer(decl["pointer"], at(where, "pointer"))
        if decl["pointer"] not in earlier[origin]:
            raise fail(at(where, "pointer"), f"{shown(decl['pointer'])} is not a fact target of the source "
                                             f"{shown(origin)} (§3, §8)")
        out[name] = need_one_of(decl["type"], at(where, "type"), PARAMETER_TYPES)
    return out
