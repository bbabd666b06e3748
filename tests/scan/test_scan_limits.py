"""The scan's own limits and its two trees: bounds, unreadable files, truncation, symlinks, git blobs
(RFC 0019 §§3–4, 7)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judgment_exchange.scan import MAX_PER_FILE, file_bound, scan_entry
from judgment_exchange.tree import FILE, GitTree, Node, TreeError, WorkingTree

from . import scan_entry_builder as builder
from .scan_samples import SAMPLES, pick

ENTRY = "entries/acme/limits"


def _entry(tmp_path: Path) -> Path:
    base = tmp_path / ENTRY
    base.mkdir(parents=True)
    return base


def _codes(tmp_path: Path) -> list[tuple[str, str]]:
    return [(r.code, r.path.rsplit("/", 1)[-1]) for r in scan_entry(WorkingTree(str(tmp_path)), ENTRY)]


FILE_BOUNDS = [
    ("entry.json", 65_536),
    ("README.md", 65_536),
    ("dialect.json", 131_072),
    ("output.json", 131_072),
    ("fixtures/basic/profiles.json", 65_536),
    ("fixtures/basic/binding.json", 65_536),
    ("fixtures/basic/case.json", 2_097_152),
    ("fixtures/basic/sources.json", 2_097_152),
    ("fixtures/basic/preparation.json", 8_388_608),
    ("rows.json", 65_536),
    ("fixtures/basic/notes.txt", 65_536),
]
"""Each file's scan bound as RFC 0019 §3 and dialect §12 state it (docs/scanning.md, The scan's own limits)."""


def _sized(tmp_path: Path, rel: str, size: int) -> None:
    path = _entry(tmp_path) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        fh.truncate(size)


@pytest.mark.parametrize("rel, bound", FILE_BOUNDS)
def test_a_file_over_its_bound_is_refused_unread(tmp_path: Path, rel: str, bound: int) -> None:
    _sized(tmp_path, rel, bound + 1)
    assert file_bound(rel) == bound
    assert _codes(tmp_path) == [("scan-file-over-bound", rel.rsplit("/", 1)[-1])]


@pytest.mark.parametrize("rel, bound", [FILE_BOUNDS[0], FILE_BOUNDS[-2], FILE_BOUNDS[-3]])
def test_a_file_at_its_bound_is_read_and_scanned(tmp_path: Path, rel: str, bound: int) -> None:
    _sized(tmp_path, rel, bound)
    assert _codes(tmp_path) == [("code-binary", rel.rsplit("/", 1)[-1])]


class _Counting(WorkingTree):
    """A working tree that records, for each read, the bound asked and the bytes handed back."""

    def __init__(self, root: str) -> None:
        super().__init__(root)
        self.reads: list[tuple[str, int, int]] = []

    def read(self, path: str, limit: int) -> bytes:
        try:
            data = super().read(path, limit)
        except Exception:
            self.reads.append((path, limit, 0))
            raise
        self.reads.append((path, limit, len(data)))
        return data


def test_a_15_mb_stray_file_is_refused_without_being_read(tmp_path: Path) -> None:
    """Issue #11 item 4: a 15 MB stray file took 117 s and 728 MB to scan. It is now refused unread."""
    base = _entry(tmp_path)
    (base / "README.md").write_text("# t\n")
    with open(base / "dump.txt", "wb") as fh:
        fh.write(b"A" * (15 * 1000 * 1000))
    tree = _Counting(str(tmp_path))
    refusals = scan_entry(tree, ENTRY, "acme.limits")
    assert [(r.code, r.path.rsplit("/", 1)[-1]) for r in refusals] == [("scan-file-over-bound", "dump.txt")]
    assert "15000000 bytes" in refusals[0].detail
    assert [(p.rsplit("/", 1)[-1], limit, n) for p, limit, n in tree.reads] == [
        ("README.md", 65_536, 4), ("dump.txt", 65_536, 0)
    ]


def test_no_file_is_read_past_its_bound(tmp_path: Path) -> None:
    docs = builder.fresh()
    builder.write(tmp_path, docs)
    tree = _Counting(str(tmp_path))
    scan_entry(tree, builder.ENTRY)
    assert tree.reads and all(n <= limit and limit == file_bound(p[len(builder.ENTRY) + 1 :])
                              for p, limit, n in tree.reads)


def test_files_past_the_entry_budget_are_scan_incomplete(tmp_path: Path, monkeypatch) -> None:
    import judgment_exchange.scan as scan

    base = _entry(tmp_path)
    for name in ("a.json", "b.json", "c.json"):
        (base / name).write_text('{"rows": [' + ", ".join(["1"] * 40) + "]}\n")
    monkeypatch.setattr(scan, "ENTRY_BUDGET", 200)
    refusals = scan_entry(WorkingTree(str(tmp_path)), ENTRY, "acme.limits")
    assert [(r.code, r.path) for r in refusals] == [("scan-incomplete", ENTRY)]
    assert refusals[0].detail.startswith("the scan's budget of 200 bytes for one entry is spent; 1 more file not")
    monkeypatch.setattr(scan, "ENTRY_BUDGET", 10_000)
    assert scan_entry(WorkingTree(str(tmp_path)), ENTRY, "acme.limits") == []


