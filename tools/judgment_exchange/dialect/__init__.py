"""The dialect document form checker (dialect §§2–8, 12; RFC 0019 §§3–4).

`check_form` runs every phase of §11 that concerns the dialect alone; the per-phase functions are
for the preparation verifier, which interleaves them with other documents' phases. See
docs/dialect-form.md for what is checked and the readings chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..codes.dialect import CODES
from ..jsonstrict import Bounds
from .binding import (
    BINDING_BYTES,
    binding_count_refusal,
    binding_form_refusal,
    bound_dialect,
    bound_sources,
    requires_binding,
    unbound_sources,
)
from .counts import count_refusal
from .phases import (
    DIALECT_BOUNDS,
    DIALECT_BYTES,
    check_phases,
    digest_of,
    form_refusal,
    kind_refusal,
    measure_document,
    read_document,
)
from .sources import ALL_KINDS, source_kinds
from .version import READABLE_VERSIONS, version_refusal

BINDING_BOUNDS = Bounds(max_bytes=BINDING_BYTES, max_depth=64)

__all__ = [
    "ALL_KINDS",
    "BINDING_BYTES",
    "BindingResult",
    "CODES",
    "CheckedDialect",
    "DIALECT_BYTES",
    "FormResult",
    "READABLE_VERSIONS",
    "binding_count_refusal",
    "binding_form_refusal",
    "bound_dialect",
    "bound_sources",
    "check_binding",
    "check_form",
    "count_refusal",
    "form_refusal",
    "form_report",
    "kind_refusal",
    "requires_binding",
    "source_kinds",
    "unbound_sources",
    "version_refusal",
]


@dataclass(frozen=True)
class BindingResult:
    """The §4.4 check of one binding document against its unbound dialect."""

    refusal: str | None
    detail: str
    bound_document: Any | None = None
    bound_digest: str | None = None


class CheckedDialect:
    """A dialect document that passed every phase of §11 that concerns it alone (`check_form` with the
    default versions and kinds): bytes 1, reading 2, counts 3, version 4, form 5, and phase 6 for all
    six kinds; its bytes, its value as read and its canonical digest. Only `check_form` makes one.

    The gate hands it to the verifier (issue #12 item 2), which then skips exactly those phases of the
    dialect — and only when `data` is the dialect's bytes it is given (`trusted`). It also keeps what is
    established once per entry under this dialect, each by the exact bytes it was established for:
    each binding document's check (`binding`), each receipt signature's verdict (`signatures`), which
    documents' bytes passed which bounds of §12 (`measured`: (Bounds, bytes)) and the value each
    document's bytes read as (`parsed`: jsonstrict.parse is a function of the bytes alone). The values
    are shared: no reader may change them. No memo is pickled (a pool worker's entry arrives without
    them), and the gate drops them after the entry's replay (`forget`)."""

    __slots__ = ("data", "document", "digest", "_bindings", "signatures", "measured", "parsed")

    def __init__(self, data: bytes, document: Any, digest: str) -> None:
        self.data = bytes(data)
        self.document = document
        self.digest = digest
        self._bindings: dict[bytes, BindingResult] = {}
        self.signatures: dict[tuple[str, str, bytes], bool] = {}  # (public key, signature, message): its verdict
        self.measured: set[tuple[Bounds, bytes]] = set()
        self.parsed: dict[bytes, Any] = {}

    def trusted(self, data: bytes) -> bool:
        """Whether this is the check of exactly these bytes (anything else is read as if never checked)."""
        return self.data == data

    def binding(self, data: bytes) -> BindingResult:
        """`check_binding(data, document, digest)`, once per binding document's bytes."""
        if not isinstance(data, (bytes, bytearray)):  # refused by check_binding's first phase; nothing to keep
            return check_binding(data, self.document, self.digest, document_checked=True)
        key = bytes(data)
        result = self._bindings.get(key)
        if result is None:
            result = self._bindings[key] = check_binding(key, self.document, self.digest, document_checked=True)
        return result

    def read(self, data: bytes, bounds: Bounds, value: Any) -> None:
        """Keep that `data` passed `bounds` and reads as `value` (a caller that read it strictly, as
        jsonstrict.loads does: measure, then parse)."""
        if type(data) is bytes:
            self.measured.add((bounds, data))
            self.parsed[data] = value

    def forget(self) -> None:
        """Drop every memo (the gate does after the entry's replay: a report holds every entry at once)."""
        self._bindings.clear()
        self.signatures.clear()
        self.measured.clear()
        self.parsed.clear()

    def __repr__(self) -> str:  # never the document: it is the author's
        return f"CheckedDialect({len(self.data)} bytes, {self.digest})"

    def __getstate__(self) -> tuple[bytes, Any, str]:
        return (self.data, self.document, self.digest)

    def __setstate__(self, state: tuple[bytes, Any, str]) -> None:
        CheckedDialect.__init__(self, *state)  # the class's own: no subclass exists


@dataclass(frozen=True)
class FormResult:
    """The form check of one dialect document: `refusal` is None when the document is valid."""

    refusal: str | None
    detail: str
    document: Any | None = None
    digest: str | None = None
    checked: CheckedDialect | None = field(default=None, compare=False)


def check_form(
    data: bytes,
    *,
    readable_versions: frozenset[int | str] = READABLE_VERSIONS,
    readable_kinds: frozenset[str] = ALL_KINDS,
) -> FormResult:
    """Every phase of §11 that concerns the dialect alone, in order; the first failing is reported.

    By default the checker reads versions 2 and 3, both named formats and all six kinds; a reader
    that reads fewer passes its own sets and gets version-unread (phase 4) or kind-unread (phase 6).
    """
    document, refused = read_document(data, DIALECT_BOUNDS)
    if refused:
        return FormResult(refused[0], refused[1])
    digest = digest_of(document)  # written first: a document with a digest holds no number outside canon
    refused = check_phases(document, readable_versions, readable_kinds, in_canon=digest is not None)
    if refused:
        return FormResult(refused[0], refused[1], document)
    every = readable_versions == READABLE_VERSIONS and readable_kinds == ALL_KINDS
    checked = CheckedDialect(data, document, digest) if every and digest is not None else None
    return FormResult(None, "valid", document, digest, checked)


def check_binding(
    data: bytes, document: Any, dialect_digest: str | None, *, document_checked: bool = False
) -> BindingResult:
    """A binding document (§4.4) against the unbound dialect; on success the bound dialect and its digest.

    `document` is the unbound dialect as parsed (a FormResult's document) and `dialect_digest` its
    digest (None when it has none: its form, phase 5, is then refused before the digest is read). The two
    documents' phases interleave as §11 orders them: the binding's bytes (1, 2), both documents' counts (3),
    the dialect's version (4), both forms (5), then the bound dialect is built.
    `document_checked`: the dialect is a CheckedDialect's, which passed its count, version, form and kind
    phases (with every kind), so they are not made again; the result is the same.
    """
    binding, refused = read_document(data, BINDING_BOUNDS)
    if refused:
        return BindingResult(refused[0], "binding: " + refused[1])
    unchecked = not document_checked
    refused = (
        (count_refusal(document) if unchecked else None)
        or binding_count_refusal(binding)
        or (version_refusal(document) if unchecked else None)
        or (form_refusal(document) if unchecked else None)
        or binding_form_refusal(binding, document, dialect_digest)
        or (kind_refusal(document, ALL_KINDS) if unchecked else None)
    )
    if refused:
        return BindingResult(refused[0], refused[1])
    bound = bound_dialect(document, binding)
    bound_digest = digest_of(bound)  # written first, as in check_form
    refused = check_phases(bound, READABLE_VERSIONS, ALL_KINDS, in_canon=bound_digest is not None)
    if refused:
        return BindingResult(refused[0], "the bound dialect: " + refused[1])
    return BindingResult(None, "valid", bound, bound_digest)


def _binding_detail(refused: tuple[str, str] | None) -> tuple[str, str] | None:
    return (refused[0], "binding: " + refused[1]) if refused else None


def form_report(dialect: bytes, binding: bytes | None = None) -> dict[str, str | None]:
    """The report of `exchange form DIALECT [--binding B]`: valid with digest (and boundDigest), or a refusal.

    With a binding, the two documents' phases interleave as §11 orders them: both documents' bytes
    are measured before either is read, both are read before any count, and so on (`check_binding`).
    """
    if binding is None:
        result = check_form(dialect)
        if result.refusal:
            return {"result": "refusal", "refusal": result.refusal, "detail": result.detail}
        return {"result": "valid", "digest": result.digest}
    refused = measure_document(dialect, DIALECT_BOUNDS) or _binding_detail(measure_document(binding, BINDING_BOUNDS))
    if not refused:
        document, refused = read_document(dialect, DIALECT_BOUNDS)
        refused = refused or _binding_detail(read_document(binding, BINDING_BOUNDS)[1])
    if refused:
        return {"result": "refusal", "refusal": refused[0], "detail": refused[1]}
    digest = digest_of(document)
    bound = check_binding(binding, document, digest)
    if bound.refusal:
        return {"result": "refusal", "refusal": bound.refusal, "detail": bound.detail}
    return {"result": "valid", "digest": digest, "boundDigest": bound.bound_digest}
