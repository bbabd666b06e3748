"""Input profiles (dialect §5.1): the trusted array's counts (§11 phase 3) and form (phase 5), and digests."""

from __future__ import annotations

from typing import Any

from ..canon import canonical_digest, is_digest
from ..codes.verifier import INPUT_MALFORMED, INPUT_OVER_BOUND
from ..keys import key_refusal
from . import endpoint

_REQUIRED = {"id", "publicKey", "class", "source", "authority", "shape", "adapter", "endpoint"}
_OPTIONAL = {"tools", "calculator", "research", "endpointScope"}
CAPABILITIES = ("answer", "search", "page")
SHAPES = ("mcp", "http", "airbyte", "command")
Problem = tuple[str, str] | None


def _text(value: Any) -> bool:
    return isinstance(value, str) and value != ""


def count_refusal(profiles: Any) -> Problem:
    """Phase 3: the endpoint scope's entries and bytes, research capabilities and model, wherever measurable."""
    if not isinstance(profiles, list):
        return None
    for profile in profiles:
        if not isinstance(profile, dict):
            continue
        scope = profile.get("endpointScope")
        if isinstance(scope, list):
            if len(scope) > endpoint.MAX_ENTRIES:
                return INPUT_OVER_BOUND, f"an endpointScope of {len(scope)} entries, over {endpoint.MAX_ENTRIES}"
            for entry in scope:
                if isinstance(entry, str) and len(entry.encode("utf-8")) > endpoint.MAX_ENTRY_BYTES:
                    return INPUT_OVER_BOUND, f"an endpointScope entry over {endpoint.MAX_ENTRY_BYTES} bytes"
        research = profile.get("research")
        if isinstance(research, dict):
            caps = research.get("capabilities")
            if isinstance(caps, list) and len(caps) > 3:
                return INPUT_OVER_BOUND, "more than three capabilities in a profile's research"
            model = research.get("model")
            if isinstance(model, str) and len(model.encode("utf-8")) > 256:
                return INPUT_OVER_BOUND, "a research model over 256 bytes"
    return None


def _research_refusal(research: Any) -> str | None:
    if not isinstance(research, dict) or not set(research) <= {"capabilities", "model"}:
        return "research is exactly capabilities and, with answer, model"
    caps = research.get("capabilities")
    if not isinstance(caps, list) or not caps or any(c not in CAPABILITIES for c in caps):
        return "research.capabilities is a non-empty array of answer, search, page"
    if len(set(caps)) != len(caps) or sorted(caps, key=CAPABILITIES.index) != caps:
        return "research.capabilities are distinct and in the order answer, search, page"
    if ("answer" in caps) != ("model" in research):
        return "research.model is present exactly when capabilities include answer"
    if "model" in research and not _text(research["model"]):
        return "research.model is a non-empty string"
    return None


def _scope_refusal(profile: dict[str, Any]) -> str | None:
    scope = profile["endpointScope"]
    if not isinstance(scope, list) or not scope:
        return "endpointScope is a non-empty array"
    if any(not isinstance(e, str) for e in scope) or len(set(scope)) != len(scope):
        return "endpointScope holds distinct strings"
    if (
        profile.get("shape") != "http"
        or not isinstance(profile.get("adapter"), dict)
        or profile["adapter"].get("name") != "adapter-web"
    ):
        return "endpointScope is admitted only on shape http with adapter.name adapter-web"
    if profile.get("endpoint") is not None:
        return "endpoint is null when endpointScope is present"
    for entry in scope:
        if not endpoint.entry_ok(entry):
            return f"the endpointScope entry {entry!r} is not of the constrained page form"
        if entry == endpoint.WILDCARD and profile.get("class") != "generated":
            return "the wildcard scope entry is admitted only on a generated profile"
    research = profile.get("research")
    if research is not None and research.get("capabilities") != ["page"]:
        return "a scoped profile's research capabilities are exactly [\"page\"]"
    if profile.get("class") == "generated" and research is None:
        return "a generated scoped profile declares research"
    return None


def profile_refusal(profile: Any) -> str | None:
    """Why one profile is not of §5.1's form (the key rule included), or None."""
    if not isinstance(profile, dict):
        return "a profile is an object"
    if not _REQUIRED <= set(profile) or not set(profile) <= _REQUIRED | _OPTIONAL:
        return ("a profile has exactly id, publicKey, class, source, authority, shape, adapter, endpoint and optional "
                "tools, calculator, research, endpointScope")
    if not all(_text(profile[m]) for m in ("id", "source", "authority")):
        return "id, source and authority are non-empty strings"
    if profile["class"] not in ("record", "generated"):
        return "class is record or generated"
    if profile["shape"] not in SHAPES:
        return "shape is mcp, http, airbyte or command"
    adapter = profile["adapter"]
    if not isinstance(adapter, dict) or set(adapter) != {"name", "version", "digest"}:
        return "adapter is exactly name, version and digest"
    if not _text(adapter["name"]) or not _text(adapter["version"]) or not is_digest(adapter["digest"]):
        return "adapter's name and version are non-empty strings and its digest a digest"
    if profile["endpoint"] is not None and not isinstance(profile["endpoint"], str):
        return "endpoint is a string or null"
    if "tools" in profile:
        tools = profile["tools"]
        if not isinstance(tools, list) or not all(_text(t) for t in tools) or len(set(tools)) != len(tools):
            return "tools holds distinct non-empty strings"
    if profile["shape"] == "mcp" and not profile.get("tools"):
        return "a profile of shape mcp allows at least one tool"
    if "calculator" in profile:
        calc = profile["calculator"]
        if not isinstance(calc, dict) or set(calc) != {"name", "version"} or not all(_text(v) for v in calc.values()):
            return "calculator is exactly name and version, non-empty strings"
        if profile["class"] != "record" or profile["shape"] != "mcp":
            return "a calculator's profile is of class record and shape mcp"
    if "research" in profile and (why := _research_refusal(profile["research"])) is not None:
        return why
    if "endpointScope" in profile and (why := _scope_refusal(profile)) is not None:
        return why
    if (why := key_refusal(profile["publicKey"])) is not None:
        return f"publicKey: {why}"
    return None


def form_refusal(profiles: Any) -> Problem:
    """Phase 5: the trusted profiles are one array of well-formed profiles with distinct ids."""
    if not isinstance(profiles, list):
        return INPUT_MALFORMED, "the trusted profiles are one JSON array"
    seen: set[str] = set()
    for index, profile in enumerate(profiles):
        if (why := profile_refusal(profile)) is not None:
            return INPUT_MALFORMED, f"profile {index}: {why}"
        if profile["id"] in seen:
            return INPUT_MALFORMED, f"the profile id {profile['id']!r} is given twice"
        seen.add(profile["id"])
    return None


def by_id(profiles: list[dict[str, Any]]) -> dict[str, tuple[dict[str, Any], str]]:
    """Each trusted profile by its id, with its digest (canon bytes, §5.1)."""
    return {p["id"]: (p, canonical_digest(p)) for p in profiles}
