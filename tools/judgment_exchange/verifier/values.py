"""Values as the dialect reads them: timestamps, pointers, JSON equality, the canon domain (§1, §6.3, §8.1)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from ..canon import CanonError, canon
from ..jsonstrict import Number
from ..pointers import tokens

_TIMESTAMP = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z")
_INDEX = re.compile(r"0|[1-9][0-9]*")
ABSENT = object()


def instant(value: Any) -> int | None:
    """The instant of a timestamp in seconds since 1970-01-01T00:00:00Z, or None (§1)."""
    if not isinstance(value, str):
        return None
    match = _TIMESTAMP.fullmatch(value)
    if match is None:
        return None
    year, month, day, hour, minute, second = (int(g) for g in match.groups())
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    month_days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    if not 1 <= month <= 12 or not 1 <= day <= month_days[month - 1] or hour > 23 or minute > 59 or second > 59:
        return None
    days = _days_from_civil(year, month, day)
    return days * 86400 + hour * 3600 + minute * 60 + second


def _days_from_civil(y: int, m: int, d: int) -> int:
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def resolve(value: Any, pointer: str) -> Any:
    """The value at the pointer, or ABSENT (§1): an array token is 0 or [1-9][0-9]* below the length."""
    parts = tokens(pointer)
    if parts is None:
        return ABSENT
    current = value
    for token in parts:
        if isinstance(current, dict):
            if token not in current:
                return ABSENT
            current = current[token]
        elif isinstance(current, list):
            if not _INDEX.fullmatch(token) or len(token) > len(str(len(current))) or int(token) >= len(current):
                return ABSENT
            current = current[int(token)]
        else:
            return ABSENT
    return current


def write(document: dict[str, Any], pointer: str, value: Any) -> None:
    """Write the value at a fact target, creating each object on the way (§8.1)."""
    parts = tokens(pointer) or []
    current = document
    for token in parts[:-1]:
        nxt = current.get(token)
        if not isinstance(nxt, dict):
            nxt = {}
            current[token] = nxt
        current = nxt
    current[parts[-1]] = value


def in_canon(value: Any) -> bool:
    """Whether the value has a canon form (§1): integers only, well-formed strings."""
    try:
        canon(value)
    except CanonError:
        return False
    return True


def _number(value: Number | int) -> Decimal | None:
    try:
        return Decimal(value.literal if isinstance(value, Number) else value)
    except InvalidOperation:
        return None


def json_equal(a: Any, b: Any) -> bool:
    """§6.3's JSON equality: numbers by mathematical value, arrays in order, objects as member sets."""
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return type(a) is type(b) and a == b
    if isinstance(a, (Number, int)) and isinstance(b, (Number, int)):
        x, y = _number(a), _number(b)
        return x is not None and y is not None and x == y
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=False))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return False
