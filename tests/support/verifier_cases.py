"""Writes tests/cases/verifier/: one directory per refusal phase and finding, each with a near-miss.

`python -m tests.support.verifier_cases` rewrites the directories. A case directory holds the
verifier's input files (dialect.json, case.json, sources.json, profiles.json, preparation.json,
and binding.json / record.jsonl when given) and expected.json: {"description", "report",
"requireBinding"?}; "report" is the exact §11 report of a refusal or a finding, and for a reading
the members it must have. tests/verifier/test_cases.py reads the directories alone, so a case
written by hand needs no code. Receipts are signed by the test gateway; where a case needs a
preparation, it is recorded by this package (recorder.py), so a reading case shows consistency and
a finding case shows the check named by its code.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any, Callable

from judgment_exchange.canon import canon, canonical_digest, digest, preparation_binding
from judgment_exchange.jsonstrict import Number

from . import examples
from .examples import AT, Inputs
from .gateway import Gateway

ROOT = Path(__file__).resolve().parents[1] / "cases" / "verifier"
WRITTEN: dict[str, dict] = {}


def _files(dialect: Any, inputs: Inputs, preparation: bytes | None = None) -> dict[str, bytes]:
    files = inputs.record(dialect) if preparation is None else {}
    files = dict(files)
    files["dialect.json"] = canon(dialect)
    files.setdefault("case.json", canon(inputs.case))
    files.setdefault("profiles.json", canon(inputs.profiles))
    if inputs.acquisitions:
        files.setdefault("sources.json", canon(inputs.acquisitions))
    if inputs.binding is not None:
        files.setdefault("binding.json", canon(inputs.binding))
    if preparation is not None:
        files["preparation.json"] = preparation
    return files


def case(name: str, description: str, files: dict[str, bytes], report: dict, require_binding: bool = False) -> None:
    expected: dict[str, Any] = {"description": description, "report": report}
    if require_binding:
        expected["requireBinding"] = True
    WRITTEN[name] = {"files": files, "expected": expected}


def refusal(code: str) -> dict:
    return {"result": "refusal", "refusal": code}


def finding(code: str) -> dict:
    return {"result": "finding", "finding": code}


READING = {"result": "reading", "binding": "not-checked"}


def mcp() -> tuple[dict, dict[str, Inputs]]:
    dialect, fixtures = examples.mcp_v2(Gateway())
    return dialect, dict(fixtures)


def base_files() -> tuple[dict, Inputs, dict[str, bytes]]:
    dialect, fixtures = mcp()
    inputs = fixtures["approved"]
    return dialect, inputs, _files(dialect, inputs)


def with_file(files: dict[str, bytes], name: str, data: bytes | None) -> dict[str, bytes]:
    out = dict(files)
    if data is None:
        out.pop(name, None)
    else:
        out[name] = data
    return out


def edited(files: dict[str, bytes], name: str, change: Callable[[Any], Any]) -> dict[str, bytes]:
    value = json.loads(files[name])
    result = change(value)
    return with_file(files, name, canon(result if isinstance(result, (list, dict)) else value))


def nested(levels: int) -> Any:
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


def refusal_cases() -> None:
    dialect, inputs, base = base_files()
    case("reading-base", "the mcp example's recorded fixture reads", base, READING)

    padded = canon(dialect) + b" " * (131072 - len(canon(dialect)))
    case("p1-dialect-at-bound", "a dialect of exactly 131072 bytes is read (§12)",
         with_file(base, "dialect.json", padded), READING)
    case("p1-dialect-over-bound", "a dialect of 131073 bytes is refused before any is read (§11 phase 1)",
         with_file(base, "dialect.json", padded + b" "), refusal("input-over-bound"))
    case("p1-case-nesting-32", "the case document at 32 levels of nesting is read",
         _files(dialect, Inputs({**inputs.case, "deep": nested(31)}, inputs.acquisitions, inputs.profiles)), READING)
    case("p1-case-nesting-33", "the case document at 33 levels is over its bound of 32 (§11 phase 1)",
         edited(base, "case.json", lambda c: {**c, "deep": nested(32)}), refusal("input-over-bound"))
    literal = b'{"requestor":"ops-team","vendorId":7,"x":1e308}'
    case("p1-exponent-308", "an exponent of magnitude 308 is within §12's bound",
         with_file(base, "case.json", literal), READING)
    case("p1-exponent-309", "an exponent of magnitude 309 is over §12's bound (§11 phase 1)",
         with_file(base, "case.json", literal.replace(b"1e308", b"1e309")), refusal("input-over-bound"))

    case("p2-duplicate-member", "a member name given twice is not read (§1; §11 phase 2)",
         with_file(base, "case.json", b'{"requestor":"ops-team","vendorId":7,"vendorId":7}'),
         refusal("input-malformed"))
    case("p2-lone-surrogate", "a lone surrogate, even escaped, is not read (§1)",
         with_file(base, "case.json", b'{"requestor":"ops-team","vendorId":7,"x":"\\ud800"}'),
         refusal("input-malformed"))
    case("p2-paired-surrogate", "an escaped surrogate pair is well-formed and read",
         with_file(base, "case.json", b'{"requestor":"ops-team","vendorId":7,"x":"\\ud83d\\ude00"}'), READING)
    case("p2-two-values", "a document of two JSON values is not read (§1)",
         with_file(base, "profiles.json", base["profiles.json"] + b" []"), refusal("input-malformed"))

    deep_result = Inputs(inputs.case, copy.deepcopy(inputs.acquisitions), inputs.profiles)
    profile = inputs.profiles[0]
    gw = Gateway()
    vendor = {"id": 7, "approver": "dana", "tier": 2, "deep": nested(31)}
    deep_result.acquisitions["vendor"] = gw.acquire(profile, {"tool": "lookup", "arguments": {"id": 7}}, vendor, AT)
    deep_result.acquisitions["approval"] = gw.acquire(
        profile, {"tool": "approvals", "arguments": {"approver": "dana", "note": "vendor 7"}},
        {"decision": "approved", "availability": "present"}, AT)
    case("p3-result-nesting-32", "a result nested 32 levels is read", _files(dialect, deep_result), READING)
    case("p3-result-nesting-33", "a result nested 33 levels is over §12's bound (§11 phase 3)",
         edited(base, "sources.json", lambda a: a["vendor"]["response"]["result"].update(deep=nested(32))),
         refusal("input-over-bound"))
    scoped = Gateway().profile("pages", shape="http", adapter="adapter-web", endpoint=None,
                               endpointScope=[f"https://docs{i}.example.org/" for i in range(32)])
    case("p3-scope-32-entries", "a trusted profile with 32 endpointScope entries is read",
         edited(base, "profiles.json", lambda p: p + [scoped]), READING)
    case("p3-scope-33-entries", "33 endpointScope entries are over the bound (§11 phase 3)",
         edited(base, "profiles.json", lambda p: p + [{**scoped, "endpointScope": scoped["endpointScope"] + ["https://x.example.org"]}]),
         refusal("input-over-bound"))

    small = {**profile, "id": "other", "publicKey": "01" + "00" * 31}
    case("p5-profile-small-order-key", "a trusted profile whose key is the identity point is refused by the key rule",
         edited(base, "profiles.json", lambda p: p + [small]), refusal("input-malformed"))
    case("p5-profile-ordinary-key", "a second trusted profile with an ordinary key is read",
         edited(base, "profiles.json", lambda p: p + [{**profile, "id": "other"}]), READING)
    case("p5-profile-unknown-member", "a profile member the form does not list is refused (§5.1 closed form)",
         edited(base, "profiles.json", lambda p: p + [{**profile, "id": "other", "Tools": []}]),
         refusal("input-malformed"))
    case("p5-duplicate-profile-id", "two trusted profiles with one id are refused (reading chosen)",
         edited(base, "profiles.json", lambda p: p + [profile]), refusal("input-malformed"))
    case("p5-salts-uppercase", "salts are lowercase hexadecimal (§1, §5.2)",
         edited(base, "sources.json",
                lambda a: a["vendor"]["response"]["salts"].update(
                    args=a["vendor"]["response"]["salts"]["args"].upper())),
         refusal("input-malformed"))
    case("p5-salts-statement", "salts may carry statement, 64 hexadecimal characters",
         edited(base, "sources.json", lambda a: a["vendor"]["response"]["salts"].update(statement="ab" * 32)), READING)
    case("p5-acquisition-extra-member", "an acquisition is exactly {response}",
         edited(base, "sources.json", lambda a: a["vendor"].update(note="x")), refusal("input-malformed"))
    case("p5-verifiedat-no-instant", "the preparation's verifiedAt must have an instant (2026-02-30 has none)",
         edited(base, "preparation.json", lambda p: p.update(verifiedAt="2026-02-30T12:00:00Z")),
         refusal("input-malformed"))
    case("p5-binding-without-unbound", "a binding document beside a dialect with no unbound source is refused (§4.4)",
         with_file(base, "binding.json", canon({"dialect": canonical_digest(dialect), "sources": {}})),
         refusal("input-malformed"))

    prep = json.loads(base["preparation.json"])
    facts_doc = {"approval": "approved", "case": {"requestor": "ops-team"}, "vendor": {"approver": "dana", "tier": 2}}
    evidence_doc = {"approval-record": "present", "vendor-record": "present"}
    good_binding = preparation_binding(digest(base["preparation.json"])).decode()
    record_line = ('{"kind":"evaluation","inputs":' + json.dumps({"facts": facts_doc, "evidence": evidence_doc})
                   + ',"cites":' + json.dumps(prep["cites"] + prep["cites"]) + ',"binding":' + good_binding + "}")
    case("p5-record-binding-but-for-case", "a record naming Binding is refused, not read as unbound (§11)",
         with_file(base, "record.jsonl", record_line.replace('"binding":', '"Binding":').encode()),
         refusal("input-malformed"))
    case("p2-record-two-lines", "the record is one line (§11 phase 2)",
         with_file(base, "record.jsonl", record_line.replace(',"binding"', ',\n"binding"').encode()),
         refusal("input-malformed"))
    case("f-binding-matches", "a record whose binding is the preparation's bytes; cites given twice are one set member",
         with_file(base, "record.jsonl", record_line.encode()), {"result": "reading", "binding": "matches"})
    case("f6-record-inputs-differ", "the record's inputs.facts is not the facts document (§11 finding 6)",
         with_file(base, "record.jsonl", record_line.replace('"tier": 2', '"tier": 3').encode()),
         finding("record-inputs-differ"))
    case("f6-record-cites-differ", "the record cites another signature (§11 finding 6)",
         with_file(base, "record.jsonl", record_line.replace(prep["cites"][0]["signature"], "0" * 128).encode()),
         finding("record-inputs-differ"))
    case("f7-binding-null", "a binding that is null is carried and not of the binding's form (§11 finding 7)",
         with_file(base, "record.jsonl", record_line.replace(good_binding, "null").encode()),
         finding("binding-foreign-kind"))
    case("f8-binding-whitespace", "the same binding written with a space is not the preparation's bytes (finding 8)",
         with_file(base, "record.jsonl", record_line.replace(good_binding, good_binding.replace(",", ", ")).encode()),
         finding("binding-mismatch"))
    case("f8-binding-other-digest", "a binding of another digest (finding 8)",
         with_file(base, "record.jsonl",
                   record_line.replace(good_binding, preparation_binding("sha256:" + "0" * 64).decode()).encode()),
         finding("binding-mismatch"))
    no_binding = record_line.replace(',"binding":' + good_binding, "")
    case("f9-unbound-no-record", "a binding is required and no record is given (finding 9)", base, finding("unbound"),
         require_binding=True)
    case("f9-unbound-record-without-binding", "a binding is required and the record carries none (finding 9)",
         with_file(base, "record.jsonl", no_binding.encode()), finding("unbound"), require_binding=True)
    case("f9-near-miss-absent", "a record without binding, none required: binding absent",
         with_file(base, "record.jsonl", no_binding.encode()), {"result": "reading", "binding": "absent"})

    selected = copy.deepcopy(dialect)
    selected["sources"].append({"name": "upload", "kind": "selected-file", "provider": "local-file",
                                "read": {"copy": {"facts": [{"target": "/upload", "source": "/name"}],
                                                  "evidence": []}}})
    case("p6-kind-unread-selected-file",
         "a selected-file source is of a kind this verifier does not read (§11 phase 6)",
         with_file(base, "dialect.json", canon(selected)), refusal("kind-unread"))


def finding_cases() -> None:
    dialect, fixtures = mcp()
    inputs = fixtures["approved"]
    base = _files(dialect, inputs)
    profile = inputs.profiles[0]

    narrow = {**profile, "tools": ["lookup"]}
    case("f1-tool-not-allowed", "the request names a tool the profile does not allow (§4.1, finding 1)",
         base | {"profiles.json": canon([narrow]), "dialect.json": canon(_repin(dialect, narrow))},
         finding("profile-mismatch"))
    case("f1-profile-digest", "a trusted profile whose digest is not the source's profileDigest (§5.1, finding 1)",
         edited(base, "profiles.json", lambda p: p[0].update(endpoint="postgresql://elsewhere")),
         finding("profile-mismatch"))
    case("f1-unknown-profile", "a source's profile id that no trusted profile has (finding 1)",
         edited(base, "profiles.json", lambda p: p[0].update(id="renamed")), finding("profile-mismatch"))

    case("f2-case-parameter-type", "the case parameter vendorId is the string \"7\", not an integer (§3, finding 2)",
         edited(base, "case.json", lambda c: c.update(vendorId="7")), finding("parameter-invalid"))
    case("f2-case-parameter-missing", "the case parameter's pointer does not resolve (§3, finding 2)",
         edited(base, "case.json", lambda c: c.pop("vendorId") and None), finding("parameter-invalid"))

    gw = Gateway()
    bad = copy.deepcopy(inputs.acquisitions)
    bad["vendor"] = gw.acquire(profile, {"tool": "lookup", "arguments": {"id": 7}},
                               {"id": 7, "approver": 5, "tier": 2}, AT)
    case("f3-source-parameter-type", "approver, taken from vendor's facts, is 5 and not a string (§3, finding 3)",
         with_file(base, "sources.json", canon(bad)), finding("parameter-invalid"))

    unmatched = fixtures["unmatched"]
    skipped = _files(dialect, unmatched)
    case("f3-skipped-reads", "approval is skipped when vendor does not resolve, and has no acquisition (§9.2)",
         skipped, READING)
    case("f3-acquisition-unexpected-skipped", "a skipped source with an acquisition (§5.2, finding 3)",
         edited(skipped, "sources.json", lambda a: a.update(approval=inputs.acquisitions["approval"])),
         finding("acquisition-unexpected"))
    case("f3-acquisition-unexpected-no-source", "an acquisition that names no source, after the last source",
         edited(base, "sources.json", lambda a: a.update(ghost=inputs.acquisitions["approval"])),
         finding("acquisition-unexpected"))
    case("f3-acquisition-missing", "an acquired source with no acquisition (§5.2, finding 3)",
         edited(base, "sources.json", lambda a: a.pop("approval") and None), finding("acquisition-missing"))

    def receipt(change: Callable[[dict], None]) -> dict[str, bytes]:
        return edited(base, "sources.json", lambda a: change(a["vendor"]["response"]))

    case("f3-receipt-byte", "servedAt changed after signing: the signature fails (§5.2 check 2)",
         receipt(lambda r: r["receipt"].update(servedAt="2026-10-01T11:59:59Z")), finding("acquisition-invalid"))
    case("f3-result-byte", "the result changed: resultDigest fails (§5.2 check 5)",
         receipt(lambda r: r["result"].update(tier=3)), finding("acquisition-invalid"))
    case("f3-salt-byte", "the salt changed: the commitment fails (§5.2 check 4)",
         receipt(lambda r: r["salts"].update(args="00" * 32)), finding("acquisition-invalid"))
    case("f3-request-changed", "the case changed the request (vendorId 8): the commitment fails (§5.2 check 4)",
         edited(base, "case.json", lambda c: c.update(vendorId=8)), finding("acquisition-invalid"))
    paged = copy.deepcopy(inputs.acquisitions)
    paged["vendor"] = Gateway().acquire(profile, {"tool": "lookup", "arguments": {"id": 7}},
                                        json.loads(canon(inputs.acquisitions["vendor"]["response"]["result"])), AT,
                                        acquisition={**inputs.acquisitions["vendor"]["response"]["receipt"]["acquisition"],
                                                     "pageItems": ["sha256:" + "1" * 64]})
    case("f3-page-items", "a signed receipt attesting a page (pageItems) is not read (§5.2 check 1)",
         with_file(base, "sources.json", canon(paged)), finding("acquisition-invalid"))
    other_key = copy.deepcopy(inputs.acquisitions)
    other_key["vendor"] = Gateway(seed=bytes(range(32))).acquire(profile, {"tool": "lookup", "arguments": {"id": 7}},
                                                                {"id": 7, "approver": "dana", "tier": 2}, AT)
    case("f3-other-key", "a receipt signed by another key (§5.2 check 2)",
         with_file(base, "sources.json", canon(other_key)), finding("acquisition-invalid"))

    for name, served, report in (("f3-stale-at-max-age", "2026-10-01T11:55:00Z", READING),
                                 ("f3-stale-past-max-age", "2026-10-01T11:54:59Z", finding("acquisition-stale")),
                                 ("f3-stale-30s-ahead", "2026-10-01T12:00:30Z", READING),
                                 ("f3-stale-31s-ahead", "2026-10-01T12:00:31Z", finding("acquisition-stale"))):
        timed = copy.deepcopy(inputs.acquisitions)
        gw = Gateway()
        timed["vendor"] = gw.acquire(profile, {"tool": "lookup", "arguments": {"id": 7}},
                                     {"id": 7, "approver": "dana", "tier": 2}, served)
        timed["approval"] = gw.acquire(profile,
                                       {"tool": "approvals", "arguments": {"approver": "dana", "note": "vendor 7"}},
                                       {"decision": "approved", "availability": "present"}, AT)
        files = _files(dialect, Inputs(inputs.case, timed, inputs.profiles)) if report is READING else \
            with_file(base, "sources.json", canon(timed))
        case(name, f"vendor served at {served}, verifiedAt {AT}, maxAge 300, 30 s of skew (§5.2 times)", files, report)

    for name, sessions, report in (("f3-sessions-same-index", ("s1", 0, "s1", 0), finding("acquisition-sessions")),
                                   ("f3-sessions-alone", ("s1", 0, "s2", 0), READING),
                                   ("f3-sessions-shared", ("s1", 4, "s1", 2), READING),
                                   ("f3-sessions-mixed", ("s1", 0, "s2", 1), finding("acquisition-sessions"))):
        acq = copy.deepcopy(inputs.acquisitions)
        gw = Gateway()
        acq["vendor"] = gw.acquire(profile, {"tool": "lookup", "arguments": {"id": 7}},
                                   {"id": 7, "approver": "dana", "tier": 2}, AT,
                                   session=sessions[0], call_index=sessions[1])
        acq["approval"] = gw.acquire(profile,
                                     {"tool": "approvals", "arguments": {"approver": "dana", "note": "vendor 7"}},
                                     {"decision": "approved", "availability": "present"}, AT,
                                     session=sessions[2], call_index=sessions[3])
        files = _files(dialect, Inputs(inputs.case, acq, inputs.profiles)) if report is READING else \
            with_file(base, "sources.json", canon(acq))
        case(name, f"receipts at {sessions} (§5.2 sessions)", files, report)

    bad_copy = copy.deepcopy(inputs.acquisitions)
    bad_copy["approval"] = Gateway(calls=1).acquire(
        profile, {"tool": "approvals", "arguments": {"approver": "dana", "note": "vendor 7"}},
        {"decision": "approved", "availability": "maybe"}, AT)
    case("f3-read-failed-availability", "a copied availability that is not present, absent or unknown (§6.2)",
         with_file(base, "sources.json", canon(bad_copy)), finding("read-failed"))
    admits = copy.deepcopy(dialect)
    admits["admits"] = {"facts": {"/vendor/tier": ["asserted"]}}
    case("f4-admission-refused", "/vendor/tier, of class record, admits only asserted (§8.2, finding 4)",
         _files(admits, inputs, base["preparation.json"]),
         finding("admission-refused"))
    admits["admits"] = {"facts": {"/vendor/tier": ["record"]}}
    case("f4-admitted", "/vendor/tier admits record", _files(admits, inputs), READING)

    case("f5-reason-changed", "the given preparation's outcome reason differs (§9.5, finding 5)",
         edited(base, "preparation.json", lambda p: p["outcomes"][1].update(reason="matched!")),
         finding("preparation-differs"))
    pretty = json.dumps(json.loads(base["preparation.json"]), indent=2).encode()
    case("f5-whitespace-is-form",
         "the given preparation with whitespace and another member order is the same in §9.5's form",
         with_file(base, "preparation.json", pretty), READING)
    case("f5-minus-zero", "a given preparation writing 0 as -0 is another preparation (literals kept, §9.5)",
         with_file(base, "preparation.json", base["preparation.json"].replace(b'"callIndex":0', b'"callIndex":-0')),
         finding("preparation-differs"))

    calc_dialect, calc = examples.calculator_v2(Gateway())
    computed = dict(calc)["computed"]
    calc_base = _files(calc_dialect, computed)
    case("f3-calculation-reads", "the calculator's computed answer reads (§7)", calc_base, READING)
    for name, change in (("f3-calculation-input-string", lambda c: c["inputs"].update(amount="1200")),
                         ("f3-calculation-table-stale", lambda c: c["asOf"].update(rates="2026-09-30T11:59:59Z")),
                         ("f3-calculation-other-calculator", lambda c: c["calculator"].update(version="2.2.0"))):
        answer = copy.deepcopy(computed.acquisitions)
        result = json.loads(canon(answer["exposure"]["response"]["result"]))
        change(result["calculation"])
        answer["exposure"] = Gateway().acquire(computed.profiles[0],
                                               {"tool": "convert", "arguments": {"amount": 1200, "currency": "USD"}},
                                               result, AT)
        case(name, "a calculator's answer not held to its source (§7)",
             with_file(calc_base, "sources.json", canon(answer)),
             finding("calculation-invalid"))

    http_dialect, http = examples.http_unbound_v3(Gateway())
    http_inputs = dict(http)["open"]
    http_base = _files(http_dialect, http_inputs)
    case("unbound-reads", "the unbound http example, bound by its binding document", http_base, READING)
    case("p5-unbound-no-binding", "an unbound source and no binding document (§4.4)",
         with_file(http_base, "binding.json", None), refusal("input-malformed"))
    for name, body, report in (("late-unwrap-at-bound", 200000, READING), ("late-unwrap-over-bound", 200001, None)):
        text = json.dumps({"status": "open", "availability": "present", "pad": ""})
        text = text[:-2] + "x" * (body - len(text)) + '"}'
        acq = {"ticket": Gateway().acquire(http_inputs.profiles[0],
                                           {"method": "GET", "path": "/api/tickets", "query": {"id": "T-1042"}},
                                           {"status": 200, "body": text}, AT)}
        files = _files(http_dialect, Inputs(http_inputs.case, acq, http_inputs.profiles, http_inputs.binding)) \
            if report is READING else with_file(http_base, "sources.json", canon(acq))
        case(name, f"an unwrapped string of {body} bytes; the bound is 200000, measured when unwrapped (§6.1, §12)",
             files, report or refusal("input-over-bound"))
    acq = {"ticket": Gateway().acquire(http_inputs.profiles[0],
                                       {"method": "GET", "path": "/api/tickets", "query": {"id": "T-1042"}},
                                       {"status": 200, "body": "{not json"}, AT)}
    case("f3-read-failed-unwrap", "an unwrapped string that holds no JSON value (§6.1)",
         with_file(http_base, "sources.json", canon(acq)), finding("read-failed"))
    acq = {"ticket": Gateway().acquire(http_inputs.profiles[0],
                                       {"method": "GET", "path": "/api/tickets", "query": {"id": "T-1042"}},
                                       {"status": 200, "body": '{"status": 1.5, "availability": "present"}'}, AT)}
    case("f3-read-failed-unwrapped-float", "an unwrapped 1.5 copied into facts, outside the canon domain (§6.1, §6.2)",
         with_file(http_base, "sources.json", canon(acq)), finding("read-failed"))
    other_shape = copy.deepcopy(http_inputs.profiles)
    other_shape[0]["adapter"]["name"] = "adapter-https"
    binding = {**http_inputs.binding, "sources": {"ticket": {"profile": "tracker",
                                                             "profileDigest": canonical_digest(other_shape[0])}}}
    case("f1-unbound-record", "the bound profile's adapter.name is not the unbound source's record (§4.4)",
         with_file(with_file(http_base, "profiles.json", canon(other_shape)), "binding.json", canon(binding)),
         finding("profile-mismatch"))


def research_cases() -> None:
    dialect, fixtures = examples.research_v3(Gateway())
    inputs = dict(fixtures)["found"]
    base = _files(dialect, inputs)
    case("research-reads", "a research source with answer, search and page, bound by its binding document",
         base, READING)

    def record_of(acquisitions: dict) -> dict:
        return acquisitions["company"]["response"]["result"]

    def changed(change: Callable[[dict], Any], recorded: bool = False) -> dict[str, bytes]:
        acquisitions = json.loads(canon(inputs.acquisitions))
        change(record_of(acquisitions))
        if recorded:
            return _files(dialect, Inputs(inputs.case, acquisitions, inputs.profiles, inputs.binding))
        return with_file(base, "sources.json", canon(acquisitions))

    def field(name: str, entry: dict) -> Callable[[dict], None]:
        return lambda r: r["fields"].update({name: entry})

    case("p5-research-field-type", "employee-count, an integer field, answered \"120\" (§4.3)",
         changed(field("employee-count", {"status": "found", "cites": [1], "value": "120"})),
         refusal("input-malformed"))
    case("p5-research-integer-zero", "employee-count answered 0, a present value of its type (§4.3)",
         changed(field("employee-count", {"status": "found", "cites": [1], "value": 0}), recorded=True), READING)
    case("p5-research-undeclared-field", "an answer for a field the source does not declare (§4.3)",
         changed(field("ceo", {"status": "not-found", "cites": []})), refusal("input-malformed"))
    case("p5-research-required-missing", "no entry for the required field active (§4.3)",
         changed(lambda r: r["fields"].pop("active") and None), refusal("input-malformed"))
    case("p5-research-optional-omitted", "no entry for the optional field revenue (§4.3)",
         changed(lambda r: r["fields"].pop("revenue") and None, recorded=True), READING)
    case("p5-research-index-out-of-range", "a citation index at responses' length (§4.3)",
         changed(field("company-id", {"status": "found", "cites": [3], "value": "northwind"})),
         refusal("input-malformed"))
    case("p5-research-null-value", "null is never a value (§4.3)",
         changed(field("company-id", {"status": "found", "cites": [1], "value": None})), refusal("input-malformed"))
    case("p5-research-range-reversed", "a range whose min is above its max (§4.3)",
         changed(field("employee-range", {"status": "found", "cites": [1], "value": {"min": "10.5", "max": "9.75"}})),
         refusal("input-malformed"))
    case("p5-research-range-equal", "an equal-endpoint decimal range (§4.3)",
         changed(field("employee-range", {"status": "found", "cites": [1], "value": {"min": "10.50", "max": "10.5"}}),
                 recorded=True), READING)
    case("p5-research-conflicting-same", "conflicting observations that do not differ (§4.3)",
         changed(field("revenue", {"status": "conflicting", "cites": [], "values": [
             {"value": "12.5", "cites": [1]}, {"value": "12.5", "cites": [2]}]})), refusal("input-malformed"))
    case("p3-research-text-at-bound", "a text value of 8192 bytes (§12)",
         changed(field("company-id", {"status": "found", "cites": [1], "value": "x" * 8192}), recorded=True), READING)
    case("p3-research-text-over-bound", "a text value of 8193 bytes (§12, §11 phase 3)",
         changed(field("company-id", {"status": "found", "cites": [1], "value": "x" * 8193})),
         refusal("input-over-bound"))
    case("p3-research-65-responses", "65 retained responses, over §12's 64 (§11 phase 3)",
         changed(lambda r: r["responses"].extend([r["responses"][0]] * 62)), refusal("input-over-bound"))

    ai, search, pages = inputs.profiles
    other_model = {**ai, "research": {"capabilities": ["answer"], "model": "model-y"}}
    rebound = json.loads(canon(inputs.binding))
    rebound["sources"]["company"]["profileDigest"] = canonical_digest(other_model)
    case("f1-research-wrong-model", "the AI profile declares another model (§4.4, §5.1)",
         base | {"profiles.json": canon([other_model, search, pages]), "binding.json": canon(rebound)},
         finding("profile-mismatch"))
    record_ai = {**ai, "class": "record"}
    rebound["sources"]["company"]["profileDigest"] = canonical_digest(record_ai)
    case("f1-research-record-class", "a profile of class record assigned to answer (§5.1)",
         base | {"profiles.json": canon([record_ai, search, pages]), "binding.json": canon(rebound)},
         finding("profile-mismatch"))
    spare = {**search, "id": "spare"}
    case("f1-research-response-unassigned", "a retained response names a trusted profile the source is not bound to",
         changed(lambda r: r["responses"][0].update(profile={"id": "spare", "digest": canonical_digest(spare)}))
         | {"profiles.json": canon([ai, search, pages, spare])}, finding("profile-mismatch"))
    case("f3-research-result-missing", "a retained response without its result (§5.2)",
         changed(lambda r: r["responses"][1].pop("result") and None), finding("acquisition-missing"))
    case("f3-research-result-changed", "a retained result changed under its receipt (§5.2 check 5)",
         changed(lambda r: r["responses"][1]["result"].update(text="Northwind employs 12 people.")),
         finding("acquisition-invalid"))
    case("f3-research-request-changed", "a retained request changed under its receipt (§5.2 check 4)",
         changed(lambda r: r["responses"][0]["request"].update(query="Southwind")), finding("acquisition-invalid"))

    def page(endpoint: str, at: str = AT) -> Callable[[dict], None]:
        def change(record: dict) -> None:
            request = {"url": "https://www.example.com/about?lang=en"}
            answer = Gateway(calls=1).acquire(pages, request, {"text": "Northwind employs 120 people."}, at,
                                              endpoint=endpoint)["response"]
            record["responses"][1] = {"profile": {"id": "pages", "digest": canonical_digest(pages)},
                                      "request": request, **answer}
        return change

    case("f3-research-page-outside-scope", "a page receipt whose final endpoint is outside the scope (§5.2 check 3)",
         changed(page("https://evil.example.net/about")), finding("acquisition-invalid"))
    case("f3-research-page-prefix-sibling", "another host, www.example.org, is outside the scope (§5.1 matching)",
         changed(page("https://www.example.org/about")), finding("acquisition-invalid"))
    case("f3-research-page-in-scope", "host case and :443 are the same origin (§5.1 matching)",
         changed(page("https://WWW.example.com:443/about/team"), recorded=True), READING)
    case("f3-research-stale-response", "a retained response served 3601 s before verifiedAt, maxAge 3600 (§5.2)",
         changed(page("https://www.example.com/about", "2026-10-01T10:59:59Z")), finding("acquisition-stale"))

    def reorder(record: dict) -> None:
        record["responses"][0], record["responses"][1] = record["responses"][1], record["responses"][0]
        for entry in record["fields"].values():
            for holder in [entry] + entry.get("values", []):
                holder["cites"] = [{0: 1, 1: 0}.get(i, i) for i in holder["cites"]]
    case("f5-research-responses-reordered", "responses reordered, citations updated: the cites order changes (§9.1)",
         changed(reorder), finding("preparation-differs"))


def reconciliation_cases() -> None:
    gateway = Gateway()
    ai = gateway.profile("ai", shape="http", klass="generated", adapter="adapter-ai", source="ai/answers",
                         endpoint="https://ai.example.org/v1",
                         research={"capabilities": ["answer"], "model": "model-x"})
    fields = [{"name": "employee-count", "type": "integer", "required": False, "description": "Employees."}]

    def research(name: str, read: dict) -> dict:
        return {"name": name, "kind": "research", "maxAge": 3600, "question": "How many employees?",
                "constraints": {}, "model": "model-x", "evidence": ["filings"], "fields": fields,
                "capabilities": ["answer"], "profile": "ai", "profileDigest": canonical_digest(ai), "webProfiles": {},
                "read": read}

    def entry(who: str) -> str:
        return f"/sources/{who}/fields/employee-count" if who != "current" else "/current/fields/employee-count"

    def status(who: str, value: str) -> dict:
        return {"op": "equals", "field": entry(who) + "/status", "to": value}

    def unavailable(who: str) -> dict:
        return {"op": "any", "of": [{"op": "not", "of": {"op": "exists", "field": entry(who)}},
                                    status(who, "not-found"), status(who, "stale")]}

    def claim(facts: list, state: str) -> dict:
        return {"facts": facts, "evidence": {}, "acquisitionStatus": state}

    rule = {"ruleVersion": "1", "parameters": {}, "clauses": [
        {"when": status("primary", "found"), "reason": "primary",
         "claim": claim([{"pointer": "/company/employees", "from": entry("primary") + "/value"}], "resolved")},
        {"when": {"op": "all", "of": [status("current", "found"), unavailable("primary")]}, "reason": "secondary",
         "claim": claim([{"pointer": "/company/employees", "from": entry("current") + "/value"}], "resolved")},
        {"when": {"op": "any", "of": [status("primary", "conflicting"), status("current", "conflicting")]},
         "reason": "conflicting", "claim": claim([], "unknown")},
        {"when": unavailable("current"), "reason": "unavailable", "claim": claim([], "unknown")},
        {"when": {"op": "always"}, "reason": "none", "claim": claim([], "unknown")}]}
    dialect = {"version": 3, "sources": [
        research("primary", {"copy": {"facts": [], "evidence": []}}),
        research("secondary", {"sources": ["primary"], "rule": rule})],
        "admits": {"facts": {"/company/employees": ["generated"]}}}

    def acquisitions(primary: dict, secondary: dict) -> dict:
        gw = Gateway()
        out = {}
        for name, answer in (("primary", primary), ("secondary", secondary)):
            request = {"prompt": f"{name}: how many employees?"}
            retained = {"profile": {"id": "ai", "digest": canonical_digest(ai)}, "request": request,
                        **gw.acquire(ai, request, {"answer": str(answer)}, AT)["response"]}
            out[name] = {"response": {"result": {"fields": {"employee-count": answer}, "responses": [retained]}}}
        return out

    found = {"status": "found", "cites": [0], "value": 120}
    for name, primary, secondary, reason in (
        ("reconciliation-secondary", {"status": "not-found", "cites": [0]}, found, "secondary"),
        ("reconciliation-primary", {"status": "found", "cites": [0], "value": 100}, found, "primary"),
        ("reconciliation-conflicting", {"status": "conflicting", "cites": [], "values": [
            {"value": 100, "cites": [0]}, {"value": 110, "cites": [0]}]}, found, "conflicting"),
    ):
        inputs = Inputs({}, acquisitions(primary, secondary), [ai])
        files = _files(dialect, inputs)
        outcome = json.loads(files["preparation.json"])["outcomes"][-1]
        assert outcome["reason"] == reason, outcome
        case(name, f"a reconciliation read (§6.4) over primary and the current record: clause {reason!r}",
             files, READING)
    broken = _files(dialect, Inputs({}, acquisitions(found, found), [ai]))
    case("f3-reconciliation-earlier-invalid", "an earlier source's bad receipt is its own finding; no fallback (§6.4)",
         edited(broken, "sources.json", lambda a: a["primary"]["response"]["result"]["responses"][0]["result"].update(
             answer="999")), finding("acquisition-invalid"))


def audit_cases() -> None:
    """Issue #11 item 6: rules an audit found untested, each a case and a near-miss named after the rule."""
    dialect, fixtures = mcp()
    inputs = fixtures["approved"]
    base = _files(dialect, inputs)
    profile = inputs.profiles[0]

    # §4.1 / §5.1: under a profile of shape command, any operation's request is profile-mismatch, even a tool
    # call naming one of the profile's tools; the same profile of shape mcp is the near-miss (reading-base).
    command = {**profile, "shape": "command"}
    case("f1-profile-shape-command", "an operation under a trusted profile of shape command, whose tools list the "
         "request's tool (§4.1: a profile of shape command serves none; finding 1)",
         base | {"profiles.json": canon([command]), "dialect.json": canon(_repin(dialect, command))},
         finding("profile-mismatch"))
    case("f1-profile-shape-mcp-near-miss", "the same profile of shape mcp, pinned the same way, reads (§4.1)",
         _files(_repin(dialect, profile), inputs), READING)

    # §11 finding 2: for the case, parameter-invalid in parameter order, then read-failed for its read; the case's
    # findings precede every source's (finding 3).
    case("f2-order-case-parameter-before-case-read", "vendorId is \"7\" (parameter-invalid) and the case read copies "
         "1.5, outside the canon domain (read-failed): the parameter is reported first (§11 finding 2)",
         with_file(base, "case.json", b'{"requestor":1.5,"vendorId":"7"}'),
         finding("parameter-invalid"))
    case("f2-order-case-read-alone", "the case read copies 1.5 and every parameter is right: read-failed (§6.2)",
         with_file(base, "case.json", b'{"requestor":1.5,"vendorId":7}'), finding("read-failed"))
    gw = Gateway()
    bad = copy.deepcopy(inputs.acquisitions)
    bad["vendor"] = gw.acquire(profile, {"tool": "lookup", "arguments": {"id": 7}},
                               {"id": 7, "approver": 5, "tier": 2}, AT)
    case("f2-order-case-read-before-source-parameter", "the case read fails and approver, a source parameter, is 5: "
         "the case's read-failed comes before any source's parameter-invalid (§11 findings 2, 3)",
         with_file(with_file(base, "sources.json", canon(bad)), "case.json", b'{"requestor":1.5,"vendorId":7}'),
         finding("read-failed"))

    # §§11–12: the preparation and the record each at most 8388608 bytes. At the bound they are read; one byte
    # over is input-over-bound. tests/verifier/test_rules_audit.py builds these documents in memory at test time.
    _research_audit_cases()


