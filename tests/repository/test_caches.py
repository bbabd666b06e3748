"""No cache a pull request could poison (issue #20 item 3; docs/performance.md, "Caches").

The gate's one persistent cache is the reader cache (repository/pin.py): CACHE/OWNER/NAME/COMMIT, a
checkout of the specification's repository at the pinned commit, written only by `exchange verifier
fetch` and checked on every use (`checkout_problem`: HEAD is the pinned commit, the reader's file is a
regular file whose bytes hash to the commit's blob). A tampered checkout is never run: the gate replays
with the bundled verifier and says why. A run over a pull request (`exchange check --base`) writes no
cache at all: not the reader cache, not $XDG_CACHE_HOME, not $HOME.

The edited reader's file is also `tests/test_verifier_pin.py::test_a_tampered_checkout_is_not_runnable_and_
falls_back`; here every tampering is held the same way, with the reader's log showing the tampered
program never ran, and a near miss where the intact checkout does run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judgment_exchange.gate.pipeline import check_catalog
from judgment_exchange.repository.pin import BUNDLED, fetch
from judgment_exchange.tree import WorkingTree

from ..support.gitrepo import GitRepo
from ..test_verifier_pin import (  # noqa: F401  (_environment: the same autouse fixture, one reader cache per test)
    OPTIONS,
    READERS,
    SPEC,
    _environment,
    catalog,
    spec_repository,
    write_pin,
)


def _fetched(tmp_path: Path):
    """A catalog pinning a local specification's reader, fetched into the cache: (catalog, locator, checkout)."""
    spec, commit = spec_repository(tmp_path)
    builder = catalog(tmp_path)
    locator = f"{SPEC}@{commit}"
    write_pin(builder.root, locator)
    _, checkout, now = fetch(WorkingTree(str(builder.root)), source=str(spec.path))
    assert now and checkout == tmp_path / "cache" / "Judgment-Pack" / "judgment-pack-spec" / commit
    return builder, locator, checkout


def _git(checkout: Path, *args: str) -> None:
    """git in the fetched checkout (GitRepo would initialise it again)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    subprocess.run(["git", "-c", "user.name=Cache Test", "-c", "user.email=cache@example.invalid",
                    "-c", "commit.gpgsign=false", *args], cwd=checkout, env=env, check=True, capture_output=True)


def _edit_the_reader(checkout: Path) -> None:
    (checkout / "tools" / "dialect_verify.py").write_bytes((READERS / "disagree.py").read_bytes())


def _move_head(checkout: Path) -> None:
    """A commit on top of the pinned one whose reader is another program: HEAD and the file agree, not the pin."""
    _edit_the_reader(checkout)
    _git(checkout, "commit", "-q", "-am", "another reader")


def _symlink_to_the_same_bytes(checkout: Path) -> None:
    """The reader's file replaced by a symlink to a copy of the pinned bytes outside the checkout: the bytes
    would hash right, but what runs is no longer the checkout's file."""
    reader = checkout / "tools" / "dialect_verify.py"
    outside = checkout.parent / "elsewhere.py"
    outside.write_bytes(reader.read_bytes())
    reader.unlink()
    reader.symlink_to(outside)


def _symlink_to_another_reader(checkout: Path) -> None:
    reader = checkout / "tools" / "dialect_verify.py"
    outside = checkout.parent / "elsewhere.py"
    outside.write_bytes((READERS / "disagree.py").read_bytes())
    reader.unlink()
    reader.symlink_to(outside)


def _remove_the_git_directory(checkout: Path) -> None:
    """The checkout's files kept, its repository gone: nothing says which commit they are."""
    shutil.rmtree(checkout / ".git")


TAMPERINGS = {
    "the-reader-edited": (_edit_the_reader, "the reader's file in the checkout differs from the pinned commit's"),
    "head-moved": (_move_head, "the checkout's HEAD is not the pinned commit"),
    "a-symlink-to-the-same-bytes": (_symlink_to_the_same_bytes, "the reader's file is not a regular file"),
    "a-symlink-to-another-reader": (_symlink_to_another_reader, "the reader's file is not a regular file"),
    "no-git-directory": (_remove_the_git_directory, "the checkout's HEAD is not the pinned commit"),
}


@pytest.mark.parametrize("tampering", sorted(TAMPERINGS))
def test_attack_tampered_reader_cache_is_detected(tmp_path, tampering):
    """Someone with write access to the cache changes the fetched checkout: the gate never runs it, replays
    with the bundled verifier, and says why; `exchange verifier fetch` puts the pinned reader back."""
    builder, locator, checkout = _fetched(tmp_path)
    tamper, why = TAMPERINGS[tampering]
    tamper(checkout)
    report = check_catalog(WorkingTree(str(builder.root)), OPTIONS)
    assert report.passed and report.replayed == 2
    assert report.reader.name == BUNDLED and report.reader.pinned == locator
    assert f"the pinned {locator} is not runnable: {why}" in report.reader.fallback
    assert "run exchange verifier fetch again" in report.reader.fallback
    assert {r.reader for r in report.replays} == {BUNDLED}
    assert not (tmp_path / "reader.log").exists()  # neither the tampered program nor the pinned one ran
    # fetching again replaces the tampered checkout by the pinned commit, which runs again
    _, again, now = fetch(WorkingTree(str(builder.root)), source=str(tmp_path / "spec"))
    assert now and again == checkout and not (checkout / "tools" / "dialect_verify.py").is_symlink()
    assert check_catalog(WorkingTree(str(builder.root)), OPTIONS).reader.name == locator


