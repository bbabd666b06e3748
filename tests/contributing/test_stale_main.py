"""CONTRIBUTING.md's walkthrough with a stale local `main`, after two releases (issue #17 item 2).

The contributor cloned their fork before the catalog's first release and never updates the local
`main`: the walkthrough branches from `upstream/main`. Meanwhile the maintainers made two releases
(v0.1.0, v0.2.0) as `exchange release` makes them, the second with a valid upgrade note on another
entry. Every step of the walkthrough must still pass: under `--base`, the ledger and main's history
are read from the upstream default branch as fetched, never from the local branch that is behind.
The steps are the document's own (tests/contributing/test_walkthrough.py reads them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .repos import fork_of, git
from .test_walkthrough import FIRST, VALUES, _run, run_walkthrough

OTHER = "entries/acme/other"


def _exchange(work: Path, *argv: str) -> str:
    done = _run(work, ["exchange", *argv])
    assert done.returncode == 0, f"exchange {' '.join(argv)}\n{done.stdout}{done.stderr}"
    return done.stdout


def add_other(work: Path) -> None:
    """A correct new entry, acme.other, as the walkthrough adds one, committed on the current branch."""
    _exchange(work, "new", "acme.other", "--from-run", str(FIRST))
    entry_path = work / OTHER / "entry.json"
    entry = json.loads(entry_path.read_bytes())
    entry.update(title="Acme vendor intake, a second publisher's copy", author="Acme Data Team",
                 description="The same registry read, kept by another team.")
    entry_path.write_text(json.dumps(entry, indent=2) + "\n")
    (work / OTHER / "README.md").write_text("# acme.other\n\nA vendor registry read for the intake pack.\n")
    _exchange(work, "fix")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-s", "-m", "Add acme.other")


def _release_twice(tmp_path: Path, upstream: Path) -> str:
    """A maintainer's clone of upstream: acme.other released as v0.1.0, changed with an upgrade note
    keyed by its v0.1.0 entryDigest, released as v0.2.0; pushed with the tags. Its v0.1.0 digest."""
    maint = tmp_path / "maintainer"
    git(tmp_path, "clone", "-q", str(upstream), str(maint))
    add_other(maint)
    git(maint, "push", "-q", "origin", "main")
    _exchange(maint, "release", "v0.1.0")
    git(maint, "push", "-q", "origin", "main", "v0.1.0")
    released = next(r["entryDigest"] for r in json.loads((maint / "manifest.json").read_bytes())
                    if r["id"] == "acme.other")
    entry_path = maint / OTHER / "entry.json"
    entry = json.loads(entry_path.read_bytes())
    entry["upgrade"] = {released: "The README says which team keeps the copy; nothing the dialect reads changed."}
    entry_path.write_text(json.dumps(entry, indent=2) + "\n")
    (maint / OTHER / "README.md").write_text("# acme.other\n\nA vendor registry read, kept by the second team.\n")
    _exchange(maint, "fix")
    git(maint, "add", "-A")
    git(maint, "commit", "-q", "-s", "-m", "acme.other: say who keeps it")
    git(maint, "push", "-q", "origin", "main")
    _exchange(maint, "release", "v0.2.0")
    git(maint, "push", "-q", "origin", "main", "v0.2.0")
    return released


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    """The walkthrough's "Once" block, but the fork and the clone are made before the releases: the
    clone's `main` (and the fork's) stay at the empty catalog; `git fetch upstream --tags` comes after."""
    seed = tmp_path / "seed"
    seed.mkdir()
    git(seed, "init", "-q", "-b", "main")
    (seed / "manifest.json").write_bytes(b"[]\n")
    (seed / "releases.json").write_bytes(b"[]\n")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-s", "-m", "The catalog")
    upstream, work = fork_of(tmp_path, seed, "judgment-pack-exchange")
    _release_twice(tmp_path, upstream)
    git(work, "remote", "add", "upstream", str(upstream))
    git(work, "fetch", "-q", "upstream", "--tags")
    return upstream, work


def test_walkthrough_with_a_stale_local_main_after_two_releases(tmp_path):
    upstream, work = _setup(tmp_path)
    stale = git(work, "rev-parse", "refs/heads/main")
    assert json.loads(git(work, "show", "main:releases.json")) == []            # the local main is behind
    assert [r["tag"] for r in json.loads(git(work, "show", "upstream/main:releases.json"))] == ["v0.1.0", "v0.2.0"]
    checks: list[str] = []

    def held(argv, done):  # every pull-request check reads the two releases
        if argv[:3] == ["exchange", "check", "--base"]:
            checks.append(done.stdout)
            assert "history: checked" in done.stdout, done.stdout

    run_walkthrough(upstream, work, on_run=held)
    assert len(checks) >= 2
    assert git(work, "rev-parse", "refs/heads/main") == stale                 # never updated by the walkthrough


def test_the_verdict_against_the_stale_main_itself_says_it_is_stale(tmp_path):
    """Near-miss: naming the stale local branch as the base is the contributor's own choice; the check
    then reads that branch as main, and refuses the ledger it lacks, saying to fetch."""
    upstream, work = _setup(tmp_path)
    git(work, "switch", "-q", "-c", "nothing", "upstream/main")
    done = _run(work, ["exchange", "check", "--base", "main", "--format", "json"])
    report = json.loads(done.stdout)
    codes = {r["code"] for r in report["refusals"]}
    assert done.returncode == 1 and "release-ledger-changed" in codes, done.stdout
    assert any("fetch" in r["detail"] for r in report["refusals"] if r["code"] == "release-ledger-changed")


def test_auto_on_an_unchanged_branch_passes_with_both_releases_previous(tmp_path):
    """The issue's case: a branch with no change at all, `--base auto`: no release-ledger-changed and no
    upgrade-key-unknown (the v0.2.0 upgrade note is keyed by a released digest)."""
    upstream, work = _setup(tmp_path)
    git(work, "switch", "-q", "-c", "nothing", "upstream/main")
    done = _run(work, ["exchange", "check", "--base", "auto", "--format", "json"])
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["result"] == "pass", done.stdout
    assert report["history"] == "checked"
    assert any("upstream/main" in note for note in report.get("notes", []))


def test_a_fetched_ref_behind_the_tags_says_how_to_fetch(tmp_path):
    """The tags were fetched after the branch's upstream ref moved on: the check says the ref is behind."""
    upstream, work = _setup(tmp_path)
    git(work, "switch", "-q", "-c", "nothing", "upstream/main")
    v010 = git(work, "rev-parse", "v0.1.0^{commit}")
    git(work, "update-ref", "refs/remotes/upstream/main", f"{v010}~1")  # upstream/main as fetched before v0.1.0
    git(work, "reset", "-q", "--hard", "refs/remotes/upstream/main")
    done = _run(work, ["exchange", "check", "--base", "auto", "--format", "json"])
    report = json.loads(done.stdout)
    behind = [n for n in report.get("notes", []) if "is behind the tags this clone holds" in n]
    assert behind and "git fetch upstream" in behind[0], report.get("notes")


