"""`exchange new --from-run` and `exchange fixture add` on every Runner export version 2 to 5 of the
same run (issue #17 item 1): the files written are byte for byte the same, and the entry passes
`exchange check`. Versions 3 to 5 are built from the real version-2 exports (tests/recording/versions.py).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from judgment_exchange.cli import main

from ..support.catalog import CatalogBuilder
from .exports import NAMES, blank_entry, profiles_bytes, run_bytes, run_json, write_export
from .test_from_run import fill_human_parts  # what a contributor writes by hand
from .versions import audit_line, built, textual, valued

VERSIONS = (2, 3, 4, 5)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def export(tmp_path: Path, name: str, version: int) -> Path:
    """A directory holding the export as `version` and its trusted profiles, as a contributor keeps them."""
    return write_export(tmp_path / f"export-{name}-{version}", textual(name, version), profiles_bytes(name))


def tree(root: Path) -> dict[str, bytes]:
    files = {}
    for folder, _, names in os.walk(root):
        for file in names:
            path = os.path.join(folder, file)
            files[os.path.relpath(path, root)] = Path(path).read_bytes()
    return files


def said_of_the_version(out: str, name: str, version: int) -> None:
    """What the command reports of a version's added members; the record digest computed here."""
    line = audit_line(run_json(name)["run"]["audit"])
    record_digest = "sha256:" + hashlib.sha256(line).hexdigest()
    assert (f"run export version {version}" in out) is (version >= 3)
    assert (f"recordDigest {record_digest}" in out) is (version >= 3)
    assert ("audit record (run.auditBytes): binding absent" in out) is (version >= 3)
    assert ("chain: the entry names this run" in out) is (version >= 4)
    assert ("run.auditSignatures: not-checked" in out) is (version == 5)


@pytest.mark.parametrize("name", NAMES)
def test_new_from_run_writes_one_entry_for_every_version(capsys, tmp_path, name):
    written = {}
    for version in VERSIONS:
        builder = CatalogBuilder(tmp_path / f"catalog-{version}")
        code, out, err = run(capsys, "new", "acme.vendors", "--from-run", export(tmp_path, name, version),
                             "--catalog", builder.root)
        assert code == 0, err
        said_of_the_version(out, name, version)
        entry = builder.root / "entries/acme/vendors"
        written[version] = tree(entry) | {"manifest.json": (builder.root / "manifest.json").read_bytes()}
        fill_human_parts(entry)
        assert run(capsys, "manifest", "--write", "--catalog", builder.root)[0] == 0
        code, out, _ = run(capsys, "check", "--catalog", builder.root, "--no-history", "--format", "json")
        report = json.loads(out)
        assert code == 0 and report["result"] == "pass" and report["replayed"] == 1, report
    assert all(written[v] == written[2] for v in VERSIONS), "another version wrote other bytes"
    [fixture] = {os.path.dirname(f) for f in written[2] if f.startswith("fixtures/")}
    # the version-2 export's own bytes, cut verbatim: nothing of versions 3-5 reached the fixture
    assert written[2][f"{fixture}/case.json"] in run_bytes(name)
    assert written[2][f"{fixture}/profiles.json"] == profiles_bytes(name)


@pytest.mark.parametrize("name", NAMES)
def test_fixture_add_writes_one_fixture_for_every_version(capsys, tmp_path, name):
    written = {}
    for version in VERSIONS:
        builder = CatalogBuilder(tmp_path / f"catalog-{version}")
        blank_entry(builder, "acme.vendors", run_json(name)["run"]["input"]["source"]["mapping"], 2)
        entry = builder.root / "entries/acme/vendors"
        code, out, err = run(capsys, "fixture", "add", entry, export(tmp_path, name, version), "--name", "vendor-7")
        assert code == 0, err
        said_of_the_version(out, name, version)
        written[version] = tree(entry) | {"manifest.json": (builder.root / "manifest.json").read_bytes()}
        code, out, _ = run(capsys, "check", "--catalog", builder.root, "--no-history", "--format", "json")
        report = json.loads(out)
        assert report["replayed"] == 1
        assert {r["code"] for r in report["refusals"]} <= {"placeholder-value"}, report["refusals"]
    assert all(written[v] == written[2] for v in VERSIONS), "another version wrote other bytes"


REFUSALS = {
    "recording-version-unread": lambda: b'{"version":6,' + run_bytes(NAMES[0])[len(b'{"version":2,'):],
    "recording-audit-bytes-mismatch": lambda: built(3, run_members={"auditBytes": "e30="}),  # {}
    "recording-chain-mismatch": lambda: built(4, run_members={"id": "run_other"}),
    "recording-malformed": lambda: built(5, drop=("auditSignatures",)),
}


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_a_refused_version_writes_nothing(capsys, tmp_path, code):
    builder = CatalogBuilder(tmp_path / "catalog")
    folder = write_export(tmp_path / "export", REFUSALS[code](), profiles_bytes(NAMES[0]))
    status, _, err = run(capsys, "new", "acme.vendors", "--from-run", folder, "--catalog", builder.root)
    assert status == 1 and f"refused {code}: run.json /" in err, err
    assert not (builder.root / "entries").exists()


def test_a_not_mapped_export_writes_nothing(capsys, tmp_path):
    value = run_json(NAMES[0])
    for member in ("preparation", "source"):
        value["run"]["input"].pop(member)
    value["release"].pop("inputMapping")
    value["inputs"] = "not-mapped"
    builder = CatalogBuilder(tmp_path / "catalog")
    blank_entry(builder, "acme.vendors", run_json(NAMES[0])["run"]["input"]["source"]["mapping"], 2)
    entry = builder.root / "entries/acme/vendors"
    before = tree(builder.root)
    folder = write_export(tmp_path / "export", valued(value, 4))
    status, _, err = run(capsys, "fixture", "add", entry, folder)
    assert status == 1 and "refused recording-not-mapped" in err and "nothing to make" in err, err
    assert tree(builder.root) == before
