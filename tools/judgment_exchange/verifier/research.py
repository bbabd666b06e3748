"""Research sources (dialect §4.3, §4.4, §5.1, §5.2, §6.4): the record's counts and form, and the binding checks.

R, the research record, is the caller's assembly: exactly `fields` (answers keyed by declared
field name) and `responses` (the retained responses, each under its own trusted profile).
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from ..canon import is_digest
from ..codes.verifier import INPUT_MALFORMED, INPUT_OVER_BOUND
from ..jsonstrict import Number
from . import receipts
from .values import in_canon, json_equal

MAX_RESPONSES = 64
MAX_ENTRIES = 64
MAX_TEXT = 8192
MAX_LIST = 64
MAX_ITEM = 1024
MAX_DECIMAL = 128
MAX_OBSERVATIONS = 64
MAX_CITES = 64
MAX_COMBINED_DEPTH = 32
STATUSES = ("found", "not-found", "stale", "conflicting")
_DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?")
Problem = tuple[str, str] | None


def research_sources(dialect: Any) -> dict[str, dict[str, Any]]:
    """The dialect's research sources by name, with their declared fields."""
    sources = dialect.get("sources", []) if isinstance(dialect, dict) else []
    if not isinstance(sources, list):
        return {}
    return {s["name"]: s for s in sources
            if isinstance(s, dict) and s.get("kind") == "research" and isinstance(s.get("name"), str)}


def _declared(source: dict[str, Any]) -> dict[str, dict[str, Any]]:
    fields = source.get("fields")
    return {f["name"]: f for f in fields if isinstance(f, dict) and isinstance(f.get("name"), str)} \
        if isinstance(fields, list) else {}


def _record(acquisitions: Any, name: str) -> Any:
    member = acquisitions.get(name) if isinstance(acquisitions, dict) else None
    response = member.get("response") if isinstance(member, dict) else None
    return response.get("result") if isinstance(response, dict) else None


def _bytes(text: str) -> int:
    return len(text.encode("utf-8"))


def _value_over(value: Any, kind: object) -> str | None:
    if kind == "text" and isinstance(value, str) and _bytes(value) > MAX_TEXT:
        return f"a text value over {MAX_TEXT} bytes"
    if kind == "text-list" and isinstance(value, list):
        if len(value) > MAX_LIST:
            return f"a text-list of {len(value)} items, over {MAX_LIST}"
        if any(isinstance(i, str) and _bytes(i) > MAX_ITEM for i in value):
            return f"a text-list item over {MAX_ITEM} bytes"
    if kind == "decimal" and isinstance(value, str) and len(value) > MAX_DECIMAL:
        return f"a decimal string over {MAX_DECIMAL} characters"
    if kind == "range" and isinstance(value, dict):
        for end in (value.get("min"), value.get("max")):
            if isinstance(end, str) and len(end) > MAX_DECIMAL:
                return f"a range endpoint over {MAX_DECIMAL} characters"
    return None


def count_refusal(dialect: Any, acquisitions: Any) -> Problem:
    """Phase 3: responses, answer entries, observations, citations and typed values over §12's research maxima."""
    for name, source in research_sources(dialect).items():
        record = _record(acquisitions, name)
        if not isinstance(record, dict):
            continue
        responses = record.get("responses")
        if isinstance(responses, list) and len(responses) > MAX_RESPONSES:
            return INPUT_OVER_BOUND, f"{name!r} retains {len(responses)} responses, over {MAX_RESPONSES}"
        fields = record.get("fields")
        if not isinstance(fields, dict):
            continue
        if len(fields) > MAX_ENTRIES:
            return INPUT_OVER_BOUND, f"{name!r} answers {len(fields)} fields, over {MAX_ENTRIES}"
        declared = _declared(source)
        for field, entry in fields.items():
            if not isinstance(entry, dict):
                continue
            kind = declared.get(field, {}).get("type")
            cites = [entry.get("cites")]
            values = entry.get("values")
            if isinstance(values, list):
                if len(values) > MAX_OBSERVATIONS:
                    return INPUT_OVER_BOUND, f"{name!r}/{field}: {len(values)} observations, over {MAX_OBSERVATIONS}"
                for observation in values:
                    if isinstance(observation, dict):
                        cites.append(observation.get("cites"))
                        if (why := _value_over(observation.get("value"), kind)) is not None:
                            return INPUT_OVER_BOUND, f"{name!r}/{field}: {why}"
            if any(isinstance(c, list) and len(c) > MAX_CITES for c in cites):
                return INPUT_OVER_BOUND, f"{name!r}/{field}: a citation array over {MAX_CITES} indices"
            if (why := _value_over(entry.get("value"), kind)) is not None:
                return INPUT_OVER_BOUND, f"{name!r}/{field}: {why}"
    return None


