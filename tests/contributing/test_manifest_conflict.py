"""Issue #26 item 6: a second entry pull request conflicts in manifest.json, and CONTRIBUTING.md's block "When
`manifest.json` conflicts", run line by line as written, resolves it: the merge conflicts in manifest.json
alone, `exchange manifest --write` writes both rows from the entries, and the pull request's checks pass."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from ..recording.test_from_run import fill_human_parts
from ..support.paths import REPO
from .repos import git, git_env
from .test_stale_main import _exchange, _setup
from .test_walkthrough import FIRST


def _block() -> list[str]:
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text[text.index("**When `manifest.json` conflicts.**"):]
    body = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line.split("  #", 1)[0].strip() for line in body.splitlines() if line.strip()]


def _add_entry(clone: Path, entry_id: str) -> None:
    _exchange(clone, "new", entry_id, "--from-run", str(FIRST))
    fill_human_parts(clone / "entries" / Path(*entry_id.split(".")))
    _exchange(clone, "fix")
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "-s", "-m", f"Add {entry_id}")


def test_the_documented_resolution_of_a_manifest_conflict_works(tmp_path):
    upstream, work = _setup(tmp_path)
    git(work, "switch", "-q", "-c", "add-acme-vendors", "upstream/main")
    _add_entry(work, "acme.vendors")
    other = tmp_path / "another-contributor"
    git(tmp_path, "clone", "-q", str(upstream), str(other))
    _add_entry(other, "acme.third")
    git(other, "push", "-q", "origin", "main")  # merged first
    lines = _block()
    assert lines[:2] == ["git fetch upstream && git merge upstream/main", "exchange manifest --write"], lines
    for line in lines:
        done = subprocess.run(["bash", "-c", line], cwd=work, env=git_env(), capture_output=True, text=True)
        if line.startswith("git fetch upstream && git merge"):
            assert done.returncode == 1 and "CONFLICT (content): Merge conflict in manifest.json" in done.stdout
            conflicted = git(work, "diff", "--name-only", "--diff-filter=U")
            assert conflicted == "manifest.json", conflicted
            continue
        assert done.returncode == 0, (line, done.stdout, done.stderr)
    rows = git(work, "show", "HEAD:manifest.json")
    assert '"acme.vendors"' in rows and '"acme.third"' in rows and "<<<<<<<" not in rows
