"""Issue #34 item 3: previous releases as RFC 0019 §7 counts them. "Every tag in §3's grammar that resolves to
a commit and is lower in tag order than the release being made is a previous release", wherever its commit is:
the gate and `exchange release` hold artifact pairs and upgrade keys to a release tag on a side branch too,
and say so (`history: N previous release(s), M off main`). The ledger's rules stay on main's first-parent
history, upgrade notes key by main's ledger only, and a consumer's check of one tag (`release-check`) reads
the tag's own first-parent history as before. Every expectation is written out here; entry digests are
hashlib's over the bytes written (history_cases), never the code under test's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgment_exchange.cli import main as exchange
from judgment_exchange.consumer import release_check
from judgment_exchange.history import CurrentEntry, check_history
from judgment_exchange.releasing.published import verify_pushed_tag

from ..support.gitrepo import GitRepo, gate_on, git_identity
from ..support.simulator import CatalogSimulator, empty_released_twice
from .history_cases import _release_files, entry_dir

PAIR = ("urn:example:side-pack", "1.0.0")
SIDE_DIGEST = "sha256:" + "a" * 64
OTHER_DIGEST = "sha256:" + "b" * 64


@pytest.fixture(autouse=True)
def identity(monkeypatch) -> None:
    git_identity(monkeypatch)


def _entry(entry_id: str, digest: str, pair: tuple[str, str] = PAIR) -> dict:
    return {"entryVersion": 3, "kind": "dialect", "id": entry_id, "title": f"{entry_id} entry",
            "direction": "input", "dialect": {"path": "dialect.json", "formatVersion": "3.0.0", "digest": digest},
            "artifact": {"id": pair[0], "version": pair[1]}}


def _side_release(history: CatalogSimulator, start: str, tag: str, entries: dict[str, dict]) -> str:
    """A commit on a branch `side` from `start` holding exactly `entries` and their manifest, tagged TAG (a
    release tag off main); main checked out again. The entries' entryDigests, by id."""
    files, digests = _release_files({"entries": entries})
    history.side_release(tag, start, tree=files)
    return digests


def _current(entry_id: str, digest: str, keys: tuple[str, ...] = ()) -> CurrentEntry:
    return CurrentEntry(id=entry_id, path=entry_dir(entry_id), dialect_digest=digest, artifact=PAIR,
                        upgrade_keys=keys)


def _codes(result) -> list[str]:
    return sorted(r.code for r in result.refusals)


@pytest.fixture
def side(tmp_path: Path) -> tuple[GitRepo, dict[str, str]]:
    """v0.1.0 and v0.2.0 on main (`exchange release`, with the ledger); v0.1.5 on a side branch from v0.1.0,
    publishing acme.side under PAIR with SIDE_DIGEST."""
    history = empty_released_twice(tmp_path / "catalog")
    digests = _side_release(history, "v0.1.0^{commit}", "v0.1.5", {"acme.side": _entry("acme.side", SIDE_DIGEST)})
    return history.repo, digests


def test_the_side_branch_pair_with_changed_content_is_refused(side) -> None:
    repo, _ = side
    result = check_history(str(repo.path), [_current("acme.side", OTHER_DIGEST)])
    assert _codes(result) == ["artifact-content-changed"], [r.detail for r in result.refusals]
    assert "v0.1.5" in result.refusals[0].detail
    assert result.releases == ["v0.1.0", "v0.1.5", "v0.2.0"]
    noted = [n for n in result.notes if n.startswith("history: ")]
    assert noted == [noted[0]] and "3 previous release(s), 1 off main (v0.1.5)" in noted[0], result.notes
    # a release being made above it holds it too; the ledger's rules are untouched (no unrecorded tag)
    assert _codes(check_history(str(repo.path), [_current("acme.side", OTHER_DIGEST)], release_tag="v0.3.0")) \
        == ["artifact-content-changed"]
    # the switch: a consumer's check of one tag reads main's first-parent history alone, as before
    consumer = check_history(str(repo.path), [_current("acme.side", OTHER_DIGEST)], side_releases=False)
    assert (_codes(consumer), consumer.releases) == ([], ["v0.1.0", "v0.2.0"])


