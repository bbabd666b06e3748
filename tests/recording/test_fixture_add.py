"""`exchange fixture add`: a recording replayed before it is written, refused with a named code otherwise.

Expected bytes are the export's own (cut verbatim), the Runner's preparation in §9.5's form computed
with the standard library, and binding documents computed with hashlib and json.dumps.
"""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from judgment_exchange.cli import main

from ..support.catalog import CatalogBuilder, sha, stdlib_canon
from .exports import (
    EXPORTS,
    blank_entry,
    copy_export,
    http_run,
    preparation_form_stdlib,
    profiles_bytes,
    run_bytes,
    run_json,
    unbind,
    version3_run,
    write_export,
)

NAME = "mapping-v2-unsigned-parameters"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def catalog(tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    mapping = run_json(NAME)["run"]["input"]["source"]["mapping"]
    blank_entry(builder, "acme.vendors", mapping, 2)
    return builder


def snapshot(root) -> dict:
    out = {}
    for folder, _, files in os.walk(root):
        for f in files:
            p = os.path.join(folder, f)
            out[os.path.relpath(p, root)] = open(p, "rb").read()
    return out


def test_fixture_add_writes_the_recording_and_the_gate_passes(capsys, catalog):
    entry = catalog.root / "entries/acme/vendors"
    code, out, err = run(capsys, "fixture", "add", entry, EXPORTS / NAME)
    assert code == 0, err
    fixture = entry / "fixtures" / "run-8b146b04938b0e4a589dacec4f5f4e5a"
    data, value = run_bytes(NAME), run_json(NAME)
    source = value["run"]["input"]["source"]
    assert sorted(os.listdir(fixture)) == ["case.json", "preparation.json", "profiles.json", "sources.json"]
    # no re-serialisation of the recording: the export's own bytes, and profiles.json byte for byte
    for file, member in (("case.json", "case"), ("sources.json", "sources")):
        stored = (fixture / file).read_bytes()
        assert stored in data and json.loads(stored) == source[member]
    assert (fixture / "profiles.json").read_bytes() == profiles_bytes(NAME)
    # the one re-serialisation: the preparation in §9.5's form, computed independently
    prep = preparation_form_stdlib(value["run"]["input"]["preparation"])
    assert (fixture / "preparation.json").read_bytes() == prep
    item = json.loads((entry / "entry.json").read_bytes())["fixtures"]
    assert item == [{"name": fixture.name, "path": f"fixtures/{fixture.name}", "preparationDigest": sha(prep)}]
    assert "binding absent" in out  # run.audit carries no binding (the exports' README)
    code, out, _ = run(capsys, "check", "--catalog", catalog.root, "--no-history", "--format", "json")
    report = json.loads(out)
    assert report["replayed"] == 1
    assert {r["code"] for r in report["refusals"]} <= {"placeholder-value"}, report["refusals"]
    assert run(capsys, "manifest", "--catalog", catalog.root)[0] == 0  # the row fixture add wrote is current


def test_entry_json_keeps_every_other_byte(capsys, catalog):
    path = catalog.root / "entries/acme/vendors/entry.json"
    before = path.read_bytes().replace(b'"fixtures": []', b'"fixtures":    [ ]')
    path.write_bytes(before)
    assert run(capsys, "fixture", "add", path.parent, EXPORTS / NAME, "--name", "vendor-7")[0] == 0
    after = path.read_bytes()
    head, _, tail = before.partition(b"[ ]")
    assert after.startswith(head) and after.endswith(tail)
    assert json.loads(after)["fixtures"][0]["name"] == "vendor-7"


def test_mapping_not_the_entry_document_is_refused(capsys, catalog):
    entry = catalog.root / "entries/acme/vendors"
    before = snapshot(catalog.root)
    code, _, err = run(capsys, "fixture", "add", entry, EXPORTS / "mapping-v2-before-calculators")
    assert code == 1 and "recording-mapping-mismatch" in err
    assert snapshot(catalog.root) == before


def test_near_miss_mapping_of_the_same_document_stored_otherwise(capsys, tmp_path):
    """dialect.json stored canonical instead of indented: the same document, so the recording is its own."""
    builder = CatalogBuilder(tmp_path / "catalog")
    mapping = run_json(NAME)["run"]["input"]["source"]["mapping"]
    blank_entry(builder, "acme.vendors", mapping, 2, stored=stdlib_canon(mapping))
    assert run(capsys, "fixture", "add", builder.root / "entries/acme/vendors", EXPORTS / NAME)[0] == 0


def _flip_preparation(run_: dict) -> None:
    lineage = run_["run"]["input"]["preparation"]["lineage"][0]
    lineage["reason"] = lineage["reason"][:-1] + chr(ord(lineage["reason"][-1]) ^ 1)


def test_reading_not_the_recorded_preparation_writes_nothing(capsys, catalog, tmp_path):
    value = run_json(NAME)
    _flip_preparation(value)
    export = write_export(tmp_path / "export", value, profiles_bytes(NAME))
    before = snapshot(catalog.root)
    code, _, err = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", export)
    assert code == 1 and "refused preparation-differs" in err
    assert snapshot(catalog.root) == before


def test_changed_receipt_names_its_finding(capsys, catalog, tmp_path):
    value = run_json(NAME)
    value["run"]["input"]["source"]["sources"]["vendor"]["response"]["result"]["id"] = 8
    export = write_export(tmp_path / "export", value, profiles_bytes(NAME))
    code, _, err = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", export)
    assert code == 1 and "refused acquisition-invalid" in err


def test_near_miss_re_serialised_export_is_the_same_recording(capsys, catalog, tmp_path):
    """The export written back by json.dumps (same values): replayed and written."""
    export = write_export(tmp_path / "export", run_json(NAME), profiles_bytes(NAME))
    assert run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", export / "run.json")[0] == 0


@pytest.mark.parametrize("data", [b"", b"{", b"[]", b'{"version":2,"run":{}}'])
def test_malformed_export_is_refused(capsys, catalog, tmp_path, data):
    export = write_export(tmp_path / "export", data, profiles_bytes(NAME))
    code, _, err = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", export)
    assert code == 1 and "refused recording-malformed" in err and "Traceback" not in err


def test_missing_export_is_an_io_failure(capsys, catalog, tmp_path):
    assert run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", tmp_path / "none")[0] == 4
    (tmp_path / "empty").mkdir()
    assert run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", tmp_path / "empty")[0] == 4


def test_symlinked_export_is_refused(capsys, catalog, tmp_path):
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "run.json").symlink_to(EXPORTS / NAME / "run.json")
    (folder / "profiles.json").write_bytes(profiles_bytes(NAME))
    code, _, err = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", folder)
    assert code == 1 and "recording-not-regular" in err


