"""`--base auto`: the merge base with the upstream default branch, and local parity with the pull
request's check (RFC 0019 §6 one entry per pull request; issue #9 item 7; CONTRIBUTING.md "What CI runs").
"""

from __future__ import annotations

import json
import shutil

import pytest

from judgment_exchange.cli import main
from judgment_exchange.repository.pullrequest import AUTO_ORDER, BaseUnresolved, resolve_auto

from ..support.catalog import CatalogBuilder
from ..support.gitrepo import files_of
from .repos import commit, git, upstream_and_clone


def _catalog(tmp_path, *ids: str) -> dict[str, bytes]:
    """A catalog holding output entries (pinned by digests only: no replay needed) with these ids."""
    build = CatalogBuilder(tmp_path / "build")
    for entry_id in ids:
        build.add_output_entry(entry_id)
    build.write_manifest()
    files = files_of(build.root)
    shutil.rmtree(build.root)
    return files


def _add_entry(tmp_path, clone, entry_id: str) -> None:
    """Add one entry to the clone's catalog with its manifest row, as a contributor's change would."""
    present = [p.relative_to(clone / "entries").as_posix().replace("/", ".", 1)
               for p in (clone / "entries").glob("*/*")]
    files = _catalog(tmp_path, *present, entry_id)
    for rel, data in files.items():
        (clone / rel).parent.mkdir(parents=True, exist_ok=True)
        (clone / rel).write_bytes(data)


def _check(clone, base: str, capsys) -> tuple[int, dict]:
    code = main(["check", "--catalog", str(clone), "--base", base, "--format", "json"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out else {}


@pytest.fixture
def setup(tmp_path):
    upstream, clone = upstream_and_clone(tmp_path, _catalog(tmp_path, "acme.first"))
    return tmp_path, upstream, clone


def test_auto_follows_origin_head_and_names_it(setup, capsys):
    tmp_path, _, clone = setup
    git(clone, "switch", "-q", "-c", "add-second")
    _add_entry(tmp_path, clone, "acme.second")
    commit(clone, "Add acme.second")
    code, report = _check(clone, "auto", capsys)
    assert code == 0 and report["touched"] == ["acme.second"]
    assert "refs/remotes/origin/HEAD -> refs/remotes/origin/main" in report["notes"][0]
    assert git(clone, "rev-parse", "origin/main") in report["notes"][0]


def test_auto_is_the_merge_base_not_the_tip(setup, capsys):
    """Upstream moves on (another entry lands) after the contributor branched: the contributor's
    change still touches one entry, as the pull request's check sees it."""
    tmp_path, upstream, clone = setup
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(upstream), str(other))
    _add_entry(tmp_path, other, "acme.third")
    commit(other, "Add acme.third")
    git(other, "push", "-q", "origin", "main")
    git(clone, "switch", "-q", "-c", "add-second")
    _add_entry(tmp_path, clone, "acme.second")
    commit(clone, "Add acme.second")
    git(clone, "fetch", "-q", "origin")
    assert _check(clone, "auto", capsys)[1]["touched"] == ["acme.second"]
    # against the tip the change is still compared with the merge base (issue #16: what merging it changes,
    # as a pull request's "Files changed"), so the entry upstream added is not the change's
    assert _check(clone, "origin/main", capsys)[1]["touched"] == ["acme.second"]


def test_auto_gives_the_pull_requests_verdict(setup, capsys):
    """Parity: `--base auto` on the contributor's branch and the workflow's `--base origin/main` on the
    pull request's merge commit give the same result, refusals and touched entries — here a change
    touching two entries (one-entry-per-pull-request), then one."""
    tmp_path, upstream, clone = setup
    git(clone, "switch", "-q", "-c", "two-entries")
    _add_entry(tmp_path, clone, "acme.second")
    _add_entry(tmp_path, clone, "acme.third")
    commit(clone, "Add two entries")
    git(clone, "push", "-q", "origin", "two-entries")
    local_code, local = _check(clone, "auto", capsys)

    ci = tmp_path / "ci"                                          # what actions/checkout gives a pull request
    git(tmp_path, "clone", "-q", str(upstream), str(ci))
    git(ci, "fetch", "-q", "origin", "two-entries")
    git(ci, "merge", "-q", "--no-ff", "--no-edit", "FETCH_HEAD")
    ci_code, pr = _check(ci, "origin/main", capsys)

    assert local_code == ci_code == 1
    assert [r["code"] for r in local["refusals"]] == [r["code"] for r in pr["refusals"]] \
        == ["one-entry-per-pull-request"]
    assert local["touched"] == pr["touched"] == ["acme.second", "acme.third"]
    assert {k: v for k, v in local.items() if k not in ("notes", "refusals")} == \
        {k: v for k, v in pr.items() if k not in ("notes", "refusals")}


def test_near_miss_one_entry_passes_with_auto(setup, capsys):
    tmp_path, _, clone = setup
    git(clone, "switch", "-q", "-c", "one")
    (clone / "entries/acme/first/README.md").write_text("# A clearer README\n")
    code, report = _check(clone, "auto", capsys)               # uncommitted work counts, as it will be pushed
    assert code == 0 and report["touched"] == ["acme.first"]


def test_upstream_remote_comes_before_origin(setup, capsys):
    """A fork: origin is the contributor's stale fork, upstream the catalog that moved on."""
    tmp_path, upstream, clone = setup
    fork = tmp_path / "fork.git"
    git(tmp_path, "clone", "-q", "--bare", str(upstream), str(fork))   # the fork, at the old main
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(upstream), str(other))
    _add_entry(tmp_path, other, "acme.third")
    commit(other, "Add acme.third")
    git(other, "push", "-q", "origin", "main")
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", str(fork), str(work))
    git(work, "remote", "add", "upstream", str(upstream))
    git(work, "fetch", "-q", "upstream")
    git(work, "switch", "-q", "-c", "add-second", "upstream/main")
    _add_entry(tmp_path, work, "acme.second")
    commit(work, "Add acme.second")
    code, report = _check(work, "auto", capsys)
    assert report["touched"] == ["acme.second"] and "refs/remotes/upstream/main" in report["notes"][0]
    assert resolve_auto(str(work)).ref == "refs/remotes/upstream/main"   # no upstream/HEAD: fetch sets none
    git(work, "remote", "set-head", "upstream", "main")
    assert resolve_auto(str(work)).ref == "refs/remotes/upstream/HEAD"


