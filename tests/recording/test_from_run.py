"""`exchange new PUBLISHER.NAME --from-run RUN_EXPORT`: a whole entry from one export, only the human
parts left; and `exchange new`'s scaffold listing no fixture it does not create."""

from __future__ import annotations

import json
import os

import pytest

from judgment_exchange.catalog import placeholders
from judgment_exchange.cli import main

from ..support.catalog import CatalogBuilder, sha, stdlib_canon
from .exports import EXPORTS, NAMES, http_run, preparation_form_stdlib, run_json, write_export


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def fill_human_parts(entry) -> None:
    """What a contributor writes by hand: title, description, author and README.md."""
    path = entry / "entry.json"
    value = json.loads(path.read_bytes())
    value["title"], value["author"] = "Vendor screening from the records database", "acme-data"
    value["description"] = "Reads one vendor's record from the records database into the intake facts."
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (entry / "README.md").write_text("# Vendor screening\n\nReads a vendor record into the intake facts.\n",
                                     encoding="utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_every_real_export_becomes_a_passing_entry(capsys, tmp_path, name):
    builder = CatalogBuilder(tmp_path / "catalog")
    code, out, err = run(capsys, "new", "acme.vendors", "--from-run", EXPORTS / name, "--catalog", builder.root)
    assert code == 0, err
    entry = builder.root / "entries/acme/vendors"
    value = run_json(name)
    source, release = value["run"]["input"]["source"], value["release"]
    # dialect.json: the mapping in canon bytes, so its stored digest is the Runner's mappingDigest
    assert (entry / "dialect.json").read_bytes() == stdlib_canon(source["mapping"])
    assert sha(stdlib_canon(source["mapping"])) == source["mappingDigest"]
    written = json.loads((entry / "entry.json").read_bytes())
    assert written["pack"] == {"id": release["packId"], "digests": [release["packDigest"]]}
    assert written["dialect"] == {"path": "dialect.json", "dialectVersion": 2, "digest": source["mappingDigest"]}
    assert written["sourceKinds"] == ["operation"]
    prep = preparation_form_stdlib(value["run"]["input"]["preparation"])
    [item] = written["fixtures"]
    assert item["preparationDigest"] == sha(prep)
    assert (entry / item["path"] / "preparation.json").read_bytes() == prep
    # only the human parts are left, each a placeholder of placeholders.py
    assert placeholders.TITLE_SUFFIX in written["title"] and written["author"] == placeholders.REPLACE_ME
    assert placeholders.README_TEXT in (entry / "README.md").read_text(encoding="utf-8")
    fill_human_parts(entry)
    assert run(capsys, "manifest", "--write", "--catalog", builder.root)[0] == 0
    code, out, _ = run(capsys, "check", "--catalog", builder.root, "--no-history", "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["result"] == "pass" and report["replayed"] == 1, report


def test_entry_passes_but_for_its_placeholders(capsys, tmp_path):
    """Before the human parts are written, the gate's only objection is the placeholders."""
    builder = CatalogBuilder(tmp_path / "catalog")
    assert run(capsys, "new", "acme.vendors", "--from-run", EXPORTS / NAMES[0], "--catalog", builder.root)[0] == 0
    code, out, _ = run(capsys, "check", "--catalog", builder.root, "--no-history", "--format", "json")
    report = json.loads(out)
    assert report["replayed"] == 1
    assert {r["code"] for r in report["refusals"]} <= {"placeholder-value"}


def test_from_run_refusals_write_nothing(capsys, tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    value = run_json(NAMES[0])
    value["run"]["input"]["preparation"]["lineage"][0]["reason"] = "changed"
    bad = write_export(tmp_path / "bad", value, (EXPORTS / NAMES[0] / "profiles.json").read_bytes())
    code, _, err = run(capsys, "new", "acme.vendors", "--from-run", bad, "--catalog", builder.root)
    assert code == 1 and "preparation-differs" in err
    assert not (builder.root / "entries").exists()
    broken = write_export(tmp_path / "broken", b"{}")
    assert run(capsys, "new", "acme.vendors", "--from-run", broken, "--catalog", builder.root)[0] == 1
    del value["release"]["packId"]
    value["run"]["input"]["preparation"] = run_json(NAMES[0])["run"]["input"]["preparation"]
    nopack = write_export(tmp_path / "nopack", value)
    code, _, err = run(capsys, "new", "acme.vendors", "--from-run", nopack, "--catalog", builder.root)
    assert code == 1 and "recording-malformed" in err and "packId" in err
    assert run(capsys, "new", "acme.vendors", "--from-run", tmp_path / "none", "--catalog", builder.root)[0] == 4
    assert not (builder.root / "entries").exists()


def test_from_run_bad_invocations(capsys, tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    export = EXPORTS / NAMES[0]
    assert run(capsys, "new", "acme.vendors", "--from-run", export, "--kind", "preset", "--catalog",
               builder.root)[0] == 3
    assert run(capsys, "new", "acme.vendors", "--from-run", export, "--direction", "output", "--catalog",
               builder.root)[0] == 3
    assert run(capsys, "new", "acme.vendors", "--catalog", builder.root)[0] == 3  # neither --kind nor --from-run
    assert run(capsys, "new", "Not.An Id", "--from-run", export, "--catalog", builder.root)[0] == 3
    assert run(capsys, "new", "acme.vendors", "--from-run", export, "--catalog", builder.root)[0] == 0
    assert run(capsys, "new", "acme.vendors", "--from-run", export, "--catalog", builder.root)[0] == 3  # exists
    os.remove(builder.root / "manifest.json")
    assert run(capsys, "new", "acme.more", "--from-run", export, "--catalog", builder.root)[0] == 3


def test_scaffold_lists_no_fixture_it_does_not_create(capsys, tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    assert run(capsys, "new", "acme.triage", "--kind", "dialect", "--catalog", builder.root)[0] == 0
    entry = builder.root / "entries/acme/triage"
    assert json.loads((entry / "entry.json").read_bytes())["fixtures"] == []
    assert not (entry / "fixtures").exists()


@pytest.mark.parametrize("kind, text", [("preset", placeholders.PRESET_README_TEXT),
                                        ("dialect", placeholders.README_TEXT)])
def test_readme_template_speaks_of_its_kind(capsys, tmp_path, kind, text):
    builder = CatalogBuilder(tmp_path / "catalog")
    assert run(capsys, "new", "acme.triage", "--kind", kind, "--catalog", builder.root)[0] == 0
    readme = (builder.root / "entries/acme/triage/README.md").read_text(encoding="utf-8")
    assert text in readme and ("preset" in readme) is (kind == "preset")


def test_new_from_run_writes_a_description_placeholder_the_gate_refuses(capsys, tmp_path):
    """Issue #26 item 6: CONTRIBUTING says the scaffold leaves the description to write; it now does, as a
    placeholder the gate refuses until a person writes it."""
    builder = CatalogBuilder(tmp_path / "catalog")
    code, _, err = run(capsys, "new", "acme.vendors", "--from-run", EXPORTS / NAMES[0], "--catalog", builder.root)
    assert code == 0, err
    entry = builder.root / "entries/acme/vendors"
    assert json.loads((entry / "entry.json").read_bytes())["description"].startswith("replace-me")
    fill_human_parts(entry)
    value = json.loads((entry / "entry.json").read_bytes())
    value["description"] = "replace-me: one or two sentences on what this entry reads and for which pack"
    (entry / "entry.json").write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
    assert main(["fix", "--catalog", str(builder.root)]) == 0
    capsys.readouterr()
    code, out, _ = run(capsys, "check", "--catalog", builder.root, "--no-history", "--format", "json")
    refusals = json.loads(out)["refusals"]
    assert code == 1 and [(r["code"], r["path"]) for r in refusals] == [
        ("placeholder-value", "entries/acme/vendors/entry.json")], refusals


def test_from_run_a_reading_of_another_digest_writes_nothing(capsys, tmp_path, monkeypatch):
    """A reading whose digest is not the recorded preparation's (codes/verifier.py `read_answer`, the rule the gate,
    fix, fixture add and new --from-run share; tests/test_rule_homes.py) is refused, no directory left behind."""
    from ..support.answers import OTHER, answer_another_digest

    builder = CatalogBuilder(tmp_path / "catalog")
    answer_another_digest(monkeypatch)
    code, _, err = run(capsys, "new", "acme.vendors", "--from-run", EXPORTS / NAMES[0], "--catalog", builder.root)
    assert code == 1 and f"replay-digest-mismatch: the verifier's reading has digest {OTHER}" in err, err
    assert not (builder.root / "entries").exists()


def test_from_run_a_kind_unread_recording_is_written(capsys, tmp_path):
    """A run under a dialect whose source kind the verifier does not read (http) is a skip, as the gate reports it
    (codes/verifier.py `read_answer`; tests/test_rule_homes.py): the entry is written and the command says so."""
    value, _ = http_run(NAMES[0])
    export = write_export(tmp_path / "export", value, (EXPORTS / NAMES[0] / "profiles.json").read_bytes())
    builder = CatalogBuilder(tmp_path / "catalog")
    code, out, err = run(capsys, "new", "acme.http", "--from-run", export, "--catalog", builder.root)
    assert code == 0 and "not replayed: the verifier answers kind-unread" in out, (out, err)
    assert (builder.root / "entries/acme/http/entry.json").exists()
