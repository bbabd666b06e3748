"""The history simulator's verbs do what they say (tests/support/simulator.py; issue #37 item 6).

Every expectation is read back with git (`cat-file`, `rev-parse`, `for-each-ref`) or computed with hashlib and
json over the bytes written, never with the package under test.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from .support.gitrepo import git_identity
from .support.simulator import CatalogSimulator, empty_released_twice

ENTRY, OTHER = "acme.vendors", "acme.writeback"


def _sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _kind(history: CatalogSimulator, ref: str) -> str:
    return history.git("cat-file", "-t", ref)


@pytest.fixture
def history(tmp_path: Path) -> CatalogSimulator:
    out = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "work")
    out.builder.add_runner_entry(ENTRY)
    out.builder.add_output_entry(OTHER)
    return out


def test_release_tags_the_works_tree_lightweight_or_annotated(history) -> None:
    first = history.release("v0.1.0")
    second = history.release("v0.2.0", annotated=True, files={"README.md": b"# A catalog\n"})
    assert (_kind(history, "refs/tags/v0.1.0"), _kind(history, "refs/tags/v0.2.0")) == ("commit", "tag")
    assert (history.commit_of("v0.1.0"), history.commit_of("v0.2.0")) == (first, second)
    assert history.rev(f"{second}~1") == first
    rows = json.loads(history.blob("v0.1.0:manifest.json"))
    assert [r["id"] for r in rows] == [ENTRY, OTHER]
    entry = history.blob(f"v0.1.0:{rows[0]['path']}/entry.json")
    assert rows[0]["entryDigest"] == _sha(entry)
    assert history.blob("v0.2.0:README.md") == b"# A catalog\n"
    with pytest.raises(RuntimeError):
        history.git("cat-file", "-e", "v0.1.0:README.md")  # laid over one release only


def test_a_tree_is_committed_whole(history) -> None:
    made = history.release("v0.1.0", tree={"manifest.json": b"[]\n"})
    assert history.git("ls-tree", "-r", "--name-only", made).splitlines() == ["manifest.json"]


def test_change_re_pins_the_row_and_withdraw_drops_the_entry_and_its_row(history) -> None:
    history.release("v0.1.0")
    history.change(ENTRY, title="Vendors, retitled", description=None)
    history.release("v0.2.0")
    entry = json.loads(history.blob("v0.2.0:entries/acme/vendors/entry.json"))
    assert entry["title"] == "Vendors, retitled" and "description" not in entry
    rows = {r["id"]: r for r in json.loads(history.blob("v0.2.0:manifest.json"))}
    assert rows[ENTRY]["entryDigest"] == _sha(history.blob("v0.2.0:entries/acme/vendors/entry.json"))
    assert rows[ENTRY]["entryDigest"] != json.loads(history.blob("v0.1.0:manifest.json"))[0]["entryDigest"]
    history.withdraw(ENTRY)
    history.release("v0.3.0")
    assert [r["id"] for r in json.loads(history.blob("v0.3.0:manifest.json"))] == [OTHER]
    assert history.git("ls-tree", "--name-only", "v0.3.0:entries/acme").splitlines() == ["writeback"]


def test_change_and_withdraw_without_a_builder_edit_the_manifest_by_hand(tmp_path: Path, history) -> None:
    history.files()  # the builder's work, its manifest written
    copy = CatalogSimulator(tmp_path / "copy", start=history.work, work_path=tmp_path / "copy-work")
    assert copy.builder is None
    copy.change(ENTRY, title="By hand")
    copy.withdraw(OTHER)
    copy.release("v0.1.0")
    rows = json.loads(copy.blob("v0.1.0:manifest.json"))
    assert [r["id"] for r in rows] == [ENTRY]
    assert rows[0]["entryDigest"] == _sha(copy.blob("v0.1.0:entries/acme/vendors/entry.json"))


def test_release_by_command_writes_the_ledger_row_and_keeps_it_in_the_work(tmp_path: Path, monkeypatch) -> None:
    git_identity(monkeypatch)
    history = empty_released_twice(tmp_path / "catalog")
    ledger = json.loads(history.blob("v0.2.0:releases.json"))
    assert [row["tag"] for row in ledger] == ["v0.1.0", "v0.2.0"]
    assert ledger[1]["previous"] == history.commit_of("v0.1.0")
    assert ledger[0]["manifestDigest"] == _sha(b"[]\n")
    assert _kind(history, "refs/tags/v0.2.0") == "tag"
    assert (history.work / "releases.json").read_bytes() == history.blob("v0.2.0:releases.json")


def test_side_release_new_root_and_tags(history) -> None:
    history.release("v0.1.0")
    head = history.rev("HEAD")
    side = history.side_release("v0.1.5", "v0.1.0^{commit}", tree={"manifest.json": b"[]\n"})
    assert history.rev("HEAD") == head and history.git("symbolic-ref", "--short", "HEAD") == "main"
    assert history.rev(f"{side}~1") == history.commit_of("v0.1.0") and _kind(history, "refs/tags/v0.1.5") == "tag"
    assert history.git("branch", "--list", "side-v0.1.5") != ""
    history.tag("v0.1.6", "v0.1.5^{commit}")
    assert _kind(history, "refs/tags/v0.1.6") == "commit" and history.commit_of("v0.1.6") == side
    history.move_tag("v0.1.5", head)  # kept annotated
    assert _kind(history, "refs/tags/v0.1.5") == "tag" and history.commit_of("v0.1.5") == head
    history.move_tag("v0.1.5", side, annotated=False)
    assert _kind(history, "refs/tags/v0.1.5") == "commit" and history.commit_of("v0.1.5") == side
    history.delete_tag("v0.1.6")
    assert "v0.1.6" not in history.git("tag", "--list").split()
    history.new_root("before")
    root = history.release("v0.2.0")
    assert history.git("rev-list", "--parents", "-n", "1", root) == root  # no parent
    assert history.rev("before") == head


def test_drop_object_removes_exactly_that_object(history) -> None:
    history.release("v0.1.0")
    oid = history.drop_object("v0.1.0:manifest.json")
    assert oid == hashlib.sha1(b"blob %d\0" % len(history.files()["manifest.json"])
                               + history.files()["manifest.json"]).hexdigest()
    with pytest.raises(RuntimeError):
        history.git("cat-file", "-e", oid)
    history.git("cat-file", "-e", "v0.1.0:entries/acme/vendors/entry.json")  # the others stay
