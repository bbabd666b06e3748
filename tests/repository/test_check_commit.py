"""`exchange check --commit REV` (issue #25 item 1): the catalog as a commit holds it, read as objects from
the repository, never the working tree. A pull request's head fetched into the base's clone is judged
with no checkout of it at all."""

from __future__ import annotations

from pathlib import Path

from judgment_exchange.cli import main

from .repos import OTHER_DIR, commit, demo_repository, repin

KEY = "AKIA" + "Q3ZT7XN2LW8VB4MK"  # an AWS access key id's shape, planted here (never a real key)


def _plant_key(root: Path) -> None:
    readme = root / OTHER_DIR / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + f"\nRead with the access key {KEY}.\n", encoding="utf-8")
    repin(root)


def test_commit_is_judged_not_the_working_tree(tmp_path, capsys):
    root = tmp_path / "repo"
    git = demo_repository(root)
    _plant_key(root)
    head = commit(git, "a key")
    git.git("checkout", "-q", "main")  # the working tree is now the base, which passes
    assert main(["check", "--catalog", str(root), "--no-history", "--base", "main"]) == 0
    capsys.readouterr()
    status = main(["check", "--catalog", str(root), "--no-history", "--base", "main", "--commit", head])
    out = capsys.readouterr().out
    assert status == 1
    assert "refused secret-aws-access-key" in out
    assert f"at commit {head}" in out
    assert KEY not in out


def test_commit_that_passes_near_miss(tmp_path, capsys):
    root = tmp_path / "repo"
    git = demo_repository(root)
    _plant_key(root)  # only the working tree holds the key: the committed head does not
    head = git.git("rev-parse", "HEAD")
    assert main(["check", "--catalog", str(root), "--no-history", "--base", "main", "--commit", head]) == 0


def test_commit_naming_no_commit_is_a_bad_invocation(tmp_path, capsys):
    root = tmp_path / "repo"
    demo_repository(root)
    assert main(["check", "--catalog", str(root), "--no-history", "--commit", "no-such-rev"]) == 3
    err = capsys.readouterr().err
    assert "--commit no-such-rev: names no commit" in err
    assert "Traceback" not in err
