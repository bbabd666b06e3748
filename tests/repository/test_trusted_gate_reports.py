"""What the base's gate prints when it reads a pull request checked out as data (issue #16 item 1):
annotations name the change's files from the change's own root (gate.yml checks it out into change/
of the workspace, but GitHub places annotations by the pull request's paths), and `--pin` is a
bad invocation without `--base`."""

from __future__ import annotations

from judgment_exchange.cli import main

from .repos import OTHER_DIR, commit, demo_repository


def test_annotations_name_the_change_s_paths_from_its_own_root(tmp_path, monkeypatch, capsys):
    workspace = tmp_path / "workspace"
    root = workspace / "change"
    git = demo_repository(root)
    (root / OTHER_DIR / "notes.txt").write_text("a stray file\n")
    commit(git)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(workspace))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    monkeypatch.chdir(workspace)
    assert main(["check", "--catalog", "change", "--base", "main", "--no-history", "--format", "github"]) == 1
    out = capsys.readouterr().out
    stray = [line for line in out.splitlines() if "title=entry-file-unexpected" in line]
    # the stray name is shown: it passes the display grammar and the scan (issue #26 item 3)
    assert stray and f"file={OTHER_DIR.as_posix()}/notes.txt," in stray[0], stray
    assert "file=change/" not in out


def test_near_miss_a_nested_catalog_is_still_named_from_its_repository_root(tmp_path, monkeypatch, capsys):
    """A catalog in a subdirectory of its repository (as docs/demo-catalog is) keeps the subdirectory."""
    import shutil

    from ..support.demo import ROOT as DEMO
    from ..support.gitrepo import GitRepo

    repo = tmp_path / "workspace" / "repo"
    shutil.copytree(DEMO, repo / "catalogs" / "demo")
    (repo / "catalogs" / "demo" / OTHER_DIR / "notes.txt").write_text("a stray file\n")
    commit(GitRepo(repo), "a repository holding a catalog in a subdirectory")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path / "workspace"))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    assert main(["check", "--catalog", str(repo / "catalogs" / "demo"), "--no-history", "--format", "github"]) == 1
    out = capsys.readouterr().out
    stray = [line for line in out.splitlines() if "title=entry-file-unexpected" in line]
    assert stray and f"file=catalogs/demo/{OTHER_DIR.as_posix()}/notes.txt," in stray[0], stray


def test_pin_without_base_is_a_bad_invocation(tmp_path, capsys):
    root = tmp_path / "catalog"
    demo_repository(root)
    assert main(["check", "--catalog", str(root), "--pin", "change"]) == 3
    assert "--pin chooses whose pin replays a pull request: give --base too" in capsys.readouterr().err


def test_pin_takes_base_or_change_only(tmp_path, capsys):
    root = tmp_path / "catalog"
    demo_repository(root)
    assert main(["check", "--catalog", str(root), "--base", "main", "--pin", "mine"]) == 3
    assert "invalid choice" in capsys.readouterr().err


def test_annotations_of_a_head_commit_judged_in_the_base_s_clone(tmp_path, monkeypatch, capsys):
    """gate.yml judges the head commit inside the base's clone (`--catalog base --commit HEAD`, issue #25 item
    1): the annotations name the pull request's paths from the repository's root, and the lines are found in
    the head commit's tree (the base's working tree does not hold the stray file)."""
    workspace = tmp_path / "workspace"
    root = workspace / "base"
    git = demo_repository(root)
    (root / OTHER_DIR / "notes.txt").write_text("a stray file\n")
    head = commit(git)
    git.git("checkout", "-q", "main")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(workspace))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--catalog", str(root), "--commit", head, "--base", "main", "--no-history",
                 "--format", "github"]) == 1
    out = capsys.readouterr().out
    stray = [line for line in out.splitlines() if "title=entry-file-unexpected" in line]
    assert stray and f"file={OTHER_DIR.as_posix()}/notes.txt," in stray[0], stray
    assert "file=base/" not in out