def test_symlinked_profiles_are_refused(capsys, catalog, tmp_path):
    folder = write_export(tmp_path / "export", run_bytes(NAME))
    (folder / "profiles.json").symlink_to(EXPORTS / NAME / "profiles.json")
    code, _, err = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", folder)
    assert code == 1 and "recording-not-regular" in err


def test_profiles_from_the_release_when_none_beside(capsys, catalog, tmp_path):
    folder = write_export(tmp_path / "export", run_bytes(NAME))
    code, out, _ = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", folder, "--name", "x")
    assert code == 0 and "release.inputProfiles" in out
    stored = (catalog.root / "entries/acme/vendors/fixtures/x/profiles.json").read_bytes()
    assert stored in run_bytes(NAME) and json.loads(stored) == run_json(NAME)["release"]["inputProfiles"]


def test_profiles_option_wins_and_wrong_profiles_are_refused(capsys, catalog, tmp_path):
    other = tmp_path / "other.json"
    other.write_bytes(profiles_bytes("mapping-v2-before-calculators"))  # another gateway key
    code, _, err = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", EXPORTS / NAME,
                       "--profiles", other)
    assert code == 1 and "refused profile-mismatch" in err


def test_name_clash_is_refused_and_replace_re_records(capsys, catalog):
    entry = catalog.root / "entries/acme/vendors"
    assert run(capsys, "fixture", "add", entry, EXPORTS / NAME, "--name", "vendor-7")[0] == 0
    before = snapshot(catalog.root)
    code, _, err = run(capsys, "fixture", "add", entry, EXPORTS / NAME, "--name", "vendor-7")
    assert code == 1 and "refused fixture-exists" in err and snapshot(catalog.root) == before
    assert run(capsys, "fixture", "add", entry, EXPORTS / NAME, "--name", "vendor-8")[0] == 0  # near-miss
    assert run(capsys, "fixture", "add", entry, EXPORTS / NAME, "--name", "vendor-7", "--replace")[0] == 0
    names = [f["name"] for f in json.loads((entry / "entry.json").read_bytes())["fixtures"]]
    assert names == ["vendor-7", "vendor-8"]


