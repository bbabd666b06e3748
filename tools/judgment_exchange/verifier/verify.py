"""The preparation verifier (dialect §11): refusal phases 1–6, findings 1–9, or a reading.

Phases interleave documents as §11 orders them: phase 1 on every document, then phase 2 on every
document, and so on; the dialect's part of each phase is the dialect form checker's
(`judgment_exchange.dialect`), the rest is here.

`checked`, a `dialect.CheckedDialect` the gate already made of the same bytes (issue #12 item 2),
stands for the dialect's part of phases 1–5: those checks are not made again, every other document's
are made in the same order, so each answer is the one the bytes alone give (tests/verifier/
test_checked_dialect.py). A checked dialect of other bytes is ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import dialect as dialect_form
from ..canon import CanonError, canonical_digest, digest, preparation_form
from ..codes import verifier as codes
from ..jsonstrict import OVER_BOUND, Bounds, JsonRefusal, measure, parse
from . import profiles as profile_rules
from . import receipts, research
from .difference import first_difference
from .recompute import Inputs, Recomputation, differs, recompute
from .record import findings as record_findings
from .record import record_refusal
from .results import Found, Reading, Refused
from .templates import TemplateError
from .values import instant

READABLE_KINDS = frozenset({"operation", "research"})
MAX_DIALECT = 131072
MAX_INPUTS = 2097152
MAX_PROFILES = 65536
MAX_BINDING = 65536
MAX_PREPARATION = 8388608
MAX_RECORD = 8388608
RECOMPUTE_ERRORS = (KeyError, TypeError, AttributeError, ValueError, IndexError, TemplateError, CanonError)


@dataclass(frozen=True)
class Documents:
    """A verifier's inputs as bytes (§11); acquisitions None means {}, record the line without its newline."""

    dialect: bytes
    case: bytes
    profiles: bytes
    preparation: bytes
    acquisitions: bytes | None = None
    binding: bytes | None = None
    record: bytes | None = None
    require_binding: bool = False


def _named(docs: Documents) -> list[tuple[str, bytes, int]]:
    out = [("dialect", docs.dialect, 64), ("case", docs.case, 32),
           ("acquisitions", docs.acquisitions if docs.acquisitions is not None else b"{}", 64),
           ("profiles", docs.profiles, 64), ("preparation", docs.preparation, 64)]
    if docs.binding is not None:
        out.append(("binding", docs.binding, 64))
    if docs.record is not None:
        out.append(("record", docs.record, 64))
    return out


def _phase1(docs: Documents, checked: dialect_form.CheckedDialect | None = None) -> Refused | None:
    sizes = {"dialect": MAX_DIALECT, "profiles": MAX_PROFILES, "binding": MAX_BINDING,
             "preparation": MAX_PREPARATION, "record": MAX_RECORD}
    together = len(docs.dialect) + len(docs.case) + len(docs.acquisitions or b"")
    if together > MAX_INPUTS:
        return Refused(codes.INPUT_OVER_BOUND, f"the dialect, case and acquisitions hold {together} bytes, over "
                                               f"{MAX_INPUTS}")
    for name, data, max_depth in _named(docs):
        if checked is not None and name == "dialect":  # measured within DIALECT_BOUNDS, which are these
            continue
        bounds = Bounds(max_bytes=sizes.get(name, MAX_INPUTS), max_depth=max_depth)
        known = checked if checked is not None and type(data) is bytes else None
        if known is not None and (bounds, data) in known.measured:  # these bytes passed these bounds in this entry
            continue
        try:
            measure(data, bounds)
        except JsonRefusal as refusal:
            return Refused(codes.INPUT_OVER_BOUND, f"{name}: {refusal.detail}")
        if known is not None:
            known.measured.add((bounds, data))
    return None


def _phase2(docs: Documents, checked: dialect_form.CheckedDialect | None = None) -> dict[str, Any] | Refused:
    values: dict[str, Any] = {}
    for name, data, _ in _named(docs):
        if checked is not None and name == "dialect":
            values[name] = checked.document
            continue
        if name == "record" and (b"\n" in data or b"\r" in data):
            return Refused(codes.INPUT_MALFORMED, "record: the record is one line")
        known = checked if checked is not None and type(data) is bytes else None
        if known is not None and data in known.parsed:  # these bytes were read strictly in this entry: the same value
            values[name] = known.parsed[data]
            continue
        try:
            values[name] = parse(data)
        except JsonRefusal as refusal:
            code = codes.INPUT_OVER_BOUND if refusal.kind == OVER_BOUND else codes.INPUT_MALFORMED
            return Refused(code, f"{name}: {refusal.detail}")
        if known is not None:
            known.parsed[data] = values[name]
    return values


