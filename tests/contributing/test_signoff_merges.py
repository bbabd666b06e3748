"""Every commit that carries change is signed off, merges too (issue #25 item 2; RFC 0019 §6 "a DCO
sign-off on every commit"); `exchange signoff --head REV` (issue #25 item 1).

A merge needs no sign-off only when its tree is the clean merge of its two parents, as git itself
computes it (`git merge-tree --write-tree P1 P2`): the forge's "update branch" merge. Every expected
verdict below is worked from how the repository was built with git's own commands; the premise of each
attack (the merge's tree differs from git's clean merge, or not) is asserted with git, not the code.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess

import pytest

from judgment_exchange.cli import main

from .repos import EMAIL, NAME, commit, git, git_env, upstream_and_clone

SOB = f"Signed-off-by: {NAME} <{EMAIL}>"
EDITOR = "sed -i -e '1s/^$/One change, signed off/'"
"""What a contributor types in the editor `git commit -s` opens: a subject above git's sign-off."""


@pytest.fixture
def setup(tmp_path):
    """(upstream, clone, base): main on the upstream holds two signed-off commits; `base` is its tip."""
    upstream, clone = upstream_and_clone(tmp_path, {"manifest.json": b"[]\n"})
    (clone / "second.txt").write_text("second\n")
    commit(clone, "Second")
    git(clone, "push", "-q", "origin", "main")
    return upstream, clone, git(clone, "rev-parse", "HEAD")


