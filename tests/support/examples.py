"""Example kind-dialect entries (tests/examples/), kept out of the manifest, built with the test gateway.

`python -m tests.support.examples` rewrites tests/examples/; tests/verifier/test_examples.py holds
the committed bytes to what this builds and replays every fixture. The preparations are this
package's own (recorder.py): the examples show self-consistency and give the gate something to
replay, not independent evidence.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judgment_exchange.canon import canon, canonical_digest

from .gateway import Gateway
from .recorder import record, write_fixture

ROOT = Path(__file__).resolve().parents[1] / "examples"
AT = "2026-10-01T12:00:00Z"
ASSERTION = (
    "The author asserts that these rules derive these facts and this evidence-availability from records of "
    "that shape, or these arguments from that disposition, and asserts nothing about any record's truth."
)


@dataclass
class Inputs:
    """A fixture's inputs before recording: the case, the acquisitions, the trusted profiles, a binding document."""

    case: Any
    acquisitions: dict
    profiles: list
    binding: Any = None
    at: str = AT

    def record(self, dialect: Any) -> dict[str, bytes]:
        return record(dialect, self.case, self.acquisitions, self.profiles, self.at, self.binding)


def _always(reason: str, evidence: dict | None = None, status: str = "unknown") -> dict:
    return {"when": {"op": "always"}, "claim": {"facts": [], "evidence": evidence or {}, "acquisitionStatus": status},
            "reason": reason}


def mcp_v2(gateway: Gateway) -> tuple[dict, list[tuple[str, Inputs]]]:
    """Version 2, two operations over mcp: a rule, then a copy whose parameter comes from the first."""
    profile = gateway.profile("vendors", tools=["approvals", "lookup"])
    digest = canonical_digest(profile)
    dialect = {
        "version": 2,
        "case": {"parameters": {"vendorId": {"pointer": "/vendorId", "type": "integer"}},
                 "facts": [{"target": "/case/requestor", "source": "/requestor"}], "evidence": []},
        "sources": [
            {"name": "vendor", "kind": "operation", "profile": "vendors", "profileDigest": digest, "maxAge": 300,
             "arguments": {"tool": "lookup", "arguments": {"id": {"$param": "vendorId"}}},
             "read": {"rule": {"ruleVersion": "1", "parameters": {"vendorId": "integer", "runAt": "timestamp"},
                               "clauses": [
                                   {"when": {"op": "all", "of": [
                                       {"op": "equalsParam", "field": "/id", "param": "vendorId"},
                                       {"op": "exists", "field": "/approver"}]},
                                    "claim": {"facts": [{"pointer": "/vendor/approver", "from": "/approver"},
                                                        {"pointer": "/vendor/tier", "from": "/tier"}],
                                              "evidence": {"vendor-record": "present"},
                                              "acquisitionStatus": "resolved"},
                                    "reason": "matched"},
                                   _always("no-match", {"vendor-record": "unknown"})]}}},
            {"name": "approval", "kind": "operation", "profile": "vendors", "profileDigest": digest, "maxAge": 300,
             "parameters": {"approver": {"from": "vendor", "pointer": "/vendor/approver", "type": "string"}},
             "arguments": {"tool": "approvals", "arguments": {"approver": {"$param": "approver"},
                                                               "note": {"$text": "vendor {{vendorId}}"}}},
             "read": {"copy": {"facts": [{"target": "/approval", "source": "/decision"}],
                               "evidence": [{"requirement": "approval-record", "source": "/availability"}]}}},
        ],
        "provider": "", "facts": None, "evidence": None,
    }
    fixtures = []
    for name, case, vendor, approval in (
        ("approved", {"vendorId": 7, "requestor": "ops-team"},
         {"id": 7, "approver": "dana", "tier": 2}, {"decision": "approved", "availability": "present"}),
        ("unmatched", {"vendorId": 8, "requestor": "ops-team"}, {"id": 9}, None),
    ):
        gw = Gateway(seed=gateway.seed)
        acquisitions = {"vendor": gw.acquire(profile, {"arguments": {"id": case["vendorId"]}, "tool": "lookup"},
                                             vendor, AT)}
        if approval is not None:
            request = {"tool": "approvals", "arguments": {"approver": vendor["approver"],
                                                          "note": f"vendor {case['vendorId']}"}}
            acquisitions["approval"] = gw.acquire(profile, request, approval, AT)
        fixtures.append((name, Inputs(case, acquisitions, [profile])))
    return dialect, fixtures


