"""authoring/recording.py reads the Runner's run export versions 2 to 5 (issue #17 item 1).

Versions 3 to 5 are built from the two real version-2 exports by the reference's rules
(tests/recording/versions.py, standard library only); every expected digest is computed here with
hashlib. Each code has a case that triggers it and a near miss that does not.
"""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

from judgment_exchange.authoring import recording as recording_module
from judgment_exchange.authoring.recording import Recording, RecordingRefusal, read_export
from judgment_exchange.codes import REGISTRY

from .exports import NAMES, run_bytes, run_json
from .versions import (
    PREVIOUS,
    SEQUENCE,
    TRAIL,
    audit_line,
    b64,
    built,
    chain,
    checkpoint,
    compact,
    entry_line,
    sidecar,
    textual,
    valued,
)

NAME = NAMES[0]
RUN_ID = run_json(NAME)["run"]["id"]
LINE = audit_line(run_json(NAME)["run"]["audit"])
MIB = 1024 * 1024

MALFORMED = "recording-malformed"
UNREAD = "recording-version-unread"
NOT_MAPPED = "recording-not-mapped"
AUDIT_MISMATCH = "recording-audit-bytes-mismatch"
CHAIN_MISMATCH = "recording-chain-mismatch"


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def refused(data: bytes, code: str) -> RecordingRefusal:
    answer = read_export(data)
    assert isinstance(answer, RecordingRefusal) and answer.code == code, answer
    assert answer.detail.startswith("run.json /"), answer.detail  # names the member
    return answer


def accepted(data: bytes) -> Recording:
    answer = read_export(data)
    assert isinstance(answer, Recording), answer
    return answer


def test_the_new_codes_are_registered():
    for code in (UNREAD, NOT_MAPPED, AUDIT_MISMATCH, CHAIN_MISMATCH):
        assert code in REGISTRY and REGISTRY[code].section.startswith("docs/recording.md"), code


# --- every version reads to the same recording ------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_textual_version_2_is_the_export_itself(name):
    """The builder's version 2 adds nothing, so versions 3-5 differ from the real export only by members."""
    assert textual(name, 2) == run_bytes(name)


@pytest.mark.parametrize("version", [3, 4, 5])
@pytest.mark.parametrize("name", NAMES)
def test_every_version_reads_to_the_version_2_recording(name, version):
    base, read = accepted(run_bytes(name)), accepted(textual(name, version))
    for part in ("run_id", "case", "sources", "mapping", "mapping_digest", "preparation", "preparation_bytes",
                 "pack_id", "pack_digest", "input_profiles", "audit"):
        assert getattr(read, part) == getattr(base, part), part
    line = audit_line(run_json(name)["run"]["audit"])
    assert (base.version, base.record, base.record_digest, base.checked) == (2, None, None, ())
    assert read.version == version and read.record == line
    assert read.record_digest == "sha256:" + hashlib.sha256(line).hexdigest()
    said = "\n".join(read.checked)
    assert f"run export version {version}" in said and read.record_digest in said
    assert ("chain:" in said) is (version >= 4)
    assert ("not-checked" in said and "1 readable and 0 unreadable lines" in said) is (version == 5)


# --- recording-version-unread -----------------------------------------------------------------------

def _with_version(literal: bytes) -> bytes:
    data = run_bytes(NAME)
    return b'{"version":' + literal + data[len(b'{"version":2'):]


@pytest.mark.parametrize("literal", [b"0", b"1", b"6", b"-2", b"9007199254740993", b'"3"', b"3.0", b"3e0",
                                     b"true", b"null", b"[3]"])
def test_another_version_is_refused_by_name(literal):
    answer = refused(_with_version(literal), UNREAD)
    assert "/version" in answer.detail and "?version=" in answer.detail


@pytest.mark.parametrize("version", [2, 3, 4, 5])
def test_near_miss_each_version_read(version):
    assert accepted(textual(NAME, version)).version == version


def test_no_version_is_not_an_export():
    value = run_json(NAME)
    value.pop("version")
    refused(compact(value), MALFORMED)


# --- recording-not-mapped ---------------------------------------------------------------------------

def _without_lineage(inputs: object = "not-mapped", mapping: object = ..., keep_preparation: bool = False) -> dict:
    """A run of a job with no mapping v2: no preparation and no source under run.input, as the reference says."""
    value = run_json(NAME)
    given = value["run"]["input"]
    if not keep_preparation:
        given.pop("preparation")
        given.pop("source")
    if mapping is ...:
        value["release"].pop("inputMapping")
    else:
        value["release"]["inputMapping"] = mapping
    if inputs is not None:
        value["inputs"] = inputs
    return value


