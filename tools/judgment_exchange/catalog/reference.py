"""The dialect reference and the artifact pair, checked against the whole document (RFC 0019 §3).

The first applicable refusal is reported, in §3's order: dialect-reference-form,
dialect-format-mismatch, artifact-required, artifact-forbidden, artifact-malformed,
artifact-mismatch, dialect-digest-mismatch. The selector, the pair and the canonical digest are
read from the document, never trusted from the entry.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from ..canon import CanonError, canonical_digest, is_digest
from ..codes.catalog import (
    ARTIFACT_FORBIDDEN,
    ARTIFACT_MALFORMED,
    ARTIFACT_MISMATCH,
    ARTIFACT_REQUIRED,
    DIALECT_DIGEST_MISMATCH,
    DIALECT_FORMAT_MISMATCH,
    DIALECT_REFERENCE_FORM,
)
from ..jsonstrict import Number, integer
from ..quoting import described, digest, member
from . import grammar

ORDER = (
    DIALECT_REFERENCE_FORM, DIALECT_FORMAT_MISMATCH, ARTIFACT_REQUIRED, ARTIFACT_FORBIDDEN,
    ARTIFACT_MALFORMED, ARTIFACT_MISMATCH, DIALECT_DIGEST_MISMATCH,
)
NAMED = ("2.0.0", "3.0.0")
_ID_FORBIDDEN = re.compile(r"[\x00-\x20\x7f]")


def document_format(document: Any) -> tuple[str, Any] | None:
    """("named", selector) for a document with a root formatVersion, ("integer", n) for an integer
    version, None when the root says neither (the form check reports such a document)."""
    if not isinstance(document, dict):
        return None
    if "formatVersion" in document:
        return ("named", document["formatVersion"])
    version = integer(document.get("version"))
    return ("integer", version) if version is not None else None


def _form(entry: dict[str, Any], kind: str | None) -> str | None:
    ref = entry.get("dialect")
    if ref is None:
        return None
    if not isinstance(ref, dict):
        return "dialect: expected an object {path, dialectVersion|formatVersion, digest}"
    for name in ref:
        if name not in ("path", "dialectVersion", "formatVersion", "digest"):
            return f"dialect: {member(name)} is not a member of the dialect reference (path, dialectVersion or " \
                   "formatVersion, digest)"
    has_int, has_named = "dialectVersion" in ref, "formatVersion" in ref
    if has_int and has_named:
        return "dialect: both dialectVersion and formatVersion; give exactly one"
    if not has_int and not has_named:
        return "dialect: neither dialectVersion nor formatVersion; give exactly one"
    if ref.get("path") != "dialect.json":
        return "dialect/path: always the string \"dialect.json\""
    if not is_digest(ref.get("digest")):
        return "dialect/digest: expected sha256: and 64 lowercase hexadecimal characters"
    if has_int:
        n = integer(ref["dialectVersion"])
        if n is None or n < 2:
            return "dialect/dialectVersion: expected an integer of 2 or more"
        if kind == "preset" and n != 3:
            return "dialect/dialectVersion: a preset's is exactly 3"
    else:
        if kind == "preset":
            return "dialect/formatVersion: a preset admits only the integer form with dialectVersion 3"
        if ref["formatVersion"] not in NAMED:
            return "dialect/formatVersion: exactly \"2.0.0\" or \"3.0.0\""
    return None


def _mismatch(ref: dict[str, Any], document: Any) -> str | None:
    fmt = document_format(document)
    if "formatVersion" in ref:
        if fmt is None or fmt[0] != "named":
            return "dialect/formatVersion names a named format, but dialect.json is not a named-format document"
        if fmt[1] != ref["formatVersion"]:
            shown = repr(fmt[1]) if fmt[1] in NAMED else described(fmt[1], "a value")  # the selectors of §2.1 only
            return f"dialect/formatVersion is {ref['formatVersion']!r}, the document's formatVersion is {shown}"
    else:
        if fmt is None or fmt[0] != "integer":
            return "dialect/dialectVersion names an integer format, but dialect.json is not an integer-format document"
        if fmt[1] != integer(ref["dialectVersion"]):
            return f"dialect/dialectVersion is {ref['dialectVersion'].literal}, the document's version is {fmt[1]}"
    return None


def artifact_problem(artifact: Any) -> str | None:
    """The artifact object's closed form and grammar (§3 artifact)."""
    if not isinstance(artifact, dict):
        return "artifact: expected an object {id, version}"
    for name in artifact:
        if name not in ("id", "version"):
            return f"artifact: {member(name)} is not a member of artifact (exactly id and version)"
    for name in ("id", "version"):
        if name not in artifact:
            return f"artifact/{name}: required"
        if not isinstance(artifact[name], str):
            return f"artifact/{name}: expected a string (no number/string coercion)"
    aid = artifact["id"]
    if not aid or len(aid.encode("utf-8")) > 1024 or _ID_FORBIDDEN.search(aid):
        return "artifact/id: non-empty, at most 1024 UTF-8 bytes, no ASCII control character, space or DEL"
    if not grammar.ARTIFACT_VERSION.fullmatch(artifact["version"]):
        return "artifact/version: expected MAJOR.MINOR.PATCH without suffix or leading zero"
    return None


