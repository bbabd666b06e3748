"""`exchange fix` (issue #9 item 3): every derived pin recomputed, nothing else touched, nothing
written where the files are wrong in a way a pin cannot fix (docs/fix.md).

Expected pins come from tests/support/catalog.py (hashlib and the standard library's json), never
from the code under test; expected entry.json bytes are the builder's own bytes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from judgment_exchange.cli import main
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from ..support.catalog import CatalogBuilder, pretty, sha, stdlib_canon

WRONG = "sha256:" + "ab" * 32


def snapshot(root: Path) -> dict[str, bytes | str]:
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            out[rel] = "link:" + os.readlink(full) if os.path.islink(full) else Path(full).read_bytes()
    return out


def set_member(path: Path, steps: tuple, value) -> None:
    doc = json.loads(path.read_bytes())
    target = doc
    for step in steps[:-1]:
        target = target[step]
    target[steps[-1]] = value
    path.write_bytes(pretty(doc))


def run(root: Path, *extra: str) -> int:
    return main(["fix", "--catalog", str(root), *extra])


@pytest.fixture
def catalog(tmp_path):
    root = tmp_path / "catalog"
    builder = CatalogBuilder(root)
    builder.add_runner_entry()
    builder.add_unbound_entry()
    builder.add_named_entry()
    builder.add_output_entry()
    builder.add_preset()
    builder.write_manifest()
    return root


def gate_passes(root: Path, replay: bool = False) -> bool:
    """The gate on the catalog (replay off by default: the builder's named entry is not replayable here;
    the walkthrough test below replays)."""
    report = check_catalog(WorkingTree(str(root)), GateOptions(history=False, replay=replay))
    assert report.refusals == [], [f"{r.code} {r.path}: {r.detail}" for r in report.refusals]
    return report.passed


def stale_every_pin(root: Path) -> None:
    e = root / "entries" / "acme"
    set_member(e / "vendors" / "entry.json", ("dialect", "digest"), WRONG)
    set_member(e / "vendors" / "entry.json", ("fixtures", 0, "preparationDigest"), "sha256:" + "0" * 64)
    set_member(e / "writeback" / "entry.json", ("output", "digest"), WRONG)
    set_member(e / "vendors-named" / "entry.json", ("artifact", "version"), "9.9.9")
    set_member(e / "vendors-preset" / "entry.json", ("dialect", "digest"), WRONG)


def test_fix_recomputes_every_pin_back_to_the_builders_bytes(catalog, capsys):
    before = snapshot(catalog)
    stale_every_pin(catalog)
    (catalog / "manifest.json").write_bytes(b"[]\n")
    assert run(catalog) == 0
    assert snapshot(catalog) == before
    assert gate_passes(catalog)
    out = capsys.readouterr().out
    assert f"entries/acme/vendors/entry.json: /dialect/digest: {WRONG} -> " in out
    assert "entries/acme/vendors/entry.json: /fixtures/0/preparationDigest: sha256:000" in out
    assert "entries/acme/writeback/entry.json: /output/digest:" in out
    assert '/artifact: {"id": "urn:judgmentpack:dialect:vendors", "version": "9.9.9"} -> ' \
           '{"id": "urn:judgmentpack:dialect:vendors", "version": "0.1.0"}' in out
    assert "manifest.json: row acme.vendors: (absent) -> (added)" in out


def test_fix_printed_digest_is_the_independent_one(catalog, capsys):
    entry = catalog / "entries/acme/vendors/entry.json"
    expected = json.loads(entry.read_bytes())["dialect"]["digest"]
    assert expected == sha(stdlib_canon(json.loads((catalog / "entries/acme/vendors/dialect.json").read_bytes())))
    set_member(entry, ("dialect", "digest"), WRONG)
    assert run(catalog) == 0
    assert f"/dialect/digest: {WRONG} -> {expected}" in capsys.readouterr().out


def test_fix_keeps_every_other_byte_of_entry_json(catalog):
    entry = catalog / "entries/acme/vendors/entry.json"
    value = json.loads(entry.read_bytes())
    good = value["dialect"]["digest"]
    value["dialect"]["digest"] = WRONG
    value["title"] = "Vendors \u00e9"
    # four-space indentation, members in another order, an escape: a person's own layout
    reordered = {k: value[k] for k in reversed(list(value))}
    data = (json.dumps(reordered, indent=4, ensure_ascii=True) + "\n\n").encode()
    entry.write_bytes(data)
    assert run(catalog) == 0
    assert entry.read_bytes() == data.replace(WRONG.encode(), good.encode())
    assert gate_passes(catalog)


def test_fix_inserts_a_missing_artifact_pair(catalog):
    entry = catalog / "entries/acme/vendors-named/entry.json"
    original = entry.read_bytes()
    value = json.loads(original)
    del value["artifact"]
    entry.write_bytes(pretty(value))
    assert run(catalog) == 0
    assert entry.read_bytes() == original


def test_check_prints_and_writes_nothing(catalog, capsys):
    stale_every_pin(catalog)
    before = snapshot(catalog)
    assert run(catalog, "--check") == 1
    assert snapshot(catalog) == before
    assert "/dialect/digest" in capsys.readouterr().out
    assert run(catalog) == 0
    assert run(catalog, "--check") == 0
    assert "every pin is up to date" in capsys.readouterr().out


def test_manifest_write_stays_the_manifest_only_form(catalog):
    stale_every_pin(catalog)
    entry_before = (catalog / "entries/acme/vendors/entry.json").read_bytes()
    (catalog / "manifest.json").write_bytes(b"[]\n")
    assert main(["manifest", "--write", "--catalog", str(catalog)]) == 0
    assert (catalog / "entries/acme/vendors/entry.json").read_bytes() == entry_before


def _break(root: Path, how: str) -> str:
    """One way the files are wrong that no pin fixes; returns the file the refusal must name."""
    e = root / "entries" / "acme"
    if how == "entry-json-malformed":
        (e / "vendors" / "entry.json").write_bytes(b'{"entryVersion": 3,')
        return "entries/acme/vendors/entry.json"
    if how == "entry-json-symlink":
        (e / "vendors" / "entry.json").rename(e / "vendors" / "real.json")
        os.symlink("real.json", e / "vendors" / "entry.json")
        return "entries/acme/vendors/entry.json"
    if how == "fixture-path-invalid":
        set_member(e / "vendors" / "entry.json", ("fixtures", 0, "path"), "fixtures/elsewhere")
        return "entries/acme/vendors/entry.json"
    if how == "output-member-missing":
        value = json.loads((e / "writeback" / "entry.json").read_bytes())
        del value["output"]["path"]
        (e / "writeback" / "entry.json").write_bytes(pretty(value))
        return "entries/acme/writeback/entry.json"
    if how == "dialect-json-malformed":
        (e / "vendors" / "dialect.json").write_bytes(b"{\"version\": 2,,}")
        return "entries/acme/vendors/dialect.json"
    if how == "dialect-form-fails":
        set_member(e / "vendors-preset" / "dialect.json", ("sources",), "not a list")
        return "entries/acme/vendors-preset/dialect.json"
    if how == "dialect-format-mismatch":
        set_member(e / "vendors" / "dialect.json", ("version",), 3)
        return "entries/acme/vendors/entry.json"
    if how == "output-json-malformed":
        (e / "writeback" / "output.json").write_bytes(b"[1, 2")
        return "entries/acme/writeback/output.json"
    if how == "output-form-fails":
        set_member(e / "writeback" / "output.json", ("outputVersion",), "2")
        return "entries/acme/writeback/output.json"
    if how == "preparation-not-canonical":
        prep = e / "vendors" / "fixtures" / "vendor-7" / "preparation.json"
        prep.write_bytes(pretty(json.loads(prep.read_bytes())))
        return "entries/acme/vendors/fixtures/vendor-7/preparation.json"
    if how == "preparation-missing":
        (e / "vendors" / "fixtures" / "vendor-7" / "preparation.json").unlink()
        return "entries/acme/vendors/fixtures/vendor-7/preparation.json"
    if how == "fixture-directory-missing":
        import shutil
        shutil.rmtree(e / "vendors" / "fixtures" / "vendor-7")
        return "entries/acme/vendors/fixtures/vendor-7"
    if how == "binding-missing":
        (e / "vendors-unbound" / "fixtures" / "vendor-7" / "binding.json").unlink()
        return "entries/acme/vendors-unbound/fixtures/vendor-7/binding.json"
    if how == "id-path-mismatch":
        set_member(e / "vendors" / "entry.json", ("id",), "acme.other")
        return "entries/acme/vendors/entry.json"
    if how == "artifact-malformed":
        set_member(e / "vendors-named" / "entry.json", ("artifact", "version"), "01.0.0")
        return "entries/acme/vendors-named/entry.json"
    if how == "dialect-json-missing":
        (e / "vendors" / "dialect.json").unlink()
        return "entries/acme/vendors/dialect.json"
    if how == "fixture-unexpected":
        (e / "vendors" / "fixtures" / "stray").mkdir()
        return "entries/acme/vendors/fixtures/stray"
    if how == "output-version-mismatch":
        set_member(e / "writeback" / "entry.json", ("output", "outputVersion"), 2)
        return "entries/acme/writeback/entry.json"
    raise AssertionError(how)


BROKEN = ["entry-json-malformed", "entry-json-symlink", "fixture-path-invalid", "output-member-missing",
          "dialect-json-malformed",
          "dialect-form-fails", "dialect-format-mismatch", "output-json-malformed", "output-form-fails",
          "preparation-not-canonical", "preparation-missing", "fixture-directory-missing", "binding-missing",
          "id-path-mismatch", "artifact-malformed", "dialect-json-missing", "fixture-unexpected",
          "output-version-mismatch"]


@pytest.mark.parametrize("how", BROKEN)
def test_fix_refuses_and_changes_nothing_at_all(catalog, capsys, how):
    # a stale pin elsewhere in the catalog must stay stale: fix is all or nothing
    set_member(catalog / "entries/acme/writeback/entry.json", ("output", "digest"), WRONG)
    named_file = _break(catalog, how)
    before = snapshot(catalog)
    assert run(catalog) == 1
    assert snapshot(catalog) == before
    err = capsys.readouterr().err
    assert named_file in err and "nothing written" in err
    assert run(catalog, "--check") == 1


def test_manifest_symlink_is_an_io_failure_and_nothing_is_written(catalog, capsys):
    set_member(catalog / "entries/acme/vendors/entry.json", ("dialect", "digest"), WRONG)
    (catalog / "manifest.json").rename(catalog / "real-manifest.json")
    os.symlink("real-manifest.json", catalog / "manifest.json")
    before = snapshot(catalog)
    assert run(catalog) == 4
    assert snapshot(catalog) == before


def test_missing_catalog_is_an_io_failure(tmp_path):
    assert run(tmp_path / "nowhere") == 4


def test_attack_artifact_id_with_terminal_escape_is_never_printed(catalog, capsys):
    # the entry's pair is author text outside §3's artifact grammar (a control character): refused,
    # and the report describes it rather than quoting it
    set_member(catalog / "entries/acme/vendors-named/entry.json", ("artifact", "id"), "urn:\x1b[31mred")
    assert run(catalog) == 1
    captured = capsys.readouterr()
    assert "\x1b" not in captured.out + captured.err and "red" not in captured.out + captured.err


def test_attack_manifest_junk_is_described_not_printed(catalog, capsys):
    rows = json.loads((catalog / "manifest.json").read_bytes())
    rows[0]["entryDigest"] = "\x1b]0;pwned\x07"
    rows.append({"id": "evil\u202e.x", "kind": "dialect"})
    (catalog / "manifest.json").write_bytes(pretty(rows))
    assert run(catalog) == 0
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "pwned" not in text and "\u202e" not in text and "evil" not in text
    assert "(not a digest)" in text and "(removed: no such entry)" in text
    assert gate_passes(catalog)


def test_a_part_a_person_writes_does_not_stop_fix(catalog):
    """Refusals of members no pin reads (an empty title, a fixtures list with no recording yet) are the
    gate's to report; fix still writes the pins (docs/fix.md)."""
    entry = catalog / "entries/acme/vendors-preset/entry.json"
    set_member(entry, ("title",), "")
    set_member(entry, ("dialect", "digest"), WRONG)
    assert run(catalog) == 0
    report = check_catalog(WorkingTree(str(catalog)), GateOptions(history=False, replay=False))
    assert [r.code for r in report.refusals] == ["entry-member-invalid"]


