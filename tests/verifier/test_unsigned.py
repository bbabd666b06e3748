"""unsignedParameters and unsignedFreshness (dialect §11, "The reading"), against a hand-worked example.

Five sources: s1's rule reads the case parameter vendorId, which its request does not carry (case);
s2 reads prev, from s1, which has an entry with a case parameter (upstream); s3 reads runAt and
window, and its request carries window whole (runAt); s4 reads p3, from s3, whose entry is all runAt
(upstream-runAt); s5 reads p1 (upstream) and vendorId, which its request carries only in a $text
that names window too (ambiguous-text). The expectations below were worked by hand from the text.
"""

from __future__ import annotations

from judgment_exchange.canon import canon, canonical_digest
from judgment_exchange.verifier import Reading, verify
from judgment_exchange.verifier.verify import Documents

from ..support.examples import AT
from ..support.gateway import Gateway
from ..support.recorder import record


def _rule(params: dict, when: dict, target: str) -> dict:
    return {"ruleVersion": "1", "parameters": params, "clauses": [
        {"when": when, "claim": {"facts": [{"pointer": target, "from": "/next"}], "evidence": {},
                                 "acquisitionStatus": "resolved"}, "reason": "ok"},
        {"when": {"op": "always"}, "claim": {"facts": [], "evidence": {}, "acquisitionStatus": "unknown"},
         "reason": "no"}]}


def _source(name: str, digest: str, arguments: dict, rule: dict, parameters: dict | None = None) -> dict:
    out = {"name": name, "kind": "operation", "profile": "p", "profileDigest": digest, "maxAge": 300,
           "arguments": {"tool": "lookup", "arguments": arguments}, "read": {"rule": rule}}
    if parameters:
        out["parameters"] = parameters
    return out


def test_hand_worked_unsigned_parameters():
    gateway = Gateway()
    profile = gateway.profile("p", tools=["lookup"])
    digest = canonical_digest(profile)
    eq = lambda field, param: {"op": "equalsParam", "field": field, "param": param}  # noqa: E731
    sources = [
        _source("s1", digest, {}, _rule({"vendorId": "integer"}, eq("/id", "vendorId"), "/s1/next")),
        _source("s2", digest, {}, _rule({"prev": "string"}, eq("/key", "prev"), "/s2/next"),
                {"prev": {"from": "s1", "pointer": "/s1/next", "type": "string"}}),
        _source("s3", digest, {"w": {"$param": "window"}},
                _rule({"runAt": "timestamp", "window": "integer"},
                      {"op": "freshWithin", "field": "/at", "asOf": "runAt", "maxAge": "window"}, "/s3/next")),
        _source("s4", digest, {}, _rule({"p3": "string"}, eq("/key", "p3"), "/s4/next"),
                {"p3": {"from": "s3", "pointer": "/s3/next", "type": "string"}}),
        _source("s5", digest, {"note": {"$text": "{{vendorId}}-{{window}}"}},
                _rule({"p1": "string", "vendorId": "integer"},
                      {"op": "all", "of": [eq("/key", "p1"), eq("/id", "vendorId")]}, "/s5/next"),
                {"p1": {"from": "s1", "pointer": "/s1/next", "type": "string"}}),
    ]
    dialect = {"version": 2, "case": {"parameters": {"vendorId": {"pointer": "/id", "type": "integer"},
                                                     "window": {"pointer": "/window", "type": "integer"}},
                                      "facts": [], "evidence": []},
               "sources": sources, "provider": "", "facts": None, "evidence": None}
    case = {"id": 7, "window": 600}
    requests_results = [
        ({}, {"id": 7, "next": "a"}), ({}, {"key": "a", "next": "b"}), ({"w": 600}, {"at": AT, "next": "c"}),
        ({}, {"key": "c", "next": "d"}), ({"note": "7-600"}, {"id": 7, "key": "a", "next": "e"}),
    ]
    acquisitions = {f"s{i + 1}": gateway.acquire(profile, {"tool": "lookup", "arguments": request}, result, AT)
                    for i, (request, result) in enumerate(requests_results)}
    files = record(dialect, case, acquisitions, [profile], AT)
    answer = verify(Documents(dialect=canon(dialect), case=files["case.json"], acquisitions=files["sources.json"],
                              profiles=files["profiles.json"], preparation=files["preparation.json"]))
    assert isinstance(answer, Reading)
    assert answer.facts == {"s1": {"next": "a"}, "s2": {"next": "b"}, "s3": {"next": "c"}, "s4": {"next": "d"},
                            "s5": {"next": "e"}}
    assert answer.unsigned_parameters == [
        {"source": "s1", "parameters": [{"name": "vendorId", "kind": "case"}], "targets": 1},
        {"source": "s2", "parameters": [{"name": "prev", "kind": "upstream"}], "targets": 1},
        {"source": "s3", "parameters": [{"name": "runAt", "kind": "runAt"}], "targets": 1},
        {"source": "s4", "parameters": [{"name": "p3", "kind": "upstream-runAt"}], "targets": 1},
        {"source": "s5",
         "parameters": [{"name": "p1", "kind": "upstream"}, {"name": "vendorId", "kind": "ambiguous-text"}],
         "targets": 1},
    ]
    assert answer.unsigned_freshness == {
        "against": "preparation.verifiedAt", "verifiedAt": AT,
        "sources": [{"source": f"s{i}", "checks": ["acquisition"], "targets": 1} for i in range(1, 6)],
    }
    assert answer.targets_by_class == {"asserted": 0, "record": 5, "generated": 0}
