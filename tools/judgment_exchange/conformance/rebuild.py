"""Rebuild one case's catalog repository from its fast-import stream (docs/conformance.md, "Rebuilding").

`git init` (SHA-1 object format), every `blob-generated` step (`git hash-object -w`: a large file described by
its size and byte pattern instead of stored, issue #35 item 3; the stream names the blob by id), every
`mktree-missing` step (`git mktree --missing`: a tree naming a
blob the stream leaves out, so a listed file cannot be fetched), `git fast-import` of the stream, then
every `update-ref` step (`git update-ref`: a lightweight tag to a tree, which fast-import cannot write).
Each step's object id, and every reference after the rebuild, must be the one cases.json pins; anything
else is a kit integrity error (KitError), never a consumer's failure.

Before git reads a stream, every command of it is read here (data blocks skipped by their counts): a command
that names a file outside the repository — `option` (any, git's or another program's), and `feature
export-marks`, `import-marks`, `import-marks-if-exists`, `relative-marks`, `no-relative-marks` — is a kit
integrity error (issue #35 item 6), so a hostile kit copy cannot make git write or read a file anywhere the user
can; no stored stream uses either command.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path
from typing import Any

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


FILE_FEATURES = (b"export-marks", b"import-marks", b"import-marks-if-exists", b"relative-marks",
                 b"no-relative-marks")
"""The `feature` commands that name, or change how git resolves, a file outside the repository."""


def refuse_outside_files(stream: bytes) -> None:
    """KitError when a command of `stream` names a file outside the repository (`option`, or a `feature` of
    FILE_FEATURES), or a data block runs past the stream's end. Data blocks are skipped by their byte count (or
    their delimiter), so their contents are never read as commands."""
    at, end = 0, len(stream)
    while at < end:
        stop = stream.find(b"\n", at)
        stop = end if stop < 0 else stop
        line = stream[at:stop]
        at = stop + 1
        if line.startswith(b"option ") or line == b"option":
            raise KitError(f"the stream's command {_shown(line)} names a file outside the repository: a kit copy "
                           "may not give fast-import an option")
        if line.startswith(b"feature "):
            name = line[len(b"feature "):].split(b"=", 1)[0]
            if name in FILE_FEATURES:
                raise KitError(f"the stream's command {_shown(line)} names a file outside the repository")
        if line.startswith(b"data <<"):
            delimiter = b"\n" + line[len(b"data <<"):] + b"\n"
            close = stream.find(delimiter, at - 1)
            if close < 0:
                raise KitError("the stream's delimited data block has no end")
            at = close + len(delimiter)
        elif line.startswith(b"data "):
            try:
                count = int(line[len(b"data "):].decode("ascii"))
            except ValueError as exc:
                raise KitError(f"the stream's command {_shown(line)} has no byte count") from exc
            if count < 0 or at + count > end:
                raise KitError("the stream's data block runs past its end")
            at += count


def _shown(line: bytes) -> str:
    text = line[:60].decode("utf-8", "replace")
    return repr(text + ("…" if len(line) > 60 else ""))


GENERATED_MAX = 32 * 1024 * 1024
"""The largest blob a `blob-generated` step may make (twice the fixture directory's 16 MiB bound)."""


def generated(step: dict[str, Any]) -> bytes:
    """A `blob-generated` step's bytes (issue #35 item 3): its `head` (UTF-8), then its one-byte `fill` repeated
    to `size` bytes in all. A size the head exceeds, or over GENERATED_MAX, is a kit error."""
    head: bytes = step["head"].encode("utf-8")
    fill: bytes = step["fill"].encode("ascii")
    size: int = step["size"]
    if len(fill) != 1 or not len(head) <= size <= GENERATED_MAX:
        raise KitError(f"a blob-generated step of {size} bytes is out of its form")
    return head + fill * (size - len(head))


def rebuild(stream: bytes, steps: list[dict[str, Any]], target: Path) -> dict[str, str]:
    """Make the case's repository at `target` (a directory that does not exist yet); its references."""
    refuse_outside_files(stream)
    target.mkdir(parents=True)
    git(target, "init", "-q", "--object-format=sha1")
    git(target, "symbolic-ref", "HEAD", "refs/heads/main")
    for step in steps:
        if step["op"] == "blob-generated":
            made = git(target, "hash-object", "-w", "--stdin", input=generated(step))
            if made != step["object"]:
                raise KitError(f"the generated blob of {step['size']} bytes is {made}, not the pinned {step['object']}")
        elif step["op"] == "mktree-missing":
            made = git(target, "mktree", "--missing", input=step["input"].encode("utf-8"))
            if made != step["object"]:
                raise KitError(f"git mktree --missing made {made}, not the pinned {step['object']}")
    git(target, "fast-import", "--quiet", "--done", input=stream)
    for step in steps:
        if step["op"] == "update-ref":
            git(target, "update-ref", step["ref"], step["object"])
    return refs_of(target)
