"""Hostile input gets a named refusal, never a traceback (RFC 0019 §3 bounds, dialect §§1, 12)."""

from __future__ import annotations

import json
import os
import random

import pytest

from judgment_exchange.cli import main
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import TooLarge, WorkingTree

from .support.catalog import CatalogBuilder

OPTIONS = GateOptions(replay=False, history=False)


@pytest.fixture
def catalog(tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry()
    builder.write_manifest()
    return builder.root


def codes(root) -> set[str]:
    return {r.code for r in check_catalog(WorkingTree(str(root)), OPTIONS).refusals}


def test_truncations_and_noise_in_entry_json(catalog):
    path = catalog / "entries/acme/vendors/entry.json"
    original = path.read_bytes()
    rng = random.Random(19)
    samples = [original[:n] for n in range(0, len(original), 97)]
    samples += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))) for _ in range(25)]
    samples += [original.replace(b'"', b"'", 1), original + b"\x00", b"\xef\xbb\xbf" + original]
    for data in samples:
        path.write_bytes(data)
        found = codes(catalog)
        assert found and found <= {"json-malformed", "json-over-bound", "entry-member-invalid",
                                   "manifest-digest-mismatch", "entry-member-missing", "entry-member-unknown",
                                   "entry-version-unread", "code-binary"}


def test_truncations_of_the_manifest(catalog):
    path = catalog / "manifest.json"
    original = path.read_bytes()
    for n in range(1, len(original) - 2, 31):
        path.write_bytes(original[:n])
        assert "manifest-malformed" in codes(catalog)


def test_deep_nesting_everywhere(catalog):
    for rel in ("manifest.json", "entries/acme/vendors/entry.json", "entries/acme/vendors/dialect.json",
                "entries/acme/vendors/fixtures/vendor-7/preparation.json"):
        target = catalog / rel
        saved = target.read_bytes()
        target.write_bytes(b"[" * 100_000)
        assert codes(catalog), rel
        target.write_bytes(saved)


def test_huge_file_is_refused_without_reading_it(catalog):
    path = catalog / "entries/acme/vendors/entry.json"
    with open(path, "r+b") as fh:
        fh.truncate(200 * 1024 * 1024)  # sparse: reading it whole would be slow and wasteful
    with pytest.raises(TooLarge):
        WorkingTree(str(catalog)).read("entries/acme/vendors/entry.json", 65536)
    assert "file-over-bound" in codes(catalog)


def test_odd_names_and_special_files(catalog, capsys):
    entry = catalog / "entries/acme/vendors"
    (entry / "fixtures/vendor-7/pr\u00e9paration.json").write_bytes(b"{}")
    os.mkfifo(entry / "pipe")
    odd = os.fsencode(str(entry)) + b"/\xff\xfe.json"
    with open(odd, "wb") as fh:
        fh.write(b"{}")
    found = codes(catalog)
    assert {"fixture-file-unexpected", "entry-file-unexpected"} <= found
    code = main(["check", "--catalog", str(catalog), "--format", "json", "--no-history"])
    out = capsys.readouterr().out
    assert code == 1 and json.loads(out)["result"] == "fail"
    code = main(["check", "--catalog", str(catalog), "--no-history"])
    assert code == 1 and "result: fail" in capsys.readouterr().out


def test_files_where_directories_should_be(catalog):
    (catalog / "entries/zeta").write_bytes(b"not a publisher")
    fixtures = catalog / "entries/acme/vendors/fixtures"
    import shutil
    shutil.rmtree(fixtures)
    fixtures.write_bytes(b"not a directory")
    found = codes(catalog)
    assert {"catalog-stray-file", "entry-file-not-regular"} <= found


def test_symlinked_entry_and_symlink_loop(catalog):
    os.symlink(catalog / "entries/acme/vendors", catalog / "entries/acme/mirror")
    os.symlink("loop", catalog / "entries/acme/vendors/loop")
    found = codes(catalog)
    assert "catalog-stray-file" in found and "entry-file-unexpected" in found


def test_missing_manifest(catalog):
    (catalog / "manifest.json").unlink()
    assert codes(catalog) == {"manifest-malformed"}


def test_directory_that_is_no_id(catalog):
    os.rename(catalog / "entries/acme", catalog / "entries/acme.x")
    assert "entry-id-path" in codes(catalog)


def test_empty_catalog_reports_zero_entries(tmp_path, capsys):
    builder = CatalogBuilder(tmp_path / "empty")
    assert main(["check", "--catalog", str(builder.root), "--format", "json", "--no-history"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["entries"] == 0 and report["result"] == "pass" and report["refusals"] == []