@pytest.mark.parametrize("version", [3, 4, 5])
def test_walkthrough_with_a_current_runners_export_and_a_stale_main(tmp_path, version):
    """The done-when of issue #17: the walkthrough as written, from a mapping-v2 export of version 3, 4 or
    5 (built from the shared version-2 exports by the Runner's rules, tests/recording/versions.py), with a
    stale local main after two releases, to passing pull-request checks."""
    from ..recording.exports import profiles_bytes, write_export
    from ..recording.versions import textual

    upstream, work = _setup(tmp_path)
    exports = {name: write_export(tmp_path / f"export-{name}-v{version}", textual(name, version),
                                  profiles_bytes(name)) / "run.json"
               for name in ("mapping-v2-before-calculators", "mapping-v2-unsigned-parameters")}
    values = dict(VALUES, RUN_EXPORT=lambda _work: str(exports["mapping-v2-before-calculators"]),
                  NEW_RUN_EXPORT=lambda _work: str(exports["mapping-v2-unsigned-parameters"]))
    assert json.loads(exports["mapping-v2-before-calculators"].read_bytes())["version"] == version
    passed: list[str] = []
    run_walkthrough(upstream, work, values_for=values,
                    on_run=lambda argv, done: passed.append(done.stdout) if argv[:2] == ["exchange", "check"] else None)
    assert passed and all("result: pass" in out for out in passed)
