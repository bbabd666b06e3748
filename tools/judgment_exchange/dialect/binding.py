"""§4.4: unbound and bound sources, the binding document, and the bound dialect it yields."""

from __future__ import annotations

import copy
from typing import Any

from ..canon import is_digest
from ..codes.dialect import INPUT_MALFORMED, INPUT_OVER_BOUND
from ..quoting import pointer_text
from .shapes import Malformed, at, closed, describe, fail, need_object, shown
from .sources import BINDING, CATALOG, RESEARCH_BINDING, check_web_profiles, need_profile

BINDING_BYTES = 65536


def _sources(document: Any) -> list[dict[str, Any]]:
    sources = document.get("sources") if isinstance(document, dict) else None
    return [s for s in sources if isinstance(s, dict)] if isinstance(sources, list) else []


def is_unbound(source: dict[str, Any]) -> bool:
    """§4.4 (RFC 0019 §3): an operation with all four catalog members and neither binding member;
    a research source with none of profile, profileDigest and webProfiles."""
    if source.get("kind") == "operation":
        return all(m in source for m in CATALOG) and not any(m in source for m in BINDING)
    if source.get("kind") == "research":
        return not any(m in source for m in RESEARCH_BINDING)
    return False


def is_bound(source: dict[str, Any]) -> bool:
    """A source in the bound form of a kind that §4.4 gives an unbound form (operation, research)."""
    if source.get("kind") == "operation":
        return all(m in source for m in BINDING) and not any(m in source for m in CATALOG)
    if source.get("kind") == "research":
        return all(m in source for m in RESEARCH_BINDING)
    return False


def unbound_sources(document: Any) -> list[Any]:
    """Names of the sources in §4.4's unbound form, in document order (each as written: a string once the
    document passed its form, phase 5)."""
    return [s.get("name") for s in _sources(document) if is_unbound(s)]


def bound_sources(document: Any) -> list[Any]:
    """Names of the sources in a bound form where §4.4 gives an unbound one (a preset's bound-derivative), each
    as written."""
    return [s.get("name") for s in _sources(document) if is_bound(s)]


def requires_binding(document: Any) -> bool:
    """RFC 0019 §3: a fixture carries binding.json exactly when the dialect has an unbound source."""
    return bool(unbound_sources(document))


def binding_count_refusal(binding: Any) -> tuple[str, str] | None:
    """§11 phase 3 on a binding document: at most two web assignments per source (§12)."""
    sources = binding.get("sources") if isinstance(binding, dict) else None
    for name, assignment in (sources.items() if isinstance(sources, dict) else []):
        web = assignment.get("webProfiles") if isinstance(assignment, dict) else None
        if isinstance(web, dict) and len(web) > 2:
            where = pointer_text(at('/sources', name, 'webProfiles'))
            return (INPUT_OVER_BOUND, f"{where}: {len(web)} web assignments, over 2 (§12)")
    return None


def _binding_form(binding: Any, document: Any, dialect_digest: str | None) -> None:
    doc = closed(binding, "", ("dialect", "sources"), what="a binding document")
    if not is_digest(doc["dialect"]):
        raise fail("/dialect", f"expected a digest, found {describe(doc['dialect'])} (§4.4)")
    if doc["dialect"] != dialect_digest:
        raise fail("/dialect", f"{doc['dialect']} is not the unbound dialect's digest {dialect_digest} (§4.4)")
    unbound = {s["name"]: s for s in _sources(document) if is_unbound(s) and isinstance(s.get("name"), str)}
    if not unbound:
        raise fail("", "a binding document beside a dialect with no unbound source (§4.4)")
    sources = need_object(doc["sources"], "/sources")
    for name in sources:
        if name not in unbound:
            raise fail(at("/sources", name), f"{shown(name)} is not an unbound source of the dialect (§4.4)")
    for name, source in unbound.items():
        if name not in sources:
            raise fail("/sources", f"no assignment for the unbound source {shown(name)} (§4.4)")
        path = at("/sources", name)
        if source.get("kind") == "research":
            assignment = closed(sources[name], path, RESEARCH_BINDING, what="a research assignment")
            need_profile(assignment, path)
            capabilities = source.get("capabilities")
            listed = capabilities if isinstance(capabilities, list) else []
            check_web_profiles(assignment["webProfiles"], at(path, "webProfiles"), listed)
        else:
            assignment = closed(sources[name], path, BINDING, what="an operation assignment")
            need_profile(assignment, path)


def bound_dialect(document: dict[str, Any], binding: dict[str, Any]) -> dict[str, Any]:
    """The unbound dialect with the binding applied (§4.4): catalog names removed, assignments added.

    Defined only on a dialect and a binding document that passed their checks (`check_binding` calls it so).
    """
    bound = copy.deepcopy(document)
    assignments = binding["sources"]
    for source in bound.get("sources", []):
        if not is_unbound(source):
            continue
        assignment = assignments[source["name"]]
        if source.get("kind") == "operation":
            for member in CATALOG:
                del source[member]
            source["profile"] = assignment["profile"]
            source["profileDigest"] = assignment["profileDigest"]
        else:
            for member in RESEARCH_BINDING:
                source[member] = copy.deepcopy(assignment[member])
    return bound


def binding_form_refusal(binding: Any, document: Any, dialect_digest: str | None) -> tuple[str, str] | None:
    """§11 phase 5 on a binding document against its unbound dialect (§4.4)."""
    try:
        _binding_form(binding, document, dialect_digest)
    except Malformed as exc:
        return (INPUT_MALFORMED, "binding " + exc.detail)
    return None
