"""authoring/recording.py: a Runner run export read strictly, to a Recording or a named refusal."""

from __future__ import annotations

import json

import pytest

from judgment_exchange.authoring.recording import (
    Recording,
    RecordingRefusal,
    default_name,
    read_export,
    read_profiles,
    valid_name,
)

from .exports import NAMES, preparation_form_stdlib, run_bytes, run_json


@pytest.mark.parametrize("name", NAMES)
def test_real_export_reads_with_its_own_bytes(name):
    data = run_bytes(name)
    recording = read_export(data)
    assert isinstance(recording, Recording)
    source = run_json(name)["run"]["input"]["source"]
    for cut, value in ((recording.case, source["case"]), (recording.sources, source["sources"])):
        assert cut in data  # the export's own bytes, cut verbatim
        assert json.loads(cut) == value
    assert recording.mapping_digest == source["mappingDigest"]
    assert recording.preparation_bytes == preparation_form_stdlib(run_json(name)["run"]["input"]["preparation"])
    assert recording.audit is not None and recording.audit in data and b"\n" not in recording.audit


def _mutated(change) -> bytes:
    run = run_json("mapping-v2-unsigned-parameters")
    change(run)
    return json.dumps(run, ensure_ascii=False, separators=(",", ":")).encode()


MALFORMED = {
    "truncated": lambda: run_bytes("mapping-v2-unsigned-parameters")[:-1],
    "duplicate-member": lambda: b'{"version":2,"version":2}',
    "not-an-object": lambda: b"[]",
    "not-utf8": lambda: b'{"version":2,"run":"\xff"}',
    "too-deep": lambda: b'{"version":2,"run":' + b"[" * 80 + b"]" * 80 + b"}",
    "version-3-without-its-audit-bytes": lambda: _mutated(lambda r: r.update(version=3)),
    "no-preparation": lambda: _mutated(lambda r: r["run"]["input"].pop("preparation")),
    "no-case": lambda: _mutated(lambda r: r["run"]["input"]["source"].pop("case")),
    "sources-not-object": lambda: _mutated(lambda r: r["run"]["input"]["source"].update(sources=[])),
    "mapping-digest-not-its-mapping": lambda: _mutated(
        lambda r: r["run"]["input"]["source"].update(mappingDigest="sha256:" + "0" * 64)),
    "preparation-with-a-fraction": lambda: _mutated(lambda r: r["run"]["input"]["preparation"].update(version=2.5)),
}


@pytest.mark.parametrize("what", sorted(MALFORMED))
def test_malformed_export_is_recording_malformed(what):
    answer = read_export(MALFORMED[what]())
    assert isinstance(answer, RecordingRefusal) and answer.code == "recording-malformed", answer


def test_near_miss_pretty_printed_export_reads_to_the_same_values():
    """Whitespace is serialisation, not content: an indented export gives the same fixture values."""
    run = run_json("mapping-v2-unsigned-parameters")
    pretty = json.dumps(run, ensure_ascii=False, indent=3).encode()
    recording = read_export(pretty)
    assert isinstance(recording, Recording)
    assert json.loads(recording.case) == run["run"]["input"]["source"]["case"]
    assert recording.preparation_bytes == preparation_form_stdlib(run["run"]["input"]["preparation"])


def test_case_only_run_has_no_sources():
    recording = read_export(_mutated(lambda r: r["run"]["input"]["source"].pop("sources")))
    assert isinstance(recording, Recording) and recording.sources is None


def test_profiles_form():
    assert isinstance(read_profiles(b"{}"), RecordingRefusal)
    assert isinstance(read_profiles(b"[1,]"), RecordingRefusal)
    assert read_profiles(b"[]") == b"[]"


def test_default_name_from_the_run_id():
    recording = read_export(run_bytes("mapping-v2-unsigned-parameters"))
    assert default_name(recording) == "run-8b146b04938b0e4a589dacec4f5f4e5a"  # run_8b14… as the README shows
    odd = read_export(_mutated(lambda r: r["run"].update(id="__Run.ID__" + "x" * 80)))
    assert default_name(odd) == "run-id-" + "x" * 57
    none = read_export(_mutated(lambda r: r["run"].update(id="___")))
    assert default_name(none) == "recording"


@pytest.mark.parametrize("name, ok", [("a", True), ("a" * 64, True), ("run-1", True), ("a" * 65, False),
                                      ("Bad", False), ("a--b", False), ("-a", False), ("a-", False), ("", False),
                                      ("a_b", False), ("../x", False)])
def test_fixture_name_grammar(name, ok):
    assert valid_name(name) is ok
