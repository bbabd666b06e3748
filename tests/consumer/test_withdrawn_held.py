"""A withdrawn entry stays imported, and its pair stays held (issue #34 item 4; RFC 0019 §7: "An entry absent
from the new release stays imported at its previous commit and is shown as withdrawn; it is not silently removed
or replaced", and "Withdrawal does not permit changed content under the pair").

The lock (version 2) keeps each entry a release withdrew with the release, commit and entryDigest it was imported
at, across `--update`s, until a reviewed `release-check … --update --forget ID`. The attack: after a legitimate
v0.2.0 withdraws X and the consumer runs `--update`, whoever can push refs to a mirror publishes v0.3.0 on a
history of its own re-adding X's artifact pair under another entry with another document. Before, the lock held
only v0.2.0 (which has no X) and the fork's own history has no release: it passed. Now it is refused
`artifact-content-changed` naming the withdrawn X, with and without history, and `--update` writes nothing;
the identical re-add passes, noted.

Repositories are tags alone (no ledger): a consumer reads the tag's own first-parent history. Expected digests
come from hashlib over the bytes `git cat-file` gives, never from the package.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgment_exchange.cli import main

from ..support.conformance import KitCatalog
from ..support.gitrepo import files_of
from ..support.simulator import CatalogSimulator
from .conftest import sha256

NAMED, COPY, OTHER = "acme.vendors-named", "acme.vendors-named-copy", "acme.writeback"


class Catalog:
    """v0.1.0 (X = NAMED, and OTHER), imported under a lock; v0.2.0 on main withdraws X, and the lock is updated."""

    def __init__(self, tmp_path: Path, capsys) -> None:
        self._open(tmp_path, capsys, tmp_path / "exchange.lock")
        self.publish("v0.1.0", lambda b: b.add_named_recorded(NAMED))
        assert self.check("v0.1.0")[0] == 0
        self.publish("v0.2.0")
        rc, report = self.check("v0.2.0", "--update")
        assert rc == 0 and report["lock"]["action"] == "updated", report
        self.imported = self.repo.rev("v0.1.0^{commit}")

    def _open(self, tmp_path: Path, capsys, lock: Path) -> None:
        """The history simulator's repository (tests/support/simulator.py), no release yet."""
        self.tmp, self.capsys, self.lock = tmp_path, capsys, lock
        self.history = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "repo-work")
        self.repo = self.history.repo

    @classmethod
    def unreleased(cls, tmp_path: Path, capsys, lock: Path) -> "Catalog":
        """The catalog before any release and any import."""
        out = cls.__new__(cls)
        out._open(tmp_path, capsys, lock)
        return out

    @property
    def location(self) -> str:
        return str(self.repo.path)

    def files(self, name: str, *build, readme: bytes | None = None) -> dict[str, bytes]:
        builder = KitCatalog(self.tmp / name)
        builder.add_output_entry(OTHER)
        for make in build:
            make(builder)
        builder.write_manifest()
        return files_of(builder.root) | ({"README.md": readme} if readme else {})

    def publish(self, tag: str, *build, readme: bytes | None = None) -> None:
        self.history.release(tag, annotated=True, message=tag, tree=self.files(tag, *build, readme=readme))

    def fork(self, tag: str, *build) -> None:
        """`tag` on a new root commit, tagged by hand: a history of its own, pushed to the mirror."""
        self.history.new_root(f"before-{tag}")
        self.publish(tag, *build)

    def check(self, tag: str, *extra: str) -> tuple[int, dict]:
        rc = main(["release-check", self.location, tag, "--lock", str(self.lock), "--format", "json", *extra])
        return rc, json.loads(self.capsys.readouterr().out)

    def blob(self, rev: str) -> bytes:
        return self.history.blob(rev)

    def named_digest(self) -> str:
        return sha256(self.blob(f"{self.imported}:entries/acme/vendors-named/entry.json"))


@pytest.fixture
def catalog(tmp_path, capsys) -> Catalog:
    return Catalog(tmp_path, capsys)


def codes(report: dict) -> list[str]:
    return [r["code"] for r in report["refusals"]]


def test_the_update_keeps_the_withdrawn_entry_where_it_was_imported(catalog):
    lock = json.loads(catalog.lock.read_bytes())
    assert lock["lockVersion"] == 2 and lock["tag"] == "v0.2.0" and list(lock["entries"]) == [OTHER]
    assert lock["withdrawn"] == {NAMED: {"tag": "v0.1.0", "commit": catalog.imported,
                                         "entryDigest": catalog.named_digest()}}


