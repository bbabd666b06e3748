"""§11 phase 4 (version-unread) and the selection of a document's format and family (§2, §2.1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..codes.dialect import VERSION_UNREAD
from ..jsonstrict import Number

SELECTORS = {"2.0.0": 2, "3.0.0": 3}
READABLE_VERSIONS: frozenset[int | str] = frozenset({2, 3, "2.0.0", "3.0.0"})


@dataclass(frozen=True)
class Format:
    """A document's format: its family (2 or 3), its selector when named, and the one-spelling rule."""

    family: int
    selector: str | None

    @property
    def named(self) -> bool:
        return self.selector is not None

    @property
    def one_spelling(self) -> bool:
        """§2's version-3 encoding rule: version 3 and both named formats (§2.1)."""
        return self.family == 3 or self.named

    @property
    def label(self) -> str:
        return f'formatVersion "{self.selector}"' if self.named else f"version {self.family}"


def integer_version(document: Any) -> int | None:
    """The root's version when it is the integer 2 or 3, written as such."""
    if isinstance(document, dict):
        version = document.get("version")
        if isinstance(version, Number) and version.literal in ("2", "3"):
            return int(version.literal)
    return None


def version_refusal(
    document: Any, readable_versions: frozenset[int | str] = READABLE_VERSIONS
) -> tuple[str, str] | None:
    """§11 phase 4: a defined version (2, 3, or selector 2.0.0 / 3.0.0) that the reader does not read."""
    version = integer_version(document)
    if version is not None:
        if version not in readable_versions:
            return (VERSION_UNREAD, f"version {version}: dialect version {version} is not read by this reader")
        return None
    if isinstance(document, dict):
        selector = document.get("formatVersion")
        if isinstance(selector, str) and selector in SELECTORS and selector not in readable_versions:
            return (VERSION_UNREAD, f"formatVersion {selector}: the named format {selector} is not read by this reader")
    return None