def test_existing_fixture_directory_is_refused(capsys, catalog):
    entry = catalog.root / "entries/acme/vendors"
    (entry / "fixtures" / "stray").mkdir(parents=True)
    code, _, err = run(capsys, "fixture", "add", entry, EXPORTS / NAME, "--name", "stray")
    assert code == 1 and "refused fixture-exists" in err
    assert os.listdir(entry / "fixtures" / "stray") == []


def test_symlinked_fixtures_directory_is_refused(capsys, catalog, tmp_path):
    entry = catalog.root / "entries/acme/vendors"
    outside = tmp_path / "outside"
    outside.mkdir()
    (entry / "fixtures").symlink_to(outside)
    code, _, err = run(capsys, "fixture", "add", entry, EXPORTS / NAME)
    assert code == 1 and "entry-file-not-regular" in err and list(outside.iterdir()) == []


@pytest.mark.parametrize("name", ["Bad", "a--b", "a" * 65, "../escape", "-x"])
def test_bad_name_is_a_bad_invocation(capsys, catalog, name):
    before = snapshot(catalog.root)
    assert run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", EXPORTS / NAME, "--name", name)[0] == 3
    assert snapshot(catalog.root) == before


def test_near_miss_longest_name(capsys, catalog):
    assert run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", EXPORTS / NAME, "--name",
               "a" * 64)[0] == 0


def test_entry_dir_not_an_entry(capsys, catalog, tmp_path):
    assert run(capsys, "fixture", "add", catalog.root / "entries/acme", EXPORTS / NAME)[0] == 3
    assert run(capsys, "fixture", "add", tmp_path, EXPORTS / NAME)[0] == 3
    assert run(capsys, "fixture", "add", tmp_path / "nowhere", EXPORTS / NAME)[0] == 4