def _decimal(value: Any) -> bool:
    return isinstance(value, str) and _DECIMAL.fullmatch(value) is not None


def typed(value: Any, kind: object) -> bool:
    """Whether a value is of a research field's declared type (§4.3); null never is."""
    if kind == "integer":
        return isinstance(value, Number) and value.is_integer
    if kind == "decimal":
        return _decimal(value)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "text":
        return isinstance(value, str)
    if kind == "text-list":
        return isinstance(value, list) and all(isinstance(i, str) for i in value)
    if kind == "range":
        if not isinstance(value, dict) or set(value) != {"min", "max"}:
            return False
        low, high = value["min"], value["max"]
        if all(isinstance(v, Number) and v.is_integer for v in (low, high)):
            return int(low.literal) <= int(high.literal)
        if _decimal(low) and _decimal(high):
            return Decimal(low) <= Decimal(high)
    return False


def _cites_ok(cites: Any, count: int, least: int) -> bool:
    if not isinstance(cites, list) or len(cites) < least:
        return False
    seen = set()
    for index in cites:
        if not isinstance(index, Number) or not index.is_integer or index.literal == "-0":
            return False
        value = int(index.literal)
        if not 0 <= value < count or value in seen:
            return False
        seen.add(value)
    return True


def _entry_refusal(entry: Any, kind: object, count: int) -> str | None:
    if not isinstance(entry, dict) or entry.get("status") not in STATUSES:
        return "an answer entry is an object with a status of found, not-found, stale or conflicting"
    status = entry["status"]
    if status == "found":
        if set(entry) != {"status", "cites", "value"} or not typed(entry["value"], kind):
            return f"a found entry is exactly status, cites and a value of type {kind}"
        return None if _cites_ok(entry["cites"], count, 1) else "a found entry cites 1 to 64 distinct response indices"
    if status in ("not-found", "stale"):
        if set(entry) != {"status", "cites"}:
            return f"a {status} entry is exactly status and cites"
        return None if _cites_ok(entry["cites"], count, 0) else f"a {status} entry cites distinct response indices"
    if set(entry) != {"status", "cites", "values"} or entry["cites"] != []:
        return "a conflicting entry is exactly status, cites ([]) and values"
    values = entry["values"]
    if not isinstance(values, list) or len(values) < 2:
        return "a conflicting entry has at least two observations"
    for observation in values:
        if not isinstance(observation, dict) or set(observation) != {"value", "cites"}:
            return "an observation is exactly value and cites"
        if not typed(observation["value"], kind) or not _cites_ok(observation["cites"], count, 1):
            return f"an observation has a value of type {kind} and 1 to 64 distinct response indices"
    if all(json_equal(values[0]["value"], o["value"]) for o in values[1:]):
        return "a conflicting entry's observations do not differ"
    return None