def test_near_miss_identical_content_under_the_side_branch_pair_is_admitted(side) -> None:
    repo, _ = side
    result = check_history(str(repo.path), [_current("acme.side", SIDE_DIGEST)])
    assert (_codes(result), result.status) == ([], "checked")


def test_a_side_branch_release_below_the_release_being_made_only(side) -> None:
    """A check of release v0.1.0 reads no release above it, on main or off it (v0.1.5 is above v0.1.0)."""
    repo, _ = side
    result = check_history(str(repo.path), [_current("acme.side", OTHER_DIGEST)], release_tag="v0.1.0",
                           anchor=repo.rev("v0.1.0^{commit}"))
    assert (_codes(result), result.releases) == ([], [])


def test_an_upgrade_key_naming_the_side_branch_releases_entry_digest_is_admitted(side) -> None:
    repo, digests = side
    key = digests["acme.side"]
    result = check_history(str(repo.path), [_current("acme.side", SIDE_DIGEST, (key,))])
    assert _codes(result) == [], [r.detail for r in result.refusals]
    # upgrade notes are keyed by main's ledger only: the side release names no "latest released" digest
    assert "acme.side" not in result.released
    consumer = check_history(str(repo.path), [_current("acme.side", SIDE_DIGEST, (key,))], side_releases=False)
    assert _codes(consumer) == ["upgrade-key-unknown"]
    other = check_history(str(repo.path), [_current("acme.side", SIDE_DIGEST, ("sha256:" + "c" * 64,))])
    assert _codes(other) == ["upgrade-key-unknown"]  # the near miss: a digest no release holds


# --- through the commands: the gate and release-check, on a real Runner entry --------------------------------


def _unreplayed(refusals) -> list[str]:
    """The codes, but the named entry's fixture, which does not replay here (tests/support/catalog.py says so)."""
    return sorted(r.code for r in refusals if r.code != "preparation-differs")


def _named_releases(tmp_path: Path) -> tuple[CatalogSimulator, dict]:
    """v0.1.0: the empty manifest; v0.2.0: one entry in a named format with its artifact pair (no ledger: main's
    tags are its releases). The history and v0.2.0's entry.json value."""
    history = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "work")
    history.release("v0.1.0", message="snapshot")
    history.builder.add_named_entry("acme.vendors")
    history.release("v0.2.0", annotated=True, message="snapshot")
    return history, json.loads(history.git("show", "v0.2.0:entries/acme/vendors/entry.json"))


@pytest.fixture
def runner_side(tmp_path: Path) -> tuple[GitRepo, dict]:
    """_named_releases and a side branch from v0.1.0 whose tag v0.1.5 publishes v0.2.0's entry's artifact pair
    under another dialect digest."""
    history, entry = _named_releases(tmp_path)
    pair = (entry["artifact"]["id"], entry["artifact"]["version"])
    _side_release(history, "v0.1.0^{commit}", "v0.1.5",
                  {"acme.vendors": _entry("acme.vendors", OTHER_DIGEST, pair)})
    return history.repo, entry