def _first(*problems: tuple[str, str] | None) -> Refused | None:
    for problem in problems:
        if problem is not None:
            return Refused(problem[0], problem[1])
    return None


def _preparation_refusal(preparation: Any) -> tuple[str, str] | None:
    if not isinstance(preparation, dict) or instant(preparation.get("verifiedAt")) is None:
        return codes.INPUT_MALFORMED, "preparation: an object whose verifiedAt is a timestamp with an instant"
    return None


def _record_problem(line: bytes | None, record: Any) -> tuple[str, str] | None:
    if line is None or (why := record_refusal(line, record)) is None:
        return None
    return codes.INPUT_MALFORMED, f"record: {why}"


def _research_names(dialect: Any) -> set[str]:
    sources = dialect.get("sources", []) if isinstance(dialect, dict) else []
    if not isinstance(sources, list):
        return set()
    return {
        s["name"]
        for s in sources
        if isinstance(s, dict) and s.get("kind") == "research" and isinstance(s.get("name"), str)
    }


@dataclass
class Admitted:
    """Documents that passed refusal phases 1–5 (§11): as read, and the dialect's bound inputs."""

    values: dict[str, Any]
    inputs: Inputs


def trusted(docs: Documents, checked: Any) -> dialect_form.CheckedDialect | None:
    """`checked` when it is a checked dialect of exactly `docs.dialect`'s bytes, else None."""
    if isinstance(checked, dialect_form.CheckedDialect) and checked.trusted(docs.dialect):
        return checked
    return None


def admit(docs: Documents, checked: dialect_form.CheckedDialect | None = None) -> Refused | Admitted:
    """Refusal phases 1–5 of §11 (phase 6, kind-unread, is the caller's): the documents read and bound.

    With `checked` (of the same bytes) the dialect's own part of phases 1–5 is taken as made."""
    checked = trusted(docs, checked)
    if (refused := _phase1(docs, checked)) is not None:
        return refused
    values = _phase2(docs, checked)
    if isinstance(values, Refused):
        return values
    dialect, profiles, acquisitions = values["dialect"], values["profiles"], values["acquisitions"]
    record = values.get("record")
    binding_counts = dialect_form.binding_count_refusal(values["binding"]) if "binding" in values else None
    dialect_counts = None if checked is not None else dialect_form.count_refusal(dialect)
    if (
        refused := _first(
            dialect_counts,
            binding_counts,
            profile_rules.count_refusal(profiles),
            receipts.count_refusal(acquisitions),
            research.count_refusal(dialect, acquisitions),
        )
    ) is not None:
        return refused
    if checked is None:
        if (refused := _first(dialect_form.version_refusal(dialect))) is not None:
            return refused
        problem = dialect_form.form_refusal(dialect)
        if problem is not None:
            return Refused(*problem)
    bound, unbound_shapes = dialect, {}
    mapping_digest = checked.digest if checked is not None else None
    names = dialect_form.unbound_sources(dialect)
    if names and docs.binding is None:
        return Refused(codes.INPUT_MALFORMED, "the dialect has an unbound source and no binding document")
    if not names and docs.binding is not None:
        return Refused(codes.INPUT_MALFORMED, "a binding document beside a dialect with no unbound source")
    if names:
        assert docs.binding is not None  # refused above: an unbound source and no binding document
        applied = (checked.binding(docs.binding) if checked is not None
                   else dialect_form.check_binding(docs.binding, dialect, canonical_digest(dialect)))
        if applied.refusal is not None:
            return Refused(applied.refusal, applied.detail)
        bound, mapping_digest = applied.bound_document, applied.bound_digest
        unbound_shapes = {s["name"]: (s.get("shape"), s.get("record")) for s in dialect["sources"]
                          if s["name"] in names and s["kind"] == "operation"}
    checks: tuple[Callable[[], tuple[str, str] | None], ...] = (
        lambda: profile_rules.form_refusal(profiles),
        lambda: receipts.form_refusal(acquisitions, _research_names(dialect)),
        lambda: research.form_refusal(dialect, acquisitions),
        lambda: _preparation_refusal(values["preparation"]),
        lambda: _record_problem(docs.record, record),
    )
    for check in checks:
        if (problem := check()) is not None:
            return Refused(*problem)
    inputs = Inputs(bound, values["case"], acquisitions, profile_rules.by_id(profiles),
                    values["preparation"]["verifiedAt"], unbound_shapes, mapping_digest,
                    checked.signatures if checked is not None else None)
    return Admitted(values, inputs)


