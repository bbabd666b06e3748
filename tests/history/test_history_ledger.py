"""The release ledger and main's first-parent history, attacked (issue #10 items 1-3; docs/releasing.md).

Each test is named after the attack it holds. Ledger rows are written here by hand: manifestDigest by
hashlib over the manifest bytes written, commits from `git rev-parse`, never by the code under test.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import git
import pytest

from judgment_exchange.history import ObjectStore, ReleaseTree, check_history
from judgment_exchange.history.ledger import LedgerFormError, read_ledger
from judgment_exchange.tree import TreeError

from ..support.gitrepo import GitRepo

MANIFEST_A = b"[]\n"
MANIFEST_B = b"[ ]\n"


def _ledger(rows: list[dict]) -> bytes:
    return (json.dumps(rows, indent=2) + "\n").encode() if rows else b"[]\n"


def _release(repo: GitRepo, tag: str, rows: list[dict], manifest: bytes = MANIFEST_A, **override) -> str:
    """A checked commit, then the release commit adding only TAG's row, annotated-tagged; returns it."""
    checked = repo.snapshot({"manifest.json": manifest, "releases.json": _ledger(rows)}, f"work before {tag}")
    row = {"tag": tag, "manifestDigest": "sha256:" + hashlib.sha256(manifest).hexdigest(), "commit": checked,
           "previous": repo.rev(rows[-1]["tag"] + "^{commit}") if rows else None, "date": "2026-10-14"}
    row.update(override)
    rows.append(row)
    made = repo.snapshot({"manifest.json": manifest, "releases.json": _ledger(rows)}, f"Release {tag}")
    repo.tag(tag, annotated=True)
    return made


@pytest.fixture
def released(tmp_path: Path) -> tuple[GitRepo, list[dict]]:
    repo = GitRepo(tmp_path / "catalog")
    rows: list[dict] = []
    _release(repo, "v0.1.0", rows)
    _release(repo, "v0.2.0", rows, MANIFEST_B)
    repo.snapshot({"manifest.json": MANIFEST_B, "releases.json": _ledger(rows)}, "later work")
    return repo, rows


def _codes(repo: GitRepo, **kw) -> tuple[list[str], str]:
    result = check_history(str(repo.path), [], **kw)
    assert all(r.detail for r in result.refusals)
    return sorted(r.code for r in result.refusals), result.status


# --- the honest cases (near misses for every ledger code) ------------------------------------------