def test_near_miss_the_intact_cache_runs_the_pinned_reader(tmp_path):
    builder, locator, checkout = _fetched(tmp_path)
    (checkout / "untracked-note.txt").write_text("a file beside the reader")  # not the reader: not held
    report = check_catalog(WorkingTree(str(builder.root)), OPTIONS)
    assert report.passed and report.reader.name == locator and report.reader.fallback is None
    assert len((tmp_path / "reader.log").read_text().splitlines()) == 2


# --- a run over a pull request writes no cache -------------------------------------------------------


def _listing(root: Path) -> dict[str, tuple]:
    """Every path under `root` with its kind, bytes (files) or target (symlinks), mode and mtime."""
    out: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        content = os.readlink(path) if path.is_symlink() else path.read_bytes() if path.is_file() else None
        out[path.relative_to(root).as_posix()] = (st.st_mode, st.st_mtime_ns, content)
    return out


def _throwaway_pull_request(tmp_path: Path, pin: str):
    """A catalog on main pinning `pin`, and branch pr changing one entry's README, checked out."""
    builder = catalog(tmp_path)
    write_pin(builder.root, pin)
    git = GitRepo(builder.root)
    git.git("add", "-A")
    git.git("commit", "-q", "-m", "base")
    git.git("checkout", "-q", "-b", "pr")
    readme = builder.root / "entries" / "acme" / "vendors" / "README.md"
    readme.write_text(readme.read_text() + "\nA second paragraph.\n")
    git.git("commit", "-q", "-am", "the pull request")
    return builder


def _check_pull_request(root: Path, env: dict[str, str]) -> dict:
    """`exchange check --base main` in a fresh interpreter with exactly `env` over a clean environment."""
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("GIT_", "EXCHANGE_", "XDG_")) and k not in ("HOME", "PIN_READER_LOG")}
    done = subprocess.run([sys.executable, "-m", "judgment_exchange", "check", "--catalog", str(root), "--base",
                           "main", "--format", "json"], cwd=root, env={**base, **env}, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    return json.loads(done.stdout)


@pytest.mark.parametrize("variable", ["EXCHANGE_READER_CACHE", "XDG_CACHE_HOME", "HOME"])
def test_no_cache_is_written_by_checking_a_pull_request(tmp_path, variable):
    """The base pins a reader that is not fetched: the gate looks for it in the cache (EXCHANGE_READER_CACHE;
    without it, XDG_CACHE_HOME's or HOME's default), falls back, and creates nothing in any of them."""
    builder = _throwaway_pull_request(tmp_path, f"{SPEC}@{'a' * 40}")
    dirs = {name: tmp_path / name.lower() for name in ("EXCHANGE_READER_CACHE", "XDG_CACHE_HOME", "HOME")}
    for path in dirs.values():
        path.mkdir()
    # the variable under test is where the gate looks: the ones before it in cache_root's order are unset
    order = list(dirs)
    env = {name: str(path) for name, path in dirs.items() if order.index(name) >= order.index(variable)}
    env["HOME"] = str(dirs["HOME"])
    report = _check_pull_request(builder.root, env)
    assert report["touched"] == ["acme.vendors"] and report["result"] == "pass", report
    assert report["reader"]["name"] == BUNDLED and "is not fetched into" in report["reader"]["fallback"]
    looked = {"EXCHANGE_READER_CACHE": dirs["EXCHANGE_READER_CACHE"],
              "XDG_CACHE_HOME": dirs["XDG_CACHE_HOME"] / "judgment-exchange" / "readers",
              "HOME": dirs["HOME"] / ".cache" / "judgment-exchange" / "readers"}[variable]
    assert str(looked) in report["reader"]["fallback"]  # it did look there
    assert {name: sorted(p.name for p in path.iterdir()) for name, path in dirs.items()} == \
        {name: [] for name in dirs}


def test_no_cache_is_written_by_checking_a_pull_request_with_the_bases_reader_fetched(tmp_path):
    """The base's pin fetched into the cache (as the trusted workflow does before the gate): the pull
    request's check replays through it and leaves every byte, mode and mtime of the cache as it was."""
    spec, commit = spec_repository(tmp_path)
    builder = _throwaway_pull_request(tmp_path, f"{SPEC}@{commit}")
    cache, xdg, home = tmp_path / "readers", tmp_path / "xdg", tmp_path / "home"
    xdg.mkdir()
    home.mkdir()
    fetch(WorkingTree(str(builder.root)), source=str(spec.path), cache=cache)  # `exchange verifier fetch`
    before = _listing(cache)
    log = tmp_path / "pr-reader.log"
    report = _check_pull_request(builder.root, {"EXCHANGE_READER_CACHE": str(cache), "XDG_CACHE_HOME": str(xdg),
                                                "HOME": str(home), "PIN_READER_LOG": str(log)})
    assert report["result"] == "pass" and report["reader"]["name"] == f"{SPEC}@{commit}"
    assert len(log.read_text().splitlines()) == 1  # the touched entry's one fixture, through the base's reader
    assert _listing(cache) == before
    assert list(xdg.iterdir()) == [] and list(home.iterdir()) == []
