"""Rules the Runner exports do not exercise (dialect §§5.2, 6.3, 9.2, 11, 12), each with a near-miss.

Inputs are the mcp example's recorded fixture (tests/support/verifier_cases.base_files) changed one
rule at a time; every expectation is the seed's sentence, quoted in the test's docstring.
"""

from __future__ import annotations

import json

from judgment_exchange.verifier import Documents, report, verify
from tests.support.verifier_cases import base_files


def _answer(files: dict[str, bytes], record: bytes | None = None, require_binding: bool = False) -> dict:
    docs = Documents(dialect=files["dialect.json"], case=files["case.json"], profiles=files["profiles.json"],
                     preparation=files["preparation.json"], acquisitions=files.get("sources.json"),
                     record=record, require_binding=require_binding)
    return json.loads(json.dumps(report(verify(docs)), default=lambda n: json.loads(n.literal)))


def test_record_null_is_refused():
    """§11: "The record is one line ... that is one JSON object read as §1 reads a document, with an object
    inputs." A record line `null` is no object: input-malformed, not a run with no record."""
    _, _, files = base_files()
    assert _answer(files, record=b"null") == {"result": "refusal", "refusal": "input-malformed"}
    assert _answer(files, record=b"null", require_binding=True) == {"result": "refusal", "refusal": "input-malformed"}


def test_no_record_near_miss():
    _, _, files = base_files()
    assert _answer(files)["binding"] == "not-checked"
    assert _answer(files, require_binding=True) == {"result": "finding", "finding": "unbound"}


def _resigned(files: dict[str, bytes], source: str, **changes) -> dict[str, bytes]:
    """The fixture with one source's receipt changed and signed again by the test gateway (check 2 holds)."""
    from judgment_exchange.canon import canon
    from tests.support.gateway import Gateway

    acquisitions = json.loads(files["sources.json"])
    receipt = acquisitions[source]["response"]["receipt"]
    acquisition = {**receipt["acquisition"], **changes.pop("acquisition", {})}
    acquisitions[source]["response"]["receipt"] = Gateway().sign({**receipt, **changes, "acquisition": acquisition})
    return {**files, "sources.json": canon(acquisitions)}


def _finding(code: str) -> dict:
    return {"result": "finding", "finding": code}


def test_receipt_forms_precede_times_and_sessions():
    """§5.2: "A member of another type or form makes the receipt malformed, acquisition-invalid; these form checks
    precede the time and session rules." A stale servedAt beside a callIndex "1" (a string) is acquisition-invalid."""
    _, _, files = base_files()
    stale = "2026-10-01T11:00:00Z"
    assert _answer(_resigned(files, "vendor", servedAt=stale)) == _finding("acquisition-stale")
    assert _answer(_resigned(files, "vendor", servedAt=stale, callIndex="0")) == _finding("acquisition-invalid")
    assert _answer(_resigned(files, "approval", callIndex=0)) == _finding("acquisition-sessions")
    assert _answer(_resigned(files, "approval", sessionId=7)) == _finding("acquisition-invalid")
    assert _answer(_resigned(files, "approval", callIndex=-1)) == _finding("acquisition-invalid")


def test_a_time_with_no_instant_is_invalid_not_stale():
    """§5.2: "That finding names a present instant outside this window only; a time with no instant is
    acquisition-invalid." observedAt 2026-02-30T00:00:00Z has the form and no instant."""
    _, _, files = base_files()
    no_instant = _resigned(files, "vendor", acquisition={"observedAt": "2026-02-30T00:00:00Z"})
    assert _answer(no_instant) == _finding("acquisition-invalid")
    outside = _resigned(files, "vendor", acquisition={"observedAt": "2026-09-30T00:00:00Z"})
    assert _answer(outside) == _finding("acquisition-stale")


def _research_files(change) -> dict[str, bytes]:
    from judgment_exchange.canon import canon
    from tests.support import examples
    from tests.support.gateway import Gateway
    from tests.support.verifier_cases import _files

    dialect, fixtures = examples.research_v3(Gateway())
    inputs = dict(fixtures)["found"]
    files = _files(dialect, inputs)
    acquisitions = json.loads(canon(inputs.acquisitions))
    change(acquisitions["company"]["response"]["result"])
    return {**files, "sources.json": canon(acquisitions)}


def _research_answer(files: dict[str, bytes]) -> dict:
    docs = Documents(dialect=files["dialect.json"], case=files["case.json"], profiles=files["profiles.json"],
                     preparation=files["preparation.json"], acquisitions=files["sources.json"],
                     binding=files.get("binding.json"))
    return json.loads(json.dumps(report(verify(docs)), default=lambda n: json.loads(n.literal)))


