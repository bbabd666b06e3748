"""History walk benchmark (issue 5, item 6): 128 releases over 1,024 entries.

Builds a synthetic catalog history with one `git fast-import` run (each release changes a few
entries and rewrites the manifest), then prints, from the same run: the time of the history walk
(`check_history`, every previous release's manifest and pinned entries), and the time of reading the
same distinct blobs raw through one `git cat-file --batch`. With --gittree it also times tree.py's
GitTree reading the same files for a few releases, for comparison.

    python benchmarks/history_bench.py [--releases 128] [--entries 1024] [--changes 8] [--gittree N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.gitrepo import GitRepo  # noqa: E402

from judgment_exchange.history import CurrentEntry, check_history  # noqa: E402

IDENTITY = b"History Bench <history-bench@example.invalid> 1792065600 +0000"


def _entry(index: int, revision: int) -> bytes:
    entry_id = f"pub{index % 16:02d}.entry-{index:04d}"
    value = {
        "entryVersion": 3,
        "kind": "dialect",
        "id": entry_id,
        "title": f"Entry {index}, revision {revision}",
        "direction": "input",
        "dialect": {
            "path": "dialect.json",
            "formatVersion": "3.0.0",
            "digest": "sha256:" + hashlib.sha256(b"dialect %d" % index).hexdigest(),
        },
        "artifact": {"id": f"urn:example:artifact:{index}", "version": "1.0.0"},
        "requires": {},
        "sourceKinds": ["operation"],
        "licence": "Apache-2.0",
        "author": "bench",
        "fixtures": [],
        "verification": [],
    }
    return (json.dumps(value, indent=2) + "\n").encode()


def _path(index: int) -> str:
    return f"entries/pub{index % 16:02d}/entry-{index:04d}"


def _manifest(entries: dict[int, bytes]) -> bytes:
    rows = []
    for index in sorted(entries, key=lambda i: f"pub{i % 16:02d}.entry-{i:04d}"):
        rows.append(
            {
                "id": f"pub{index % 16:02d}.entry-{index:04d}",
                "kind": "dialect",
                "path": _path(index),
                "entryDigest": "sha256:" + hashlib.sha256(entries[index]).hexdigest(),
                "fixtures": [],
                "dialectDigest": "sha256:" + hashlib.sha256(b"stored %d" % index).hexdigest(),
            }
        )
    return (json.dumps(rows, indent=2) + "\n").encode()


def _data(payload: bytes) -> bytes:
    return b"data %d\n" % len(payload) + payload + b"\n"


def build(path: Path, releases: int, count: int, changes: int) -> tuple[GitRepo, dict[int, bytes]]:
    """One fast-import stream: a commit and a tag per release, only changed files written."""
    repo = GitRepo(path)
    entries = {i: _entry(i, 0) for i in range(count)}
    out = [b"feature done\n"]
    for release in range(releases):
        changed = range(count) if release == 0 else [(release * changes + k) % count for k in range(changes)]
        for index in changed:
            if release:
                entries[index] = _entry(index, release)
        out.append(b"commit refs/heads/main\nmark :%d\n" % (release + 1))
        out.append(b"author " + IDENTITY + b"\ncommitter " + IDENTITY + b"\n" + _data(b"release %d" % release))
        if release:
            out.append(b"from :%d\n" % release)
        for index in changed:
            out.append(f"M 100644 inline {_path(index)}/entry.json\n".encode() + _data(entries[index]))
        out.append(b"M 100644 inline manifest.json\n" + _data(_manifest(entries)))
        tag = f"v0.{release}.0".encode()
        if release % 2:
            out.append(b"tag " + tag + b"\nfrom :%d\ntagger " % (release + 1) + IDENTITY + b"\n" + _data(b"release"))
        else:
            out.append(b"reset refs/tags/" + tag + b"\nfrom :%d\n\n" % (release + 1))
    out.append(b"done\n")
    repo.fast_import(b"".join(out))
    return repo, entries


def distinct_blobs(repo: GitRepo, releases: int) -> list[str]:
    """The distinct blob ids of every release's tree (computed before timing, not timed)."""
    seen: dict[str, None] = {}
    for release in range(releases):
        for line in repo.git("ls-tree", "-r", f"v0.{release}.0").splitlines():
            meta, _ = line.split("\t", 1)
            seen.setdefault(meta.split()[2], None)
    return list(seen)


def raw_read(repo: GitRepo, blobs: list[str]) -> tuple[float, int]:
    started = time.perf_counter()
    request = ("\n".join(blobs) + "\n").encode()
    done = subprocess.run(["git", "cat-file", "--batch"], cwd=repo.path, input=request, capture_output=True, check=True)
    return time.perf_counter() - started, len(done.stdout)


def gittree_read(repo: GitRepo, releases: int) -> float:
    from judgment_exchange.history.forms import read_manifest
    from judgment_exchange.tree import GitTree

    started = time.perf_counter()
    for release in range(releases):
        tree = GitTree(str(repo.path), f"v0.{release}.0")
        for row in read_manifest(tree.read("manifest.json", 1_048_576)):
            tree.read(f"{row.path}/entry.json", 65_536)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--releases", type=int, default=128)
    parser.add_argument("--entries", type=int, default=1024)
    parser.add_argument("--changes", type=int, default=8)
    parser.add_argument("--gittree", type=int, default=0, metavar="N", help="also time GitTree over N releases")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        repo, entries = build(Path(tmp) / "catalog", args.releases, args.entries, args.changes)
        print(f"built {args.releases} releases over {args.entries} entries in {time.perf_counter() - started:.2f} s")
        blobs = distinct_blobs(repo, args.releases)
        current = [
            CurrentEntry.from_entry(_path(i), json.loads(data)) for i, data in sorted(entries.items())
        ]
        started = time.perf_counter()
        result = check_history(str(repo.path), current)
        walk = time.perf_counter() - started
        assert result.refusals == [], result.refusals[:3]
        raw, size = raw_read(repo, blobs)
        print(f"distinct blobs: {len(blobs)} ({size / 1e6:.1f} MB through cat-file)")
        print(f"history walk (check_history, {len(result.releases)} previous releases): {walk:.2f} s")
        print(f"raw git cat-file --batch of the same blobs:            {raw:.2f} s")
        print(f"ratio walk / raw: {walk / raw:.1f}")
        if args.gittree:
            took = gittree_read(repo, args.gittree)
            print(f"tree.GitTree, {args.gittree} releases: {took:.2f} s ({took / args.gittree:.2f} s per release)")


if __name__ == "__main__":
    main()