@pytest.mark.parametrize("version", [3, 4, 5])
def test_not_mapped_export_is_refused(version):
    answer = refused(valued(_without_lineage(), version), NOT_MAPPED)
    assert "nothing to make an entry" in answer.detail


@pytest.mark.parametrize("mapping", [..., None, {"version": 1, "file": "x"}])
def test_no_mapping_v2_and_no_preparation_is_not_mapped(mapping):
    refused(compact(_without_lineage(inputs=None, mapping=mapping)), NOT_MAPPED)


def test_near_miss_inputs_other_than_not_mapped_is_malformed():
    value = run_json(NAME)
    value["inputs"] = "mapped"
    refused(compact(value), MALFORMED)


def test_near_miss_no_preparation_under_a_mapping_v2_is_malformed():
    value = run_json(NAME)
    value["run"]["input"].pop("preparation")
    refused(compact(value), MALFORMED)


def test_near_miss_preparation_present_reads_whatever_the_release_says():
    accepted(compact(_without_lineage(inputs=None, keep_preparation=True)))


# --- each added member present exactly from its version on (recording-malformed) ------------------------

PRESENCE = {
    "3-without-auditBytes": lambda: built(3, drop=("auditBytes",)),
    "4-without-chain": lambda: built(4, drop=("chain",)),
    "5-without-auditSignatures": lambda: built(5, drop=("auditSignatures",)),
    "2-with-auditBytes": lambda: built(2, run_members={"auditBytes": b64(LINE)}),
    "3-with-chain": lambda: built(3, chain_value=chain(entry_line(RUN_ID, digest(LINE)))),
    "4-with-auditSignatures": lambda: built(4, run_members={"auditSignatures": b64(sidecar(digest(LINE)))}),
}


@pytest.mark.parametrize("what", sorted(PRESENCE))
def test_a_member_outside_its_versions_is_malformed(what):
    member = what.split("-")[-1]
    assert member in refused(PRESENCE[what](), MALFORMED).detail


@pytest.mark.parametrize("version", [2, 3, 4, 5])
def test_near_miss_built_versions_read(version):
    accepted(built(version))


# --- base64 form and bounds, measured on the text before decoding (recording-malformed) ---------------

def _put(member: str, text: object) -> bytes:
    """The export at the member's version with the member's base64 text replaced."""
    if member == "auditBytes":
        return built(3, run_members={"auditBytes": text})
    if member == "entry":
        line = entry_line(RUN_ID, digest(LINE))
        return built(4, chain_value={"entry": text, "checkpoint": checkpoint(line)})
    return built(5, run_members={"auditSignatures": text})


BAD_BASE64 = {"not-a-string": 5, "empty": "", "outside-the-alphabet": "QUJD!A==", "url-safe": "QUJD-_==",
              "unpadded": "QUI", "whitespace": "QUJD\nQUJD", "inner-padding": "QU==QUJD",
              "non-zero-padding-bits": "QR==", "too-much-padding": "Q==="}


@pytest.mark.parametrize("what", sorted(BAD_BASE64))
@pytest.mark.parametrize("member", ["auditBytes", "entry", "auditSignatures"])
def test_base64_form_is_held(member, what):
    assert member in refused(_put(member, BAD_BASE64[what]), MALFORMED).detail


def test_near_miss_canonical_padding_reads():
    """QQ== is the canonical base64 of b"A" (what QR== would decode to, leniently)."""
    assert base64.b64decode("QQ==") == base64.b64decode("QR==") == b"A"
    assert "not-checked" in "\n".join(accepted(_put("auditSignatures", "QQ==")).checked)


def _no_decoding(monkeypatch, text: str) -> None:
    """Fail the test if `text` (the member under test) is ever decoded; other members decode as usual."""
    real = base64.b64decode

    def guarded(value, *args, **kwargs):
        if value == text:
            raise AssertionError("decoded before its bound was measured")
        return real(value, *args, **kwargs)
    monkeypatch.setattr(recording_module.base64, "b64decode", guarded)


