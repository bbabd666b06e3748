"""The hooks run as a catalog's contributor runs them (issue #33 item 3, "Done when"; docs/precommit.md): pre-commit
installs the hook repository with `pip install .` into its own virtualenv, offline (`PIP_NO_INDEX=1`,
`PIP_FIND_LINKS` the run's hash-checked wheelhouse, which holds the build lock's setuptools for build isolation).

The hook repository is CHECKOUT: a small git repository built in the test's temporary folder from this working
tree's package files and `.pre-commit-hooks.yaml`, committed once and tagged `gate/v<version>`, so pre-commit
installs a clean commit. `pre-commit try-repo` always installs into a store of its own (a temporary folder; it
reads no PRE_COMMIT_HOME), so it runs once; every other run uses docs/precommit.md's own block with one
PRE_COMMIT_HOME for the module, so the hook environment is installed once more and reused."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from judgment_exchange import __version__

from ..support.built import PACKAGE_FILES
from ..support.gitrepo import GitRepo
from ..support.paths import REPO
from .test_hooks_file import SOURCE, documented_block

ENTRY = "kinds.intake-preset"
ENTRY_DIR = "entries/kinds/intake-preset"
DEMO = REPO / "docs" / "demo-catalog"
OWNERS = "@acme/catalog-maintainers"


@dataclass(frozen=True)
class Hooks:
    checkout: Path
    ref: str
    """The checkout's one commit: the gate ref `exchange init` pins the new catalog's workflows to."""
    env: dict[str, str]

    def run(self, cwd: Path, *command: str, **extra: str) -> subprocess.CompletedProcess:
        """A command in `cwd` with the hooks' environment, its output and errors as one text."""
        return subprocess.run(command, cwd=cwd, env={**self.env, **extra}, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, check=False, timeout=600)

    def pre_commit(self, cwd: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
        return self.run(cwd, sys.executable, "-m", "pre_commit", *args, **extra)

    def exchange(self, cwd: Path, *args: str) -> subprocess.CompletedProcess:
        """The contributor's own `exchange` (this checkout's package), not the hooks' environment's."""
        return self.run(cwd, sys.executable, "-m", "judgment_exchange", *args)


def _clean_env(folder: Path, wheelhouse: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "GIT_", "PRE_COMMIT", "VIRTUALENV_", "SKIP"))}
    (folder / "tmp").mkdir()
    env.update(
        PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheelhouse), PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1",
        PRE_COMMIT_HOME=str(folder / "pre-commit-home"), PRE_COMMIT_COLOR="never",
        VIRTUALENV_NO_PERIODIC_UPDATE="1", VIRTUALENV_OVERRIDE_APP_DATA=str(folder / "virtualenv-app-data"),
        TMPDIR=str(folder / "tmp"),  # try-repo's own store, too, stays under the test's folder
        GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0",
        GIT_AUTHOR_NAME="Catalog Contributor", GIT_AUTHOR_EMAIL="contributor@example.invalid",
        GIT_COMMITTER_NAME="Catalog Contributor", GIT_COMMITTER_EMAIL="contributor@example.invalid",
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def _checkout(target: Path) -> tuple[Path, str]:
    """The hook repository: the package files a distribution is built from, and the hooks file, one commit."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
    target.mkdir()
    for name in (*PACKAGE_FILES, ".pre-commit-hooks.yaml"):
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(source, target / name)
    repo = GitRepo(target)
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "The gate")
    repo.git("tag", f"gate/v{__version__}")
    return target, repo.git("rev-parse", "HEAD")


@pytest.fixture(scope="module")
def hooks(built_package, tmp_path_factory) -> Hooks:
    folder = tmp_path_factory.mktemp("precommit")
    return Hooks(*_checkout(folder / "checkout"), _clean_env(folder, built_package.wheelhouse))


def new_catalog(hooks: Hooks, root: Path) -> GitRepo:
    """`exchange init` with a gate ref (the checkout's commit), then `git init` and every file staged."""
    done = hooks.exchange(root.parent, "init", str(root), "--owners", OWNERS, "--gate-ref", hooks.ref, "--no-git")
    assert done.returncode == 0, done.stdout
    repo = GitRepo(root)
    repo.git("add", "-A")
    return repo


def _passed(output: str, name: str) -> bool:
    return re.search(rf"^{re.escape(name)}\.+Passed$", output, flags=re.M) is not None


def _failed(output: str, name: str) -> bool:
    return re.search(rf"^{re.escape(name)}\.+Failed$", output, flags=re.M) is not None


CHECK, FIX = "exchange check (the gate)", "exchange fix --check (derived pins)"


def test_try_repo_exchange_check_passes_on_a_new_catalog(hooks, tmp_path):
    root = tmp_path / "acme-catalog"
    new_catalog(hooks, root)
    done = hooks.pre_commit(root, "try-repo", str(hooks.checkout), "exchange-check", "--all-files")
    assert done.returncode == 0, done.stdout
    assert _passed(done.stdout, CHECK), done.stdout


def _with_an_entry_and_the_documented_hooks(hooks: Hooks, root: Path) -> GitRepo:
    """A new catalog holding the demonstration catalog's preset entry with its manifest row, and
    docs/precommit.md's block as `.pre-commit-config.yaml` (the hook repository the local checkout at its
    gate release tag), committed with sign-off; then the hooks installed as `pre-commit install` does."""
    repo = new_catalog(hooks, root)
    shutil.copytree(DEMO / ENTRY_DIR, root / ENTRY_DIR)
    rows = [row for row in json.loads((DEMO / "manifest.json").read_bytes()) if row["id"] == ENTRY]
    (root / "manifest.json").write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    block = documented_block()
    assert block.count(f"repo: {SOURCE}\n") == 1 and block.count("rev: gate/vX.Y.Z") == 1
    config = block.replace(f"repo: {SOURCE}\n", f"repo: {hooks.checkout}\n").replace(
        "rev: gate/vX.Y.Z", f"rev: gate/v{__version__}")
    (root / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    repo.git("add", "-A")
    repo.git("commit", "-q", "-s", "-m", "A new catalog")
    done = hooks.pre_commit(root, "install")
    assert done.returncode == 0, done.stdout
    return repo


def test_a_stale_staged_row_fails_both_hooks_until_exchange_fix_is_run_and_staged(hooks, tmp_path):
    root = tmp_path / "acme-catalog"
    repo = _with_an_entry_and_the_documented_hooks(hooks, root)

    # a person-written member changed: entry.json's bytes, so its manifest row's entryDigest, are stale
    entry = root / ENTRY_DIR / "entry.json"
    entry.write_text(entry.read_text(encoding="utf-8").replace('"title": "', '"title": "Renamed: '), encoding="utf-8")
    repo.git("add", f"{ENTRY_DIR}/entry.json")
    manifest = (root / "manifest.json").read_bytes()
    commit = hooks.run(root, "git", "commit", "-s", "-m", "Rename the preset")  # installs the hook environment
    assert commit.returncode != 0, commit.stdout  # the installed hook refused the commit
    assert _failed(commit.stdout, CHECK) and _failed(commit.stdout, FIX), commit.stdout
    assert "refused manifest-digest-mismatch" in commit.stdout, commit.stdout
    assert "exchange fix --check: 1 pin(s) would change; run exchange fix" in commit.stdout, commit.stdout
    assert (root / "manifest.json").read_bytes() == manifest  # the hook writes nothing
    assert repo.git("rev-list", "--count", "HEAD") == "1"

    skipped = hooks.pre_commit(root, "run", SKIP="exchange-check")  # docs/precommit.md, "Skipping a hook"
    assert skipped.returncode != 0, skipped.stdout
    assert re.search(rf"^{re.escape(CHECK)}\.+Skipped$", skipped.stdout, flags=re.M), skipped.stdout
    assert _failed(skipped.stdout, FIX), skipped.stdout

    assert hooks.exchange(root, "fix").returncode == 0  # manifest.json rewritten on disk, not yet staged
    staged = hooks.pre_commit(root, "run")
    assert staged.returncode != 0, staged.stdout  # pre-commit set the unstaged fix aside: the staged row is stale
    assert _failed(staged.stdout, CHECK) and _failed(staged.stdout, FIX), staged.stdout
    on_disk = hooks.pre_commit(root, "run", "--all-files")
    assert on_disk.returncode == 0, on_disk.stdout  # --all-files sets nothing aside: the working tree passes

    repo.git("add", "manifest.json")
    commit = hooks.run(root, "git", "commit", "-s", "-m", "Rename the preset")
    assert commit.returncode == 0, commit.stdout
    assert _passed(commit.stdout, CHECK) and _passed(commit.stdout, FIX), commit.stdout
    assert repo.git("rev-list", "--count", "HEAD") == "2"
