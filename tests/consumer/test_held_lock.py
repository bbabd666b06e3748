"""A lock remembers what it imported (RFC 0019 §7; issue #25 item 3; docs/release-contract.md, "The lock").

"The consumer retains the catalog location, tag, resolved commit and manifest for the import", and "checks
history when it holds the previous manifest": with `--lock`, the locked release is a held previous manifest
for artifact identity, upgrade keys and withdrawal, whatever the new tag's ancestry ("No branch ancestry is
checked by the consumer"). The attack: whoever can push refs to a mirror publishes v0.2.0 on a history of
its own, made with `exchange release` itself, withdraws the entry holding a named artifact and adds another
under the same (artifact.id, artifact.version) with a different document.

Expected values are stated by hand: codes from the RFC, digests from hashlib over the bytes git itself
gives (`git cat-file`), never from the package.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgment_exchange.cli import main

from ..support.conformance import KitCatalog
from ..support.gitrepo import files_of, git_identity
from ..support.simulator import CatalogSimulator
from .conftest import sha256

NAMED, COPY = "acme.vendors-named", "acme.vendors-named-copy"
NAMED_ENTRY = "entries/acme/vendors-named/entry.json"


@pytest.fixture(autouse=True)
def identity(monkeypatch) -> None:
    git_identity(monkeypatch)  # `exchange release` commits and tags


class Mirror:
    """A catalog whose v0.1.0 was released by `exchange release` and imported under a lock; `fork` then
    publishes v0.2.0 on a history of its own, as whoever can push refs to a mirror can."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.history = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "repo-work")
        self.repo = self.history.repo
        self.lock = tmp_path / "exchange.lock"
        self.release(self._catalog("v1", lambda b: b.add_named_recorded(NAMED)), "v0.1.0")

    @property
    def location(self) -> str:
        return str(self.repo.path)

    def _catalog(self, name: str, *build) -> dict[str, bytes]:
        builder = KitCatalog(self.tmp / name)
        for make in build:
            make(builder)
        builder.write_manifest()
        return files_of(builder.root) | {"releases.json": b"[]\n"}

    def release(self, files: dict[str, bytes], tag: str) -> None:
        self.history.commit(f"catalog for {tag}", tree=files)
        self.history.release_by_command(tag, commit=False)

    def fork(self, *build, edit=None) -> None:
        """v0.2.0 on a new root commit: main renamed away, a fresh main with a ledger of its own, released by
        `exchange release` in a repository of its own (which holds no v0.1.0: where the mirror's tags are, the
        gate counts v0.1.0 as a previous release wherever its commit is, issue #34 item 3) and pushed to the
        mirror; with `edit`, the files edited and tagged by hand, without a ledger (a release the fork's own
        gate would refuse: an upgrade key its history does not hold)."""
        self.history.new_root("imported")
        files = self._catalog("fork", *build)
        if edit is None:
            own = CatalogSimulator(self.tmp / "fork-repo", work_path=self.tmp / "fork-repo-work")
            own.commit("catalog for v0.2.0", tree=files)
            own.release_by_command("v0.2.0", commit=False)
            self.repo.git("fetch", "-q", "--update-head-ok", str(own.path), "+refs/heads/main:refs/heads/main",
                          "refs/tags/v0.2.0:refs/tags/v0.2.0")
            self.repo.git("reset", "-q", "--hard", "main")
            return
        files = edit(files)
        files.pop("releases.json")
        self.history.release("v0.2.0", annotated=True, message="v0.2.0, by hand", tree=files)

    def blob(self, rev: str) -> bytes:
        return self.history.blob(rev)

    def check(self, capsys, tag: str, *extra: str) -> tuple[int, dict]:
        rc = main(["release-check", self.location, tag, "--lock", str(self.lock), "--format", "json", *extra])
        return rc, json.loads(capsys.readouterr().out)


def codes(report: dict) -> list[str]:
    return [r["code"] for r in report["refusals"]]


def hand_written_lock(mirror: Mirror, **changed) -> bytes:
    """A version-1 lock of v0.1.0 written by hand, as an installation that imported it keeps it."""
    manifest = mirror.blob("v0.1.0:manifest.json")
    rows = json.loads(manifest)
    value = {"lockVersion": 1, "location": mirror.location, "tag": "v0.1.0",
             "commit": mirror.repo.rev("v0.1.0^{commit}"), "manifestDigest": sha256(manifest),
             "entries": {row["id"]: row["entryDigest"] for row in rows}} | changed
    return json.dumps(value, indent=2).encode("ascii") + b"\n"


@pytest.fixture
def mirror(tmp_path, capsys) -> Mirror:
    out = Mirror(tmp_path)
    rc, report = out.check(capsys, "v0.1.0")
    assert rc == 0 and report["lock"]["action"] == "created"
    return out