def test_the_gate_refuses_main_publishing_other_content_under_a_side_releases_pair(runner_side, capsys) -> None:
    repo, _ = runner_side
    report = gate_on(repo, release_tag="v0.2.0", replay=False)
    assert [r.code for r in report.refusals] == ["artifact-content-changed"], report.refusals
    report = gate_on(repo, replay=False)
    assert [r.code for r in report.refusals] == ["artifact-content-changed"], report.refusals
    assert any("1 off main (v0.1.5)" in n for n in report.notes), report.notes
    assert exchange(["check", "--catalog", str(repo.path), "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["history"] == "checked" and "artifact-content-changed" in [r["code"] for r in out["refusals"]]


def test_release_check_is_unchanged_on_the_side_branch_scenario(runner_side) -> None:
    repo, _ = runner_side
    result = release_check(str(repo.path), "v0.2.0")
    assert (_unreplayed(result.report.refusals), result.report.history) == ([], "checked")
    assert any("tag v0.1.5 " in n and "ignored" in n for n in result.report.notes), result.report.notes


def test_near_miss_a_side_release_of_the_same_content_passes_the_gate(tmp_path: Path) -> None:
    repo, entry = _named_releases(tmp_path)
    pair = (entry["artifact"]["id"], entry["artifact"]["version"])
    _side_release(repo, "v0.1.0^{commit}", "v0.1.5",
                  {"acme.vendors": _entry("acme.vendors", entry["dialect"]["digest"], pair)})
    report = gate_on(repo, release_tag="v0.2.0", replay=False)
    assert ([r.code for r in report.refusals], report.history) == ([], "checked")
    assert any("1 off main (v0.1.5)" in n for n in report.notes), report.notes


# --- a side-branch tag above the release being checked -------------------------------------------------------


def test_a_side_branch_tag_above_the_release_is_harmless_to_a_check_of_that_release(tmp_path: Path, capsys) -> None:
    history = empty_released_twice(tmp_path / "catalog")
    history.side_release("v0.3.0", "v0.2.0^{commit}", branch="side", message="side work", annotated=False,
                         tree={"manifest.json": b"not json", "releases.json": b"[]\n"})
    repo = history.repo
    result = release_check(str(repo.path), "v0.2.0")
    assert ([r.code for r in result.report.refusals], result.report.history) == ([], "checked")
    report = gate_on(repo, release_tag="v0.2.0")
    assert ([r.code for r in report.refusals], report.history) == ([], "checked")
    assert exchange(["check", "--catalog", str(repo.path), "--release-tag", "v0.2.0"]) == 0
    capsys.readouterr()
    assert verify_pushed_tag(str(repo.path), "v0.2.0", main="main").problems == []
    # the near miss: a check of main without --release-tag counts it, and its manifest is malformed
    assert [r.code for r in gate_on(repo).refusals] == ["artifact-history-invalid"]


# --- exchange release counts them too ------------------------------------------------------------------------


def _release_over_a_side_tag(tmp_path: Path, changed: bool):
    """v0.1.0 (the empty catalog) by `exchange release`; v0.1.5 tagged by hand on a side branch from it,
    publishing examples' named document under its artifact pair (`changed`: another document under the pair);
    then main adds the named document itself and `exchange release v0.2.0` is run. Its outcome."""
    from judgment_exchange.releasing.release import make_release

    from ..support.conformance import KitCatalog
    from ..support.gitrepo import files_of

    history = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "repo-work")
    history.commit("the catalog", tree=files_of(KitCatalog(tmp_path / "empty").root) | {"releases.json": b"[]\n"})
    history.release_by_command("v0.1.0", commit=False)
    ledger = (history.path / "releases.json").read_bytes()  # v0.1.0's release commit's ledger
    side = KitCatalog(tmp_path / "side")
    side.add_named_recorded("acme.vendors-named", changed=changed)
    side.write_manifest()
    history.side_release("v0.1.5", "v0.1.0^{commit}", branch="side", message="side",
                         tree=files_of(side.root) | {"releases.json": ledger})
    built = KitCatalog(tmp_path / "main")
    built.add_named_recorded("acme.vendors-named")
    built.write_manifest()
    history.commit("add it", tree=files_of(built.root) | {"releases.json": ledger})
    return make_release(history.location, "v0.2.0")  # the command under test, its outcome as it is


def test_exchange_release_refuses_other_content_under_a_side_releases_pair(tmp_path: Path) -> None:
    made = _release_over_a_side_tag(tmp_path, changed=True)
    text = "\n".join(made.lines)
    assert made.status == 1 and "artifact-content-changed" in text and "v0.1.5" in text, made.lines


def test_near_miss_exchange_release_over_a_side_release_of_the_same_content(tmp_path: Path) -> None:
    made = _release_over_a_side_tag(tmp_path, changed=False)
    assert made.status == 0, made.lines
