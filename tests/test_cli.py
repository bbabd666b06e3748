"""The `exchange` command's surfaces and exit statuses (shared/design/interfaces.md)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

from judgment_exchange.cli import main

from .support.cases import apply
from .support.catalog import CatalogBuilder
from .support.paths import REPO


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def catalog(tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry()
    builder.add_preset()
    builder.write_manifest()
    return builder.root


def test_check_json_on_a_passing_catalog(capsys, catalog):
    code, out, _ = run(capsys, "check", "--catalog", str(catalog), "--format", "json", "--no-history")
    report = json.loads(out)
    assert code == 0 and out.endswith("\n") and out.count("\n") == 1
    assert report["result"] == "pass" and report["entries"] == 2 and report["history"] == "skipped"
    assert set(report) == {"result", "entries", "refusals", "skipped", "replayed", "history", "reader", "replays"}


def test_check_text_says_what_it_checked(capsys, catalog):
    code, out, _ = run(capsys, "check", "--catalog", str(catalog), "--no-history")
    assert code == 0
    assert "entries: 2 checked" in out and "history: skipped" in out and "result: pass" in out


def test_planted_refusal_exits_1_with_exactly_that_code(capsys, catalog):
    apply(catalog, {"op": "set", "file": "entries/acme/vendors/entry.json", "pointer": "/assertion", "value": "x"})
    main(["manifest", "--write", "--catalog", str(catalog)])
    capsys.readouterr()
    code, out, _ = run(capsys, "check", "--catalog", str(catalog), "--format", "json", "--no-history")
    report = json.loads(out)
    assert code == 1 and report["result"] == "fail"
    assert [(r["code"], r["entry"]) for r in report["refusals"]] == [("assertion-mismatch", "acme.vendors")]
    assert report["refusals"][0]["path"] == "entries/acme/vendors/entry.json"


def test_check_entry_filter(capsys, catalog):
    apply(catalog, {"op": "set", "file": "entries/acme/vendors/entry.json", "pointer": "/title", "value": ""})
    main(["manifest", "--write", "--catalog", str(catalog)])
    capsys.readouterr()
    code, out, _ = run(capsys, "check", "--catalog", str(catalog), "--format", "json", "--no-history",
                       "--entry", "acme.vendors-preset")
    assert code == 0 and json.loads(out)["entries"] == 1


def test_bad_invocation_is_exit_3(capsys):
    assert run(capsys, "check", "--format", "yaml")[0] == 3
    assert run(capsys, "frobnicate")[0] == 3
    assert run(capsys)[0] == 3


def test_unreadable_catalog_is_exit_4(capsys, tmp_path):
    assert run(capsys, "check", "--catalog", str(tmp_path / "absent"))[0] == 4


def test_manifest_check_and_write(capsys, catalog):
    assert run(capsys, "manifest", "--check", "--catalog", str(catalog))[0] == 0
    apply(catalog, {"op": "set", "file": "entries/acme/vendors/entry.json", "pointer": "/title", "value": "New"})
    code, out, _ = run(capsys, "manifest", "--check", "--catalog", str(catalog))
    assert code == 1 and "entryDigest" in out
    assert run(capsys, "manifest", "--write", "--catalog", str(catalog))[0] == 0
    rows = json.loads((catalog / "manifest.json").read_bytes())
    stored = (catalog / "entries/acme/vendors/entry.json").read_bytes()
    assert rows[0]["entryDigest"] == "sha256:" + hashlib.sha256(stored).hexdigest()
    assert [r["id"] for r in rows] == ["acme.vendors", "acme.vendors-preset"]


def test_digest_stored_and_canonical(capsys, tmp_path):
    path = tmp_path / "doc.json"
    path.write_bytes(b'{ "b": 1, "a": [true] }\n')
    code, out, _ = run(capsys, "digest", str(path))
    assert code == 0 and out.strip() == "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()
    code, out, _ = run(capsys, "digest", str(path), "--canonical")
    assert code == 0 and out.strip() == "sha256:" + hashlib.sha256(b'{"a":[true],"b":1}').hexdigest()
    path.write_bytes(b'{"a": 1.5}')
    assert run(capsys, "digest", str(path), "--canonical")[0] == 1
    assert run(capsys, "digest", str(tmp_path / "absent"))[0] == 4


def test_form_valid_and_refused(capsys, catalog, tmp_path):
    code, out, _ = run(capsys, "form", str(catalog / "entries/acme/vendors/dialect.json"))
    answer = json.loads(out)
    assert code == 0 and answer == {"result": "valid", "digest": answer["digest"]}
    entry = json.loads((catalog / "entries/acme/vendors/entry.json").read_bytes())
    assert answer["digest"] == entry["dialect"]["digest"]  # the Runner's recorded mappingDigest
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"[" * 100)
    code, out, _ = run(capsys, "form", str(bad))
    assert code == 1 and json.loads(out)["refusal"] == "input-over-bound"


def test_new_scaffold_then_check(capsys, tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    code, out, _ = run(capsys, "new", "acme.triage", "--kind", "preset", "--catalog", str(builder.root))
    assert code == 0 and "entries/acme/triage/entry.json" in out
    assert run(capsys, "manifest", "--write", "--catalog", str(builder.root))[0] == 0
    code, out, _ = run(capsys, "check", "--catalog", str(builder.root), "--format", "json", "--no-history")
    # the scaffold's placeholders never pass (issue #9): they, and nothing else, are refused
    assert code == 1, out
    assert {r["code"] for r in json.loads(out)["refusals"]} == {"placeholder-value"}, out
    assert run(capsys, "new", "Not An Id", "--kind", "preset", "--catalog", str(builder.root))[0] == 3


def test_console_script_on_this_repository():
    """The README's main command, as a user runs it, on this catalog."""
    done = subprocess.run([sys.executable, "-m", "judgment_exchange", "check", "--format", "json"],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["result"] == "pass" and report["history"] in ("checked", "no-releases")


def test_new_refuses_a_symlinked_publisher_directory(capsys, tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    outside = tmp_path / "outside"
    outside.mkdir()
    (builder.root / "entries").mkdir()
    (builder.root / "entries" / "acme").symlink_to(outside)
    assert run(capsys, "new", "acme.triage", "--kind", "preset", "--catalog", str(builder.root))[0] == 3
    assert list(outside.iterdir()) == []


def test_digest_of_a_special_file_is_io_failure(capsys, tmp_path):
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert run(capsys, "digest", str(fifo))[0] == 4


def test_release_tag_outside_the_grammar_is_a_bad_invocation(capsys, catalog):
    assert run(capsys, "check", "--catalog", str(catalog), "--no-history", "--release-tag", "1.0.0")[0] == 3
    assert run(capsys, "check", "--catalog", str(catalog), "--no-history", "--release-tag", "v1.0.0")[0] == 0