def test_attack_forked_release_changes_locked_artifact_content(mirror, capsys):
    mirror.fork(lambda b: b.add_named_recorded(COPY, changed=True))
    before = mirror.lock.read_bytes()
    rc, report = mirror.check(capsys, "v0.2.0", "--update")
    assert rc == 1 and codes(report) == ["artifact-content-changed"]
    refusal = report["refusals"][0]
    assert refusal["entry"] == COPY and f"{NAMED} in the locked v0.1.0" in refusal["detail"]
    assert report["history"] == "checked" and mirror.lock.read_bytes() == before  # the lock is not updated
    assert report["results"] == [{"id": COPY, "result": "refused"}]
    # without the lock nothing holds the imported release: the fork's own history has none (as today)
    rc = main(["release-check", mirror.location, "v0.2.0", "--format", "json"])
    alone = json.loads(capsys.readouterr().out)
    assert rc == 0 and alone["history"] == "no-releases"


def test_forked_release_with_identical_content_passes_with_a_note(mirror, capsys):
    mirror.fork(lambda b: b.add_named_recorded(COPY))  # near miss: the same document under the pair
    rc, report = mirror.check(capsys, "v0.2.0", "--update")
    assert rc == 0 and report["history"] == "checked" and report["lock"]["action"] == "updated"
    fork, locked = mirror.repo.rev("v0.2.0^{commit}"), mirror.repo.rev("v0.1.0^{commit}")
    notes = [n for n in report["notes"] if "does not descend" in n]
    assert len(notes) == 1 and fork in notes[0] and locked in notes[0] and "RFC 0019 §7" in notes[0]
    assert json.loads(mirror.lock.read_bytes())["commit"] == fork


def test_attack_forked_release_checked_without_history_still_holds_the_lock(mirror, capsys):
    mirror.fork(lambda b: b.add_named_recorded(COPY, changed=True))
    rc, report = mirror.check(capsys, "v0.2.0", "--no-history")
    assert rc == 1 and codes(report) == ["artifact-content-changed"] and report["history"] == "checked"
    assert any("only the locked v0.1.0 was read (--no-history)" in n for n in report["notes"])
    rc = main(["release-check", mirror.location, "v0.2.0", "--no-history", "--format", "json"])  # no lock
    alone = json.loads(capsys.readouterr().out)
    assert rc == 0 and alone["history"] == "artifact-history-unchecked"


def test_a_version_1_lock_written_by_hand_is_held(mirror, capsys):
    mirror.fork(lambda b: b.add_named_recorded(COPY, changed=True))
    mirror.lock.write_bytes(hand_written_lock(mirror))
    rc, report = mirror.check(capsys, "v0.2.0")
    assert rc == 1 and codes(report) == ["artifact-content-changed"]


def test_attack_locked_manifest_digest_differs_is_history_invalid(mirror, capsys):
    mirror.fork(lambda b: b.add_named_recorded(COPY))  # content a held manifest would admit
    wrong = "sha256:" + "0" * 64
    mirror.lock.write_bytes(hand_written_lock(mirror, manifestDigest=wrong))
    rc, report = mirror.check(capsys, "v0.2.0", "--update")
    assert rc == 1 and codes(report) == ["artifact-history-invalid"]
    detail = report["refusals"][0]["detail"]
    assert wrong in detail and sha256(mirror.blob("v0.1.0:manifest.json")) in detail
    assert report["results"][0]["result"] == "not-checked"
    rc, report = mirror.check(capsys, "v0.2.0", "--no-history")  # never a fall-back to form only
    assert rc == 1 and codes(report) == ["artifact-history-invalid"]


def test_attack_locked_release_unreadable_is_history_invalid(mirror, capsys):
    mirror.fork(lambda b: b.add_named_recorded(COPY))
    mirror.history.drop_object("v0.1.0:manifest.json")  # loose: nothing is packed in a throwaway repository
    rc, report = mirror.check(capsys, "v0.2.0")
    assert rc == 1 and codes(report) == ["artifact-history-invalid"] and "the locked v0.1.0" in \
        report["refusals"][0]["detail"]


