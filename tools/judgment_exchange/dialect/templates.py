"""§4.1 templates: $param and $text forms, placeholders, names in scope, never runAt."""

from __future__ import annotations

from typing import Any

from .shapes import at, describe, fail, shown

Scope = dict[str, str]  # parameter name -> type ("string", "integer", "timestamp"), runAt included


def is_template_form(value: Any) -> bool:
    """An object one of whose member names begins with $ (§4.1)."""
    return isinstance(value, dict) and any(name.startswith("$") for name in value)


def placeholders(text: str, path: str) -> list[str]:
    """The parameter names of a $text's placeholders: {{, a name, and the next }} (§4.1)."""
    names = []
    start = text.find("{{")
    while start != -1:
        end = text.find("}}", start + 2)
        if end == -1:
            raise fail(path, f"a {{{{ at character {start} with no }}}} after it (§4.1)")
        names.append(text[start + 2 : end])
        start = text.find("{{", end + 2)
    return names


def _named(name: str, scope: Scope, path: str) -> str:
    if name == "runAt":
        raise fail(path, "a template names runAt, which no request can carry (§3, §4.1)")
    if name not in scope:
        raise fail(path, f"the parameter {shown(name)} is not in the source's scope (§3, §4.1)")
    return scope[name]


def check_form(value: dict[str, Any], scope: Scope, path: str) -> str:
    """A template form: exactly {"$param": N} or {"$text": T}; returns "$param" or "$text"."""
    if len(value) != 1 or not ("$param" in value or "$text" in value):
        names = ", ".join(shown(n) for n in value)
        raise fail(path, f"an object with a member name beginning with $ must be exactly {{\"$param\": N}} or "
                         f"{{\"$text\": T}}, found members {names} (§4.1)")
    (form, operand), = value.items()
    if not isinstance(operand, str):
        raise fail(at(path, form), f"{form}'s operand is a string, found {describe(operand)} (§4.1)")
    if form == "$param":
        _named(operand, scope, at(path, "$param"))
    else:
        for name in placeholders(operand, at(path, "$text")):
            kind = _named(name, scope, at(path, "$text"))
            if kind != "integer":
                raise fail(at(path, "$text"), f"the placeholder {shown(name)} names a parameter of type {kind}; a "
                                              "placeholder names an integer parameter (§4.1)")
    return form


def check_template(value: Any, scope: Scope, path: str) -> None:
    """Every template form in `value` is well formed; every other value is literal (§4.1)."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            if is_template_form(item):
                check_form(item, scope, where)
            else:
                stack.extend((v, at(where, k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, at(where, i)) for i, v in enumerate(item))


def check_string_template(value: Any, scope: Scope, path: str) -> None:
    """A string, a $text, or a $param naming a parameter of type string or timestamp (§4.1)."""
    if isinstance(value, str):
        return
    if not is_template_form(value):
        raise fail(path, f"expected a string template (a string, a $text or a $param), found {describe(value)} (§4.1)")
    if check_form(value, scope, path) == "$param":
        kind = scope[value["$param"]]
        if kind not in ("string", "timestamp"):
            raise fail(at(path, "$param"), "a string template's $param names a parameter of type string or timestamp, "
                                           f"found {kind} (§4.1)")


def check_object_template(value: Any, scope: Scope, path: str, what: str) -> dict[str, Any]:
    """An object that is not a template form, held to a template's rules (§4.1's arguments)."""
    if not isinstance(value, dict):
        raise fail(path, f"{what} is an object, found {describe(value)} (§4.1)")
    if is_template_form(value):
        raise fail(path, f"{what} is an object and not a template form (§4.1)")
    check_template(value, scope, path)
    return value