def test_placeholders_do_not_stop_fix_and_still_fail_the_gate(catalog):
    set_member(catalog / "entries/acme/vendors/entry.json", ("author",), "replace-me")
    set_member(catalog / "entries/acme/vendors/entry.json", ("dialect", "digest"), WRONG)
    assert run(catalog) == 0
    report = check_catalog(WorkingTree(str(catalog)), GateOptions(history=False, replay=False))
    assert [r.code for r in report.refusals] == ["placeholder-value"]


def test_new_then_human_parts_then_fix_passes_the_gate(tmp_path, capsys):
    """The contributor's path: `exchange new`; a person writes dialect.json (the Runner's mapping) and
    the reference's dialectVersion; `exchange fix` pins the document; `exchange fixture add` records a
    real Runner export; the person writes the human parts; `exchange fix`; and the gate passes, replay
    included. No digest is written by hand."""
    from judgment_exchange.authoring.jsonedit import replace_member
    from judgment_exchange.jsonstrict import Number

    from ..support.catalog import EXPORTS, runner_export

    root = tmp_path / "catalog"
    root.mkdir()
    (root / "manifest.json").write_bytes(b"[]\n")
    assert main(["new", "acme.vendors", "--kind", "dialect", "--catalog", str(root)]) == 0
    entry_dir = root / "entries" / "acme" / "vendors"
    entry = entry_dir / "entry.json"
    export = runner_export()
    (entry_dir / "dialect.json").write_bytes(pretty(export["mapping"]))
    entry.write_bytes(replace_member(entry.read_bytes(), ("dialect", "dialectVersion"), Number("2")))
    capsys.readouterr()
    assert run(root) == 0
    assert "/dialect/digest:" in capsys.readouterr().out
    assert json.loads(entry.read_bytes())["dialect"]["digest"] == export["mappingDigest"]
    assert main(["fixture", "add", str(entry_dir), str(EXPORTS / "mapping-v2-unsigned-parameters")]) == 0
    # the human parts, written in place as a person would
    data = entry.read_bytes()
    for steps, value in ((("title",), "Vendor screening"), (("author",), "Acme Screening Team"),
                         (("description",), "Reads a vendor row and its registry entry for the screening pack."),
                         (("pack", "id"), "https://packs.example.org/vendor-screening")):
        data = replace_member(data, steps, value)
    entry.write_bytes(data)
    (entry_dir / "README.md").write_text("# Vendor screening\n\nReads a vendor row and its registry entry.\n",
                                         encoding="utf-8")
    assert run(root) == 0
    assert "manifest.json: row acme.vendors/entryDigest:" in capsys.readouterr().out
    written = json.loads(entry.read_bytes())
    assert written["fixtures"][0]["preparationDigest"] == sha(stdlib_canon(export["preparation"]))
    rows = json.loads((root / "manifest.json").read_bytes())
    assert rows[0]["entryDigest"] == sha(entry.read_bytes())
    assert gate_passes(root, replay=True)
    assert main(["check", "--catalog", str(root), "--no-history"]) == 0