def test_an_upgrade_key_is_held_to_the_locked_release(mirror, capsys):
    locked = json.loads(mirror.blob("v0.1.0:manifest.json"))[0]["entryDigest"]

    def noted(key: str):
        def edit(files: dict[str, bytes]) -> dict[str, bytes]:
            path = NAMED_ENTRY
            entry = json.loads(files[path])
            entry["title"], entry["upgrade"] = "Vendors, retitled on the fork", {key: "Title only."}
            data = json.dumps(entry, indent=2).encode("utf-8") + b"\n"
            rows = json.loads(files["manifest.json"])
            rows[0]["entryDigest"] = sha256(data)
            return files | {path: data, "manifest.json": json.dumps(rows, indent=2).encode("ascii") + b"\n"}
        return edit

    mirror.fork(lambda b: b.add_named_recorded(NAMED), edit=noted(locked))
    rc, report = mirror.check(capsys, "v0.2.0")
    assert rc == 0 and report["history"] == "checked", report["refusals"]
    rc = main(["release-check", mirror.location, "v0.2.0", "--format", "json"])  # no lock: no earlier release
    assert rc == 1 and codes(json.loads(capsys.readouterr().out)) == ["upgrade-key-unknown"]


def test_an_upgrade_key_the_locked_release_does_not_hold_is_refused(mirror, capsys):
    other = "sha256:" + "ab" * 32

    def edit(files: dict[str, bytes]) -> dict[str, bytes]:
        path = NAMED_ENTRY
        entry = json.loads(files[path])
        entry["upgrade"] = {other: "From nowhere."}
        data = json.dumps(entry, indent=2).encode("utf-8") + b"\n"
        rows = json.loads(files["manifest.json"])
        rows[0]["entryDigest"] = sha256(data)
        return files | {path: data, "manifest.json": json.dumps(rows, indent=2).encode("ascii") + b"\n"}

    mirror.fork(lambda b: b.add_named_recorded(NAMED), edit=edit)
    rc, report = mirror.check(capsys, "v0.2.0")
    assert rc == 1 and codes(report) == ["upgrade-key-unknown"]
    unknown = [r for r in report["refusals"] if r["code"] == "upgrade-key-unknown"][0]
    assert "the locked v0.1.0" in unknown["detail"]  # the valid key is named with the release holding it


def test_the_locked_release_counts_toward_max_history_releases(mirror, capsys):
    mirror.history.new_root("imported")
    files = mirror._catalog("fork", lambda b: b.add_named_recorded(NAMED))
    files.pop("releases.json")  # tags alone on the fork: v0.1.5, then v0.2.0
    for tag, readme in (("v0.1.5", b"# Fork\n"), ("v0.2.0", b"# Fork, again\n")):
        mirror.history.release(tag, message=tag, tree=files | {"README.md": readme})
    rc, report = mirror.check(capsys, "v0.2.0", "--history", "1")  # v0.1.5 and the locked v0.1.0: two
    assert rc == 1 and codes(report) == ["artifact-history-invalid"]
    assert "2 previous releases, over the stated limit of 1" in report["refusals"][0]["detail"]
    rc, report = mirror.check(capsys, "v0.2.0", "--history", "2")  # near miss
    assert rc == 0 and report["history"] == "checked"


def test_a_descending_upgrade_reads_the_locked_release_once_without_a_note(tmp_path, capsys):
    # tags alone, no ledger: the history is the tags on v0.2.0's first parents
    repo = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "repo-work")
    for tag, changed in (("v0.1.0", False), ("v0.2.0", True)):
        builder = KitCatalog(tmp_path / tag)
        builder.add_named_recorded(NAMED, changed=changed)
        builder.write_manifest()
        repo.release(tag, message=tag, tree=files_of(builder.root))
    lock = tmp_path / "exchange.lock"
    assert main(["release-check", str(repo.path), "v0.1.0", "--lock", str(lock)]) == 0
    capsys.readouterr()
    rc = main(["release-check", str(repo.path), "v0.2.0", "--lock", str(lock), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert rc == 1 and codes(report) == ["artifact-content-changed"]  # once: the locked release is v0.1.0 itself
    assert "(acme.vendors-named in v0.1.0)" in report["refusals"][0]["detail"]
    assert not [n for n in report.get("notes", []) if "does not descend" in n]


def test_upgrade_diff_from_the_lock_holds_the_locked_release(mirror, capsys):
    mirror.fork(lambda b: b.add_named_recorded(COPY, changed=True))
    rc = main(["upgrade-diff", mirror.location, "--lock", str(mirror.lock), "v0.2.0", "--format", "json"])
    diff = json.loads(capsys.readouterr().out)
    assert rc == 1 and diff["result"] == "refused" and diff["target"]["history"] == "checked"
    assert [r["code"] for r in diff["refusals"]] == ["artifact-content-changed"]


def test_artifact_history_unchecked_has_its_row_in_codes_md():
    from judgment_exchange.codes import REGISTRY

    from ..support.paths import REPO

    assert "never a refusal" in REGISTRY["artifact-history-unchecked"].meaning
    assert '<a id="artifact-history-unchecked"></a>' in (REPO / "docs" / "codes.md").read_text(encoding="utf-8")
