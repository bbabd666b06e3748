"""Rebuild one case's catalog repository from its fast-import stream (docs/conformance.md, "Rebuilding").

`git init` (SHA-1 object format), every `mktree-missing` step (`git mktree --missing`: a tree naming a
blob the stream leaves out, so a listed file cannot be fetched), `git fast-import` of the stream, then
every `update-ref` step (`git update-ref`: a lightweight tag to a tree, which fast-import cannot write).
Each step's object id, and every reference after the rebuild, must be the one cases.json pins; anything
else is a kit integrity error (KitError), never a consumer's failure.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

GIT_TIMEOUT = 120


class KitError(Exception):
    """The kit cannot be read, or a case's repository cannot be rebuilt as pinned (exit 4)."""


def git_env() -> dict[str, str]:
    """A clean git environment: no user or system configuration, no GIT_* override, no prompt."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    return env


def git(path: Path, *args: str, input: bytes | None = None) -> str:
    """Run git in `path`; its standard output, stripped. KitError when git fails."""
    try:
        done = subprocess.run(["git", "-c", "core.autocrlf=false", *args], cwd=path, env=git_env(), input=input,
                              capture_output=True, check=False, timeout=GIT_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise KitError(f"git {args[0]}: {exc}") from exc
    if done.returncode != 0:
        raise KitError(f"git {args[0]}: {done.stderr.decode('utf-8', 'replace').strip()}")
    return done.stdout.decode("utf-8", "replace").strip()


def sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def refs_of(path: Path) -> dict[str, str]:
    """Every reference of the repository at `path` and the object it names (tags not peeled)."""
    out = git(path, "for-each-ref", "--format=%(refname) %(objectname)")
    return dict(line.split(" ", 1) for line in out.splitlines() if line)


def rebuild(stream: bytes, steps: list[dict], target: Path) -> dict[str, str]:
    """Make the case's repository at `target` (a directory that does not exist yet); its references."""
    target.mkdir(parents=True)
    git(target, "init", "-q", "--object-format=sha1")
    git(target, "symbolic-ref", "HEAD", "refs/heads/main")
    for step in steps:
        if step["op"] == "mktree-missing":
            made = git(target, "mktree", "--missing", input=step["input"].encode("utf-8"))
            if made != step["object"]:
                raise KitError(f"git mktree --missing made {made}, not the pinned {step['object']}")
    git(target, "fast-import", "--quiet", "--done", input=stream)
    for step in steps:
        if step["op"] == "update-ref":
            git(target, "update-ref", step["ref"], step["object"])
    return refs_of(target)
