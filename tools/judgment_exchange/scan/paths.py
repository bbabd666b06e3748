"""Local paths: a path of the author's machine, in any file of an entry (RFC 0019 §§4, 6).

Each pattern names the shape it recognises. A URL's path (https://host/home/…) is not a local path:
a match must not follow a letter, a digit or a path character. A colon is not a path character
here: a path right after one (`PATH=/usr/bin:/home/alice/bin`, a passwd line's `::/home/alice:/bin/bash`,
`host:/root/x`) is a local path; a URL's `://` is still excluded, by the slash before the path.
"""

from __future__ import annotations

import re
from typing import Iterator

_NOT_AFTER_PATH = r"(?<![\w.~/\\%-])"

LOCAL_PATHS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("home directory path", re.compile(_NOT_AFTER_PATH + r"/(?:home|Users)/[A-Za-z0-9_.$@+-]+")),
    ("root's home directory path", re.compile(_NOT_AFTER_PATH + r"/root(?=/|$|[\s\"'`)\]},;:])")),
    ("mounted drive path", re.compile(_NOT_AFTER_PATH + r"/mnt/[a-zA-Z](?=/|$|[\s\"'`)\]},;])")),
    ("Windows drive path", re.compile(r"(?<![\w+.\\/-])[A-Za-z]:(?:\\|/)(?![/\\])(?=[\w.$%~ -])")),
    ("UNC path", re.compile(r"(?<![\w\\])\\\\[A-Za-z0-9_.$-]+\\[A-Za-z0-9_.$ -]+")),
    ("file URL", re.compile(r"(?i)\bfile:/")),
    ("home-relative path", re.compile(r"(?<![\w~/.\\-])~/[\w.-]")),
)


ANCHOR = re.compile(r"/home/|/Users/|/root|/mnt/|(?<![\w+.\\/-])[A-Za-z]:[\\/]|(?i:file:/)|\\\\|~/")
"""A part every local path above holds, as it stands in the same text (a drive path's letter not after a word)."""


_LITERAL_ANCHORS = ("/home/", "/Users/", "/root", "/mnt/", "\\\\", "~/")
_COLON_ANCHOR = re.compile(r":(?:(?<=(?<![\w+.\\/-])[A-Za-z]:)[\\/]|(?<=(?i:file):)/)")


def anchored(text: str) -> bool:
    """Whether ANCHOR matches somewhere in the text: its literal parts looked up, its colon parts from each colon
    that a slash or a backslash follows (every match of `_COLON_ANCHOR` is such a colon)."""
    return any(a in text for a in _LITERAL_ANCHORS) or (
        (":/" in text or ":\\" in text) and _COLON_ANCHOR.search(text) is not None)


def find_local_paths(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, shape name) of every local path in one line or one string."""
    if not anchored(text):
        return
    for name, pattern in LOCAL_PATHS:
        for m in pattern.finditer(text):
            yield m.start(), m.end(), name
