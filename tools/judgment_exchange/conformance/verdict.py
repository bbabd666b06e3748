"""The neutral verdict a consumer prints for one case, and its comparison with the case's expected verdict at
the consumer's reader tier (docs/conformance.md, "The verdict", "Reader tiers" and "Comparison"; RFC 0019 §7).

A verdict is one JSON object: `result` (`pass` or `refuse`), `codes`, `history` (`checked`,
`artifact-history-unchecked`, `no-releases`), `entries` (each id with its row's `kind`, `offered` and
its `fixtures` replayed or skipped with the reason) and, against retained state, `withdrawn` and
`changed`; or `{"notApplicable": REASON}`, admitted where the case holds this project's stricter rules or its
verdict at the tier says a broader reader may decline it. Members the contract does not name are ignored.
The expected verdict is the one cases.json states for the tier (`tiers`), never one derived from another tier's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..codes.verifier import skip_of

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

VERDICT_BOUND = 4 * 1024 * 1024
SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "conformance-verdict.schema.json"
AGREE, DISAGREE, NOT_APPLICABLE, NO_VERDICT = "passed", "failed", "not applicable", "no verdict"
NOT_AT_TIER = "no verdict at this tier"
"""A case that states no verdict at the consumer's tier (docs/conformance.md lists each by name): not run."""
SPECIFICATION, NONE = "specification", "none"
TIERS = (SPECIFICATION, NONE)
"""The reader tiers, broadest first: the specification's reader, and no reader (docs/conformance.md)."""
DECLINE = "not-applicable"
"""A tier's `broaderReader` when a consumer whose reader reads more may answer notApplicable."""
COMPARED = ("result", "codes", "history", "entries", "withdrawn", "changed")


@dataclass
class Outcome:
    """One case's comparison: `status` (AGREE, DISAGREE, NOT_APPLICABLE, NO_VERDICT), what the consumer
    said in short (`got`), and each difference found."""

    status: str
    got: str = ""
    differences: list[str] = field(default_factory=list)
    differing: list[str] = field(default_factory=list)
    """The verdict's members that differ (COMPARED's names), for the summary row."""
    verdict: dict[str, Any] | None = None
    """The consumer's verdict as received, when it gave one."""

    @property
    def failed(self) -> bool:
        return self.status in (DISAGREE, NO_VERDICT)


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


