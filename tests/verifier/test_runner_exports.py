"""The verifier against the reference Runner's real exports (shared/vectors/runner-exports/): independent evidence.

Each export's mapping, case, sources, trusted profiles and sample.preparation are the inputs; the
answer is a reading whose facts and evidence are the export's, and whose recomputed preparation is
sample.preparation byte for byte in §9.5's form. The worked values of receipts-and-canon.md §10
(keyIds, commitments, digests) are expectations written down from real data, not by this code.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from judgment_exchange.canon import canon, canonical_digest, digest, preparation_form
from judgment_exchange.jsonstrict import Bounds, loads
from judgment_exchange.keys import key_id
from judgment_exchange.verifier import Documents, Found, Reading, verify
from judgment_exchange.verifier.receipts import commitment
from judgment_exchange.verifier.record import raw_member
from judgment_exchange.verifier.verify import prepare

EXPORTS = Path(__file__).resolve().parents[2] / "tests" / "vectors" / "runner-exports"
NAMES = ["mapping-v2-unsigned-parameters", "mapping-v2-before-calculators"]


def export(name: str) -> dict:
    text = (EXPORTS / name / "run.json").read_bytes()
    run = loads(text, Bounds(max_bytes=10**7))
    return {"run": run, "text": text.decode("utf-8"), "profiles": (EXPORTS / name / "profiles.json").read_bytes()}


def documents(data: dict, **changes) -> Documents:
    sample = data["run"]["release"]["sample"]
    source = sample["source"]
    fields = dict(
        dialect=canon(source["mapping"]), case=canon(source["case"]), acquisitions=canon(source["sources"]),
        profiles=data["profiles"], preparation=preparation_form(sample["preparation"]),
    )
    fields.update(changes)
    return Documents(**fields)


def audit_line(data: dict) -> bytes:
    return raw_member(raw_member(data["text"], "run"), "audit").encode("utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_export_reads(name):
    data = export(name)
    sample = data["run"]["release"]["sample"]
    answer = verify(documents(data))
    assert isinstance(answer, Reading), answer
    assert canon(answer.facts) == canon(sample["facts"])
    assert canon(answer.evidence) == canon(sample["evidence"])
    assert preparation_form(answer.preparation) == preparation_form(sample["preparation"])
    assert answer.digest == digest(preparation_form(sample["preparation"]))
    assert answer.binding == "not-checked"


@pytest.mark.parametrize("name", NAMES)
def test_export_preparation_recomputed_whole(name):
    data = export(name)
    result, _ = prepare(documents(data))
    assert preparation_form(result.preparation) == preparation_form(data["run"]["release"]["sample"]["preparation"])
    assert result.preparation["mappingDigest"] == data["run"]["release"]["sample"]["source"]["mappingDigest"]


@pytest.mark.parametrize("name", NAMES)
def test_export_record_has_no_binding(name):
    data = export(name)
    answer = verify(documents(data, record=audit_line(data)))
    assert isinstance(answer, Reading) and answer.binding == "absent"
    required = verify(documents(data, record=audit_line(data), require_binding=True))
    assert isinstance(required, Found) and required.code == "unbound"


def test_worked_values_of_unsigned_parameters():
    """receipts-and-canon.md §10, real data of mapping-v2-unsigned-parameters."""
    data = export("mapping-v2-unsigned-parameters")
    profile = json.loads(data["profiles"])[0]
    assert key_id(profile["publicKey"]) == "725d49089b2cb5290cd137a8bfc97219"
    assert canonical_digest(loads(data["profiles"], Bounds(65536))[0]) == \
        "sha256:f6cd7766f3e33d51a8baa15a9cafce48452d6bbbe9551644bb854949a3d51e89"
    request = {"arguments": {"sql": "SELECT *, 86400 AS window FROM vendors WHERE id = 7"}, "tool": "execute_sql"}
    assert commitment("01" * 32, request) == "sha256:b86f1faf7e4bfa0c93953e250f47dab640addbbba350a81b62a294a5734d634c"
    assert commitment("02" * 32, {"arguments": {}, "tool": "lookup"}) == \
        "sha256:dc0d226e6aa79424e3e86202ba27d5dc72222779f99de15a69c89532a2c8f641"
    assert digest(canon({"id": 7, "region": "north"})) == \
        "sha256:be44eaa2306496b77331fc4fd7a8680f1a7a55f89324693cde8e94b739e5a6ac"
    result, _ = prepare(documents(data))
    outcome = {o["name"]: o for o in result.preparation["outcomes"]}
    assert canon(outcome["vendor"]["arguments"]) == canon(request)
    assert result.preparation["mappingDigest"] == (
        "sha256:c066f59a34467c5cd5e254380938a3544e5615e067b93a9a7bb4f409bd200cc9")


def test_worked_values_of_before_calculators():
    data = export("mapping-v2-before-calculators")
    profile = json.loads(data["profiles"])[0]
    assert key_id(profile["publicKey"]) == "603b75370cb211cf5e48727c5f2dfc20"
    result, _ = prepare(documents(data))
    assert {e["readDigest"] for e in result.preparation["lineage"]} == \
        {"sha256:c2800db6e596ce4a1525154463569874e305ddc932ad8ddda43c7b7a39b972f4"}


def _mutated(name: str, change) -> Documents:
    data = export(name)
    source = copy.deepcopy(data["run"]["release"]["sample"]["source"])
    profiles = json.loads(data["profiles"])
    change(source, profiles)
    return documents(data, dialect=canon(source["mapping"]), case=canon(source["case"]),
                     acquisitions=canon(source["sources"]), profiles=json.dumps(profiles).encode())


def _response(source: dict, name: str = "vendor") -> dict:
    return source["sources"][name]["response"]


CHANGES = {
    "receipt": (lambda s, p: _response(s)["receipt"].update(snapshot="query-124"), "acquisition-invalid"),
    "receipt-signature": (lambda s, p: _response(s)["receipt"].update(
        signature=_response(s)["receipt"]["signature"][:-1] + "0"), "acquisition-invalid"),
    "result": (lambda s, p: _response(s)["result"].update(id=8), "acquisition-invalid"),
    "request": (lambda s, p: s["mapping"]["sources"][0]["arguments"]["arguments"]["sql"].update(
        {"$text": "SELECT * FROM vendors WHERE id = {{vendorId}}"}), "acquisition-invalid"),
    "salt": (lambda s, p: _response(s)["salts"].update(args="03" * 32), "acquisition-invalid"),
    "profile": (lambda s, p: p[0].update(endpoint="postgresql://vendor-records-2"), "profile-mismatch"),
    "profile-key": (lambda s, p: p[0].update(
        publicKey="3ab28df3385ece02a6eb5f71c9ce6e2b568c03df7b7d0cbf46fb8e2e4d8bd4bd"), "profile-mismatch"),
}


@pytest.mark.parametrize("what", sorted(CHANGES))
def test_changed_byte_gives_the_finding_of_section_5_2(what):
    change, code = CHANGES[what]
    answer = verify(_mutated("mapping-v2-unsigned-parameters", change))
    assert isinstance(answer, Found) and answer.code == code, answer


def test_changed_instant_is_stale():
    data = export("mapping-v2-unsigned-parameters")
    preparation = copy.deepcopy(data["run"]["release"]["sample"]["preparation"])
    preparation["verifiedAt"] = "2026-10-01T21:59:31Z"
    answer = verify(documents(data, preparation=preparation_form(preparation)))
    assert isinstance(answer, Found) and answer.code == "acquisition-stale"
    preparation["verifiedAt"] = "2026-10-01T21:59:30Z"
    answer = verify(documents(data, preparation=preparation_form(preparation)))
    assert isinstance(answer, Found) and answer.code == "preparation-differs"


def _stdlib_digest(value) -> str:
    """A second computation of a canon digest for in-domain values (receipts-and-canon.md §1)."""
    import hashlib

    data = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _reauthored(shape) -> tuple[dict, dict, dict | None]:
    """The unsigned-parameters export's mapping re-authored (as plain JSON), its preparation re-pinned."""
    run = json.loads((EXPORTS / "mapping-v2-unsigned-parameters" / "run.json").read_text(encoding="utf-8"))
    sample = run["release"]["sample"]
    mapping = copy.deepcopy(sample["source"]["mapping"])
    for legacy in ("provider", "facts", "evidence"):
        mapping.pop(legacy)
    binding = None
    preparation = copy.deepcopy(sample["preparation"])
    if shape == "named":
        mapping.pop("version")
        mapping.update({"formatVersion": "2.0.0", "id": "urn:judgmentpack:dialect:vendors", "version": "0.1.0"})
        bound = mapping
    else:
        mapping["version"] = 3
        preparation["version"] = 3
        bound = copy.deepcopy(mapping)
        if shape == "unbound":
            profiles = {}
            for source in mapping["sources"]:
                profiles[source["name"]] = {"profile": source.pop("profile"),
                                            "profileDigest": source.pop("profileDigest")}
                source.update({"platform": "postgres", "operation": f"read-{source['name']}", "shape": "mcp",
                               "record": "dbhub"})
            binding = {"dialect": _stdlib_digest(mapping), "sources": profiles}
    preparation["mappingDigest"] = _stdlib_digest(bound)
    return mapping, preparation, binding


@pytest.mark.parametrize("shape", ["named", "version-3", "unbound"])
def test_reauthored_export_reads(shape):
    """The Runner's preparation, re-pinned to the re-authored dialect's digest (§2.1, §4.4), still reads."""
    mapping, preparation, binding = _reauthored(shape)
    data = export("mapping-v2-unsigned-parameters")
    docs = documents(data, dialect=json.dumps(mapping).encode(), preparation=json.dumps(preparation).encode(),
                     binding=json.dumps(binding).encode() if binding is not None else None)
    answer = verify(docs)
    assert isinstance(answer, Reading), answer


def test_unbound_export_with_another_adapter_is_profile_mismatch():
    mapping, preparation, binding = _reauthored("unbound")
    mapping["sources"][1]["record"] = "other-adapter"
    binding["dialect"] = _stdlib_digest(mapping)
    data = export("mapping-v2-unsigned-parameters")
    answer = verify(documents(data, dialect=json.dumps(mapping).encode(), preparation=json.dumps(preparation).encode(),
                              binding=json.dumps(binding).encode()))
    assert isinstance(answer, Found) and answer.code == "profile-mismatch"