def test_empty_ledger_without_tags_is_no_releases(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    repo.snapshot({"manifest.json": MANIFEST_A, "releases.json": b"[]\n"})
    assert _codes(repo) == ([], "no-releases")


def test_ledger_releases_pass_and_are_read(released) -> None:
    repo, _ = released
    result = check_history(str(repo.path), [])
    assert (result.refusals, result.status, result.releases) == ([], "checked", ["v0.1.0", "v0.2.0"])


def test_release_check_of_an_older_release_reads_its_own_ledger(released) -> None:
    repo, _ = released
    anchor = repo.rev("v0.1.0^{commit}")
    result = check_history(str(repo.path), [], release_tag="v0.1.0", anchor=anchor)
    assert (result.refusals, result.status, result.notes) == ([], "no-releases", [])


# --- item 1: deleted, moved, re-created tags; rewritten commits; clones missing tags or objects ------


def test_deleted_release_tag_is_refused(released) -> None:
    repo, _ = released
    repo.git("tag", "-d", "v0.1.0")
    assert _codes(repo) == (["release-tag-missing"], "checked")


def test_moved_release_tag_is_refused(released) -> None:
    repo, _ = released
    repo.git("tag", "-f", "-a", "-m", "moved", "v0.1.0", "HEAD")
    assert _codes(repo) == (["release-tag-mismatch"], "checked")


def test_recreated_release_tag_on_another_commit_is_refused(released) -> None:
    repo, _ = released
    repo.git("tag", "-d", "v0.2.0")
    repo.git("tag", "v0.2.0", "HEAD~2")  # the checked commit before the release commit
    assert _codes(repo) == (["release-tag-mismatch"], "checked")


def test_amended_release_commit_with_force_moved_tag_is_refused(released) -> None:
    repo, rows = released
    parent = repo.rev("v0.1.0^{commit}~1")
    amended = _amend(repo, parent, {"manifest.json": MANIFEST_B, "releases.json": _ledger(rows[:1])})
    repo.git("tag", "-f", "v0.1.0", amended)  # main is untouched: the tag no longer names main's release
    assert _codes(repo) == (["release-tag-mismatch"], "checked")


def test_amended_release_commit_with_main_force_pushed_is_refused(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    rows: list[dict] = []
    release = _release(repo, "v0.1.0", rows)
    amended = _amend(repo, repo.rev(f"{release}~1"), {"manifest.json": MANIFEST_B, "releases.json": _ledger(rows)})
    repo.git("update-ref", "refs/heads/main", amended)
    repo.git("tag", "-f", "v0.1.0", amended)
    codes, _ = _codes(repo)
    assert codes == ["release-row-mismatch", "release-row-mismatch"]  # manifestDigest; more than the ledger


def test_clone_without_tags_is_refused_not_no_releases(released, tmp_path: Path) -> None:
    repo, _ = released
    clone = tmp_path / "clone"
    git.Repo.clone_from(str(repo.path), str(clone), multi_options=["--no-tags"]).close()
    result = check_history(str(clone), [])
    assert sorted(r.code for r in result.refusals) == ["release-tag-missing", "release-tag-missing"]
    assert result.status == "checked"


def test_shallow_clone_missing_objects_is_refused_not_no_releases(released, tmp_path: Path) -> None:
    repo, _ = released
    clone = tmp_path / "clone"
    git.Repo.clone_from(f"file://{repo.path}", str(clone), multi_options=["--depth=1"]).close()
    result = check_history(str(clone), [])
    assert [r.code for r in result.refusals] == ["artifact-history-invalid"]
    assert result.status == "checked"


def test_tag_on_main_without_ledger_row_is_refused(released) -> None:
    repo, _ = released
    repo.tag("v0.3.0")
    assert _codes(repo) == (["release-tag-unrecorded"], "checked")


def test_row_with_another_manifest_digest_is_refused(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    _release(repo, "v0.1.0", [], manifestDigest="sha256:" + hashlib.sha256(MANIFEST_B).hexdigest())
    assert _codes(repo) == (["release-row-mismatch"], "checked")


def test_row_whose_previous_is_not_the_previous_release_is_refused(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    rows: list[dict] = []
    _release(repo, "v0.1.0", rows)
    _release(repo, "v0.2.0", rows, previous="0" * 40)
    assert _codes(repo) == (["release-row-mismatch"], "checked")


def test_row_whose_commit_is_not_the_checked_commit_is_refused(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    _release(repo, "v0.1.0", [], commit="1" * 40)
    assert _codes(repo) == (["release-row-mismatch"], "checked")


def test_ledger_rows_out_of_tag_order_are_refused(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    row = {"tag": "v0.2.0", "manifestDigest": "sha256:" + "a" * 64, "commit": "b" * 40, "previous": None,
           "date": "2026-10-14"}
    lower = dict(row, tag="v0.1.0", previous="c" * 40)
    repo.snapshot({"manifest.json": MANIFEST_A, "releases.json": _ledger([row, lower])})
    assert _codes(repo) == (["release-ledger-invalid"], "no-releases")
    with pytest.raises(LedgerFormError):
        read_ledger(_ledger([row, lower]))
    assert [r.tag for r in read_ledger(_ledger([lower, row]))] == ["v0.1.0", "v0.2.0"]  # the near miss


@pytest.mark.parametrize("change", [
    {"date": "2026-02-30"}, {"tag": "v0.1"}, {"commit": "B" * 40}, {"previous": ""}, {"extra": 1},
    {"manifestDigest": "sha256:" + "a" * 63},
])
def test_ledger_row_outside_its_form_is_refused(change: dict) -> None:
    row = {"tag": "v0.1.0", "manifestDigest": "sha256:" + "a" * 64, "commit": "b" * 40, "previous": None,
           "date": "2026-10-14"}
    with pytest.raises(LedgerFormError):
        read_ledger(_ledger([dict(row, **change)]))


def test_changed_ledger_row_on_main_is_refused(released) -> None:
    repo, rows = released
    rows[0]["date"] = "2026-10-15"
    repo.snapshot({"manifest.json": MANIFEST_B, "releases.json": _ledger(rows)}, "rewrite a row")
    codes, _ = _codes(repo)
    assert "release-ledger-changed" in codes


def test_pull_request_changing_the_ledger_is_refused(released) -> None:
    repo, rows = released
    base = repo.path.joinpath("releases.json").read_bytes()
    assert _codes(repo, ledger=base, base_ledger=(base,)) == ([], "checked")  # the near miss: unchanged
    extra = _ledger(rows + [dict(rows[-1], tag="v0.3.0")])
    codes, _ = _codes(repo, ledger=extra, base_ledger=(base,))
    assert codes == ["release-ledger-changed", "release-ledger-changed"]  # changed in the PR; not main's row


def test_working_tree_ledger_missing_a_row_is_refused(released) -> None:
    repo, rows = released
    assert _codes(repo, ledger=_ledger(rows[:1])) == (["release-ledger-changed"], "checked")


def test_deleted_ledger_on_main_is_refused(released) -> None:
    repo, _ = released
    repo.snapshot({"manifest.json": MANIFEST_B}, "drop the ledger")
    assert _codes(repo)[0] == ["release-ledger-missing"]
    assert _codes(repo, ledger=None)[0] == ["release-ledger-missing"]


def test_catalog_that_never_had_a_ledger_reads_its_tags(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    repo.snapshot({"manifest.json": MANIFEST_A})
    repo.tag("v0.1.0")
    assert _codes(repo) == ([], "checked")  # the near miss of release-ledger-missing


# --- item 2: main's releases make the ledger; §7 counts every release tag (issue #34 item 3) ----------------


def test_side_branch_tag_whose_pairs_agree_is_a_previous_release_not_a_refusal(released) -> None:
    repo, _ = released
    repo.git("branch", "side", "HEAD~1")
    side = _amend(repo, repo.rev("side"), {"manifest.json": MANIFEST_A})
    repo.git("tag", "v9.0.0", side)
    result = check_history(str(repo.path), [])
    assert (result.refusals, result.status, result.releases) == ([], "checked", ["v0.1.0", "v0.2.0", "v9.0.0"])
    assert result.notes == [result.notes[0]] and "3 previous release(s), 1 off main (v9.0.0)" in result.notes[0]


def test_side_branch_tag_with_a_malformed_manifest_refuses_main_but_not_a_consumers_check(released) -> None:
    """RFC 0019 §7: every tag in the grammar that resolves to a commit is a previous release, and a malformed
    previous manifest refuses; a consumer's check of one tag (side_releases=False) reads its own history."""
    repo, _ = released
    repo.git("branch", "side", "HEAD~1")
    side = _amend(repo, repo.rev("side"), {"manifest.json": b"not json"})
    repo.git("tag", "v9.0.0", side)
    assert _codes(repo) == (["artifact-history-invalid"], "checked")
    result = check_history(str(repo.path), [], side_releases=False)
    assert (result.refusals, result.status, result.releases) == ([], "checked", ["v0.1.0", "v0.2.0"])
    assert len(result.notes) == 1 and "tag v9.0.0 " in result.notes[0] and "ignored" in result.notes[0]


def test_side_branch_tag_without_a_ledger_is_a_previous_release(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    main = repo.snapshot({"manifest.json": MANIFEST_A})
    repo.tag("v0.1.0")
    side = _amend(repo, main, {"manifest.json": b"not json"})
    repo.git("tag", "v0.2.0", side)
    result = check_history(str(repo.path), [])
    assert sorted(r.code for r in result.refusals) == ["artifact-history-invalid"]
    result = check_history(str(repo.path), [], side_releases=False)
    assert (result.refusals, result.releases) == ([], ["v0.1.0"])
    assert len(result.notes) == 1 and "tag v0.2.0 " in result.notes[0]
    repo.git("tag", "-d", "v0.2.0")
    repo.git("tag", "v0.2.0", _amend(repo, main, {"manifest.json": MANIFEST_B}))  # the near miss: a valid manifest
    result = check_history(str(repo.path), [])
    assert (result.refusals, result.releases) == ([], ["v0.1.0", "v0.2.0"])
    assert len(result.notes) == 1 and "2 previous release(s), 1 off main (v0.2.0)" in result.notes[0]


def _amend(repo: GitRepo, parent: str, files: dict[str, bytes]) -> str:
    """A commit with parent `parent` and exactly `files` at its root (no checkout, no branch moved)."""
    lines = []
    for name, data in sorted(files.items()):
        blob = repo.git("hash-object", "-w", "--stdin", input=data)
        lines.append(f"100644 blob {blob}\t{name}")
    tree = repo.git("mktree", input=("\n".join(lines) + "\n").encode())
    return repo.git("commit-tree", tree, "-p", parent, "-m", "amended")


def _raw_tree(repo: GitRepo, entries: list[tuple[bytes, bytes, str]]) -> str:
    data = b"".join(mode + b" " + name + b"\0" + bytes.fromhex(oid) for mode, name, oid in entries)
    return repo.git("hash-object", "-t", "tree", "-w", "--literally", "--stdin", input=data)


def _tagged_raw_tree(repo: GitRepo, entries) -> str:
    tree = _raw_tree(repo, entries)
    commit = repo.git("commit-tree", tree, "-m", "hand-made")
    repo.git("update-ref", "refs/heads/main", commit)
    repo.tag("v0.1.0", commit)
    return commit


def test_tree_listing_a_name_twice_is_unreadable(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    good = repo.git("hash-object", "-w", "--stdin", input=MANIFEST_A)
    bad = repo.git("hash-object", "-w", "--stdin", input=b"not json")
    commit = _tagged_raw_tree(repo, [(b"100644", b"manifest.json", good), (b"100644", b"manifest.json", bad)])
    assert _codes(repo) == (["artifact-history-invalid"], "checked")
    with git.Repo(repo.path) as handle, pytest.raises(TreeError, match="twice"):
        ReleaseTree(ObjectStore(handle), commit, "x").read("manifest.json", 1024)


def test_tree_listing_each_name_once_is_read(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    good = repo.git("hash-object", "-w", "--stdin", input=MANIFEST_A)
    _tagged_raw_tree(repo, [(b"100644", b"manifest.json", good), (b"100644", b"z.json", good)])
    assert _codes(repo) == ([], "checked")


def test_gitlink_where_an_entry_directory_should_be_is_unreadable(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    good = repo.git("hash-object", "-w", "--stdin", input=b'[{"id": "acme.x", "kind": "dialect", "path": '
                    b'"entries/acme/x", "entryDigest": "sha256:' + b"a" * 64 + b'", "fixtures": []}]\n')
    entries = _raw_tree(repo, [(b"160000", b"acme", "e" * 40)])
    _tagged_raw_tree(repo, [(b"40000", b"entries", entries), (b"100644", b"manifest.json", good)])
    result = check_history(str(repo.path), [])
    assert [r.code for r in result.refusals] == ["artifact-history-invalid"]
    assert "gitlink" in result.refusals[0].detail


def test_gitlink_where_a_file_should_be_is_unreadable(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    _tagged_raw_tree(repo, [(b"160000", b"manifest.json", "e" * 40)])
    result = check_history(str(repo.path), [])
    assert [r.code for r in result.refusals] == ["artifact-history-invalid"]
    assert "gitlink" in result.refusals[0].detail


@pytest.mark.parametrize("mode", [b"100600", b"644", b"x", b"170000"])
def test_tree_entry_with_a_mode_git_does_not_write_is_unreadable(tmp_path: Path, mode: bytes) -> None:
    repo = GitRepo(tmp_path / "c")
    good = repo.git("hash-object", "-w", "--stdin", input=MANIFEST_A)
    _tagged_raw_tree(repo, [(mode, b"manifest.json", good)])
    assert _codes(repo) == (["artifact-history-invalid"], "checked")


def test_commit_that_does_not_parse_is_unreadable(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    repo.snapshot({"manifest.json": MANIFEST_A})
    bogus = repo.git("hash-object", "-t", "commit", "-w", "--literally", "--stdin", input=b"no tree line\n\nx\n")
    (repo.git_dir / "refs" / "heads" / "main").write_bytes(bogus.encode() + b"\n")  # git refuses to write it
    assert _codes(repo) == (["artifact-history-invalid"], "checked")


def test_tag_object_that_does_not_parse_is_unreadable(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    repo.snapshot({"manifest.json": MANIFEST_A})
    bogus = repo.git("hash-object", "-t", "tag", "-w", "--literally", "--stdin", input=b"garbage\n")
    repo.write_ref("v0.1.0", bogus.encode() + b"\n")
    assert _codes(repo) == (["artifact-history-invalid"], "checked")


# --- exchange release TAG -----------------------------------------------------------------------------


@pytest.fixture
def identity(monkeypatch) -> None:
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "Release Test")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "release-test@example.invalid")


def test_exchange_release_writes_the_row_commits_and_tags(tmp_path: Path, identity) -> None:
    import datetime

    from judgment_exchange.releasing.release import make_release

    repo = GitRepo(tmp_path / "c")
    checked = repo.snapshot({"manifest.json": MANIFEST_A, "releases.json": b"[]\n"})
    outcome = make_release(str(repo.path), "v0.1.0", today=datetime.date(2026, 10, 14))
    assert outcome.status == 0, outcome.lines
    made = repo.rev("HEAD")
    assert repo.rev("v0.1.0^{commit}") == made and repo.rev("HEAD~1") == checked
    assert repo.git("diff", "--name-only", "HEAD~1", "HEAD") == "releases.json"
    assert repo.git("cat-file", "-t", "v0.1.0") == "tag"  # annotated
    assert json.loads((repo.path / "releases.json").read_text()) == [
        {"tag": "v0.1.0", "manifestDigest": "sha256:" + hashlib.sha256(MANIFEST_A).hexdigest(), "commit": checked,
         "previous": None, "date": "2026-10-14"}]
    assert _codes(repo) == ([], "checked")
    assert make_release(str(repo.path), "v0.2.0").status == 0
    rows = json.loads((repo.path / "releases.json").read_text())
    assert rows[1]["previous"] == made and rows[1]["commit"] == made
    assert _codes(repo) == ([], "checked")


def test_exchange_release_refuses_what_is_not_a_clean_up_to_date_main(tmp_path: Path, identity) -> None:
    from judgment_exchange.releasing.release import make_release

    repo = GitRepo(tmp_path / "c")
    repo.snapshot({"manifest.json": MANIFEST_A, "releases.json": b"[]\n"})
    assert make_release(str(repo.path), "v1.0").status == 3
    (repo.path / "stray.txt").write_text("x")
    assert "not clean" in make_release(str(repo.path), "v0.1.0").lines[0]
    (repo.path / "stray.txt").unlink()
    repo.git("switch", "-q", "-c", "side")
    assert "not on main" in make_release(str(repo.path), "v0.1.0").lines[0]
    repo.git("switch", "-q", "main")
    repo.tag("v0.1.0")
    assert "exists already" in make_release(str(repo.path), "v0.1.0").lines[0]
    repo.git("tag", "-d", "v0.1.0")
    assert make_release(str(repo.path), "v0.2.0").status == 0
    assert "not above" in make_release(str(repo.path), "v0.1.5").lines[0]


def test_exchange_release_refuses_a_main_behind_its_upstream(tmp_path: Path, identity) -> None:
    from judgment_exchange.releasing.release import make_release

    upstream = GitRepo(tmp_path / "up")
    upstream.snapshot({"manifest.json": MANIFEST_A, "releases.json": b"[]\n"})
    clone = tmp_path / "clone"
    git.Repo.clone_from(str(upstream.path), str(clone)).close()
    upstream.snapshot({"manifest.json": MANIFEST_B, "releases.json": b"[]\n"}, "newer")
    git.Repo(str(clone)).git.fetch("-q")
    assert "behind" in make_release(str(clone), "v0.1.0").lines[0]


def test_pull_request_adding_an_empty_ledger_is_admitted(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "c")
    repo.snapshot({"manifest.json": MANIFEST_A})
    assert _codes(repo, ledger=b"[]\n", base_ledger=(None,)) == ([], "no-releases")
    row = {"tag": "v0.1.0", "manifestDigest": "sha256:" + "a" * 64, "commit": "b" * 40, "previous": None,
           "date": "2026-10-14"}
    codes, _ = _codes(repo, ledger=_ledger([row]), base_ledger=(None,))
    assert codes == ["release-ledger-changed", "release-ledger-changed"]


def test_current_tree_listing_a_name_twice_is_unreadable_not_its_last_copy(tmp_path: Path) -> None:
    from judgment_exchange.consumer import LocationError, release_check

    repo = GitRepo(tmp_path / "c")
    good = repo.git("hash-object", "-w", "--stdin", input=MANIFEST_A)
    bad = repo.git("hash-object", "-w", "--stdin", input=b"not json")
    _tagged_raw_tree(repo, [(b"100644", b"manifest.json", bad), (b"100644", b"manifest.json", good)])
    with pytest.raises(LocationError, match="twice"):
        release_check(str(repo.path), "v0.1.0")