def _response_refusal(response: Any) -> str | None:
    if not isinstance(response, dict) or not {"profile", "request", "receipt", "salts"} <= set(response) \
            or not set(response) <= {"profile", "request", "result", "receipt", "salts"}:
        return "a retained response is exactly profile, request, result, receipt and salts"
    profile = response["profile"]
    if not isinstance(profile, dict) or set(profile) != {"id", "digest"} or not isinstance(profile["id"], str) \
            or not profile["id"] or not is_digest(profile["digest"]):
        return "a response's profile is exactly id, a non-empty string, and digest"
    if not isinstance(response["request"], dict) or not in_canon(response["request"]):
        return "a response's request is an object in the canon domain"
    if not isinstance(response["receipt"], dict):
        return "a response's receipt is an object"
    if not receipts.salts_ok(response["salts"]):
        return "a response's salts are args and optionally statement, 64 hex each"
    return None


def record_refusal(source: dict[str, Any], record: Any) -> str | None:
    """Phase 5: R against §4.3's form and the source's declared fields."""
    if not isinstance(record, dict) or set(record) != {"fields", "responses"}:
        return "a research record is exactly fields and responses"
    if not isinstance(record["fields"], dict) or not isinstance(record["responses"], list):
        return "a research record's fields is an object and its responses an array"
    for response in record["responses"]:
        if (why := _response_refusal(response)) is not None:
            return why
    declared = _declared(source)
    for name, field in declared.items():
        if field.get("required") is True and name not in record["fields"]:
            return f"the required field {name!r} has no entry"
    for name, entry in record["fields"].items():
        if name not in declared:
            return f"the field {name!r} is not declared"
        if (why := _entry_refusal(entry, declared[name].get("type"), len(record["responses"]))) is not None:
            return f"the field {name!r}: {why}"
    return None


def form_refusal(dialect: Any, acquisitions: Any) -> Problem:
    """Phase 5 for every research source's record that the acquisitions carry."""
    for name, source in research_sources(dialect).items():
        member = acquisitions.get(name) if isinstance(acquisitions, dict) else None
        if member is None:
            continue
        if (why := record_refusal(source, member["response"]["result"])) is not None:
            return INPUT_MALFORMED, f"research record {name!r}: {why}"
    return None


def request(source: dict[str, Any], question: Any) -> dict[str, Any]:
    """The research source's request (§4.3): the recipe, its question instantiated."""
    return {"question": question, "constraints": source["constraints"], "model": source["model"],
            "evidence": source["evidence"], "fields": source["fields"], "capabilities": source["capabilities"]}


def assignments(source: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(capability, profile id, profile digest): the AI assignment, then search and page when assigned."""
    out = [("answer", source["profile"], source["profileDigest"])]
    for capability in ("search", "page"):
        if capability in source.get("webProfiles", {}):
            web = source["webProfiles"][capability]
            out.append((capability, web["profile"], web["profileDigest"]))
    return out


def binding_mismatch(source: dict[str, Any], trusted: dict[str, tuple[dict[str, Any], str]], record: Any) -> str | None:
    """Finding 1 for a research source: its AI profile, its web profiles, then each response's profile."""
    pairs = set()
    for capability, profile_id, digest in assignments(source):
        entry = trusted.get(profile_id)
        if entry is None or entry[1] != digest:
            return f"the {capability} assignment names no trusted profile of that id and digest"
        profile = entry[0]
        if profile["class"] != "generated":
            return f"the {capability} assignment's profile is not of class generated"
        declaration = profile.get("research")
        if declaration is None or capability not in declaration["capabilities"]:
            return f"the {capability} assignment's profile does not declare {capability}"
        if "model" in declaration and declaration["model"] != source["model"]:
            return f"the {capability} assignment's profile declares another model"
        if "endpointScope" in profile and capability != "page":
            return f"a profile with endpointScope serves no {capability}"
        pairs.add((profile_id, digest))
    responses = record.get("responses", []) if isinstance(record, dict) else []
    for index, response in enumerate(responses):
        reference = (response["profile"]["id"], response["profile"]["digest"])
        entry = trusted.get(reference[0])
        if entry is None or entry[1] != reference[1]:
            return f"response {index} names no trusted profile of that id and digest"
        if reference not in pairs:
            return f"response {index}'s profile is not one of the source's assignments"
    return None
