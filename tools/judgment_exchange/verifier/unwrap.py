"""unwrap (dialect §6.1), with the bounds measured when a string is unwrapped (§11, §12)."""

from __future__ import annotations

from typing import Any

from ..codes.verifier import INPUT_OVER_BOUND
from ..jsonstrict import OVER_BOUND, Bounds, JsonRefusal, loads
from .results import Refused
from .rule import ReadFailed
from .values import resolve

MAX_UNWRAPPED_BYTES = 200000
UNWRAPPED = Bounds(max_bytes=MAX_UNWRAPPED_BYTES, max_depth=32)


def unwrap(value: Any, pointers: list[str]) -> Any | ReadFailed | Refused:
    """Apply each pointer in order: it resolves to a string holding exactly one JSON value (§6.1)."""
    for pointer in pointers:
        found = resolve(value, pointer)
        if not isinstance(found, str):
            return ReadFailed(f"unwrap {pointer} does not resolve to a string")
        data = found.encode("utf-8")
        try:
            value = loads(data, UNWRAPPED)
        except JsonRefusal as refusal:
            if refusal.kind == OVER_BOUND:
                return Refused(INPUT_OVER_BOUND, f"the string unwrapped at {pointer}: {refusal.detail}")
            return ReadFailed(f"unwrap {pointer}: {refusal.detail}")
    return value