@pytest.mark.parametrize("history", [[], ["--no-history"]], ids=["history", "no-history"])
def test_attack_a_fork_re_adds_a_withdrawn_pair_with_other_content(catalog, history):
    catalog.fork("v0.3.0", lambda b: b.add_named_recorded(COPY, changed=True))
    before = catalog.lock.read_bytes()
    rc, report = catalog.check("v0.3.0", "--update", *history)
    assert rc == 1 and codes(report) == ["artifact-content-changed"], report["refusals"]
    refusal = report["refusals"][0]
    assert refusal["entry"] == COPY
    assert f"{NAMED} in the lock (withdrawn, imported at v0.1.0 {catalog.imported})" in refusal["detail"]
    assert "descend" not in refusal["detail"]  # never refused for its ancestry: that is a note
    assert catalog.lock.read_bytes() == before  # --update wrote nothing
    assert {r["id"]: r["result"] for r in report["results"]} == {COPY: "refused", OTHER: "pass"}
    # without the lock nothing holds X: the fork's own history has no release (the attack as it was)
    rc = main(["release-check", catalog.location, "v0.3.0", "--format", "json", *history])
    assert rc == 0, json.loads(catalog.capsys.readouterr().out)["refusals"]


def test_near_miss_a_fork_re_adding_the_withdrawn_pair_identically_passes_noted(catalog):
    catalog.fork("v0.3.0", lambda b: b.add_named_recorded(COPY))
    rc, report = catalog.check("v0.3.0", "--update")
    assert rc == 0 and report["lock"]["action"] == "updated", report["refusals"]
    said = [n for n in report["notes"] if "publishes the artifact pair of" in n]
    assert len(said) == 1 and COPY in said[0] and NAMED in said[0] and catalog.imported in said[0]
    assert "same content: admitted" in said[0]
    assert any("does not descend" in n for n in report["notes"])  # the ancestry is noted, never refused
    assert NAMED in json.loads(catalog.lock.read_bytes())["withdrawn"]  # still kept


def test_the_same_tree_on_mains_history_is_refused_once(catalog):
    """On main's history the tag's own history holds v0.1.0 too: one refusal for the entry, not two."""
    catalog.publish("v0.3.0", lambda b: b.add_named_recorded(COPY, changed=True))
    rc, report = catalog.check("v0.3.0")
    assert rc == 1 and codes(report) == ["artifact-content-changed"]


def test_the_withdrawn_entry_is_kept_across_updates_and_shown(catalog):
    catalog.publish("v0.2.1", readme=b"# The catalog, v0.2.1\n")
    rc, report = catalog.check("v0.2.1", "--update")
    assert rc == 0 and report["lock"]["action"] == "updated"
    lock = json.loads(catalog.lock.read_bytes())
    assert lock["tag"] == "v0.2.1" and lock["withdrawn"][NAMED]["commit"] == catalog.imported
    shown = f"{NAMED}: withdrawn, imported at {catalog.imported} (v0.1.0)"
    assert main(["show", catalog.location, "v0.2.1", "--lock", str(catalog.lock)]) == 0
    assert shown in catalog.capsys.readouterr().out
    assert main(["show", catalog.location, "v0.2.1", "--lock", str(catalog.lock), "--format", "json"]) == 0
    assert json.loads(catalog.capsys.readouterr().out)["withdrawn"] == [
        {"id": NAMED,
         "importedAt": {"tag": "v0.1.0", "commit": catalog.imported, "entryDigest": catalog.named_digest()}}]
    catalog.publish("v0.2.2", readme=b"# The catalog, v0.2.2\n")
    assert main(["upgrade-diff", catalog.location, "--lock", str(catalog.lock), "v0.2.2"]) == 0
    text = catalog.capsys.readouterr().out
    assert f"withdrawn {NAMED}\n  withdrawn, imported at {catalog.imported} (v0.1.0)" in text
    assert main(["upgrade-diff", catalog.location, "--lock", str(catalog.lock), "v0.2.2", "--format", "markdown"]) == 0
    assert f"withdrawn, imported at {catalog.imported} (v0.1.0)" in catalog.capsys.readouterr().out


def test_upgrade_diff_and_show_from_the_lock_hold_the_withdrawn_pair(catalog):
    catalog.fork("v0.3.0", lambda b: b.add_named_recorded(COPY, changed=True))
    rc = main(["upgrade-diff", catalog.location, "--lock", str(catalog.lock), "v0.3.0", "--format", "json"])
    diff = json.loads(catalog.capsys.readouterr().out)
    assert rc == 1 and [r["code"] for r in diff["refusals"]] == ["artifact-content-changed"]
    assert main(["show", catalog.location, "v0.3.0", "--lock", str(catalog.lock)]) == 1
    assert "artifact-content-changed" in catalog.capsys.readouterr().out


def test_an_entry_withdrawn_by_this_update_is_shown_withdrawn_at_the_locked_commit(tmp_path, capsys):
    cat = Catalog.unreleased(tmp_path, capsys, tmp_path / "l.lock")
    cat.publish("v0.1.0", lambda b: b.add_named_recorded(NAMED))
    assert cat.check("v0.1.0")[0] == 0
    cat.publish("v0.2.0")
    assert main(["upgrade-diff", cat.location, "--lock", str(cat.lock), "v0.2.0"]) == 0
    first = cat.repo.rev("v0.1.0^{commit}")
    assert f"withdrawn {NAMED}\n" in (text := capsys.readouterr().out)
    assert f"withdrawn, imported at {first} (v0.1.0); never silently removed" in text


