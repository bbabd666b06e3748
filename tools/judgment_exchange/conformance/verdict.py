"""The neutral verdict a consumer prints for one case, and its comparison with the case's expectation
(docs/conformance.md, "The verdict" and "Comparison"; RFC 0019 §7).

A verdict is one JSON object: `result` (`pass` or `refuse`), `codes`, `history` (`checked`,
`artifact-history-unchecked`, `no-releases`), `entries` (each id with its row's `kind`, `offered` and
its `fixtures` replayed or skipped with the reason) and, against retained state, `withdrawn` and
`changed`; or `{"notApplicable": REASON}` for a case that assumes the specification's reader or holds
this project's stricter rules. Members the contract does not name are ignored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

VERDICT_BOUND = 4 * 1024 * 1024
SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "conformance-verdict.schema.json"
AGREE, DISAGREE, NOT_APPLICABLE, NO_VERDICT = "passed", "failed", "not applicable", "no verdict"


@dataclass
class Outcome:
    """One case's comparison: `status` (AGREE, DISAGREE, NOT_APPLICABLE, NO_VERDICT), what the consumer
    said in short (`got`), and each difference found."""

    status: str
    got: str = ""
    differences: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return self.status in (DISAGREE, NO_VERDICT)


@lru_cache(maxsize=1)
def _validator():
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


def parse(stdout: bytes) -> tuple[dict | None, str | None]:
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
    except ValueError as exc:
        return None, f"standard output is not one JSON value ({exc.msg} at character {exc.pos})"
    errors = sorted(_validator().iter_errors(value), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "the verdict"
        rule = json.dumps(errors[0].validator_value, ensure_ascii=True)
        return None, f"not in the verdict's form at {where} ({errors[0].validator}: {rule[:120]})"
    return value, None


def _fixtures(items: list[dict]) -> list[tuple]:
    return sorted((f["name"], f["replay"], f.get("reason")) for f in items)


def _entries(expected: list[dict], got: list[dict]) -> list[str]:
    out = []
    want = {e["id"]: e for e in expected}
    have: dict[str, dict] = {}
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


def _show(fixtures: list[dict]) -> str:
    return ", ".join(f"{f['name']} {f['replay']}" + (f" ({f['reason']})" if f.get("reason") else "")
                     for f in fixtures) or "none"


def compared_codes(codes: list[str], strictness: str, rfc: frozenset[str]) -> list[str]:
    """The codes a case compares: RFC-named ones always, every code in a `strictness: project` case."""
    return sorted({c for c in codes if strictness == "project" or c in rfc})


def compare(case: dict, verdict: dict, rfc: frozenset[str]) -> Outcome:
    """Hold a consumer's verdict to the case's expectation: `result`, `history` (where stated), `entries`
    and the compared codes must match, and `withdrawn`/`changed` where the case states them."""
    if "notApplicable" in verdict:
        if case["reader"] == "specification" or case["strictness"] == "project":
            return Outcome(NOT_APPLICABLE, "not applicable")
        return Outcome(DISAGREE, "not applicable", [
            "reported not applicable, but the case assumes any reader and holds no rule stricter than the RFC's"])
    expected = case["expected"]
    out = []
    if verdict["result"] != expected["result"]:
        out.append(f"result is {verdict['result']}, expected {expected['result']}")
    got = compared_codes(verdict["codes"], case["strictness"], rfc)
    want = compared_codes(expected["codes"], case["strictness"], rfc)
    if got != want:
        out.append(f"codes compared are [{', '.join(got)}], expected [{', '.join(want)}]")
    if "history" in expected and verdict["history"] != expected["history"]:
        out.append(f"history is {verdict['history']}, expected {expected['history']}")
    out += _entries(expected["entries"], verdict["entries"])
    for member in ("withdrawn", "changed"):
        if member in expected and sorted(verdict.get(member, [])) != sorted(expected[member]):
            out.append(f"{member} is [{', '.join(sorted(verdict.get(member, [])))}], expected "
                       f"[{', '.join(sorted(expected[member]))}]")
    summary = verdict["result"] + (f" [{', '.join(got)}]" if got else "")
    return Outcome(DISAGREE if out else AGREE, summary, out)