def parse(stdout: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """The verdict on a consumer's standard output: exactly one JSON object in the verdict's form; else
    (None, why)."""
    if len(stdout) > VERDICT_BOUND:
        return None, f"standard output is over {VERDICT_BOUND} bytes"
    try:
        text = stdout.decode("utf-8")
    except UnicodeDecodeError:
        return None, "standard output is not UTF-8"
    if not text.strip():
        return None, "nothing on standard output"
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"standard output is not one JSON value ({exc.msg} at character {exc.pos})"
    except ValueError as exc:  # no JSONDecodeError: a number past int()'s digit limit; it has no msg or pos
        return None, f"standard output is not one JSON value ({exc})"
    errors = sorted(_validator().iter_errors(value), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "the verdict"
        rule = json.dumps(errors[0].validator_value, ensure_ascii=True)
        return None, f"not in the verdict's form at {where} ({errors[0].validator}: {rule[:120]})"
    return value, None


def _fixtures(items: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    # a consumer's reason in either spelling of an unread version (RFC 0019 §4's unread-version, the companion's
    # version-unread) is the same skip: codes/verifier.py skip_of, the one reading of it
    return sorted((f["name"], f["replay"], skip_of(f.get("reason")) or f.get("reason")) for f in items)


def _entries(expected: list[dict[str, Any]], got: list[dict[str, Any]]) -> list[str]:
    out = []
    want = {e["id"]: e for e in expected}
    have: dict[str, dict[str, Any]] = {}
    for entry in got:
        if entry["id"] in have:
            out.append(f"entry {entry['id']} is listed twice")
        have[entry["id"]] = entry
    for missing in sorted(set(want) - set(have)):
        out.append(f"entry {missing} is expected and not listed")
    for extra in sorted(set(have) - set(want)):
        out.append(f"entry {extra} is listed and not expected")
    for entry_id in sorted(set(want) & set(have)):
        a, b = want[entry_id], have[entry_id]
        for member in ("kind", "offered"):
            if a[member] != b[member]:
                out.append(f"entry {entry_id}: {member} is {json.dumps(b[member])}, expected {json.dumps(a[member])}")
        if a["offered"] and b["offered"] and _fixtures(a["fixtures"]) != _fixtures(b["fixtures"]):
            out.append(f"entry {entry_id}: fixtures {_show(b['fixtures'])}, expected {_show(a['fixtures'])}")
    return out


def _show(fixtures: list[dict[str, Any]]) -> str:
    return ", ".join(f"{f['name']} {f['replay']}" + (f" ({f['reason']})" if f.get("reason") else "")
                     for f in fixtures) or "none"


def compared_codes(codes: list[str], strictness: str, rfc: frozenset[str]) -> list[str]:
    """The codes a case compares: RFC-named ones always, every code in a `strictness: project` case."""
    return sorted({c for c in codes if strictness == "project" or c in rfc})


def expected_at(case: dict[str, Any], tier: str) -> dict[str, Any] | None:
    """The verdict the case states at `tier` (None: the case states none there)."""
    stated: dict[str, Any] | None = case["tiers"].get(tier)
    return stated


def expected_verdict(case: dict[str, Any], tier: str) -> dict[str, Any] | None:
    """The expected verdict at `tier` in the verdict's own form (what a consumer would print): result, the
    compared codes, history, entries, withdrawn and changed where stated."""
    expected = expected_at(case, tier)
    if expected is None:
        return None
    return {member: expected[member] for member in COMPARED if member in expected}


def compare(case: dict[str, Any], verdict: dict[str, Any], rfc: frozenset[str], tier: str = SPECIFICATION) -> Outcome:
    """Hold a consumer's verdict to the case's verdict at `tier`: `result`, `history` (where stated),
    `entries` and the compared codes must match, and `withdrawn`/`changed` where the case states them."""
    expected = expected_at(case, tier)
    if expected is None:
        return Outcome(NOT_AT_TIER, "-")
    if "notApplicable" in verdict:
        if case["strictness"] == "project" or expected.get("broaderReader") == DECLINE:
            return Outcome(NOT_APPLICABLE, "not applicable", verdict=verdict)
        return Outcome(DISAGREE, "not applicable", [
            f"reported not applicable, but at tier {tier} the case's verdict holds for every reader that reads at "
            "least the tier's, and the case holds no rule stricter than the RFC's"], ["result"], verdict)
    out, differing = [], []
    if verdict["result"] != expected["result"]:
        out.append(f"result is {verdict['result']}, expected {expected['result']}")
        differing.append("result")
    got = compared_codes(verdict["codes"], case["strictness"], rfc)
    want = compared_codes(expected["codes"], case["strictness"], rfc)
    if got != want:
        out.append(f"codes compared are [{', '.join(got)}], expected [{', '.join(want)}]")
        differing.append("codes")
    if "history" in expected and verdict["history"] != expected["history"]:
        out.append(f"history is {verdict['history']}, expected {expected['history']}")
        differing.append("history")
    entries = _entries(expected["entries"], verdict["entries"])
    if entries:
        out += entries
        differing.append("entries")
    for member in ("withdrawn", "changed"):
        if member in expected and sorted(verdict.get(member, [])) != sorted(expected[member]):
            out.append(f"{member} is [{', '.join(sorted(verdict.get(member, [])))}], expected "
                       f"[{', '.join(sorted(expected[member]))}]")
            differing.append(member)
    summary = verdict["result"] + (f" [{', '.join(got)}]" if got else "")
    return Outcome(DISAGREE if out else AGREE, summary, out, differing, verdict)