class _Unreadable(WorkingTree):
    def read(self, path: str, limit: int) -> bytes:
        if path.endswith("case.json"):
            raise TreeError(f"{path}: permission denied")
        return super().read(path, limit)


def test_an_unreadable_file_is_a_refusal_and_the_others_are_scanned(tmp_path: Path) -> None:
    base = _entry(tmp_path)
    (base / "case.json").write_text("{}\n")
    (base / "README.md").write_text("key " + SAMPLES["secret-aws-access-key"] + "\n")
    found = [(r.code, r.path.rsplit("/", 1)[-1]) for r in scan_entry(_Unreadable(str(tmp_path)), ENTRY)]
    assert found == [("secret-aws-access-key", "README.md"), ("scan-file-unreadable", "case.json")]


def test_an_unlistable_entry_is_a_refusal(tmp_path: Path) -> None:
    refusals = scan_entry(WorkingTree(str(tmp_path)), "entries/acme/absent", "acme.absent")
    assert [(r.code, r.path, r.entry) for r in refusals] == [("scan-file-unreadable",
                                                              "entries/acme/absent", "acme.absent")]


@pytest.mark.parametrize("count, truncated", [(MAX_PER_FILE, False), (MAX_PER_FILE + 7, True)])
def test_findings_beyond_the_report_limit_are_summarised(tmp_path: Path, count: int, truncated: bool) -> None:
    lines = [f"row {i}: AKIA{pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}" for i in range(count)]
    (_entry(tmp_path) / "README.md").write_text("\n".join(lines) + "\n")
    refusals = scan_entry(WorkingTree(str(tmp_path)), ENTRY)
    assert [r.code for r in refusals].count("secret-aws-access-key") == MAX_PER_FILE
    assert [r.code for r in refusals][-1] == ("scan-findings-truncated" if truncated else "secret-aws-access-key")
    if truncated:
        assert refusals[-1].detail.startswith("7 more findings")


def test_symlinks_and_special_files_are_left_to_the_directory_check(tmp_path: Path) -> None:
    base = _entry(tmp_path)
    outside = tmp_path / "outside.txt"
    outside.write_text(SAMPLES["secret-aws-access-key"] + "\n")
    os.symlink(outside, base / "link.json")
    os.mkfifo(base / "pipe")
    assert _codes(tmp_path) == []


class _Listing:
    """A tree that lists an entry and reads from a dict: the scan reads only through the Tree protocol."""

    label = "dict"

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files

    def stat(self, path: str) -> Node:
        return Node(path.rsplit("/", 1)[-1], FILE, len(self.files[path])) if path in self.files else Node("", "missing")

    def list(self, path: str) -> list[Node]:
        return [Node(p.rsplit("/", 1)[-1], FILE, len(b)) for p, b in sorted(self.files.items())
                if p.rsplit("/", 1)[0] == path]

    def read(self, path: str, limit: int) -> bytes:
        return self.files[path]


def test_the_scan_reads_through_the_tree_only() -> None:
    tree = _Listing({f"{ENTRY}/README.md": ("token " + SAMPLES["secret-databricks-token"] + "\n").encode()})
    refusals = scan_entry(tree, ENTRY, "acme.limits")
    assert [(r.code, r.path, r.detail.split(":")[0]) for r in refusals] == [
        ("secret-databricks-token", f"{ENTRY}/README.md", "line 1")
    ]


def test_a_git_commit_scans_as_its_working_tree(tmp_path: Path) -> None:
    import git

    docs = builder.fresh()
    builder.place(docs, "sources.json result", SAMPLES["secret-slack-token"])
    builder.write(tmp_path, docs)
    script = tmp_path / builder.ENTRY / "fixtures" / "basic" / "notes.txt"
    script.write_text("#!/bin/sh\n")
    os.chmod(script, 0o755)
    repo = git.Repo.init(tmp_path)
    repo.index.add([str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file() and ".git" not in p.parts])
    actor = git.Actor("test", "test@example.invalid")
    repo.index.commit("entry", author=actor, committer=actor)
    from_git = scan_entry(GitTree(str(tmp_path), "HEAD"), builder.ENTRY)
    from_disk = scan_entry(WorkingTree(str(tmp_path)), builder.ENTRY)
    assert from_git == from_disk
    assert sorted(r.code for r in from_git) == ["code-executable", "code-script", "secret-slack-token"]
