"""Fixtures replayed per second by the built-in verifier, for a small and for a maximal fixture.

Small: tests/examples/mcp-v2/fixtures/approved (a case and two operations over mcp).
Maximal: 16 sources (§12's maximum) in a version-3 dialect: 15 operations, each a rule over a
receipt signed by the test gateway, every one after the first taking a source parameter from the
one before; and a research source with 64 retained responses (§12's maximum), each with its own
receipt. Run: python benchmarks/verify_bench.py [seconds]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.examples import AT  # noqa: E402
from tests.support.gateway import Gateway  # noqa: E402
from tests.support.recorder import record  # noqa: E402

from judgment_exchange.canon import canonical_digest  # noqa: E402
from judgment_exchange.verifier import replay_fixture  # noqa: E402


def small() -> tuple[bytes, dict[str, bytes]]:
    entry = ROOT / "tests" / "examples" / "mcp-v2"
    fixture = entry / "fixtures" / "approved"
    return (entry / "dialect.json").read_bytes(), {p.name: p.read_bytes() for p in fixture.iterdir()}


def maximal(count: int = 15, responses: int = 64) -> tuple[bytes, dict[str, bytes]]:
    gateway = Gateway()
    profile = gateway.profile("records", tools=["lookup"])
    ai = gateway.profile("ai", shape="http", klass="generated", adapter="adapter-ai", endpoint="https://ai.example.org/",
                         research={"capabilities": ["answer"], "model": "model-x"})
    digest = canonical_digest(profile)
    sources, acquisitions = [], {}
    for i in range(count):
        name = f"s{i:02d}"
        parameters = {} if i == 0 else {"previous": {"from": f"s{i - 1:02d}", "pointer": f"/s{i - 1:02d}/next",
                                                     "type": "string"}}
        arguments = {"id": {"$param": "vendorId"}} if i == 0 else {"id": {"$param": "previous"}}
        rule = {
            "ruleVersion": "1",
            "parameters": {"runAt": "timestamp", "window": "integer"},
            "clauses": [
                {
                    "when": {
                        "op": "all",
                        "of": [
                            {"op": "exists", "field": "/next"},
                            {"op": "freshWithin", "field": "/observedAt", "asOf": "runAt", "maxAge": "window"},
                        ],
                    },
                    "claim": {
                        "facts": [
                            {"pointer": f"/{name}/next", "from": "/next"},
                            {"pointer": f"/{name}/rows", "from": "/rows"},
                        ],
                        "evidence": {f"{name}-record": "present"},
                        "acquisitionStatus": "resolved",
                    },
                    "reason": "found",
                },
                {
                    "when": {"op": "always"},
                    "claim": {"facts": [], "evidence": {f"{name}-record": "unknown"}, "acquisitionStatus": "unknown"},
                    "reason": "none",
                },
            ],
        }
        source = {"name": name, "kind": "operation", "profile": "records", "profileDigest": digest, "maxAge": 300,
                  "arguments": {"tool": "lookup", "arguments": arguments}, "read": {"rule": rule}}
        if parameters:
            source["parameters"] = parameters
        sources.append(source)
        request = {"tool": "lookup", "arguments": {"id": 7 if i == 0 else f"key-{i - 1}"}}
        result = {"next": f"key-{i}", "observedAt": AT, "rows": [{"row": r, "text": "x" * 64} for r in range(32)]}
        acquisitions[name] = gateway.acquire(profile, request, result, AT)
    fields = [{"name": f"f{i}", "type": "text", "required": True, "description": "a field"} for i in range(8)]
    sources.append({
        "name": "research", "kind": "research", "maxAge": 3600, "question": "who?", "constraints": {},
        "model": "model-x", "evidence": ["pages"], "fields": fields, "capabilities": ["answer"],
        "profile": "ai", "profileDigest": canonical_digest(ai), "webProfiles": {},
        "read": {"copy": {"facts": [{"target": "/research", "source": "/fields"}], "evidence": []}}})
    retained = []
    for i in range(responses):
        request = {"prompt": f"question {i}"}
        answer = gateway.acquire(ai, request, {"answer": "y" * 512, "index": i}, AT)["response"]
        retained.append({"profile": {"id": "ai", "digest": canonical_digest(ai)}, "request": request, **answer})
    answers = {
        f"f{i}": {"status": "found", "cites": list(range(i, responses, 8)), "value": f"value {i}"} for i in range(8)
    }
    acquisitions["research"] = {"response": {"result": {"fields": answers, "responses": retained}}}
    dialect = {"version": 3, "case": {"parameters": {"vendorId": {"pointer": "/id", "type": "integer"},
                                                     "window": {"pointer": "/window", "type": "integer"}},
                                      "facts": [], "evidence": []},
               "sources": sources, "admits": {"facts": {"/research": ["generated"]}}}
    files = record(dialect, {"id": 7, "window": 3600}, acquisitions, [profile, ai], AT)
    from judgment_exchange.canon import canon
    return canon(dialect), files


def rate(name: str, dialect: bytes, files: dict[str, bytes], seconds: float) -> None:
    answer = replay_fixture(dialect, files)
    assert answer["result"] == "reading", answer
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        replay_fixture(dialect, files)
        count += 1
    elapsed = time.perf_counter() - start
    size = len(dialect) + sum(len(v) for v in files.values())
    print(f"{name}: {count / elapsed:.1f} fixtures replayed per second ({size} bytes of inputs, {count} runs)")


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    rate("small (mcp-v2/approved)", *small(), seconds)
    rate("maximal (16 sources, 64 retained responses)", *maximal(), seconds)


if __name__ == "__main__":
    main()
