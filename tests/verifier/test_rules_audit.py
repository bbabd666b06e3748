"""The 8 MiB preparation and record bound (dialect §11 phase 1, §12; issue #11 item 6).

"the preparation and the record each at most 8388608 bytes": at the bound each is read; one byte over is
input-over-bound, before anything is parsed. The documents are built in memory here rather than
committed as 8 MiB case directories. The bound is written out by hand, not taken from the verifier.
Whitespace pads each document: JSON admits it between tokens, §9.5 compares the preparation in its
canonical form, and the record's binding is the bytes of its value alone, so padding changes nothing else.
"""

from __future__ import annotations

import json

from judgment_exchange.canon import digest, preparation_binding
from judgment_exchange.verifier import Documents, report, verify

from ..support.verifier_cases import base_files

BOUND = 8 * 1024 * 1024  # 8388608, dialect §12


def _documents(files: dict[str, bytes], preparation: bytes | None = None, record: bytes | None = None) -> Documents:
    return Documents(dialect=files["dialect.json"], case=files["case.json"], acquisitions=files.get("sources.json"),
                     profiles=files["profiles.json"], preparation=preparation or files["preparation.json"],
                     record=record)


def _padded(data: bytes, size: int) -> bytes:
    """data with spaces inserted after its first byte (an object's brace) to exactly size bytes."""
    assert data[:1] == b"{" and len(data) < size
    return data[:1] + b" " * (size - len(data)) + data[1:]


def _record(files: dict[str, bytes]) -> bytes:
    """A one-line record whose inputs and cites are the preparation's and whose binding is its bytes (§11)."""
    prep = json.loads(files["preparation.json"])
    facts = {"approval": "approved", "case": {"requestor": "ops-team"}, "vendor": {"approver": "dana", "tier": 2}}
    evidence = {"approval-record": "present", "vendor-record": "present"}
    binding = preparation_binding(digest(files["preparation.json"])).decode()
    return ('{"kind":"evaluation","inputs":' + json.dumps({"facts": facts, "evidence": evidence}) + ',"cites":'
            + json.dumps(prep["cites"]) + ',"binding":' + binding + "}").encode()


def test_p1_preparation_at_8mib_is_read():
    _, _, files = base_files()
    preparation = _padded(files["preparation.json"], BOUND)
    assert len(preparation) == 8388608
    answer = report(verify(_documents(files, preparation=preparation)))
    assert answer["result"] == "reading", answer


def test_p1_preparation_over_8mib_is_input_over_bound():
    _, _, files = base_files()
    preparation = _padded(files["preparation.json"], BOUND + 1)
    assert report(verify(_documents(files, preparation=preparation))) == {"result": "refusal",
                                                                          "refusal": "input-over-bound"}


def test_p1_record_at_8mib_is_read_and_its_binding_matches():
    _, _, files = base_files()
    record = _padded(_record(files), BOUND)
    assert len(record) == 8388608 and b"\n" not in record
    answer = report(verify(_documents(files, record=record)))
    assert answer["result"] == "reading" and answer["binding"] == "matches", answer


def test_p1_record_over_8mib_is_input_over_bound():
    _, _, files = base_files()
    record = _padded(_record(files), BOUND + 1)
    assert report(verify(_documents(files, record=record))) == {"result": "refusal", "refusal": "input-over-bound"}


def test_p1_over_bound_record_is_refused_before_a_malformed_preparation_is_read():
    """Phase 1 on every document before phase 2 on any (§11): the over-bound record is reported, not the
    preparation that is not JSON."""
    _, _, files = base_files()
    record = _padded(_record(files), BOUND + 1)
    answer = report(verify(_documents(files, preparation=b"{not json", record=record)))
    assert answer == {"result": "refusal", "refusal": "input-over-bound"}


def test_p1_at_bound_record_with_a_malformed_preparation_is_input_malformed():
    """Near-miss of the last: at the bound the record passes phase 1, and the preparation fails phase 2."""
    _, _, files = base_files()
    record = _padded(_record(files), BOUND)
    answer = report(verify(_documents(files, preparation=b"{not json", record=record)))
    assert answer == {"result": "refusal", "refusal": "input-malformed"}
