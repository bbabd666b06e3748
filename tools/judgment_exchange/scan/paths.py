"""Local paths: a path of the author's machine, in any file of an entry (RFC 0019 §§4, 6).

Each pattern names the shape it recognises. A URL's path (https://host/home/…) is not a local path:
a match must not follow a letter, a digit or a path character.
"""

from __future__ import annotations

import re
from typing import Iterator

_NOT_AFTER_PATH = r"(?<![\w.~/\\:%-])"

LOCAL_PATHS: tuple[tuple[str, re.Pattern], ...] = (
    ("home directory path", re.compile(_NOT_AFTER_PATH + r"/(?:home|Users)/[A-Za-z0-9_.$@+-]+")),
    ("root's home directory path", re.compile(_NOT_AFTER_PATH + r"/root(?=/|$|[\s\"'`)\]},;:])")),
    ("mounted drive path", re.compile(_NOT_AFTER_PATH + r"/mnt/[a-zA-Z](?=/|$|[\s\"'`)\]},;])")),
    ("Windows drive path", re.compile(r"(?<![\w+.\\/-])[A-Za-z]:(?:\\|/)(?![/\\])(?=[\w.$%~ -])")),
    ("UNC path", re.compile(r"(?<![\w\\])\\\\[A-Za-z0-9_.$-]+\\[A-Za-z0-9_.$ -]+")),
    ("file URL", re.compile(r"(?i)\bfile:/")),
    ("home-relative path", re.compile(r"(?<![\w~/.\\-])~/[\w.-]")),
)


def find_local_paths(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, shape name) of every local path in one line or one string."""
    for name, pattern in LOCAL_PATHS:
        for m in pattern.finditer(text):
            yield m.start(), m.end(), name