def test_a_reviewed_forget_removes_the_withdrawn_entry_and_its_hold(catalog):
    rc, report = catalog.check("v0.2.0", "--update", "--forget", NAMED)
    assert rc == 0 and report["lock"]["action"] == "updated"
    assert any(f"{NAMED} (withdrawn, imported at {catalog.imported} (v0.1.0)) forgotten by the reviewer" in n
               for n in report["notes"])
    assert json.loads(catalog.lock.read_bytes())["withdrawn"] == {}
    catalog.fork("v0.3.0", lambda b: b.add_named_recorded(COPY, changed=True))
    assert catalog.check("v0.3.0")[0] == 0  # the reviewer chose to hold it no longer


@pytest.mark.parametrize("extra, words", [
    (["--forget", NAMED], "give it with --update"),
    (["--update", "--forget", OTHER], "keeps no withdrawn entry of that id"),
    (["--update", "--forget", "Not An Id"], "takes an entry id"),
])
def test_forget_is_a_reviewed_removal_of_a_withdrawn_entry_only(catalog, extra, words):
    before = catalog.lock.read_bytes()
    rc = main(["release-check", catalog.location, "v0.2.0", "--lock", str(catalog.lock), *extra])
    assert rc == 3 and words in catalog.capsys.readouterr().err
    assert catalog.lock.read_bytes() == before


def test_attack_a_withdrawn_record_edited_in_the_lock_is_history_invalid(catalog):
    lock = json.loads(catalog.lock.read_bytes())
    lock["withdrawn"][NAMED]["entryDigest"] = "sha256:" + "0" * 64
    catalog.lock.write_text(json.dumps(lock, indent=2) + "\n")
    rc, report = catalog.check("v0.2.0")
    assert rc == 1 and codes(report) == ["artifact-history-invalid"]
    assert "not the imported entryDigest" in report["refusals"][0]["detail"]


# --- lockVersion 2, with version-1 locks still read ----------------------------------------------------------


def version_1(catalog: Catalog, tag: str) -> bytes:
    manifest = catalog.blob(f"{tag}:manifest.json")
    value = {"lockVersion": 1, "location": catalog.location, "tag": tag,
             "commit": catalog.repo.rev(f"{tag}^{{commit}}"), "manifestDigest": sha256(manifest),
             "entries": {r["id"]: r["entryDigest"] for r in json.loads(manifest)}}
    return json.dumps(value, indent=2).encode("ascii") + b"\n"


def test_a_version_1_lock_is_read_and_written_as_2_only_by_update(catalog):
    old = version_1(catalog, "v0.1.0")
    catalog.lock.write_bytes(old)
    rc, report = catalog.check("v0.1.0")
    assert rc == 0 and report["lock"]["action"] == "unchanged" and catalog.lock.read_bytes() == old
    rc, report = catalog.check("v0.2.0")
    assert rc == 0 and report["lock"]["action"] == "kept" and catalog.lock.read_bytes() == old
    rc, report = catalog.check("v0.2.0", "--update")
    assert rc == 0 and report["lock"]["action"] == "updated"
    lock = json.loads(catalog.lock.read_bytes())
    assert lock["lockVersion"] == 2 and lock["withdrawn"][NAMED]["commit"] == catalog.imported


def test_near_miss_a_version_1_lock_of_the_same_release_is_rewritten_by_update(catalog):
    catalog.lock.write_bytes(version_1(catalog, "v0.2.0"))
    rc, report = catalog.check("v0.2.0", "--update")
    assert rc == 0 and report["lock"]["action"] == "updated"
    assert json.loads(catalog.lock.read_bytes())["lockVersion"] == 2


@pytest.mark.parametrize("change, words", [
    ({"lockVersion": 3}, "lockVersion is 2"),
    ({"withdrawn": {NAMED: {"tag": "v0.1.0"}}}, "is an object of exactly commit, entryDigest, tag"),
    ({"withdrawn": {OTHER: {"tag": "v0.1.0", "commit": "a" * 40, "entryDigest": "sha256:" + "0" * 64}}},
     "also an imported entry"),
])
def test_a_version_2_lock_is_read_strictly(catalog, change, words):
    lock = json.loads(catalog.lock.read_bytes()) | change
    catalog.lock.write_text(json.dumps(lock, indent=2) + "\n")
    rc, report = catalog.check("v0.2.0")
    assert rc == 1 and codes(report) == ["lock-malformed"] and words in report["refusals"][0]["detail"]


def test_a_version_1_lock_holding_withdrawn_is_malformed(catalog):
    lock = json.loads(catalog.lock.read_bytes()) | {"lockVersion": 1}
    catalog.lock.write_text(json.dumps(lock, indent=2) + "\n")
    rc, report = catalog.check("v0.2.0")
    assert rc == 1 and codes(report) == ["lock-malformed"]
