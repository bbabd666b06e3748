"""Where a recorded preparation first differs from the recomputed one (dialect §11 finding 5; issue #17 item 4).

`first_difference(recorded, recomputed)` walks both values in one order — an object's members by
sorted name, an array's items by index — and gives the first JSON pointer (RFC 6901) where they differ:
a leaf of another type or value, or a member or item present on one side only ("absent" on the other).
`Difference.text()` is how a report names it (docs/reports.md): the pointer through
`quoting.pointer_text` (an array index or one of our schema's member names is shown, any other token
described by its length) and each side's type and length, never a value, which may be author text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..jsonstrict import Number
from ..pointers import escape
from ..quoting import described, pointer_text


class _Absent:
    """The side of a member or item that is not there."""

    def __repr__(self) -> str:
        return "(absent)"


ABSENT: Any = _Absent()


@dataclass(frozen=True)
class Difference:
    """The first differing member: its JSON `pointer` (raw, RFC 6901 escaped), and the `recorded` and
    `recomputed` values there (ABSENT for a side that has no such member)."""

    pointer: str
    recorded: Any
    recomputed: Any

    def text(self) -> str:
        """The pointer and both sides' type and length, for a detail (never the values)."""
        return (f"first differs at {pointer_text(self.pointer) or '(the root)'}: recorded {shape(self.recorded)}, "
                f"recomputed {shape(self.recomputed)}")


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def shape(value: Any) -> str:
    """A value's type and length, never the value: `<a string of 7 characters>`, `<a number of 3
    characters>`, `<an object of 2 members>`, `<an array of 1 item>`, `<true/false>`, `<null>`, `(absent)`."""
    if value is ABSENT:
        return "(absent)"
    if isinstance(value, str):
        return described(value, "a string")
    if isinstance(value, bool):
        return "<true/false>"
    if value is None:
        return "<null>"
    if isinstance(value, dict):
        return f"<an object of {len(value)} member{_s(len(value))}>"
    if isinstance(value, list):
        return f"<an array of {len(value)} item{_s(len(value))}>"
    if isinstance(value, Number):
        return f"<a number of {len(value.literal)} character{_s(len(value.literal))}>"
    if isinstance(value, (int, float)):
        return f"<a number of {len(repr(value))} character{_s(len(repr(value)))}>"
    return "<a value of another type>"


def _token(name: str) -> str:
    return escape(name)


def _same_leaf(a: Any, b: Any) -> bool:
    """Equal leaves of one type (True is not the number 1; a number is its literal, jsonstrict.Number)."""
    return type(a) is type(b) and a == b


def first_difference(recorded: Any, recomputed: Any, pointer: str = "") -> Difference | None:
    """The first pointer where `recorded` and `recomputed` differ, walking objects by sorted member name
    and arrays by index; None when they are the same value. Iterative, so no depth is a RecursionError."""
    stack: list[tuple[str, Any, Any]] = [(pointer, recorded, recomputed)]
    while stack:
        at, a, b = stack.pop()
        if isinstance(a, dict) and isinstance(b, dict):
            names = sorted(set(a) | set(b))
            stack += [(f"{at}/{_token(n)}", a.get(n, ABSENT), b.get(n, ABSENT)) for n in reversed(names)]
        elif isinstance(a, list) and isinstance(b, list):
            count = max(len(a), len(b))
            stack += [(f"{at}/{i}", a[i] if i < len(a) else ABSENT, b[i] if i < len(b) else ABSENT)
                      for i in reversed(range(count))]
        elif not _same_leaf(a, b):
            return Difference(at, a, b)
    return None

