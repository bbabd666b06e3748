"""The root of a dialect document: §2 (integer versions, the version-3 encoding rule) and §2.1 (named formats)."""

from __future__ import annotations

import re
from typing import Any

from ..jsonstrict import Number
from ..quoting import member
from .shapes import describe, fail, need_object, shown, utf8_len
from .version import SELECTORS, Format, integer_version

_ARTIFACT_VERSION = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")
MAX_ID_BYTES = 1024
COMMON = ("case", "sources", "admits", "unmapped", "unmappedEvidence")
LEGACY = ("provider", "facts", "evidence")


def _identity(doc: dict[str, Any]) -> None:
    """§2.1: id and the artifact version of a named document."""
    ident = doc.get("id")
    if not isinstance(ident, str) or ident == "":
        raise fail("/id", "expected a non-empty string, found "
                          f"{describe(ident) if not isinstance(ident, str) else 'the empty string'} (§2.1)")
    if utf8_len(ident) > MAX_ID_BYTES:
        raise fail("/id", f"an id of {utf8_len(ident)} UTF-8 bytes, over {MAX_ID_BYTES} (§2.1)")
    for ch in ident:
        if ord(ch) <= 0x20 or ord(ch) == 0x7F:
            raise fail("/id", f"an id holds U+{ord(ch):04X}; no ASCII control, space or DEL is allowed (§2.1)")
    version = doc.get("version")
    if not isinstance(version, str):
        raise fail("/version", "a named format's artifact version is a string of three decimal components, found "
                               f"{describe(version)} (§2.1)")
    if _ARTIFACT_VERSION.fullmatch(version) is None:
        raise fail("/version", f"{shown(version)} is not an artifact version: three dot-separated decimal components, "
                               "no leading zero, no suffix (§2.1)")


def document_format(document: Any) -> Format:
    """The format and family of a dialect document, held to §2 and §2.1's root members."""
    doc = need_object(document, "", "the dialect document to be one JSON object (§2)")
    if "formatVersion" in doc:
        selector = doc["formatVersion"]
        if not isinstance(selector, str) or selector not in SELECTORS:
            found = shown(selector) if isinstance(selector, str) else describe(selector)
            raise fail("/formatVersion", f"unknown format selector {found}: expected exactly \"2.0.0\" or \"3.0.0\" "
                                         "(§2.1); no format is guessed")
        if isinstance(doc.get("version"), Number):
            raise fail("/version", "an integer version beside formatVersion: a named document's version is its "
                                   "artifact version, a string (§2.1)")
        if "id" not in doc:
            raise fail("", "a named-format document requires the member 'id' (§2.1)")
        if "version" not in doc:
            raise fail("", "a named-format document requires the member 'version', its artifact version (§2.1)")
        _identity(doc)
        fmt = Format(SELECTORS[selector], selector)
        allowed: tuple[str, ...] = ("formatVersion", "id", "version") + COMMON
    else:
        family = integer_version(doc)
        if family is None:
            version = doc.get("version")
            if "version" not in doc:
                raise fail("", "missing the required member 'version' (§2) and no formatVersion (§2.1)")
            if isinstance(version, str):
                raise fail("/version", f"a string version {shown(version)} without formatVersion: the integer formats "
                                       "are 2 and 3, the named ones need formatVersion and id (§2, §2.1)")
            raise fail("/version", f"expected the integer 2 or 3, found {describe(version)} (§2: version 1 is no "
                                   "dialect; no other version is defined)")
        if "id" in doc:
            raise fail("/id", "an integer-format document MUST NOT carry id (§2.1)")
        fmt = Format(family, None)
        allowed = ("version",) + COMMON + (LEGACY if family == 2 else ())
    for name in doc:
        if name in LEGACY and fmt.one_spelling:
            raise fail(f"/{name}", f"{name} is a member of version 2 alone; {fmt.label} carries none of provider, "
                                   "facts and evidence (§2, §2.1)")
        if name not in allowed:
            raise fail(f"/{name}", f"unknown root member {member(name)} of a {fmt.label} document (§2; objects are "
                                   "closed)")
    if fmt.family == 2 and not fmt.named:
        _legacy(doc)
    return fmt


def _legacy(doc: dict[str, Any]) -> None:
    """§2 and the Runner's encoding: provider is "", facts and evidence are null or empty, when written."""
    if "provider" in doc and doc["provider"] != "":
        raise fail("/provider", "a version-2 document's provider is the empty string as the Runner writes it, found "
                                f"{describe(doc['provider'])}")
    for name in ("facts", "evidence"):
        if name in doc and doc[name] is not None and doc[name] != []:
            raise fail(f"/{name}", f"a version-2 document's {name} is null or empty as the Runner writes it, found "
                                   f"{describe(doc[name])}")