def test_fallbacks_in_order(setup):
    _, _, clone = setup
    assert resolve_auto(str(clone)).ref == AUTO_ORDER[2]          # origin/HEAD
    git(clone, "remote", "set-head", "origin", "--delete")
    assert resolve_auto(str(clone)).ref == AUTO_ORDER[3]          # origin/main
    git(clone, "remote", "remove", "origin")
    assert resolve_auto(str(clone)).ref == AUTO_ORDER[4]          # the local main
    git(clone, "branch", "-q", "-m", "main", "trunk")
    with pytest.raises(BaseUnresolved):
        resolve_auto(str(clone))


def test_no_upstream_is_a_bad_invocation_not_a_traceback(setup, capsys):
    _, _, clone = setup
    git(clone, "remote", "remove", "origin")
    git(clone, "branch", "-q", "-m", "main", "trunk")
    code = main(["check", "--catalog", str(clone), "--base", "auto"])
    captured = capsys.readouterr()
    assert code == 3 and captured.out == ""
    assert all(ref in captured.err for ref in AUTO_ORDER) and "git remote add upstream" in captured.err


def test_unrelated_history_is_a_bad_invocation(setup, capsys):
    _, _, clone = setup
    git(clone, "switch", "-q", "--orphan", "alone")
    commit(clone, "Unrelated")
    code = main(["check", "--catalog", str(clone), "--base", "auto"])
    assert code == 3 and "shares no history" in capsys.readouterr().err


def test_not_a_repository_is_a_bad_invocation(tmp_path, capsys):
    (tmp_path / "manifest.json").write_bytes(b"[]\n")
    code = main(["check", "--catalog", str(tmp_path), "--base", "auto"])
    assert code == 3 and "not the root of a git repository" in capsys.readouterr().err


def test_a_branch_named_auto_is_reached_by_its_full_name(setup, capsys):
    """`auto` is the resolution; a branch called auto is refs/heads/auto."""
    tmp_path, _, clone = setup
    git(clone, "branch", "auto")
    git(clone, "switch", "-q", "-c", "work")
    _add_entry(tmp_path, clone, "acme.second")
    commit(clone, "Add acme.second")
    assert _check(clone, "refs/heads/auto", capsys)[1]["touched"] == ["acme.second"]