def _research_audit_cases() -> None:
    dialect, fixtures = examples.research_v3(Gateway())
    inputs = dict(fixtures)["found"]
    base = _files(dialect, inputs)

    def changed(change: Callable[[dict], Any], recorded: bool = False) -> dict[str, bytes]:
        acquisitions = json.loads(canon(inputs.acquisitions))
        change(acquisitions["company"]["response"]["result"])
        if recorded:
            return _files(dialect, Inputs(inputs.case, acquisitions, inputs.profiles, inputs.binding))
        return with_file(base, "sources.json", canon(acquisitions))

    def found(name: str, value: Any, recorded: bool = False) -> dict[str, bytes]:
        if isinstance(value, Number):  # a literal canon does not write (a fraction): put in the bytes as written
            files = found(name, "\u0000number", recorded)
            return with_file(files, "sources.json",
                             files["sources.json"].replace(b'"\\u0000number"', value.literal.encode()))
        return changed(lambda r: r["fields"].update({name: {"status": "found", "cites": [1], "value": value}}),
                       recorded)

    # §4.3 decimal: a string in -?(0|[1-9][0-9]*)(\.[0-9]+)?, the whole string, at most 128 ASCII characters.
    case("p5-research-decimal-reads", "revenue, a decimal field, found as \"-0.50\": sign and scale kept (§4.3)",
         found("revenue", "-0.50", recorded=True), READING)
    for name, value, why in (("number", Number("12.5"), "a JSON number is not a decimal"),
                             ("leading-plus", "+12.5", "a leading plus"),
                             ("leading-zero", "012.5", "a leading zero"),
                             ("exponent", "1e3", "an exponent"),
                             ("empty", "", "the empty string"),
                             ("bare-point", "12.", "a point with no digit after it")):
        case(f"p5-research-decimal-{name}", f"revenue found as {why}: not §4.3's decimal grammar",
             found("revenue", value), refusal("input-malformed"))
    at_bound = "1" * 126 + ".5"
    case("p3-research-decimal-at-128", "a decimal string of exactly 128 characters is read (§4.3, §12)",
         found("revenue", at_bound, recorded=True), READING)
    case("p3-research-decimal-over-128", "a decimal string of 129 characters is over §12's bound (§11 phase 3)",
         found("revenue", "1" + at_bound), refusal("input-over-bound"))
    case("p3-research-decimal-over-128-ill-formed", "129 characters that are no decimal: the count bound (phase 3) "
         "is reported before the form (phase 5)", found("revenue", "x" * 129), refusal("input-over-bound"))
    case("p3-research-text-129-characters-not-a-decimal", "a text field's 129-character value is held to text's "
         "8192 bytes, not the decimal bound: type-dependent maxima follow the declared type (§11 phase 3)",
         found("company-id", "1" * 129, recorded=True), READING)

    # §4.3 range: both integers or both decimals; each decimal endpoint at most 128 characters.
    case("p3-research-range-endpoint-at-128", "a decimal range whose max is 128 characters is read (§12)",
         found("employee-range", {"min": "1", "max": at_bound}, recorded=True), READING)
    case("p3-research-range-endpoint-over-128", "a decimal range whose max is 129 characters (§12, §11 phase 3)",
         found("employee-range", {"min": "1", "max": "1" + at_bound}), refusal("input-over-bound"))
    case("p3-research-range-min-over-128", "a decimal range whose min is 129 characters (§12, §11 phase 3)",
         found("employee-range", {"min": "-1" + at_bound[1:], "max": "1"}), refusal("input-over-bound"))
    case("p5-research-range-mixed", "one integer endpoint and one decimal endpoint are never a range (§4.3)",
         found("employee-range", {"min": 1, "max": "2.5"}), refusal("input-malformed"))
    case("p5-research-range-integers", "an integer range 0 to 120 is read (§4.3)",
         found("employee-range", {"min": 0, "max": 120}, recorded=True), READING)

    # §4.3 boolean: JSON true or false, never a string or a number.
    case("p5-research-boolean-false", "active found as false: a present value of its type, not not-found (§4.3)",
         found("active", False, recorded=True), READING)
    case("p5-research-boolean-string", "active found as the string \"true\" (§4.3)", found("active", "true"),
         refusal("input-malformed"))
    case("p5-research-boolean-number", "active found as 1 (§4.3)", found("active", 1), refusal("input-malformed"))

    # §4.3 text-list: 0 to 64 well-formed strings, each 0 to 1024 UTF-8 bytes; order, duplicates and "" kept.
    case("p5-research-text-list-empty", "roles found as []: an empty list is a value (§4.3)",
         found("roles", [], recorded=True), READING)
    case("p5-research-text-list-number-item", "roles found with an item that is a number (§4.3)",
         found("roles", ["analyst", 5]), refusal("input-malformed"))
    case("p5-research-text-list-null-item", "roles found with a null item (§4.3: null is never a list item)",
         found("roles", ["analyst", None]), refusal("input-malformed"))
    case("p5-research-text-list-string", "roles found as one string, not an array (§4.3)", found("roles", "analyst"),
         refusal("input-malformed"))
    case("p3-research-text-list-64-items", "a text-list of 64 items, duplicates kept, is read (§12)",
         found("roles", ["analyst"] * 64, recorded=True), READING)
    case("p3-research-text-list-65-items", "a text-list of 65 items is over §12's 64 (§11 phase 3)",
         found("roles", ["analyst"] * 65), refusal("input-over-bound"))
    item = "\u00e9" * 512
    case("p3-research-text-list-item-1024-bytes", "an item of 512 two-byte characters, 1024 UTF-8 bytes, is read",
         found("roles", [item], recorded=True), READING)
    case("p3-research-text-list-item-1025-bytes", "an item of 1025 UTF-8 bytes in 513 characters (a count of "
         "characters would pass it) is over §12's 1024 (§11 phase 3)",
         found("roles", [item + "x"]), refusal("input-over-bound"))
    case("p3-research-text-8192-bytes-multibyte", "a text value of 4096 two-byte characters, 8192 bytes, is read",
         found("company-id", "\u00e9" * 4096, recorded=True), READING)
    case("p3-research-text-8193-bytes-multibyte", "a text value of 8193 UTF-8 bytes in 4097 characters (§12)",
         found("company-id", "\u00e9" * 4096 + "x"), refusal("input-over-bound"))
    case("p3-research-observation-item-over-bound", "a conflicting observation's text-list item over 1024 bytes is "
         "measured like a found value's (§12)",
         changed(lambda r: r["fields"].update(roles={"status": "conflicting", "cites": [], "values": [
             {"value": ["a"], "cites": [1]}, {"value": ["x" * 1025], "cites": [2]}]})), refusal("input-over-bound"))

    # §12: 64 retained responses per research source; 65 is p3-research-65-responses.
    def sixty_four(record: dict) -> None:
        gw = Gateway(calls=len(record["responses"]))
        search = inputs.profiles[1]
        while len(record["responses"]) < 64:
            request = {"query": f"Northwind Analytics {len(record['responses'])}"}
            answer = gw.acquire(search, request, {"links": []}, AT)["response"]
            record["responses"].append({"profile": {"id": "search", "digest": canonical_digest(search)},
                                        "request": request, **answer})
    case("p3-research-64-responses", "64 retained responses, each under its own receipt, are read (§12)",
         changed(sixty_four, recorded=True), READING)

    # §5.2: a research source's response carries its record's receipt and salts both, or neither.
    ai = inputs.profiles[0]
    source = dialect["sources"][0]
    recipe = {"question": inputs.case["company"], "constraints": source["constraints"], "model": source["model"],
              "evidence": source["evidence"], "fields": source["fields"], "capabilities": source["capabilities"]}
    record = inputs.acquisitions["company"]["response"]["result"]
    receipted = Gateway(calls=len(record["responses"])).acquire(ai, recipe, json.loads(canon(record)), AT)
    with_receipt = json.loads(canon(inputs.acquisitions))
    with_receipt["company"] = receipted
    case("p5-research-record-receipt-and-salts", "the research record came back through a gateway source: its "
         "receipt and salts, both, checked under the AI profile over the recipe (§5.2)",
         _files(dialect, Inputs(inputs.case, with_receipt, inputs.profiles, inputs.binding)), READING)
    case("research-record-neither-receipt-nor-salts", "the research record with neither receipt nor salts (§5.2)",
         base, READING)
    for name, drop, why in (("receipt-without-salts", "salts", "a receipt without its salts"),
                            ("salts-without-receipt", "receipt", "salts without a receipt")):
        case(f"p5-research-record-{name}", f"the research record's response carries {why}: both or neither (§5.2)",
             edited(base, "sources.json", lambda a, d=drop: a.update(company={"response": {
                 k: v for k, v in receipted["response"].items() if k != d}})), refusal("input-malformed"))
    case("f3-research-record-receipt-changed-record", "the record's own receipt does not commit a changed record: "
         "check 5 (§5.2)", edited(_files(dialect, Inputs(inputs.case, with_receipt, inputs.profiles, inputs.binding)),
                                  "sources.json",
                                  lambda a: a["company"]["response"]["result"]["fields"]["company-id"].update(
                                      value="southwind")), finding("acquisition-invalid"))
    case("p5-research-response-receipt-without-salts", "a retained response without salts: each response is "
         "exactly profile, request, result, receipt and salts (§4.3)",
         changed(lambda r: r["responses"][0].pop("salts") and None), refusal("input-malformed"))
    case("p5-research-response-salts-without-receipt", "a retained response without its receipt (§4.3)",
         changed(lambda r: r["responses"][0].pop("receipt") and None), refusal("input-malformed"))


def _repin(dialect: dict, profile: dict) -> dict:
    out = copy.deepcopy(dialect)
    for source in out["sources"]:
        source["profileDigest"] = canonical_digest(profile)
    return out


def build(root: Path = ROOT) -> None:
    WRITTEN.clear()
    refusal_cases()
    finding_cases()
    research_cases()
    reconciliation_cases()
    audit_cases()
    if root.exists():
        shutil.rmtree(root)
    for name, spec in WRITTEN.items():
        directory = root / name
        directory.mkdir(parents=True)
        for file, data in spec["files"].items():
            (directory / file).write_bytes(data)
        (directory / "expected.json").write_text(json.dumps(spec["expected"], indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    build()
    print(f"{len(WRITTEN)} cases under {ROOT}")
