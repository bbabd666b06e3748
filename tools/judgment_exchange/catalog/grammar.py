"""The string grammars of RFC 0019 §3: digests, ids, release tags, ranges, licences, locators."""

from __future__ import annotations

import datetime
import re

ENTRY_ID = re.compile(r"[a-z0-9]+(\.[a-z0-9-]+)+")
RELEASE_TAG = re.compile(r"v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")
ARTIFACT_VERSION = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")
FIXTURE_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
PLATFORM = re.compile(r"[a-z][a-z0-9-]*")
LICENCE = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+-]*")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_LOCATOR_PART = re.compile(r"[A-Za-z0-9_.-]{1,100}")
_SEGMENT = re.compile(r"[A-Za-z0-9_.-]+")
_COMMIT = re.compile(r"[0-9a-f]{7,40}")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")
_URI_CHARS = re.compile(r"(?:[A-Za-z0-9\-._~:/?\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*")


def release_key(tag: str) -> tuple[int, int, int] | None:
    """A release tag's order key, its three integer components; None outside the grammar (§3)."""
    match = RELEASE_TAG.fullmatch(tag)
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def compatibility_problem(value: str) -> str | None:
    """One tag, or `>=vA <vB` with exactly one space and B above A (§3 "Compatibility ranges")."""
    if release_key(value):
        return None
    if value.startswith(">=") and value.count(" ") == 1:
        low, high = value[2:].split(" ")
        if high.startswith("<"):
            lk, hk = release_key(low), release_key(high[1:])
            if lk and hk:
                return None if hk > lk else "the upper bound must exceed the lower"
    return "expected one release tag (v1.2.3) or '>=vA <vB' with exactly one space"


def licence_problem(value: str) -> str | None:
    """One SPDX identifier or LicenseRef- form, ≤ 64 characters, no compound expression (§3)."""
    if len(value) > 64:
        return "at most 64 characters"
    if LICENCE.fullmatch(value) is None:
        return "one SPDX licence identifier ([A-Za-z0-9][A-Za-z0-9.+-]*), no compound expression"
    return None


def locator_problem(value: str) -> str | None:
    """`<owner>/<name>/<path>@<commit>` with the bounds of §3 "Reader locators"."""
    if len(value) > 200:
        return "a reader locator is at most 200 characters"
    if "@" not in value:
        return "expected <owner>/<name>/<path>@<commit>"
    body, commit = value.rsplit("@", 1)
    if _COMMIT.fullmatch(commit) is None:
        return "the commit is 7 to 40 lowercase hexadecimal digits"
    parts = body.split("/")
    if len(parts) < 3:
        return "expected <owner>/<name>/<path>@<commit> with a path of one or more segments"
    owner, name, *path = parts
    if not _LOCATOR_PART.fullmatch(owner) or not _LOCATOR_PART.fullmatch(name):
        return "owner and name are each 1 to 100 characters of [A-Za-z0-9_.-]"
    for i, segment in enumerate(path, 1):
        if segment in ("", ".", "..") or not _SEGMENT.fullmatch(segment):
            return f"path segment {i} must match [A-Za-z0-9_.-]+ and not be '.' or '..'"
    return None


def date_problem(value: str) -> str | None:
    """A day in YYYY-MM-DD form that the calendar has (open reading O22)."""
    if DATE.fullmatch(value) is None:
        return "expected a day written YYYY-MM-DD"
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return "no such day in the calendar"
    return None


def absolute_uri_problem(value: str) -> str | None:
    """An absolute URI (RFC 3986 absolute-URI, as Core §4 makes a pack id), ≤ 2048 characters."""
    if len(value) > 2048:
        return "at most 2048 characters"
    scheme, sep, rest = value.partition(":")
    if not sep or not _SCHEME.fullmatch(scheme):
        return "an absolute URI begins with a scheme and ':'"
    if "#" in rest:
        return "an absolute URI carries no fragment"
    if not rest or _URI_CHARS.fullmatch(rest) is None:
        return "an absolute URI holds only URI characters after its scheme"
    return None
