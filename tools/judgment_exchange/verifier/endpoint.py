"""The constrained page endpoint and its scope (dialect §5.1, "An endpoint constraint", "Matching")."""

from __future__ import annotations

import re
from dataclasses import dataclass

WILDCARD = "https://*"
MAX_ENTRIES = 32
MAX_ENTRY_BYTES = 2048
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_DOT_TOKENS = re.compile(r"(?:\.|%2[eE]){1,2}")
_DELIMITER = re.compile(r";|%3[bBfF]|%23|%00")


@dataclass(frozen=True)
class Endpoint:
    """An endpoint of the constrained form: its host as written and its path ('' when absent)."""

    host: str
    path: str


def parse(text: object) -> Endpoint | None:
    """The endpoint when the text has §5.1's constrained page form, else None."""
    if not isinstance(text, str) or len(text) > 2048 or not text.startswith("https://"):
        return None
    if any(not 0x21 <= ord(c) <= 0x7E for c in text):
        return None
    rest = text[len("https://"):]
    slash = rest.find("/")
    authority, path = (rest, "") if slash < 0 else (rest[:slash], rest[slash:])
    host, colon, port = authority.partition(":")
    if colon and port not in ("", "443"):
        return None
    labels = host.split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels):
        return None
    if not labels[-1][0].isalpha():
        return None
    if path and not _path_ok(path):
        return None
    return Endpoint(host, path)


def _path_ok(path: str) -> bool:
    if any(c in path for c in "?#\\") or _ESCAPE.search(path):
        return False
    if re.search(r"%2[fF]|%5[cC]", path):
        return False
    for segment in path.split("/"):
        if _DOT_TOKENS.fullmatch(segment):
            return False
        head = _DELIMITER.split(segment, maxsplit=1)[0]
        if _DOT_TOKENS.fullmatch(head):
            return False
    return True


def entry_ok(entry: object) -> bool:
    """A scope entry is a prefix in the constrained form, or exactly https://*."""
    return entry == WILDCARD or parse(entry) is not None


def _admits(entry: str, endpoint: Endpoint) -> bool:
    if entry == WILDCARD:
        return True
    prefix = parse(entry)
    if prefix is None or prefix.host.lower() != endpoint.host.lower():
        return False
    if prefix.path in ("", "/"):
        return True
    if endpoint.path == prefix.path:
        return True
    if prefix.path.endswith("/"):
        return endpoint.path.startswith(prefix.path)
    return endpoint.path.startswith(prefix.path + "/")


def matches(scope: list[str], text: object) -> bool:
    """Whether the endpoint has the constrained form and at least one scope entry admits it."""
    endpoint = parse(text)
    return endpoint is not None and any(_admits(entry, endpoint) for entry in scope)
