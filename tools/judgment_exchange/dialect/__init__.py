"""The dialect document form checker (dialect §§2–8, 12; RFC 0019 §§3–4). STUB: being written."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FormResult:
    """The form check of one dialect document: `refusal` is None when the document is valid."""

    refusal: str | None
    detail: str
    document: Any | None = None
    digest: str | None = None


@dataclass(frozen=True)
class BindingResult:
    """The §4.4 check of one binding document against its unbound dialect."""

    refusal: str | None
    detail: str
    bound_document: Any | None = None
    bound_digest: str | None = None


def check_form(data: bytes) -> FormResult:
    """Every phase of §11 that concerns the dialect alone, in order; the first failing is reported."""
    raise NotImplementedError


def unbound_sources(document: Any) -> list[str]:
    """Names of the sources in §4.4's unbound form (operation or research), in document order."""
    raise NotImplementedError


def bound_sources(document: Any) -> list[str]:
    """Names of the sources in a bound form where §4.4 gives an unbound one (bound-derivative)."""
    raise NotImplementedError


def check_binding(data: bytes, document: Any, dialect_digest: str) -> BindingResult:
    """A binding document (§4.4) against the unbound dialect; on success the bound dialect."""
    raise NotImplementedError
