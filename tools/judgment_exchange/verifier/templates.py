"""Request templates (dialect §4.1): instantiation, and which parameters a request commits."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..jsonstrict import integer


class TemplateError(Exception):
    """A template the verifier cannot instantiate (a form the dialect's checker refuses)."""


def is_form(value: Any) -> bool:
    """Whether an object is a template form: one of its member names begins with $."""
    return isinstance(value, dict) and any(k.startswith("$") for k in value)


def placeholders(text: str) -> list[str]:
    """The parameter names a $text's placeholders name, in order; a {{ with no }} is refused."""
    names, pos = [], 0
    while (start := text.find("{{", pos)) >= 0:
        end = text.find("}}", start + 2)
        if end < 0:
            raise TemplateError("a {{ with no }} after it")
        names.append(text[start + 2:end])
        pos = end + 2
    return names


def _render(text: str, scope: dict[str, Any]) -> str:
    out, pos = [], 0
    while (start := text.find("{{", pos)) >= 0:
        end = text.find("}}", start + 2)
        name = text[start + 2:end]
        value = integer(scope.get(name))
        if value is None:
            raise TemplateError(f"the placeholder {{{{{name}}}}} names no integer parameter")
        out.append(text[pos:start])
        out.append(str(value))
        pos = end + 2
    out.append(text[pos:])
    return "".join(out)


def instantiate(template: Any, scope: dict[str, Any]) -> Any:
    """The template with each $param and $text replaced from the scope (§4.1)."""
    if isinstance(template, dict):
        if is_form(template):
            if set(template) == {"$param"} and isinstance(template["$param"], str):
                if template["$param"] not in scope or template["$param"] == "runAt":
                    raise TemplateError(f"$param names {template['$param']!r}, not in the scope")
                return scope[template["$param"]]
            if set(template) == {"$text"} and isinstance(template["$text"], str):
                placeholders(template["$text"])
                return _render(template["$text"], scope)
            raise TemplateError("a template form is exactly {$param: N} or {$text: T}")
        return {k: instantiate(v, scope) for k, v in template.items()}
    if isinstance(template, list):
        return [instantiate(v, scope) for v in template]
    return template


def _forms(template: Any) -> Iterator[dict[str, Any]]:
    if isinstance(template, dict):
        if is_form(template):
            yield template
            return
        for v in template.values():
            yield from _forms(v)
    elif isinstance(template, list):
        for v in template:
            yield from _forms(v)


def commitments(template: Any) -> tuple[set[str], set[str]]:
    """(committed, ambiguous): names a request carries unambiguously, and names only in a multi-name $text."""
    committed: set[str] = set()
    shared: set[str] = set()
    for form in _forms(template):
        if "$param" in form:
            committed.add(form["$param"])
        elif "$text" in form:
            names = set(placeholders(form["$text"]))
            if len(names) == 1:
                committed |= names
            else:
                shared |= names
    return committed, shared - committed


def is_string_template(value: Any, types: dict[str, str]) -> bool:
    """A string, a $text, or a $param naming a string or timestamp parameter (§4.1)."""
    if isinstance(value, str):
        return True
    if isinstance(value, dict) and set(value) == {"$text"} and isinstance(value["$text"], str):
        return True
    return (
        isinstance(value, dict)
        and set(value) == {"$param"}
        and types.get(value["$param"]) in ("string", "timestamp")
    )


