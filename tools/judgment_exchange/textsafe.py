"""Text made safe to show (docs/reports.md): control (Cc), format (Cf: bidirectional overrides, zero-width
characters), line and paragraph separator (Zl, Zp) characters written as their escapes, a lone surrogate
as `\\uXXXX`, so no value can forge a line of a report or reorder what a reader sees."""

from __future__ import annotations

import unicodedata


def escape(text: str, *, newlines: bool = False) -> str:
    """`text` with every such character escaped; with `newlines`, a newline is kept (free text shown whole)."""
    out = []
    for c in text:
        category = unicodedata.category(c)
        if newlines and c == "\n":
            out.append(c)
        elif category == "Cs":
            out.append(f"\\u{ord(c):04x}")
        elif category in ("Cc", "Cf", "Zl", "Zp"):
            out.append(c.encode("unicode_escape").decode("ascii"))
        else:
            out.append(c)
    return "".join(out)


def escaped(text: str) -> str:
    """Free text shown whole (a README, a description, a note): `escape` keeping newlines, tabs made
    spaces and CRLF a newline."""
    return escape(text.replace("\r\n", "\n").replace("\t", "    "), newlines=True)