def calculator_v2(gateway: Gateway) -> tuple[dict, list[tuple[str, Inputs]]]:
    """Version 2, a calculator's operation (§7): its inputs echoed, its table reported."""
    profile = gateway.profile("fx", tools=["convert"], calculator={"name": "fx-convert", "version": "2.1.0"})
    dialect = {
        "version": 2,
        "case": {"parameters": {"amount": {"pointer": "/amount", "type": "integer"},
                                "currency": {"pointer": "/currency", "type": "string"}},
                 "facts": [], "evidence": []},
        "sources": [
            {"name": "exposure", "kind": "operation", "profile": "fx", "profileDigest": canonical_digest(profile),
             "maxAge": 300,
             "arguments": {"tool": "convert", "arguments": {"amount": {"$param": "amount"},
                                                            "currency": {"$param": "currency"}}},
             "calculation": {"inputs": {"amount": "amount", "currency": "currency"}, "tables": {"rates": 86400}},
             "read": {"rule": {"ruleVersion": "1", "parameters": {"amount": "integer"}, "clauses": [
                 {"when": {"op": "all", "of": [{"op": "equalsParam", "field": "/calculation/inputs/amount",
                                                "param": "amount"},
                                               {"op": "exists", "field": "/result/amountEur"}]},
                  "claim": {"facts": [{"pointer": "/exposure/eur", "from": "/result/amountEur"}],
                            "evidence": {"exposure-calculation": "present"}, "acquisitionStatus": "resolved"},
                  "reason": "converted"},
                 _always("no-result", {"exposure-calculation": "unknown"})]}}},
        ],
        "provider": "", "facts": None, "evidence": None,
    }
    fixtures = []
    for name, status, extra in (("computed", "computed", {"result": {"amountEur": 1104}}),
                                ("cannot-compute", "cannot-compute", {})):
        case = {"amount": 1200, "currency": "USD"}
        answer = {"calculation": {"calculator": {"name": "fx-convert", "version": "2.1.0"}, "status": status,
                                  "inputs": {"amount": 1200, "currency": "USD"},
                                  "asOf": {"rates": "2026-10-01T06:00:00Z"}}, **extra}
        gw = Gateway(seed=gateway.seed)
        request = {"tool": "convert", "arguments": {"amount": 1200, "currency": "USD"}}
        fixtures.append((name, Inputs(case, {"exposure": gw.acquire(profile, request, answer, AT)}, [profile])))
    return dialect, fixtures


def http_unbound_v3(gateway: Gateway) -> tuple[dict, list[tuple[str, Inputs]]]:
    """Version 3, an unbound operation over http (§4.4), bound by each fixture's binding.json."""
    profile = gateway.profile("tracker", shape="http", adapter="adapter-http", endpoint="https://tracker.example.org/",
                              source="tracker/live")
    dialect = {
        "version": 3,
        "case": {"parameters": {"ticket": {"pointer": "/ticket", "type": "string"}}, "facts": [], "evidence": []},
        "sources": [
            {"name": "ticket", "kind": "operation", "platform": "tracker", "operation": "get-ticket",
             "shape": "http", "record": "adapter-http", "maxAge": 600,
             "arguments": {"method": "GET", "path": "/api/tickets", "query": {"id": {"$param": "ticket"}}},
             "read": {"unwrap": ["/body"],
                      "copy": {"facts": [{"target": "/ticket/status", "source": "/status"}],
                               "evidence": [{"requirement": "ticket-record", "source": "/availability"}]}}},
        ],
    }
    binding = {"dialect": canonical_digest(dialect),
               "sources": {"ticket": {"profile": "tracker", "profileDigest": canonical_digest(profile)}}}
    case = {"ticket": "T-1042"}
    request = {"method": "GET", "path": "/api/tickets", "query": {"id": "T-1042"}}
    result = {"status": 200, "body": json.dumps({"status": "open", "availability": "present"})}
    acquisitions = {"ticket": Gateway(seed=gateway.seed).acquire(profile, request, result, AT)}
    return dialect, [("open", Inputs(case, acquisitions, [profile], binding))]


