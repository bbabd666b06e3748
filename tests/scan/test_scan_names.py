"""Names and the manifest, scanned (issue #11 item 2; RFC 0019 §§3, 4): every path component of an entry
(its publisher and name directories, fixture directories, file names) and the repository's manifest.json.

A name that holds a shape is refused at its parent directory and described by kind and length, never
quoted; a refusal of a file below it names the nearest directory whose name is clean. Samples come from
scan_samples.py (built at test time).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.scan import scan_entry, scan_manifest
from judgment_exchange.tree import TreeError, WorkingTree

from ..support.paths import REPO
from .scan_samples import NEAR_MISSES, SAMPLES, hex_of

GITHUB = SAMPLES["secret-github-token"]
SLACK = SAMPLES["secret-slack-token"]
AWS = SAMPLES["secret-aws-access-key"]


def _entry(tmp_path: Path, files: dict[str, str], entry: str = "entries/acme/names") -> list:
    for rel, text in files.items():
        path = tmp_path / entry / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return scan_entry(WorkingTree(str(tmp_path)), entry, entry.split("/", 1)[1].replace("/", ".", 1))


def _quotes(refusals: list, secret: str) -> bool:
    windows = {secret[i : i + 10] for i in range(len(secret) - 10)}
    return any(w in (r.path or "") + r.detail + (r.entry or "") for r in refusals for w in windows)


def test_secret_in_fixture_directory_name(tmp_path: Path) -> None:
    refusals = _entry(tmp_path, {f"fixtures/{GITHUB}/case.json": "{}\n", "README.md": "# t\n"})
    assert [(r.code, r.path, r.entry) for r in refusals] == [
        ("secret-github-token", "entries/acme/names/fixtures", "acme.names")
    ]
    assert refusals[0].detail.startswith(f"the name of a directory in it ({len(GITHUB)} characters): GitHub token")
    assert not _quotes(refusals, GITHUB)


def test_secret_in_file_name(tmp_path: Path) -> None:
    refusals = _entry(tmp_path, {f"fixtures/basic/{AWS}.json": "{}\n"})
    assert [(r.code, r.path) for r in refusals] == [("secret-aws-access-key", "entries/acme/names/fixtures/basic")]
    assert "the name of a file in it" in refusals[0].detail
    assert not _quotes(refusals, AWS)


def test_secret_in_symlink_name(tmp_path: Path) -> None:
    import os

    base = tmp_path / "entries/acme/names"
    base.mkdir(parents=True)
    os.symlink(tmp_path / "elsewhere", base / AWS)
    refusals = scan_entry(WorkingTree(str(tmp_path)), "entries/acme/names", "acme.names")
    assert [(r.code, r.path) for r in refusals] == [("secret-aws-access-key", "entries/acme/names")]
    assert "the name of a symlink in it" in refusals[0].detail


def test_an_unreadable_file_below_a_secret_name_does_not_show_its_path(tmp_path: Path) -> None:
    class Unreadable(WorkingTree):
        def read(self, path: str, limit: int) -> bytes:
            raise TreeError(f"{path}: permission denied")

    base = tmp_path / "entries/acme/names" / "fixtures" / GITHUB
    base.mkdir(parents=True)
    (base / "case.json").write_text("{}\n")
    refusals = scan_entry(Unreadable(str(tmp_path)), "entries/acme/names", "acme.names")
    assert [(r.code, r.path) for r in refusals] == [
        ("secret-github-token", "entries/acme/names/fixtures"), ("scan-file-unreadable", "entries/acme/names/fixtures")
    ]
    assert not _quotes(refusals, GITHUB)


def test_a_finding_below_a_secret_name_does_not_show_its_path(tmp_path: Path) -> None:
    refusals = _entry(tmp_path, {f"fixtures/{GITHUB}/case.json": '{"where": "/home/alice/rows"}\n'})
    assert [(r.code, r.path) for r in refusals] == [
        ("secret-github-token", "entries/acme/names/fixtures"),
        ("local-path", "entries/acme/names/fixtures"),
    ]
    assert refusals[1].detail.startswith("in a file or directory below a name the scan refused (its path is not shown)")
    assert not _quotes(refusals, GITHUB)


def test_secret_in_entry_directory_name(tmp_path: Path) -> None:
    entry = f"entries/acme/{SLACK}"
    refusals = _entry(tmp_path, {"README.md": "see /home/alice/x\n"}, entry)
    assert [(r.code, r.path, r.entry) for r in refusals] == [
        ("secret-slack-token", "entries/acme", None),
        ("local-path", "entries/acme", None),
    ]
    assert not _quotes(refusals, SLACK)


def test_secret_in_publisher_directory_name(tmp_path: Path) -> None:
    refusals = _entry(tmp_path, {"README.md": "# t\n"}, f"entries/{SLACK}/names")
    assert [(r.code, r.path, r.entry) for r in refusals] == [("secret-slack-token", "entries", None)]
    assert not _quotes(refusals, SLACK)


def test_local_path_in_a_file_name(tmp_path: Path) -> None:
    refusals = _entry(tmp_path, {"C:\\Users\\alice\\rows.json": "{}\n"})
    assert [(r.code, r.path) for r in refusals] == [("local-path", "entries/acme/names")]


@pytest.mark.parametrize(
    "name",
    ["basic", "2026-11-30-run", "run-" + hex_of(40), hex_of(64), "sha256-" + hex_of(64),
     "3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b",
     "password-reset", "token-expiry", "api_key_rotation"],
    ids=["word", "date", "run-id", "bare-digest", "digest", "uuid", "password-word", "token-word", "key-word"],
)
def test_ordinary_names_pass(tmp_path: Path, name: str) -> None:
    assert _entry(tmp_path, {f"fixtures/{name}/case.json": "{}\n", f"{name}.md": "# t\n"}) == []


def _manifest(tmp_path: Path, rows: list) -> WorkingTree:
    (tmp_path / "manifest.json").write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return WorkingTree(str(tmp_path))


def _row(entry_id: str) -> dict:
    publisher, name = entry_id.split(".", 1)
    return {"id": entry_id, "kind": "dialect", "path": f"entries/{publisher}/{name}",
            "entryDigest": "sha256:" + hex_of(64), "dialectDigest": "sha256:" + hex_of(64), "fixtures": ["basic"]}


def test_token_in_manifest_id(tmp_path: Path) -> None:
    tree = _manifest(tmp_path, [_row("acme." + SLACK)])
    refusals = scan_manifest(tree)
    assert [(r.code, r.path, r.detail.split(":", 1)[0], r.entry) for r in refusals] == [
        ("secret-slack-token", "manifest.json", "line 3", None),  # the row's id
        ("secret-slack-token", "manifest.json", "line 5", None),  # the row's path
    ]
    assert not _quotes(refusals, SLACK)


def test_a_manifest_of_digests_and_ids_passes(tmp_path: Path) -> None:
    tree = _manifest(tmp_path, [_row("acme.vendor-intake"), _row("acme.work-items")])
    assert scan_manifest(tree) == []


def test_the_repository_manifest_scans_clean(tmp_path: Path) -> None:
    """This catalog's manifest passes the scan, and a copy of it holding a token does not: the manifest is `[]`
    until the first entry, so the clean answer alone would pass with the scan switched off (issue #37 item 6)."""
    assert scan_manifest(WorkingTree(str(REPO))) == []
    rows = json.loads((REPO / "manifest.json").read_bytes())
    planted = _manifest(tmp_path, rows + [_row("acme." + SLACK)])
    refusals = scan_manifest(planted)
    assert [(r.code, r.path, r.entry) for r in refusals] == [
        ("secret-slack-token", "manifest.json", None),  # the planted row's id
        ("secret-slack-token", "manifest.json", None),  # the planted row's path
    ]
    assert not _quotes(refusals, SLACK)


def test_no_manifest_is_no_scan_finding(tmp_path: Path) -> None:
    assert scan_manifest(WorkingTree(str(tmp_path))) == []


def test_the_gate_scans_the_manifest(tmp_path: Path) -> None:
    tree = _manifest(tmp_path, [_row("acme.x")])
    (tmp_path / "manifest.json").write_text(json.dumps([_row("acme.x")]) + "\n"
                                            + NEAR_MISSES["digest"] + " " + AWS + "\n")
    with_scan = check_catalog(tree, GateOptions(history=False))
    without = check_catalog(tree, GateOptions(history=False, scan=False))
    assert [(r.code, r.path) for r in with_scan.refusals if r.code.startswith("secret-")] == [
        ("secret-aws-access-key", "manifest.json")
    ]
    assert not any(r.code.startswith("secret-") for r in without.refusals)
