"""Throwaway git repositories with tags, for history tests and benchmarks (never /work/main's git).

Every git call runs with a clean configuration (no global or system config, a fixed identity, no
signing, no line-ending conversion), so a test sees the bytes it wrote as blobs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

IDENTITY = ("-c", "user.name=History Test", "-c", "user.email=history-test@example.invalid")
_CLEAN = ("-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", "-c", "core.autocrlf=false")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_DATE="2026-10-14T12:00:00Z",
        GIT_COMMITTER_DATE="2026-10-14T12:00:00Z",
        GIT_TERMINAL_PROMPT="0",
    )
    return env


def files_of(root: Path) -> dict[str, bytes]:
    """Every file under `root`, by its '/'-separated relative path: a snapshot for `GitRepo.snapshot`."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


class GitRepo:
    """A repository in a temporary directory: write a snapshot, commit it, tag it, damage it."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, input: bytes | None = None) -> str:
        done = subprocess.run(
            ["git", *IDENTITY, *_CLEAN, *args],
            cwd=self.path,
            env=_env(),
            input=input,
            capture_output=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"git {' '.join(args)}: {done.stderr.decode(errors='replace')}")
        return done.stdout.decode().strip()

    @property
    def git_dir(self) -> Path:
        return self.path / ".git"

    def snapshot(self, files: dict[str, bytes], message: str = "snapshot") -> str:
        """Make the tree exactly `files` (path to bytes), commit it on main, return the commit id."""
        for child in self.path.iterdir():
            if child.name == ".git":
                continue
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
        for rel, data in files.items():
            target = self.path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.rev("HEAD")

    def rev(self, rev: str) -> str:
        return self.git("rev-parse", "--verify", rev)

    def tag(self, name: str, target: str = "HEAD", annotated: bool = False) -> None:
        """A lightweight tag, or an annotated one, naming `target` (a commit, tree or blob id or rev)."""
        if annotated:
            self.git("tag", "-a", "-m", f"release {name}", name, target)
        else:
            self.git("tag", name, target)

    def write_ref(self, name: str, content: bytes) -> None:
        """Write a loose tag reference file as given, valid or not."""
        ref = self.git_dir / "refs" / "tags" / name
        ref.parent.mkdir(parents=True, exist_ok=True)
        ref.write_bytes(content)

    def fast_import(self, stream: bytes) -> None:
        """Feed a `git fast-import` stream (many commits and tags in one process)."""
        self.git("fast-import", "--quiet", "--done", input=stream)


def git_identity(environ, name: str = "Release Test", email: str = "release-test@example.invalid") -> None:
    """A clean git environment for code under test that runs git itself (`exchange release` commits and
    tags): no GIT_DIR-like overrides, no user or system configuration, one fixed author and committer.
    `environ` is pytest's monkeypatch (setenv/delenv)."""
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        environ.delenv(key, raising=False)
    environ.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    environ.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for who in ("AUTHOR", "COMMITTER"):
        environ.setenv(f"GIT_{who}_NAME", name)
        environ.setenv(f"GIT_{who}_EMAIL", email)


def two_releases(root: Path) -> GitRepo:
    """An empty catalog (manifest [] and ledger []) at `root` with releases v0.1.0 and v0.2.0 made by
    `exchange release` (`git_identity` set first)."""
    from .simulator import empty_released_twice

    return empty_released_twice(root).repo


def gate_on(repo: GitRepo, **options):
    """The whole gate on the repository's working tree, its history read from the repository."""
    from judgment_exchange.gate.pipeline import GateOptions, check_catalog
    from judgment_exchange.tree import WorkingTree

    return check_catalog(WorkingTree(str(repo.path)), GateOptions(repository=str(repo.path), **options))


def runner_releases(tmp_path: Path) -> GitRepo:
    """v0.1.0: the empty manifest; v0.2.0 (an annotated tag): one Runner entry. The repository is
    `tmp_path/repo`, the catalog built in `tmp_path/work`."""
    from .simulator import runner_released

    return runner_released(tmp_path).repo
