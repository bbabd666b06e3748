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
        out.append(unescape(raw))
    return out


def escape(token: Any) -> str:
    """One RFC 6901 reference token, escaped (`~` as `~0`, then `/` as `~1`); an array index written in decimal.
    The one spelling of the escape (issue #37 item 2): every pointer the package builds is built here."""
    text = str(token)
    if "~" in text or "/" in text:
        return text.replace("~", "~0").replace("/", "~1")
    return text


def unescape(token: str) -> str:
    """One escaped reference token read back (`~1` as `/`, then `~0` as `~`)."""
    return token.replace("~1", "/").replace("~0", "~")


def pointer(steps: Any) -> str:
    """The RFC 6901 pointer of these tokens, each escaped ("" for none: the whole document)."""
    return "".join("/" + escape(step) for step in steps)
