"""Issue #26 item 4: the release tells the maintainer what consumers will see. A released entry changed on
main without an upgrade note is warned by `exchange check` on main; `exchange release` lists what a consumer
locked to the last release will be told, and where that consumer would be refused
(entry-changed-without-upgrade) it refuses to tag without an explicit `--approve-change ID`; a README change
is listed, never stopped. Each printed fix, applied literally, works."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from .repos import git
from .test_stale_main import OTHER, _exchange, _setup
from .test_walkthrough import _run


def _maintainer(tmp_path: Path) -> Path:
    upstream, _ = _setup(tmp_path)  # v0.1.0 and v0.2.0 released, acme.other in both
    maint = tmp_path / "maintainer-3"
    git(tmp_path, "clone", "-q", str(upstream), str(maint))
    return maint


def _change_description(maint: Path) -> None:
    path = maint / OTHER / "entry.json"
    entry = json.loads(path.read_bytes())
    entry["description"] = "The same registry read, kept by another team; now with its own contact."
    path.write_text(json.dumps(entry, indent=2) + "\n")
    _exchange(maint, "fix")
    git(maint, "commit", "-q", "-s", "-am", "acme.other: a new description")


def test_attack_unnoted_change_released_to_locked_consumers(tmp_path):
    """Before issue #26 the release said nothing, and every consumer locked to v0.2.0 was then refused."""
    maint = _maintainer(tmp_path)
    _change_description(maint)
    done = _run(maint, ["exchange", "check", "--format", "json"])
    report = json.loads(done.stdout)
    assert done.returncode == 0 and [w["code"] for w in report["warnings"]] == ["upgrade-note-missing"], report
    done = _run(maint, ["exchange", "release", "v0.3.0"])
    assert done.returncode == 1, done.stdout + done.stderr
    assert "refused: 1 released entry changed without an upgrade note: acme.other" in done.stderr
    assert "acme.other: changed without an upgrade note" in done.stderr
    fix = next(line for line in done.stderr.splitlines() if line.startswith("  fix: "))
    assert git(maint, "tag", "--list", "v0.3.0") == ""  # nothing was tagged
    release = fix.rsplit("release anyway, naming each entry: ", 1)[1]
    assert release == "exchange release v0.3.0 --approve-change acme.other"
    done = _run(maint, shlex.split(release))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "what a consumer locked to v0.2.0 is told of v0.3.0" in done.stdout
    assert git(maint, "tag", "--list", "v0.3.0") == "v0.3.0"


def test_near_miss_the_noted_change_releases_and_is_listed(tmp_path):
    """The other fix, applied literally: the upgrade note, then the release passes, listing the change as
    noted; no warning."""
    maint = _maintainer(tmp_path)
    _change_description(maint)
    done = _run(maint, ["exchange", "release", "v0.3.0"])
    fix = next(line for line in done.stderr.splitlines() if line.startswith("  fix: "))
    assert "exchange upgrade-note acme.other TEXT" in fix
    _exchange(maint, "upgrade-note", "acme.other", "A contact for the team that keeps the copy; nothing read changed.")
    git(maint, "commit", "-q", "-s", "-am", "acme.other: its upgrade note")
    report = json.loads(_run(maint, ["exchange", "check", "--format", "json"]).stdout)
    assert report["result"] == "pass" and report.get("warnings", []) == [], report
    done = _run(maint, ["exchange", "release", "v0.3.0"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "acme.other: changed, with an upgrade note keyed by its v0.2.0 entryDigest" in done.stdout


def test_a_readme_change_is_listed_never_stopped(tmp_path):
    maint = _maintainer(tmp_path)
    (maint / OTHER / "README.md").write_text("# acme.other\n\nA vendor registry read, kept by the second team; "
                                               "ask them first.\n")
    git(maint, "commit", "-q", "-s", "-am", "acme.other: README")
    done = _run(maint, ["exchange", "release", "v0.3.0"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "acme.other: files changed outside entry.json (a README, say): shown, not refused" in done.stdout


def test_release_from_a_subdirectory_and_an_empty_catalog_with_its_entries_readme(tmp_path):
    """Issue #26 item 6: `exchange release` from a subdirectory works on the repository holding it; a catalog
    whose entries/ holds only README.md (this repository's shape) releases the empty manifest again."""
    maint = tmp_path / "empty"
    maint.mkdir()
    git(maint, "init", "-q", "-b", "main")
    (maint / "entries").mkdir()
    (maint / "entries" / "README.md").write_text("# Entries\n")
    (maint / "manifest.json").write_text("[]\n")
    (maint / "releases.json").write_text("[]\n")
    git(maint, "add", "-A")
    git(maint, "commit", "-q", "-s", "-m", "The catalog")
    done = _run(maint / "entries", ["exchange", "release", "v0.1.0"])
    assert done.returncode == 0, done.stdout + done.stderr
    git(maint, "commit", "-q", "--allow-empty", "-s", "-m", "nothing")
    done = _run(maint, ["exchange", "release", "v0.2.0"])
    assert done.returncode == 0 and "may release the empty manifest" in done.stdout, done.stdout + done.stderr