def _run(clone, *args, capsys):
    code = main(["signoff", "--catalog", str(clone), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _json(clone, base, capsys, *more):
    code, out, _ = _run(clone, "--base", base, "--format", "json", *more, capsys=capsys)
    return code, json.loads(out)


def _tree(clone, rev="HEAD"):
    return git(clone, "rev-parse", f"{rev}^{{tree}}")


def _evil_merge(clone, base, message="Merge branch 'main' into topic"):
    """On a new branch topic: one merge commit whose parents are the base and the base's parent and whose
    tree holds the change (an entry's file): the pull request's only new commit."""
    git(clone, "switch", "-q", "-c", "topic")
    (clone / "entries" / "acme" / "x").mkdir(parents=True)
    (clone / "entries" / "acme" / "x" / "README.md").write_text("the change\n")
    git(clone, "add", "-A")
    merge = git(clone, "commit-tree", git(clone, "write-tree"), "-p", base, "-p", f"{base}~1", "-m", message)
    git(clone, "update-ref", "refs/heads/topic", merge)
    return merge


def _clean_merge_tree(clone, rev):
    """git's own clean merge of the commit's two parents (the premise, computed by git)."""
    done = subprocess.run(["git", "merge-tree", "--write-tree", f"{rev}^1", f"{rev}^2"], cwd=clone,
                          env=git_env(), capture_output=True, text=True)
    return done.returncode, done.stdout.split("\n", 1)[0]


def _diverge(clone, on_topic, on_main):
    """A new branch topic with one commit writing on_topic (name, text, subject); main then moves on with
    on_main, pushed upstream; topic checked out again."""
    git(clone, "switch", "-q", "-c", "topic")
    for branch, (name, text, subject) in (("topic", on_topic), ("main", on_main)):
        git(clone, "switch", "-q", branch)
        (clone / name).write_text(text)
        commit(clone, subject)
    git(clone, "push", "-q", "origin", "main")
    git(clone, "switch", "-q", "topic")


def _update_branch(clone):
    """topic branched from main with one signed-off commit; main moves on upstream; topic then merges
    main in with git's own unsigned merge message (what the forge's "update branch" writes). The new
    base: main's tip."""
    _diverge(clone, ("a.txt", "a\n", "Add a"), ("main.txt", "m\n", "Main moves"))
    git(clone, "merge", "-q", "--no-ff", "--no-edit", "main")
    return git(clone, "rev-parse", "main")


# --- the attack and its near misses --------------------------------------------------------------------

def test_attack_unsigned_evil_merge_carries_the_change(setup, capsys):
    _, clone, base = setup
    merge = _evil_merge(clone, base)
    assert git(clone, "diff", "--name-only", base, merge) == "entries/acme/x/README.md"   # the change
    status, clean = _clean_merge_tree(clone, merge)
    assert status == 0 and clean == _tree(clone, base) != _tree(clone, merge)           # not git's merge
    code, report = _json(clone, base, capsys)
    assert code == 1 and (report["commits"], report["merges"]) == (1, 0)
    assert [(r["code"], r["commit"]) for r in report["refusals"]] == [("signoff-missing", merge)]
    assert "not the clean merge of its parents" in report["refusals"][0]["detail"]
    code, out, _ = _run(clone, "--base", base, capsys=capsys)
    assert code == 1 and "commits: 1 checked, 0 merge(s) not checked" in out


def test_near_miss_signed_off_evil_merge_passes(setup, capsys):
    _, clone, base = setup
    _evil_merge(clone, base, f"Merge branch 'main' into topic\n\n{SOB}\n")
    code, report = _json(clone, base, capsys)
    assert code == 0 and (report["commits"], report["merges"]) == (1, 0)


def test_near_miss_clean_update_branch_merge_needs_no_signoff(setup, capsys):
    _, clone, _ = setup
    base = _update_branch(clone)
    status, clean = _clean_merge_tree(clone, "HEAD")
    assert status == 0 and clean == _tree(clone)                                        # git's own merge
    assert "Signed-off-by" not in git(clone, "log", "-1", "--format=%B")
    code, report = _json(clone, base, capsys)
    assert code == 0 and (report["commits"], report["merges"]) == (1, 1)
    code, out, _ = _run(clone, "--base", base, capsys=capsys)
    assert code == 0 and "commits: 1 checked, 1 merge(s) not checked" in out


def test_attack_amended_update_branch_merge_carries_a_change(setup, capsys):
    """The same "update branch" merge, amended to slip in a file: its tree is no longer git's merge."""
    _, clone, _ = setup
    base = _update_branch(clone)
    (clone / "slipped.txt").write_text("slipped in\n")
    git(clone, "add", "slipped.txt")
    git(clone, "commit", "-q", "--amend", "--no-edit")
    merge = git(clone, "rev-parse", "HEAD")
    assert _clean_merge_tree(clone, merge)[1] != _tree(clone)
    code, report = _json(clone, base, capsys)
    assert code == 1 and [r["commit"] for r in report["refusals"]] == [merge]


def _octopus(clone, base, *merge_options):
    for side in ("s1", "s2"):
        git(clone, "switch", "-q", "-c", side, base)
        (clone / f"{side}.txt").write_text(f"{side}\n")
        commit(clone, f"Add {side}")
    git(clone, "switch", "-q", "-c", "topic", base)
    (clone / "t.txt").write_text("t\n")
    commit(clone, "Add t")
    git(clone, "merge", "-q", "--no-edit", *merge_options, "s1", "s2")
    assert len(git(clone, "log", "-1", "--format=%P").split()) == 3
    return git(clone, "rev-parse", "HEAD")


def test_attack_unsigned_octopus_merge_is_checked(setup, capsys):
    """An octopus merge git made cleanly (its own message, unsigned) still needs its sign-off."""
    _, clone, base = setup
    merge = _octopus(clone, base)
    code, report = _json(clone, base, capsys)
    assert code == 1 and (report["commits"], report["merges"]) == (4, 0)
    assert [r["commit"] for r in report["refusals"]] == [merge]
    assert "three or more parents" in report["refusals"][0]["detail"]


def test_near_miss_signed_off_octopus_merge_passes(setup, capsys):
    _, clone, base = setup
    _octopus(clone, base, "--signoff")
    code, report = _json(clone, base, capsys)
    assert code == 0 and (report["commits"], report["merges"]) == (4, 0)


def _conflicted_merge(clone, *commit_options):
    """topic and main change the same line; the merge's conflict is resolved by hand."""
    _diverge(clone, ("second.txt", "topic's\n", "Topic's line"), ("second.txt", "main's\n", "Main's line"))
    with pytest.raises(RuntimeError):
        git(clone, "merge", "-q", "--no-edit", "main")
    (clone / "second.txt").write_text("both, by hand\n")
    git(clone, "add", "second.txt")
    git(clone, "commit", "-q", "--no-edit", *commit_options)
    return git(clone, "rev-parse", "main"), git(clone, "rev-parse", "HEAD")


def test_attack_unsigned_conflict_resolution_is_checked(setup, capsys):
    _, clone, _ = setup
    base, merge = _conflicted_merge(clone)
    assert _clean_merge_tree(clone, merge)[0] == 1                                      # git: conflicts
    code, report = _json(clone, base, capsys)
    assert code == 1 and [r["commit"] for r in report["refusals"]] == [merge]
    assert "conflict" in report["refusals"][0]["detail"]


def test_near_miss_signed_off_conflict_resolution_passes(setup, capsys):
    _, clone, _ = setup
    base, _ = _conflicted_merge(clone, "-s")
    code, report = _json(clone, base, capsys)
    assert code == 0 and (report["commits"], report["merges"]) == (2, 0)


def _unrelated_merge(clone, base, *merge_options):
    """topic merges, as git merge --allow-unrelated-histories does, a signed-off root commit of its own."""
    git(clone, "switch", "-q", "--orphan", "other")
    (clone / "other.txt").write_text("other\n")
    commit(clone, "Another root")
    git(clone, "switch", "-q", "-c", "topic", base)
    git(clone, "merge", "-q", "--no-edit", "--allow-unrelated-histories", *merge_options, "other")
    return git(clone, "rev-parse", "HEAD")


def test_attack_unsigned_merge_of_unrelated_histories_is_checked(setup, capsys):
    """git merge-tree --write-tree refuses unrelated histories (exit 128): no clean merge is known."""
    _, clone, base = setup
    merge = _unrelated_merge(clone, base)
    assert _clean_merge_tree(clone, merge)[0] not in (0, 1)
    code, report = _json(clone, base, capsys)
    assert code == 1 and [r["commit"] for r in report["refusals"]] == [merge]
    assert "cannot compute the clean merge" in report["refusals"][0]["detail"]


def test_near_miss_signed_off_merge_of_unrelated_histories_passes(setup, capsys):
    _, clone, base = setup
    _unrelated_merge(clone, base, "--signoff")
    code, report = _json(clone, base, capsys)
    assert code == 0 and (report["commits"], report["merges"]) == (2, 0)


# --- a git older than 2.38: every merge is checked ----------------------------------------------------

@pytest.fixture
def old_git(tmp_path, monkeypatch):
    """A `git` first on PATH that says it is 2.37.1 and, like it, has no `merge-tree --write-tree`
    (usage, exit 129); every other command goes to the real git. The file `called` records its use."""
    real = shutil.which("git")
    shim = tmp_path / "old-git"
    shim.mkdir()
    script = shim / "git"
    script.write_text(f"""#!/bin/sh
echo "$*" >> {shim}/called
for a in "$@"; do
  case "$a" in
    version|--version) echo "git version 2.37.1"; exit 0 ;;
    --write-tree) echo "usage: git merge-tree <base-tree> <branch1> <branch2>" >&2; exit 129 ;;
  esac
done
exec {real} "$@"
""")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{shim}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("GIT_PYTHON_GIT_EXECUTABLE", raising=False)
    return shim / "called"


def test_attack_unsigned_evil_merge_under_old_git(setup, old_git, capsys):
    _, clone, base = setup
    merge = _evil_merge(clone, base)
    code, report = _json(clone, base, capsys)
    assert old_git.exists() and "version" in old_git.read_text()                      # the shim answered
    assert code == 1 and [r["commit"] for r in report["refusals"]] == [merge]
    assert "older than 2.38" in report["refusals"][0]["detail"]
    assert any("older than 2.38" in note for note in report["notes"])


def test_old_git_checks_even_a_clean_update_branch_merge(setup, old_git, capsys):
    _, clone, _ = setup
    base = _update_branch(clone)
    code, report = _json(clone, base, capsys)
    assert code == 1 and (report["commits"], report["merges"]) == (2, 0)
    assert [r["commit"] for r in report["refusals"]] == [git(clone, "rev-parse", "HEAD")]


def test_near_miss_old_git_signed_off_merge_passes(setup, old_git, capsys):
    _, clone, base = setup
    _evil_merge(clone, base, f"Merge\n\n{SOB}\n")
    assert _json(clone, base, capsys)[0] == 0


# --- the printed fix keeps the tree ---------------------------------------------------------------------

# Each builder makes branch topic from the base and returns the pull request's base commit.

def _evil(clone, base):
    _evil_merge(clone, base)
    return base


def _unsigned_linear(clone, base):
    git(clone, "switch", "-q", "-c", "topic")
    (clone / "a.txt").write_text("a\n")
    commit(clone, "Add a", signoff=False)
    (clone / "b.txt").write_text("b\n")
    commit(clone, "Add b")
    return base


def _update_then_unsigned(clone, base):
    base = _update_branch(clone)
    (clone / "c.txt").write_text("c\n")
    commit(clone, "Add c", signoff=False)
    return base


def _octopus_unsigned(clone, base):
    _octopus(clone, base)
    return base


@pytest.mark.parametrize("build", [_evil, _unsigned_linear, _update_then_unsigned, _octopus_unsigned],
                         ids=["evil-merge", "linear", "update-branch-then-unsigned", "octopus"])
def test_printed_fix_applied_literally_keeps_the_tree_and_passes(setup, build, capsys):
    upstream, clone, base = setup
    base = build(clone, base)
    git(clone, "push", "-q", "-u", "origin", "topic")
    before = _tree(clone)
    code, out, _ = _run(clone, "--base", base, capsys=capsys)
    assert code == 1
    here = [line for line in out.splitlines() if line.startswith("  here: ")]
    assert here == [f"  here: git reset --soft $(git merge-base {base} HEAD) && git commit -s && "
                    "git push --force-with-lease"]
    done = subprocess.run(["bash", "-c", here[0].removeprefix("  here: ")], cwd=clone, capture_output=True,
                          env=git_env() | {"GIT_EDITOR": EDITOR})
    assert done.returncode == 0, done.stderr
    assert _tree(clone) == before                                                       # the same tree
    assert git(upstream, "rev-parse", "topic") == git(clone, "rev-parse", "HEAD")       # pushed
    assert git(clone, "diff", "--stat", base, "HEAD") == git(clone, "diff", "--stat", base, before)
    assert _json(clone, base, capsys)[0] == 0


# --- --head REV: the commit judged, read as objects -----------------------------------------------------

def test_head_names_the_commit_checked(setup, capsys):
    _, clone, base = setup
    _unsigned_linear(clone, base)
    git(clone, "switch", "-q", "main")
    assert _json(clone, base, capsys)[1]["head"] == base                     # without --head: HEAD
    code, report = _json(clone, base, capsys, "--head", "topic")
    assert code == 1 and report["head"] == git(clone, "rev-parse", "topic")
    assert [r["commit"] for r in report["refusals"]] == [git(clone, "rev-parse", "topic~1")]


def test_head_fetched_as_objects_into_the_base_clone(setup, tmp_path, capsys):
    """The trusted job: a clone of the base, the pull request's head fetched as objects (no branch, no
    checkout), then `exchange signoff --catalog base --base BASE_SHA --head HEAD_SHA`."""
    upstream, clone, base = setup
    merge = _evil_merge(clone, base)
    git(clone, "push", "-q", "origin", "topic:refs/pull/1/head")
    trusted = tmp_path / "base"
    git(tmp_path, "clone", "-q", "--branch", "main", str(upstream), str(trusted))
    git(trusted, "fetch", "-q", "origin", "refs/pull/1/head")
    assert git(trusted, "rev-parse", "HEAD") == base and not (trusted / "entries").exists()
    code, report = _json(trusted, base, capsys, "--head", merge)
    assert code == 1 and report["head"] == merge and [r["commit"] for r in report["refusals"]] == [merge]


@pytest.mark.parametrize("head", ["no-such-branch", "0" * 40, "blob", "tree", "", "HEAD\nresult: pass"])
def test_head_that_names_no_commit_is_a_bad_invocation(setup, head, capsys):
    _, clone, _ = setup
    head = {"blob": git(clone, "rev-parse", "HEAD:manifest.json"),
            "tree": git(clone, "rev-parse", "HEAD^{tree}")}.get(head, head)
    for fmt in ("text", "json"):
        code, out, err = _run(clone, "--base", "HEAD~1", "--head", head, "--format", fmt, capsys=capsys)
        assert (code, out) == (3, "") and "Traceback" not in err
        assert len(err.splitlines()) == 1 and err.startswith("exchange signoff: --head ")


def test_head_with_base_auto_is_a_bad_invocation(setup, capsys):
    _, clone, _ = setup
    code, out, err = _run(clone, "--base", "auto", "--head", "HEAD", capsys=capsys)
    assert (code, out) == (3, "") and len(err.splitlines()) == 1 and "--head" in err


def test_base_naming_an_absent_commit_is_base_unreadable(setup, capsys):
    """A 40-hex id the repository does not hold (GitPython resolves it without reading it)."""
    _, clone, _ = setup
    code, report = _json(clone, "1" * 40, capsys)
    assert code == 1 and [r["code"] for r in report["refusals"]] == ["base-unreadable"]
