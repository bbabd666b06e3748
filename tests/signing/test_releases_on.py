"""The chain of releases a consumer's signature check walks (consumer/signed.releases_on) is listed as the history
check lists releases (history/tags.list_releases): one listing of the release tags, not a second one.

Without a ledger at TAG's commit: the release tags on TAG's first-parent history at or below TAG, oldest first, TAG
last; a tag naming a tree is no release; a tag list that cannot be read leaves TAG alone (held to the trusted
signers itself, never through a chain read in part).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from git import Repo

from judgment_exchange.consumer.signed import releases_on
from judgment_exchange.tree import ObjectStore


def _git(where: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(where), "-c", "user.name=t", "-c", "user.email=t@example.org",
                           "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", *args],
                          check=True, capture_output=True, text=True).stdout.strip()


def _history(where: Path) -> dict[str, str]:
    """Three commits on main, each tagged v0.1.0, v0.2.0, v0.3.0; a side commit tagged v0.2.5; a tree tagged
    v0.2.7 (tags in the grammar; the side one and the tree one are no release of main's history)."""
    _git(where, "init", "-q", "-b", "main")
    commits = {}
    for tag in ("v0.1.0", "v0.2.0", "v0.3.0"):
        (where / "f").write_text(tag)
        _git(where, "add", "f")
        _git(where, "commit", "-q", "-m", tag)
        commits[tag] = _git(where, "rev-parse", "HEAD")
        _git(where, "tag", tag)
    _git(where, "checkout", "-q", "-b", "side", commits["v0.2.0"])
    (where / "g").write_text("side")
    _git(where, "add", "g")
    _git(where, "commit", "-q", "-m", "side")
    _git(where, "tag", "v0.2.5")
    _git(where, "tag", "v0.2.7", commits["v0.2.0"] + "^{tree}")
    _git(where, "checkout", "-q", "main")
    return commits


def _tags(where: Path, tag: str, commit: str) -> list[str]:
    repo = Repo(where)
    return [release.tag for release in releases_on(repo, ObjectStore(repo), tag, commit)]


def test_the_releases_on_tags_first_parent_history_oldest_first(tmp_path):
    commits = _history(tmp_path)
    assert _tags(tmp_path, "v0.3.0", commits["v0.3.0"]) == ["v0.1.0", "v0.2.0", "v0.3.0"]


def test_near_miss_a_release_above_tag_is_not_in_its_chain(tmp_path):
    commits = _history(tmp_path)
    assert _tags(tmp_path, "v0.2.0", commits["v0.2.0"]) == ["v0.1.0", "v0.2.0"]


def test_a_tag_list_that_cannot_be_read_leaves_tag_alone(tmp_path):
    commits = _history(tmp_path)
    (tmp_path / ".git" / "refs" / "tags" / "v0.2.0").write_text("not an object id\n")
    assert _tags(tmp_path, "v0.3.0", commits["v0.3.0"]) == ["v0.3.0"]