def prepare(
    docs: Documents, checked: dialect_form.CheckedDialect | None = None
) -> tuple[Refused | Found | Recomputation, dict[str, Any]]:
    """Refusal phases 1–6 and findings 1–4, then the recomputed preparation; with the documents as read."""
    admitted = admit(docs, checked)
    if isinstance(admitted, Refused):
        return admitted, {}
    if (refused := _first(dialect_form.kind_refusal(admitted.values["dialect"], READABLE_KINDS))) is not None:
        return refused, {}
    try:
        result = recompute(admitted.inputs)
    except RECOMPUTE_ERRORS as exc:
        return Refused(
            codes.INPUT_MALFORMED, f"the dialect cannot be read ({type(exc).__name__}: {exc})"
        ), admitted.values
    return result, admitted.values


def verify(docs: Documents, checked: dialect_form.CheckedDialect | None = None) -> Refused | Found | Reading:
    """Verify one preparation (§11); the answer is a refusal, a finding or a reading, never an exception.

    `checked`: the gate's check of the same dialect bytes (module docstring); the answer is the same."""
    try:
        result, values = prepare(docs, checked)
        if not isinstance(result, Recomputation):
            return result
        return _conclude(result, values["preparation"], docs, values.get("record"))
    except Exception as exc:  # the last guard: no input ends in a traceback
        return Refused(codes.INPUT_MALFORMED, f"the inputs cannot be read ({type(exc).__name__}: {exc})")


def difference_text(given: Any, recomputed: bytes) -> str:
    """Where the given preparation first differs from the recomputed canonical bytes (difference.py): the
    member as a JSON pointer and each side's type and length, never a value (issue #17 item 4)."""
    try:
        found = first_difference(given, parse(recomputed))
    except (JsonRefusal, RecursionError):
        return "the recomputed bytes cannot be read back to name the member that differs"
    if found is None:
        return "no member differs in value as read (the given preparation's canonical form is not the recomputed bytes)"
    return found.text()


def _conclude(result: Recomputation, given: Any, docs: Documents, record: Any) -> Found | Reading:
    recomputed = preparation_form(result.preparation)
    if differs(recomputed, given, docs.preparation):
        return Found(codes.PREPARATION_DIFFERS, "the recomputed preparation's canonical bytes are not the given "
                                                f"preparation's: {difference_text(given, recomputed)}")
    prepared = digest(recomputed)
    found, binding = record_findings(docs.record, record, result.facts, result.evidence,
                                     result.preparation["cites"], prepared, docs.require_binding)
    if found is not None:
        return found
    return Reading(prepared, binding, result.facts, result.evidence, result.targets_by_class,
                   result.unsigned_parameters, result.unsigned_freshness, result.preparation)


def preparation_difference(docs: Documents, checked: dialect_form.CheckedDialect | None = None) -> str | None:
    """For documents this verifier answers finding 5 (preparation-differs): where the given preparation
    first differs from the recomputed one (`difference_text`); None for any other answer. Never raises."""
    try:
        result, values = prepare(docs, checked)
        if not isinstance(result, Recomputation):
            return None
        recomputed = preparation_form(result.preparation)
        if not differs(recomputed, values["preparation"], docs.preparation):
            return None
        return difference_text(values["preparation"], recomputed)
    except Exception:  # a diagnosis only: the verdict is verify's
        return None


def report(answer: Refused | Found | Reading) -> dict[str, Any]:
    """The §11 report object of an answer."""
    if isinstance(answer, Refused):
        return {"result": "refusal", "refusal": answer.code}
    if isinstance(answer, Found):
        return {"result": "finding", "finding": answer.code}
    out: dict[str, Any] = {"result": "reading", "digest": answer.digest, "binding": answer.binding,
                           "facts": answer.facts, "evidence": answer.evidence,
                           "targetsByClass": answer.targets_by_class}
    if answer.unsigned_parameters:
        out["unsignedParameters"] = answer.unsigned_parameters
    if answer.unsigned_freshness:
        out["unsignedFreshness"] = answer.unsigned_freshness
    return out


def report_bytes(answer: Refused | Found | Reading) -> bytes:
    """The report written in the preparation's canonical form (§9.5), one line without its newline."""
    return preparation_form(report(answer))