def research_v3(gateway: Gateway) -> tuple[dict, list[tuple[str, Inputs]]]:
    """Version 3, a research source asking for answer, search and page, published unbound and bound by binding.json."""
    ai = gateway.profile("ai", shape="http", klass="generated", adapter="adapter-ai", source="ai/answers",
                         endpoint="https://ai.example.org/v1",
                         research={"capabilities": ["answer"], "model": "model-x"})
    search = gateway.profile("search", shape="http", klass="generated", adapter="adapter-search",
                             source="web/search", endpoint="https://search.example.org/",
                             research={"capabilities": ["search"]})
    pages = gateway.profile("pages", shape="http", klass="generated", adapter="adapter-web", source="web/pages",
                            endpoint=None, endpointScope=["https://www.example.com/"],
                            research={"capabilities": ["page"]})
    fields = [
        {"name": "company-id", "type": "text", "required": True, "description": "The company's identifier."},
        {"name": "employee-count", "type": "integer", "required": True, "description": "Employees, a count."},
        {"name": "revenue", "type": "decimal", "required": False, "description": "Annual revenue in millions."},
        {"name": "active", "type": "boolean", "required": True, "description": "Whether the company trades."},
        {"name": "roles", "type": "text-list", "required": False, "description": "Roles the company hires for."},
        {"name": "employee-range", "type": "range", "required": False, "description": "The headcount band."},
    ]
    dialect = {
        "version": 3,
        "case": {"parameters": {"company": {"pointer": "/company", "type": "string"}}, "facts": [], "evidence": []},
        "sources": [
            {"name": "company", "kind": "research", "maxAge": 3600,
             "question": {"$param": "company"}, "constraints": {"language": "en"}, "model": "model-x",
             "evidence": ["the company's own site"], "fields": fields, "capabilities": ["answer", "search", "page"],
             "read": {"rule": {"ruleVersion": "1", "parameters": {}, "clauses": [
                 {"when": {"op": "all", "of": [{"op": "equals", "field": "/fields/employee-count/status",
                                                "to": "found"},
                                               {"op": "isTrue", "field": "/fields/active/value"}]},
                  "claim": {"facts": [{"pointer": "/company/employees", "from": "/fields/employee-count/value"},
                                      {"pointer": "/company/roles", "from": "/fields/roles/value"}],
                            "evidence": {"company-research": "present"}, "acquisitionStatus": "resolved"},
                  "reason": "found-active"},
                 _always("not-found", {"company-research": "unknown"})]}}},
        ],
        "admits": {"facts": {"/company/employees": ["generated"], "/company/roles": ["generated"]},
                   "evidence": {"company-research": ["generated"]}},
    }
    binding = {"dialect": canonical_digest(dialect), "sources": {"company": {
        "profile": "ai", "profileDigest": canonical_digest(ai), "webProfiles": {
            "search": {"profile": "search", "profileDigest": canonical_digest(search)},
            "page": {"profile": "pages", "profileDigest": canonical_digest(pages)}}}}}
    gw = Gateway(seed=gateway.seed)
    retained = []
    for profile, request, result, endpoint in (
        (search, {"query": "Northwind Analytics"}, {"links": ["https://www.example.com/about"]}, "profile"),
        (pages, {"url": "https://www.example.com/about?lang=en"}, {"text": "Northwind employs 120 people."},
         "https://www.example.com/about"),
        (ai, {"model": "model-x", "prompt": "Northwind Analytics"}, {"answer": "120 employees, active"}, "profile"),
    ):
        answer = gw.acquire(profile, request, result, AT, endpoint=endpoint)["response"]
        retained.append({"profile": {"id": profile["id"], "digest": canonical_digest(profile)}, "request": request,
                         **answer})
    record_fields = {
        "company-id": {"status": "found", "cites": [1], "value": "northwind"},
        "employee-count": {"status": "found", "cites": [1, 2], "value": 120},
        "revenue": {"status": "conflicting", "cites": [], "values": [{"value": "12.5", "cites": [2]},
                                                                      {"value": "12.50", "cites": [1]}]},
        "active": {"status": "found", "cites": [2], "value": True},
        "roles": {"status": "found", "cites": [1], "value": ["analyst", ""]},
        "employee-range": {"status": "stale", "cites": []},
    }
    acquisitions = {"company": {"response": {"result": {"fields": record_fields, "responses": retained}}}}
    case = {"company": "Northwind Analytics"}
    return dialect, [("found", Inputs(case, acquisitions, [ai, search, pages], binding))]


EXAMPLES = {
    "examples.mcp-v2": (mcp_v2, 2),
    "examples.calculator-v2": (calculator_v2, 2),
    "examples.http-unbound-v3": (http_unbound_v3, 3),
    "examples.research-v3": (research_v3, 3),
}


def _pretty(value: Any) -> bytes:
    return (json.dumps(json.loads(canon(value)), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def build(root: Path = ROOT) -> list[Path]:
    """Write every example entry under root; the entry directories."""
    gateway = Gateway()
    written = []
    for entry_id, (make, version) in EXAMPLES.items():
        dialect, fixtures = make(gateway)
        path = root / entry_id.split(".", 1)[1]
        if path.exists():
            shutil.rmtree(path)
        path.mkdir(parents=True)
        (path / "dialect.json").write_bytes(_pretty(dialect))
        rows = []
        for name, inputs in fixtures:
            rows.append({"name": name, "path": f"fixtures/{name}",
                         "preparationDigest": write_fixture(path / "fixtures" / name, inputs.record(dialect))})
        entry = {"entryVersion": 3, "kind": "dialect", "id": entry_id, "title": f"Example {entry_id}",
                 "direction": "input", "pack": {"id": "https://packs.example.org/example", "versions": "0.1.0"},
                 "dialect": {"path": "dialect.json", "dialectVersion": version, "digest": canonical_digest(dialect)},
                 "requires": {}, "sourceKinds": sorted({s["kind"] for s in dialect["sources"]}),
                 "licence": "Apache-2.0", "author": "example-publisher",
                 "assertion": ASSERTION, "fixtures": rows, "verification": []}
        (path / "entry.json").write_bytes(_pretty(entry))
        (path / "README.md").write_text(f"# {entry_id}\n\n{make.__doc__}\n\n"
                                        "A synthetic example for the verifier's tests: "
                                        "its receipts are signed with the gateway corpus's published test key, and its "
                                        "preparations were recorded by this repository's own verifier.\n",
                                        encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for built in build():
        print(built)