def test_research_responses_complete_one_before_the_next():
    """§11 finding 3: "apply the acquisition findings to each retained response in R.responses order, completing
    one response's checks before the next". An invalid response 0 comes before a missing response 1, and a
    missing response 0 before an invalid response 1."""
    def invalid(i):
        return lambda r: r["responses"][i]["request"].update(query="Southwind")

    def missing(i):
        return lambda r: r["responses"][i].pop("result")

    def both(first, second):
        return lambda r: (first(r), second(r))

    assert _research_answer(_research_files(both(invalid(0), missing(1)))) == _finding("acquisition-invalid")
    assert _research_answer(_research_files(both(missing(0), invalid(1)))) == _finding("acquisition-missing")
    assert _research_answer(_research_files(lambda r: None))["result"] == "reading"


def test_profile_mismatch_precedes_the_case_and_every_source():
    """§11: findings end "at the first of these findings, in this order": 1. profile-mismatch, the sources taken in
    their order; 2. for the case: parameter-invalid. A wrong case parameter beside a changed profile is
    profile-mismatch; a missing acquisition of the first source beside the same change is too."""
    from judgment_exchange.canon import canon

    _, _, files = base_files()
    bad_case = {**files, "case.json": canon({**json.loads(files["case.json"]), "vendorId": "7"})}
    profiles = json.loads(files["profiles.json"])
    profiles[0]["endpoint"] = "postgresql://elsewhere"
    changed = {"profiles.json": canon(profiles)}
    assert _answer(bad_case) == _finding("parameter-invalid")
    assert _answer({**bad_case, **changed}) == _finding("profile-mismatch")
    acquisitions = json.loads(files["sources.json"])
    del acquisitions["vendor"]
    missing = {**files, "sources.json": canon(acquisitions)}
    assert _answer(missing) == _finding("acquisition-missing")
    assert _answer({**missing, **changed}) == _finding("profile-mismatch")


def test_record_line_breaks_are_bytes_not_escapes():
    """§11: "The record is one line, holding neither a line feed nor a carriage return". A raw CR is refused; the
    escape \\n inside a string, and a raw U+2028, are neither, so the record is read (its inputs then differ)."""
    _, _, files = base_files()
    assert _answer(files, record=b'{"inputs":{},\r"x":1}') == {"result": "refusal", "refusal": "input-malformed"}
    assert _answer(files, record=b'{"inputs":{},"x":"a\\nb"}') == _finding("record-inputs-differ")
    assert _answer(files, record='{"inputs":{},"x":"a\u2028b"}'.encode()) == _finding("record-inputs-differ")


def test_a_member_naming_no_source_comes_after_the_last_source():
    """§11 finding 3: "After the last source, acquisition-unexpected for a member of the acquisitions that names no
    source". A read-failed of the last source comes first; without it the stray member is found."""
    from judgment_exchange.canon import canon
    from tests.support.examples import AT
    from tests.support.gateway import Gateway

    _, inputs, files = base_files()
    acquisitions = json.loads(files["sources.json"])
    acquisitions["ghost"] = acquisitions["vendor"]
    stray = {**files, "sources.json": canon(acquisitions)}
    assert _answer(stray) == _finding("acquisition-unexpected")
    acquisitions["approval"] = Gateway(calls=1).acquire(
        inputs.profiles[0], {"tool": "approvals", "arguments": {"approver": "dana", "note": "vendor 7"}},
        {"decision": "approved", "availability": "maybe"}, AT)
    assert _answer({**files, "sources.json": canon(acquisitions)}) == _finding("read-failed")


def test_binding_count_bound_precedes_the_dialect_form():
    """§11: phase 3 (count bounds, a binding's two web assignments per source, §12) precedes phase 5
    (forms): a binding with three web assignments beside a dialect of another form is over bound."""
    from judgment_exchange.verifier import Documents, report, verify

    dialect = b'{"version":3,"sources":[{"name":"r","kind":"research"}]}'
    binding = (b'{"dialect":"sha256:' + b"0" * 64 + b'","sources":{"r":{"profile":"a","profileDigest":"sha256:'
               + b"0" * 64 + b'","webProfiles":{"a":{},"b":{},"c":{}}}}}')
    answer = verify(Documents(dialect=dialect, case=b"{}", profiles=b"[]", preparation=b'{"verifiedAt":"x"}',
                              binding=binding))
    assert report(answer) == {"result": "refusal", "refusal": "input-over-bound"}
    near = binding.replace(b',"c":{}', b"")
    answer = verify(Documents(dialect=dialect, case=b"{}", profiles=b"[]", preparation=b'{"verifiedAt":"x"}',
                              binding=near))
    assert report(answer) == {"result": "refusal", "refusal": "input-malformed"}