class Chain(NamedTuple):
    """A refusal of the chain: its code, its detail, and the JSON Pointer of the entry.json member the
    detail names (the detail's leading member path; used only to find its line, never printed)."""

    code: str
    detail: str
    pointer: str | None = None


def _chain(code: str, detail: str) -> Chain:
    member = re.match(r"[A-Za-z]+(?:/[^:\s]+)*", detail)
    return Chain(code, detail, "/" + member.group(0) if member else None)


def reference_refusal(entry: dict[str, Any], document: Any, readable: bool, known_digest: str | None = None
                      ) -> Chain | None:
    """The first refusal of §3's chain, or None. `document` is dialect.json's parsed value;
    `readable` is False when it could not be read, and then the chain stops after the reference's
    own form (the document form check reports why it could not be read). `known_digest`: the
    document's canonical digest when the form checker already computed it (computed here otherwise)."""
    found = _reference_refusal(entry, document, readable, known_digest)
    return _chain(*found) if found else None


def _reference_refusal(
    entry: dict[str, Any], document: Any, readable: bool, known_digest: str | None = None
) -> tuple[str, str] | None:
    kind = entry.get("kind")
    direction = entry.get("direction")
    problem = _form(entry, kind)
    if problem:
        return (DIALECT_REFERENCE_FORM, problem)
    ref = entry.get("dialect")
    if ref is not None and not readable:
        return None
    if ref is not None:
        problem = _mismatch(ref, document)
        if problem:
            return (DIALECT_FORMAT_MISMATCH, problem)
    named = ref is not None and "formatVersion" in ref
    has_artifact = "artifact" in entry
    if named and kind == "dialect" and not has_artifact:
        return (ARTIFACT_REQUIRED, "artifact: required for a named-format input document; copy id and version "
                                     "from dialect.json's root")
    if has_artifact and ((ref is not None and not named) or kind == "preset" or direction == "output"):
        why = "a preset" if kind == "preset" else "an output-only entry" if direction == "output" else \
            "an integer-format document"
        return (ARTIFACT_FORBIDDEN, f"artifact: forbidden on {why}; remove it")
    if has_artifact:
        problem = artifact_problem(entry["artifact"])
        if problem:
            return (ARTIFACT_MALFORMED, problem)
        for name in ("id", "version"):
            if isinstance(document, dict) and document.get(name) != entry["artifact"][name]:
                return (ARTIFACT_MISMATCH, f"artifact/{name} differs from dialect.json's root {name}")
    if ref is not None:
        try:
            actual = known_digest or canonical_digest(document)
        except CanonError as exc:
            return (DIALECT_DIGEST_MISMATCH, f"dialect/digest: dialect.json has no canonical form ({exc})")
        if actual != ref["digest"]:
            return (DIALECT_DIGEST_MISMATCH, f"dialect/digest is {digest(ref['digest'])}, the document's canonical "
                                               "digest "
                                               f"is {actual}")
    return None


__all__ = ["ORDER", "reference_refusal", "document_format", "artifact_problem", "Number"]
