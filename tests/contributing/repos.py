"""A contributor's setup in throwaway repositories: a bare "upstream" (the catalog on the forge) and a
clone of it with `origin/HEAD`, as `git clone` leaves it (never /work/main's git).

Every git call runs with gitrepo's clean configuration and one fixed identity, so `git commit -s`
signs off as the commit's author.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from ..support.gitrepo import _CLEAN, _env

NAME, EMAIL = "Contributor Test", "contributor@example.invalid"


def git_env() -> dict[str, str]:
    """gitrepo's clean environment with the contributor's identity as author and committer."""
    env = _env()
    env.update(GIT_AUTHOR_NAME=NAME, GIT_AUTHOR_EMAIL=EMAIL, GIT_COMMITTER_NAME=NAME, GIT_COMMITTER_EMAIL=EMAIL)
    return env


def git(cwd: Path, *args: str, input: bytes | None = None, env: dict[str, str] | None = None) -> str:
    """Run git in `cwd`; its standard output, stripped; a failure raises with git's message."""
    done = subprocess.run(["git", *_CLEAN, *args], cwd=cwd, env=env or git_env(), input=input,
                          capture_output=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr.decode(errors='replace')}")
    return done.stdout.decode().strip()


def write(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def commit(cwd: Path, message: str, signoff: bool = True) -> str:
    """Stage everything and commit (with `-s` unless told not to); the new commit's id."""
    git(cwd, "add", "-A")
    git(cwd, "commit", "-q", "--allow-empty", *(["-s"] if signoff else []), "-m", message)
    return git(cwd, "rev-parse", "HEAD")


def upstream_and_clone(tmp: Path, files: dict[str, bytes]) -> tuple[Path, Path]:
    """A bare upstream whose main holds `files` in one signed-off commit, and a clone of it (with
    refs/remotes/origin/HEAD -> origin/main): (upstream, clone)."""
    seed = tmp / "seed"
    seed.mkdir()
    git(seed, "init", "-q", "-b", "main")
    write(seed, files)
    commit(seed, "The catalog")
    upstream = tmp / "upstream.git"
    git(tmp, "clone", "-q", "--bare", str(seed), str(upstream))
    clone = tmp / "clone"
    git(tmp, "clone", "-q", str(upstream), str(clone))
    return upstream, clone


def fork_of(tmp: Path, seed: Path, work: str) -> tuple[Path, Path]:
    """The forge's side of the walkthrough's "Once" block: `seed` as a bare upstream, a bare fork of it, and the
    contributor's clone of the fork at tmp/`work` (no `upstream` remote yet): (upstream, work)."""
    upstream, fork, clone = tmp / "upstream.git", tmp / "fork.git", tmp / work
    git(tmp, "clone", "-q", "--bare", str(seed), str(upstream))
    git(tmp, "clone", "-q", "--bare", str(upstream), str(fork))
    git(tmp, "clone", "-q", str(fork), str(clone))
    return upstream, clone