@pytest.mark.parametrize("member, bound", [("auditBytes", 8 * MIB), ("entry", 1024), ("auditSignatures", 16 * 1024)])
def test_over_bound_text_is_refused_before_decoding(monkeypatch, member, bound):
    text = "A" * ((bound + 2) // 3 * 4 + 4)
    data = _put(member, text)
    _no_decoding(monkeypatch, text)
    answer = refused(data, MALFORMED)
    assert member in answer.detail and str(len(text)) in answer.detail and str(bound) in answer.detail


@pytest.mark.parametrize("member, bound", [("auditBytes", 8 * MIB), ("entry", 1024), ("auditSignatures", 16 * 1024)])
def test_one_byte_over_within_the_text_is_refused_before_decoding(monkeypatch, member, bound):
    """bound + 1 bytes encode to the same text length as bound bytes here: the exact length is read from
    the text and its padding, still before decoding."""
    text = b64(b"x" * (bound + 1))
    assert len(text) == len(b64(b"x" * bound))
    data = _put(member, text)
    _no_decoding(monkeypatch, text)
    assert str(bound + 1) in refused(data, MALFORMED).detail


def test_near_miss_sidecar_of_exactly_its_bound_reads():
    data = b"x" * (16 * 1024 - 1) + b"\n"
    assert "0 readable and 1 unreadable lines" in "\n".join(accepted(_put("auditSignatures", b64(data))).checked)


def test_near_miss_entry_of_exactly_its_bound_reads():
    short = entry_line(RUN_ID, digest(LINE))
    long_id = RUN_ID + "x" * (1024 - len(short))
    line = entry_line(long_id, digest(LINE))
    assert len(line) == 1024
    value = run_json(NAME)
    value["run"]["id"] = long_id
    accepted(valued(value, 4, chain_value={"entry": b64(line), "checkpoint": checkpoint(line)}))
    over = entry_line(long_id + "x", digest(LINE))
    value["run"]["id"] = long_id + "x"
    refused(valued(value, 4, chain_value={"entry": b64(over), "checkpoint": checkpoint(over)}), MALFORMED)


def test_near_miss_audit_bytes_of_exactly_their_bound_read():
    """The record's line padded with spaces to 8 MiB (whitespace around a JSON value: the same value)."""
    line = LINE + b" " * (8 * MIB - len(LINE))
    read = accepted(built(3, run_members={"auditBytes": b64(line)}))
    assert read.record == line and read.record_digest == digest(line)


# --- run.auditBytes: one line, strict, run.audit's value (recording-audit-bytes-mismatch) ----------------

AUDIT_BROKEN = {
    "a-final-newline": lambda: LINE + b"\n",
    "a-carriage-return": lambda: b"{\r" + LINE[1:],
    "two-lines": lambda: LINE + b"\n" + LINE,
    "truncated": lambda: LINE[:-1],
    "a-member-twice": lambda: b'{"kind":"evaluation",' + LINE[1:],
    "not-utf8": lambda: LINE[:-1] + b',"x":"\xff"}',
    "nan": lambda: LINE[:-1] + b',"x":NaN}',
    "another-value": lambda: LINE.replace(b'"kind":"evaluation"', b'"kind":"rehearsal"'),
    "a-member-more": lambda: LINE[:-1] + b',"x":1}',
    "two-values": lambda: LINE + b" " + LINE,
}


@pytest.mark.parametrize("what", sorted(AUDIT_BROKEN))
def test_audit_bytes_not_the_record_are_refused(what):
    line = AUDIT_BROKEN[what]()
    assert line != LINE
    assert "/run/auditBytes" in refused(built(3, run_members={"auditBytes": b64(line)}), AUDIT_MISMATCH).detail


def test_audit_bytes_without_run_audit_are_refused():
    value = json.loads(built(3))
    value["run"].pop("audit")
    refused(compact(value), AUDIT_MISMATCH)


def test_number_literals_are_compared_as_written():
    """dialect §1: a number is its literal; 1 and 1.0 are not the same record bytes."""
    value = run_json(NAME)
    value["run"]["audit"]["attempt"] = 1
    line = audit_line(value["run"]["audit"])
    assert b'"attempt":1}' in line
    accepted(valued(value, 3))
    refused(valued(value, 3, run_members={"auditBytes": b64(line.replace(b'"attempt":1}', b'"attempt":1.0}'))}),
            AUDIT_MISMATCH)


AUDIT_SAME_VALUE = {
    "members-reordered": lambda: compact(dict(sorted(run_json(NAME)["run"]["audit"].items()))),
    "spaces-and-tabs": lambda: b"{ \t" + LINE[1:].replace(b'","', b'", "') + b" ",
    "escaped-letters": lambda: LINE.replace(b'"kind":"evaluation"', b'"kind":"\\u0065valuation"'),
}


@pytest.mark.parametrize("what", sorted(AUDIT_SAME_VALUE))
def test_near_miss_other_bytes_of_the_same_value_read(what):
    line = AUDIT_SAME_VALUE[what]()
    assert line != LINE
    read = accepted(built(3, run_members={"auditBytes": b64(line)}))
    assert read.record == line and read.record_digest == digest(line)


def test_runtime_bytes_unescaped_beside_the_runners_escaped_record():
    """The Runtime writes &, <, > as they are; the Runner re-encodes run.audit with them escaped. The
    bytes differ from that re-encoding, parse to the same value, and are read, with their own digest."""
    value = run_json(NAME)
    value["run"]["audit"]["tool"]["name"] = "jpack & <co>"
    runtime = audit_line(value["run"]["audit"])
    assert b"jpack & <co>" in runtime
    data = valued(value, 3)
    escaped = data.replace(b"&", b"\\u0026").replace(b"<", b"\\u003c").replace(b">", b"\\u003e")
    assert b"&" not in escaped and b"\\u0026" in escaped  # the export as the Runner encodes it
    read = accepted(escaped)
    assert read.record == runtime and read.record_digest == digest(runtime) and read.audit != runtime
    assert runtime not in escaped and b"\\u0026" in read.audit
    assert read.record_digest != digest(read.audit)


# --- chain: an entry the Runner writes (recording-malformed), bound to this run (recording-chain-mismatch) --

def _entry(**changes: object) -> dict:
    entry = {"entryVersion": "1", "trail": TRAIL, "sequence": SEQUENCE, "previous": PREVIOUS, "kind": "run",
             "run": RUN_ID, "auditDigest": digest(LINE)}
    entry.update(changes)
    return {k: v for k, v in entry.items() if v is not None}


def _chained(entry: dict | bytes, cp: object = None, **chain_changes: object) -> bytes:
    line = entry if isinstance(entry, bytes) else compact(entry)
    made = {"entry": b64(line), "checkpoint": cp if cp is not None else checkpoint(line)}
    made.update(chain_changes)
    return built(4, chain_value=made)


def _cp(**changes: object) -> dict:
    made = checkpoint(compact(_entry()))
    made.update(changes)
    return {k: v for k, v in made.items() if v is not None}


CHAIN_FORM = {
    "not-an-object": lambda: built(4, chain_value=[]),
    "a-member-more": lambda: _chained(_entry(), more=1),
    "no-checkpoint": lambda: built(4, chain_value={"entry": b64(compact(_entry()))}),
    "entry-two-lines": lambda: _chained(compact(_entry()) + b"\n"),
    "entry-not-json": lambda: _chained(b"{entryVersion:1}"),
    "entry-an-array": lambda: _chained(b"[]"),
    "entry-a-member-twice": lambda: _chained(b'{"kind":"run",' + compact(_entry())[1:]),
    "entry-a-member-more": lambda: _chained(_entry(note="x")),
    "entry-no-previous": lambda: _chained({k: v for k, v in _entry().items() if k != "previous"}),
    "entryVersion-2": lambda: _chained(_entry(entryVersion="2")),
    "entryVersion-a-number": lambda: _chained(_entry(entryVersion=1)),
    "trail-upper-case": lambda: _chained(_entry(trail=TRAIL.upper())),
    "trail-short": lambda: _chained(_entry(trail=TRAIL[:-1])),
    "sequence-0": lambda: _chained(_entry(sequence=0)),
    "sequence-2^53-1": lambda: _chained(_entry(sequence=2**53 - 1)),
    "sequence-a-string": lambda: _chained(_entry(sequence="7")),
    "sequence-a-fraction": lambda: _chained(_entry(sequence=7.0)),
    "previous-not-a-digest": lambda: _chained(_entry(previous="sha256:" + "E8" * 32)),
    "kind-discontinuity": lambda: _chained(_entry(kind="discontinuity")),
    "run-empty": lambda: _chained(_entry(run="")),
    "run-a-number": lambda: _chained(_entry(run=5)),
    "auditDigest-not-a-digest": lambda: _chained(_entry(auditDigest="md5:" + "0" * 32)),
    "checkpoint-not-an-object": lambda: _chained(_entry(), cp="x"),
    "checkpoint-a-member-more": lambda: _chained(_entry(), cp=_cp(note="x")),
    "checkpoint-no-trail": lambda: _chained(_entry(), cp=_cp(trail=None)),
    "checkpoint-sequence-a-string": lambda: _chained(_entry(), cp=_cp(sequence="7")),
}


@pytest.mark.parametrize("what", sorted(CHAIN_FORM))
def test_chain_not_of_the_runners_form_is_malformed(what):
    assert "/chain" in refused(CHAIN_FORM[what](), MALFORMED).detail


CHAIN_BINDING = {
    "entry-names-another-run": lambda: _chained(_entry(run="run_00000000000000000000000000000000")),
    "entry-names-other-bytes": lambda: _chained(_entry(auditDigest=digest(LINE + b" "))),
    "checkpoint-of-another-line": lambda: _chained(_entry(), cp=_cp(recordDigest=digest(b"another line"))),
    "checkpoint-another-sequence": lambda: _chained(_entry(), cp=_cp(sequence=SEQUENCE + 1)),
    "checkpoint-another-trail": lambda: _chained(_entry(), cp=_cp(trail="0" * 32)),
    "checkpoint-version-2": lambda: _chained(_entry(), cp=_cp(checkpointVersion="2")),
    "checkpoint-of-the-compact-re-encoding": lambda: _chained(
        json.dumps(_entry(), separators=(", ", ": ")).encode(), cp=_cp()),
}


@pytest.mark.parametrize("what", sorted(CHAIN_BINDING))
def test_chain_not_bound_to_its_run_is_refused(what):
    assert "/chain/" in refused(CHAIN_BINDING[what](), CHAIN_MISMATCH).detail


def test_chain_entry_of_other_audit_bytes_is_refused_though_the_bytes_read():
    """Bytes of the same value but another spelling are the record's; the entry must name those bytes."""
    other = LINE + b" "
    refused(built(4, run_members={"auditBytes": b64(other)}), CHAIN_MISMATCH)  # the built entry names LINE
    line = entry_line(RUN_ID, digest(other))
    accepted(built(4, run_members={"auditBytes": b64(other)}, chain_value=chain(line)))


CHAIN_NEAR = {
    "spaced-line": lambda: json.dumps(_entry(), separators=(", ", ": ")).encode(),
    "members-reversed": lambda: compact(dict(reversed(list(_entry().items())))),
    "run-id-escaped": lambda: compact(_entry()).replace(b'"run":"run_', b'"run":"\\u0072un_'),
    "sequence-1": lambda: compact(_entry(sequence=1)),
    "sequence-2^53-2": lambda: compact(_entry(sequence=2**53 - 2)),
}


@pytest.mark.parametrize("what", sorted(CHAIN_NEAR))
def test_near_miss_an_entry_read_as_json_reads_it_and_digested_as_its_own_bytes(what):
    line = CHAIN_NEAR[what]()
    entry = json.loads(line)
    accepted(built(4, chain_value={"entry": b64(line), "checkpoint": checkpoint(line, entry["sequence"])}))


# --- run.auditSignatures: within its bound; its lines counted, never checked ----------------------------

def _signed(data: bytes) -> str:
    return "\n".join(accepted(_put("auditSignatures", b64(data))).checked)


def test_sidecar_lines_are_counted_as_the_runner_counts_them():
    good = sidecar(digest(LINE))
    rotation = compact({"keyId": "0f" * 16, "kind": "key-rotation", "at": 1, "next": "ab" * 32,
                        "sidecarVersion": "1", "signature": "cd" * 64, "trail": TRAIL}) + b"\n"
    eight = compact(json.loads(good) | {"note": "x"}) + b"\n"
    zero = compact(json.loads(good) | {"sequence": 0}) + b"\n"
    long = compact(json.loads(good) | {"trail": TRAIL}).replace(b"{", b"{" + b" " * 4096, 1) + b"\n"
    assert "1 readable and 0 unreadable" in _signed(good)
    assert "2 readable and 0 unreadable" in _signed(good + rotation)
    assert "1 readable and 1 unreadable" in _signed(good + b"garbage")        # a last line never ended
    assert "0 readable and 3 unreadable" in _signed(eight + zero + long)
    assert "not-checked" in _signed(good)


def test_messages_never_print_author_values():
    """Refusals name members and lengths, never what the author wrote there."""
    marker = "zq" * 8
    value = run_json(NAME)
    value["inputs"] = marker
    cases = [compact(value), _with_version(json.dumps(marker).encode()),
             _chained(_entry(run="run_" + marker)), _chained(_entry(trail=marker)),
             built(3, run_members={"auditBytes": b64(LINE[:-1] + f',"{marker}":1}}'.encode())}),
             built(3, run_members={"auditBytes": marker + "!"}),
             _put("auditSignatures", b64(marker.encode()) + "?")]
    for data in cases:
        answer = read_export(data)
        assert isinstance(answer, RecordingRefusal) and marker not in answer.detail, answer
