"""RFC 6901 JSON Pointers as dialect §1 reads them."""

from __future__ import annotations

import re
from typing import Any

_BAD_ESCAPE = re.compile(r"~(?![01])")


def tokens(pointer: Any) -> list[str] | None:
    """A pointer's unescaped reference tokens, or None when the value is not a pointer."""
    if not isinstance(pointer, str):
        return None
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        return None
    out = []
    for raw in pointer[1:].split("/"):
        if _BAD_ESCAPE.search(raw):
            return None
        out.append(raw.replace("~1", "/").replace("~0", "~"))
    return out
