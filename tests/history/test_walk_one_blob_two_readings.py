"""A previous release's manifest.json and a pinned entry.json may be the same blob (the same bytes, e.g. `[]`):
the walk judges each blob once, but a manifest's reading and an entry's reading are two readings of it. Found
while typing history/ strictly (issue #37 item 5): with one cache for both, the entry was given the manifest's
reading (a list, and the check crashed with AttributeError), or the manifest the entry's failure (a valid empty
manifest refused as artifact-history-invalid)."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

from judgment_exchange.codes.history import ARTIFACT_HISTORY_INVALID
from judgment_exchange.history.check import check_history

SAME = b"[]\n"
"""A valid empty manifest, and an entry.json that is no JSON object."""


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=repo, check=True,
                   capture_output=True)


def _pinning_manifest() -> bytes:
    row = {"id": "acme.x", "path": "entries/acme/x", "entryDigest": "sha256:" + hashlib.sha256(SAME).hexdigest(),
           "fixtures": []}
    return (json.dumps([row]) + "\n").encode()


def _release(repo: Path, tag: str, manifest: bytes, entry: bytes | None) -> None:
    (repo / "manifest.json").write_bytes(manifest)
    if entry is not None:
        (repo / "entries" / "acme" / "x").mkdir(parents=True, exist_ok=True)
        (repo / "entries" / "acme" / "x" / "entry.json").write_bytes(entry)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--allow-empty", "-m", tag)
    _git(repo, "tag", tag)


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "catalog"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    return repo


def _invalid(repo: Path) -> list[tuple[str | None, str]]:
    _git(repo, "commit", "-q", "--allow-empty", "-m", "after the releases")
    result = check_history(str(repo), [])
    assert [r.code for r in result.refusals] == [ARTIFACT_HISTORY_INVALID] * len(result.refusals), result.refusals
    return [(r.path, r.detail) for r in result.refusals]


def test_an_entry_equal_to_an_earlier_manifest_is_read_as_an_entry(tmp_path):
    repo = _repo(tmp_path)
    _release(repo, "v0.1.0", SAME, None)
    _release(repo, "v0.2.0", _pinning_manifest(), SAME)
    found = _invalid(repo)
    assert len(found) == 1, found
    path, detail = found[0]
    assert path == "entries/acme/x/entry.json"
    assert detail.startswith("v0.2.0 (") and "the pinned entry.json is malformed: entry.json is not a JSON object" \
        in detail, detail


def test_a_manifest_equal_to_an_earlier_entry_is_read_as_a_manifest(tmp_path):
    repo = _repo(tmp_path)
    _release(repo, "v0.1.0", _pinning_manifest(), SAME)
    _git(repo, "rm", "-q", "-r", "entries")
    _release(repo, "v0.2.0", SAME, None)
    found = _invalid(repo)
    assert len(found) == 1, found  # v0.1.0's entry alone: v0.2.0's empty manifest is in form
    assert found[0][0] == "entries/acme/x/entry.json" and found[0][1].startswith("v0.1.0 ("), found