def test_preset_takes_no_fixture(capsys, tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_preset()
    builder.write_manifest()
    code, _, err = run(capsys, "fixture", "add", builder.root / "entries/acme/vendors-preset", EXPORTS / NAME)
    assert code == 1 and "entry-not-recordable" in err


def test_entry_whose_reference_is_wrong_beyond_a_pin_is_not_recordable(capsys, catalog):
    path = catalog.root / "entries/acme/vendors/entry.json"
    entry = json.loads(path.read_bytes())
    entry["dialect"]["dialectVersion"] = 3  # the document is version 2: no pin fixes that
    path.write_text(json.dumps(entry, indent=2))
    code, _, err = run(capsys, "fixture", "add", path.parent, EXPORTS / NAME)
    assert code == 1 and "entry-not-recordable" in err and "dialect-format-mismatch" in err


def test_near_miss_a_stale_dialect_digest_alone_does_not_stop_a_recording(capsys, catalog):
    """The document's digest pin is exchange fix's to write, and fix writes a changed document's pin only
    once its fixtures replay under it (issue #17 item 4; docs/fix.md): so the recording comes first."""
    path = catalog.root / "entries/acme/vendors/entry.json"
    entry = json.loads(path.read_bytes())
    entry["dialect"]["digest"] = "sha256:" + "1" * 64
    path.write_text(json.dumps(entry, indent=2))
    code, _, err = run(capsys, "fixture", "add", path.parent, EXPORTS / NAME)
    assert code == 0, err
    assert run(capsys, "fix", "--catalog", catalog.root)[0] == 0
    document = json.loads((path.parent / "dialect.json").read_bytes())
    expected = "sha256:" + hashlib.sha256(json.dumps(document, ensure_ascii=False, sort_keys=True,
                                                     separators=(",", ":")).encode("utf-8")).hexdigest()
    assert json.loads(path.read_bytes())["dialect"]["digest"] == expected


# --- an unbound entry: the binding derived from the run's bound mapping and checked (dialect §4.4) ---

@pytest.fixture
def unbound(tmp_path):
    value, bound = version3_run()
    builder = CatalogBuilder(tmp_path / "catalog")
    blank_entry(builder, "acme.unbound", unbind(bound), 3)
    export = write_export(tmp_path / "export", value, profiles_bytes(NAME))
    return builder, value, bound, export


def test_unbound_entry_gets_its_binding(capsys, unbound):
    builder, value, bound, export = unbound
    entry = builder.root / "entries/acme/unbound"
    code, out, err = run(capsys, "fixture", "add", entry, export, "--name", "vendor-7")
    assert code == 0, err
    published = sha(stdlib_canon(unbind(bound)))
    expected = stdlib_canon({"dialect": published, "sources": {
        s["name"]: {"profile": s["profile"], "profileDigest": s["profileDigest"]} for s in bound["sources"]}})
    assert (entry / "fixtures/vendor-7/binding.json").read_bytes() == expected
    code, out, _ = run(capsys, "check", "--catalog", builder.root, "--no-history", "--format", "json")
    report = json.loads(out)
    assert report["replayed"] == 1 and {r["code"] for r in report["refusals"]} <= {"placeholder-value"}


def test_unbound_entry_with_another_document_is_refused(capsys, unbound):
    builder, value, bound, export = unbound
    entry = builder.root / "entries/acme/unbound"
    doc = unbind(bound)
    doc["sources"][0]["maxAge"] = 301  # another published document: its bound digest is not the run's
    blank_entry(builder, "acme.other", doc, 3)
    before = snapshot(builder.root)
    code, _, err = run(capsys, "fixture", "add", builder.root / "entries/acme/other", export)
    assert code == 1 and "recording-mapping-mismatch" in err and snapshot(builder.root) == before
    doc = unbind(bound)
    doc["sources"][0]["name"] = "vendor-2"  # an unbound source the recording has no bound form of
    blank_entry(builder, "acme.renamed", doc, 3)
    code, _, err = run(capsys, "fixture", "add", builder.root / "entries/acme/renamed", export)
    assert code == 1 and "recording-mapping-mismatch" in err
    assert run(capsys, "fixture", "add", entry, export)[0] == 0  # near-miss: its own document


def test_bound_v2_recording_is_not_an_unbound_entry(capsys, unbound):
    """The real version-2 export's mapping keeps its legacy members: binding the v3 document does not give it."""
    builder, *_ = unbound
    code, _, err = run(capsys, "fixture", "add", builder.root / "entries/acme/unbound", EXPORTS / NAME)
    assert code == 1 and "recording-mapping-mismatch" in err


# --- the audit record's §11 binding: a report line, never a refusal ---

def _with_binding(raw_audit: bytes, digest: str) -> bytes:
    return raw_audit[:-1] + b',"binding":{"kind":"judgment-pack-runner/preparation/1","digest":"' + \
        digest.encode() + b'"}}'


def _raw_audit(data: bytes) -> bytes:
    value = json.loads(data)
    line = json.dumps(value["run"]["audit"], ensure_ascii=False, separators=(",", ":")).encode()
    return line


@pytest.mark.parametrize("which, expected", [("matching", "binding matches"),
                                             ("another", "finding binding-mismatch")])
def test_audit_record_beside_the_export(capsys, catalog, tmp_path, which, expected):
    value = run_json(NAME)
    prep = sha(preparation_form_stdlib(value["run"]["input"]["preparation"]))
    digest = prep if which == "matching" else "sha256:" + "2" * 64
    folder = copy_export(NAME, tmp_path / "export")
    (folder / "audit-record.jsonl").write_bytes(_with_binding(_raw_audit(run_bytes(NAME)), digest) + b"\n")
    code, out, _ = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", folder)
    assert code == 0
    assert f"audit record (audit-record.jsonl): {expected}" in out
    assert "audit record (run.audit): binding absent" in out


# --- a fixture the verifier does not read: written, reported as the gate reports it ---

def test_kind_unread_fixture_is_written_and_reported(capsys, tmp_path):
    value, doc = http_run(NAME)
    builder = CatalogBuilder(tmp_path / "catalog")
    blank_entry(builder, "acme.http", doc, 3)
    entry = builder.root / "entries/acme/http"
    entry_json = json.loads((entry / "entry.json").read_bytes())
    entry_json["sourceKinds"] = ["http"]
    (entry / "entry.json").write_text(json.dumps(entry_json, indent=2) + "\n")
    export = write_export(tmp_path / "export", value, profiles_bytes(NAME))
    code, out, _ = run(capsys, "fixture", "add", entry, export)
    assert code == 0 and "not replayed: the verifier answers kind-unread" in out


def test_entry_dir_outside_the_id_grammar_is_a_bad_invocation(capsys, catalog):
    odd = catalog.root / "entries" / "Acme" / "Vendors\u202e"
    odd.mkdir(parents=True)
    code, _, err = run(capsys, "fixture", "add", odd, EXPORTS / NAME)
    assert code == 3 and "grammar" in err


def test_symlinked_publisher_directory_is_a_bad_invocation(capsys, catalog, tmp_path):
    (catalog.root / "entries" / "other").symlink_to(catalog.root / "entries" / "acme")
    code, _, _ = run(capsys, "fixture", "add", catalog.root / "entries/other/vendors", EXPORTS / NAME)
    assert code == 3
    assert not (catalog.root / "entries/acme/vendors/fixtures").exists()


def test_oversized_export_is_refused_before_it_is_read(capsys, catalog, tmp_path):
    folder = tmp_path / "export"
    folder.mkdir()
    with open(folder / "run.json", "wb") as fh:
        fh.truncate(32 * 1024 * 1024 + 1)  # sparse: one byte over the bound
    code, _, err = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", folder)
    assert code == 1 and "recording-malformed" in err and "bound" in err


def test_fifo_export_does_not_hang(capsys, catalog, tmp_path):
    folder = tmp_path / "export"
    folder.mkdir()
    os.mkfifo(folder / "run.json")
    code, _, err = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", folder)
    assert code == 1 and "recording-not-regular" in err


def test_symlinked_audit_record_is_reported_not_refused(capsys, catalog, tmp_path):
    folder = copy_export(NAME, tmp_path / "export")
    (folder / "audit-record.jsonl").symlink_to(EXPORTS / NAME / "profiles.json")
    code, out, _ = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", folder)
    assert code == 0 and "audit record (audit-record.jsonl): not read (recording-not-regular)" in out


def test_two_line_audit_record_is_reported(capsys, catalog, tmp_path):
    folder = copy_export(NAME, tmp_path / "export")
    line = _raw_audit(run_bytes(NAME))
    (folder / "audit-record.jsonl").write_bytes(line + b"\n" + line + b"\n")
    code, out, _ = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", folder)
    assert code == 0 and "audit record (audit-record.jsonl): refusal input-malformed" in out


def test_a_run_under_a_pack_digest_the_entry_does_not_list_is_refused(capsys, catalog):
    """Issue #26 item 6: fixture add accepted a run recorded under a pack digest the entry's pack.digests does
    not list; it is refused with nothing written, and the printed fix, applied, admits it."""
    entry = catalog.root / "entries/acme/vendors"
    path = entry / "entry.json"
    value = json.loads(path.read_bytes())
    recorded = run_json(NAME)["release"]["packDigest"]
    other = "sha256:" + hashlib.sha256(b"another pack release").hexdigest()
    value["pack"] = {"id": value["pack"]["id"], "digests": [other]}
    path.write_text(json.dumps(value, indent=2) + "\n")
    before = snapshot(catalog.root)
    code, out, err = run(capsys, "fixture", "add", entry, EXPORTS / NAME)
    assert code == 1 and "recording-pack-unlisted" in out + err and recorded in out + err, (out, err)
    assert snapshot(catalog.root) == before
    value["pack"]["digests"].append(recorded)  # the fix: add the digest the detail names
    path.write_text(json.dumps(value, indent=2) + "\n")
    code, out, err = run(capsys, "fixture", "add", entry, EXPORTS / NAME)
    assert code == 0, err


def test_near_miss_an_entry_naming_its_packs_by_versions_takes_the_run(capsys, catalog):
    entry = catalog.root / "entries/acme/vendors"
    value = json.loads((entry / "entry.json").read_bytes())
    assert "versions" in value["pack"] and "digests" not in value["pack"]
    assert run(capsys, "fixture", "add", entry, EXPORTS / NAME)[0] == 0


def test_attack_a_reading_of_another_digest_writes_nothing(capsys, catalog, monkeypatch):
    """A reading whose digest is not the recorded preparation's (codes/verifier.py `read_answer`, the rule the gate,
    fix, fixture add and new --from-run share; tests/test_rule_homes.py) is refused, nothing written."""
    from ..support.answers import OTHER, answer_another_digest

    entry = catalog.root / "entries/acme/vendors"
    answer_another_digest(monkeypatch)
    before = snapshot(catalog.root)
    code, out, err = run(capsys, "fixture", "add", entry, EXPORTS / NAME)
    assert code == 1 and snapshot(catalog.root) == before, (out, err)
    assert f"replay-digest-mismatch: the verifier's reading has digest {OTHER}, the recorded preparation's" in err
