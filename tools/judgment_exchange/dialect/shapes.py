"""Small predicates on parsed values shared by the form checks (dialect §1)."""

from __future__ import annotations

from typing import Any, Iterable

from ..jsonstrict import Number, integer
from ..pointers import escape, tokens
from ..quoting import described, member, pointer_text

PARAMETER_TYPES = ("string", "integer", "timestamp")
CLASSES = ("asserted", "record", "generated")


class Malformed(Exception):
    """A form refusal found at `detail`; caught at the phase boundary, never escapes the package."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def fail(path: str, message: str) -> Malformed:
    """A Malformed naming the JSON pointer of the member and what was expected; a token of the pointer
    that is a name the author chose is described by its length (quoting.pointer_text, issue #11)."""
    return Malformed(f"{pointer_text(path) or '/'}: {message}")


def shown(value: Any) -> str:
    """An author's value in a detail: never the text, only its length (the dialect gives source, field,
    parameter and requirement names and pointers no grammar a secret could not pass; issue #11 item 3)."""
    return described(value, "a string") if isinstance(value, str) else describe(value)


def describe(value: Any) -> str:
    """A short name of a value's JSON type, for details."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Number):
        return f"the number {value.literal[:40]}"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__


def at(path: str, *tokens: Any) -> str:
    """The JSON pointer `path` extended by tokens (names escaped, indices written in decimal)."""
    for token in tokens:
        path = path + "/" + escape(token)
    return path


def utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


pointer_tokens = tokens


def need_pointer(value: Any, path: str) -> list[str]:
    tokens = pointer_tokens(value)
    if tokens is None:
        raise fail(path, f"expected a JSON pointer (RFC 6901), found {describe(value)}")
    return tokens


def need_fact_target(value: Any, path: str) -> list[str]:
    """A fact target: a pointer other than the empty string (§8.1)."""
    tokens = need_pointer(value, path)
    if value == "":
        raise fail(path, "a fact target is a pointer other than the empty string (§8.1)")
    return tokens


def need_object(value: Any, path: str, what: str = "an object") -> dict[str, Any]:
    if not isinstance(value, dict):
        raise fail(path, f"expected {what}, found {describe(value)}")
    return value


def need_array(value: Any, path: str, what: str = "an array") -> list[Any]:
    if not isinstance(value, list):
        raise fail(path, f"expected {what}, found {describe(value)}")
    return value


def need_string(value: Any, path: str, non_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise fail(path, f"expected a string, found {describe(value)}")
    if non_empty and value == "":
        raise fail(path, "expected a non-empty string")
    return value


def need_integer(value: Any, path: str, low: int, high: int) -> int:
    number = integer(value)
    if number is None:
        raise fail(path, f"expected an integer (§1), found {describe(value)}")
    if not low <= number <= high:
        raise fail(path, f"expected an integer from {low} to {high}, found {number}")
    return number


def need_one_of(value: Any, path: str, allowed: Iterable[str]) -> str:
    allowed = tuple(allowed)
    if not isinstance(value, str) or value not in allowed:
        found = describe(value) if not isinstance(value, str) else shown(value)
        raise fail(path, f"expected one of {', '.join(allowed)}, found {found}")
    return value


def closed(
    value: Any, path: str, required: Iterable[str], optional: Iterable[str] = (), what: str = ""
) -> dict[str, Any]:
    """An object of exactly the required members and any of the optional ones (§1: objects are closed)."""
    obj = need_object(value, path, f"{what or 'an object'}")
    required = tuple(required)
    allowed = set(required) | set(optional)
    for name in obj:
        if name not in allowed:
            label = f"{what} " if what else ""
            raise fail(at(path, name), f"unknown member {member(name)} of {label or 'this object '}(objects are "
                                       "closed, names match exactly)")
    for name in required:
        if name not in obj:
            raise fail(path, f"missing the required member {name!r}{' of ' + what if what else ''}")
    return obj
