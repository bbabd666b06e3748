"""Blobs read byte for byte, each distinct blob once, through the tree abstraction (RFC 0019 §7; issue 5)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import git
import pytest

from judgment_exchange.history import ObjectStore, ReleaseTree, check_history, list_releases, read_history
from judgment_exchange.tree import DIR, FILE, MISSING, SYMLINK, TooLarge, TreeError

from ..support.gitrepo import GitRepo


def _entry(entry_id: str, note: str = "") -> bytes:
    value = {"entryVersion": 2, "kind": "dialect", "id": entry_id, "title": note or entry_id}
    return (json.dumps(value, indent=2) + "\n").encode()


def _manifest(entries: dict[str, bytes], line_end: bytes = b"\n") -> bytes:
    rows = []
    for entry_id in sorted(entries):
        publisher, name = entry_id.split(".", 1)
        rows.append(
            {"id": entry_id, "kind": "dialect", "path": f"entries/{publisher}/{name}",
             "entryDigest": "sha256:" + hashlib.sha256(entries[entry_id]).hexdigest(), "fixtures": []}
        )
    return json.dumps(rows, indent=2).encode().replace(b"\n", line_end) + line_end


def _files(entries: dict[str, bytes], line_end: bytes = b"\n") -> dict[str, bytes]:
    files = {"manifest.json": _manifest(entries, line_end)}
    for entry_id, data in entries.items():
        publisher, name = entry_id.split(".", 1)
        files[f"entries/{publisher}/{name}/entry.json"] = data
    return files


def test_crlf_blobs_are_read_as_stored(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    crlf_entry = _entry("acme.crlf").replace(b"\n", b"\r\n")
    repo.snapshot(_files({"acme.crlf": crlf_entry, "acme.lf": _entry("acme.lf")}, line_end=b"\r\n"))
    repo.tag("v0.1.0")
    with git.Repo(repo.path) as handle:
        tree = ReleaseTree(ObjectStore(handle), repo.rev("v0.1.0"), "v0.1.0")
        assert tree.read("entries/acme/crlf/entry.json", 65536) == crlf_entry
        assert tree.read("entries/acme/lf/entry.json", 65536) == _entry("acme.lf")
    assert check_history(str(repo.path), []).refusals == []


def test_blobs_are_read_without_checkout_conversion(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    files = _files({"acme.lf": _entry("acme.lf")})
    files[".gitattributes"] = b"*.json text eol=crlf\n"
    repo.snapshot(files)
    repo.tag("v0.1.0")
    checked_out = repo.path / "entries" / "acme" / "lf" / "entry.json"
    checked_out.unlink()
    repo.git("checkout", "--", "entries")
    assert checked_out.read_bytes() == _entry("acme.lf").replace(b"\n", b"\r\n")
    result = check_history(str(repo.path), [])
    assert (result.status, result.refusals) == ("checked", [])


def test_release_tree_follows_the_tree_protocol(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    (repo.path / "bin").mkdir()
    (repo.path / "bin" / "run").write_bytes(b"#!/bin/sh\n")
    (repo.path / "bin" / "run").chmod(0o755)
    os.symlink("run", repo.path / "bin" / "link")
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "x")
    with git.Repo(repo.path) as handle:
        tree = ReleaseTree(ObjectStore(handle), repo.rev("HEAD"), "HEAD")
        assert [(n.name, n.kind) for n in tree.list("")] == [("bin", DIR)]
        assert [(n.name, n.kind, n.size, n.executable) for n in tree.list("bin")] == [
            ("link", SYMLINK, 0, False), ("run", FILE, 10, True)]
        assert tree.stat("bin/none").kind == MISSING and tree.stat("bin/run/x").kind == MISSING
        with pytest.raises(TooLarge):
            tree.read("bin/run", 9)
        assert tree.read("bin/run", 10) == b"#!/bin/sh\n"
        with pytest.raises(TreeError):
            tree.read("bin/link", 100)
        with pytest.raises(TreeError):
            tree.list("bin/run")


def test_each_distinct_blob_is_read_once_through_one_process(tmp_path: Path, monkeypatch) -> None:
    repo = GitRepo(tmp_path / "r")
    entries = {f"acme.e{i}": _entry(f"acme.e{i}") for i in range(6)}
    distinct = set()
    for release in range(5):
        entries[f"acme.e{release}"] = _entry(f"acme.e{release}", note=f"changed in {release}")
        files = _files(entries)
        distinct |= {hashlib.sha1(b"blob %d\0" % len(d) + d).hexdigest() for d in files.values()}
        repo.snapshot(files)
        repo.tag(f"v0.{release}.0")
    spawned = []
    real_popen = git.cmd.safer_popen
    monkeypatch.setattr(git.cmd, "safer_popen", lambda args, **kw: spawned.append(args) or real_popen(args, **kw))
    with git.Repo(repo.path) as handle:
        store = ObjectStore(handle)
        history = read_history(store, list_releases(handle, store).releases)
        assert history.refusals == [] and len(history.rows) == 30
        assert store.blob_reads == len(distinct) < 5 * 7
    assert len(spawned) == 1 and "--batch" in spawned[0]


def test_manifest_that_is_a_symlink_is_missing(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    (repo.path / "real.json").write_bytes(b"[]\n")
    os.symlink("real.json", repo.path / "manifest.json")
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "x")
    repo.tag("v0.1.0")
    (refusal,) = check_history(str(repo.path), []).refusals
    assert refusal.code == "artifact-history-invalid" and "no manifest.json" in refusal.detail


def test_manifest_over_its_bound_is_refused(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.snapshot({"manifest.json": b"[]" + b" " * 1_048_575})
    repo.tag("v0.1.0")
    (refusal,) = check_history(str(repo.path), []).refusals
    assert refusal.code == "artifact-history-invalid" and "over" in refusal.detail
    repo.snapshot({"manifest.json": b"[]" + b" " * 1_048_574})
    repo.git("tag", "-d", "v0.1.0")
    repo.tag("v0.1.0")
    assert check_history(str(repo.path), []).refusals == []


def test_stated_history_limit(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    for tag in ("v0.1.0", "v0.2.0", "v0.3.0"):
        repo.snapshot({"manifest.json": b"[]\n"}, tag)
        repo.tag(tag)
    assert check_history(str(repo.path), [], max_releases=3).refusals == []
    (refusal,) = check_history(str(repo.path), [], max_releases=2).refusals
    assert refusal.code == "artifact-history-invalid" and "limit of 2" in refusal.detail
    assert check_history(str(repo.path), [], release_tag="v0.3.0", max_releases=2).refusals == []


def test_nested_annotated_tag_is_peeled(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    commit = repo.snapshot({"manifest.json": b"[]\n"})
    repo.tag("inner", annotated=True)
    repo.git("tag", "-a", "-m", "outer", "v0.1.0", repo.rev("refs/tags/inner"))
    with git.Repo(repo.path) as handle:
        (release,) = list_releases(handle, ObjectStore(handle)).releases
    assert (release.tag, release.commit) == ("v0.1.0", commit)
