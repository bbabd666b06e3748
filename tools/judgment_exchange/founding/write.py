"""`exchange init DIR`: the new catalog's files written, and `git init -b main` (RFC 0019 §2: "An Exchange
is any repository in the entry format…"; issue #33 item 1; docs/init.md).

Every refusal is decided before the first byte is written, so a refused init writes nothing: a value outside
its grammar or no gate commit known (`BadInvocation`, exit 3); DIR not a directory, DIR inside a git work
tree whose root is not DIR (a nested catalog has no releases of its own: docs/releasing.md, "A catalog nested
inside another repository"), or any path init would write already there (`Refused`, exit 1, naming every
one). Files are created with O_EXCL and without following a symlink, so nothing is ever written over. It
commits nothing: `Initialised.next_steps` are the commands and settings left to the maintainer.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field

from . import files, gateref, grammar

GIT_TIMEOUT = 60


class BadInvocation(ValueError):
    """A value outside its grammar, or no gate commit known (exit 3); the message never holds the value."""


class Refused(Exception):
    """init would write over something, or DIR is no place for a catalog (exit 1); nothing was written."""

    def __init__(self, reasons: list[str]) -> None:
        super().__init__("; ".join(reasons))
        self.reasons = reasons


@dataclass
class Initialised:
    """A catalog written: where, its files, whether `git init` ran, the action's pin and what is left to do."""

    root: str
    paths: list[str]
    git_initialised: bool
    ref: str
    released: bool
    """The pin names this package's own release (`# gate/vX.Y.Z`, which Dependabot moves), not a commit by hand."""
    next_steps: list[str] = field(default_factory=list)


def _git_env() -> dict[str, str]:
    """The environment for git, without the variables that would point it at another repository."""
    return {k: v for k, v in os.environ.items()
            if k not in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR",
                         "GIT_NAMESPACE", "GIT_PREFIX")}


def _nearest_existing(path: str) -> str:
    probe = path
    while not os.path.isdir(probe):
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    return probe


def _rev_parse(where: str, *args: str) -> str | None:
    """`git rev-parse ARGS` run in `where` (any repository's owner: it only reads where the repository is), its
    output, or None when git fails or is absent."""
    try:
        done = subprocess.run(["git", "-c", "safe.directory=*", "rev-parse", *args], cwd=where, env=_git_env(),
                              capture_output=True, timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return os.fsdecode(done.stdout.rstrip(b"\n")) if done.returncode == 0 else None


def enclosing_root(path: str) -> str | None:
    """The root of the git work tree `path` (existing or not) lies in, or None in no work tree."""
    root = _rev_parse(_nearest_existing(path), "--show-toplevel")
    return os.path.realpath(root) if root else None


def inside_git_directory(path: str) -> bool:
    """Whether `path` (existing or not) lies inside a repository's own directory (a `.git`, a bare repository)."""
    return _rev_parse(_nearest_existing(path), "--is-inside-git-dir") == "true"


def choose_ref(gate_ref: str | None) -> tuple[str, str | None]:
    """The gate's commit to pin (`--gate-ref`, else the commit the package was built from) and that built-from
    commit (None when the package does not know it); BadInvocation when none is known or it is no commit."""
    released = gateref.built_from()
    if gate_ref is None:
        if released is None:
            raise BadInvocation(
                "this installation of judgment-pack-exchange does not know the commit it was built from (its "
                "_commit.txt is filled only by git archive): pass --gate-ref COMMIT, the 40-hex commit of "
                "Judgment-Pack/judgment-pack-exchange that a release tag gate/vX.Y.Z names "
                "(git ls-remote https://github.com/Judgment-Pack/judgment-pack-exchange 'refs/tags/gate/v*'; "
                "docs/init.md)")
        return released, released
    try:
        return grammar.ref(gate_ref), released
    except grammar.BadValue as exc:
        raise BadInvocation(str(exc)) from None


def refusals(root: str, paths: list[str]) -> list[str]:
    """Why init may not write `paths` under `root`, each reason its own line; empty when it may."""
    if os.path.lexists(root) and not os.path.isdir(root) or os.path.islink(root):
        return [f"{root} exists and is not a directory (or is a symbolic link): init writes a catalog into a "
                "new or empty directory"]
    if inside_git_directory(root):
        return [f"{root} is inside a repository's own git directory (a .git folder or a bare repository): give a "
                "directory of its own"]
    enclosing = enclosing_root(root)
    if enclosing is not None and enclosing != os.path.realpath(root):
        return [f"{root} is inside the git work tree {enclosing}, whose root it is not: a catalog's releases are "
                "the tags of the repository whose root holds its manifest.json, so a catalog nested inside another "
                "repository has no releases of its own (docs/releasing.md, \"A catalog nested inside another "
                "repository\"); give a directory outside every work tree, or the root of an empty repository"]
    found: list[str] = []
    seen: set[str] = set()
    for path in paths:
        parts = path.split("/")
        for depth in range(1, len(parts)):  # a parent that exists as anything but a directory
            parent = "/".join(parts[:depth])
            full = os.path.join(root, *parts[:depth])
            if parent not in seen and os.path.lexists(full) and (os.path.islink(full) or not os.path.isdir(full)):
                seen.add(parent)
                found.append(f"{parent} already exists and is not a directory"
                             + (" (a symbolic link, never followed)" if os.path.islink(full) else ""))
        if os.path.lexists(os.path.join(root, *parts)) and path not in seen:
            seen.add(path)
            found.append(f"{path} already exists")
    if found:
        found.append("init writes no file over another: move each one named away, or init another directory")
    return found


def _write_new(path: str, data: bytes) -> None:
    """Create `path` holding `data`, never over an existing file or through a symbolic link."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def git_init(root: str) -> None:
    """`git init -b main` in `root` (OSError when git fails)."""
    try:
        done = subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, env=_git_env(), capture_output=True,
                              timeout=GIT_TIMEOUT, check=False)
    except (subprocess.SubprocessError, OSError) as exc:
        raise OSError(f"git init could not run: {type(exc).__name__}") from None
    if done.returncode != 0:
        raise OSError(f"git init -b main failed (exit {done.returncode})")


def next_steps(owner: str, name: str, in_repository: bool) -> list[str]:
    """The commands and settings left to the maintainer (docs/init.md, "After init")."""
    url = f"https://github.com/{owner}/{name}"
    steps = [] if in_repository else ["git init -b main"]
    return steps + [
        'git add -A && git commit -s -m "A new catalog"',
        f"create the empty repository {url} on GitHub, then: git remote add origin {url}.git && "
        "git push -u origin main",
        'settings (docs/init.md, "Repository settings"): branch protection on main requiring a pull request, '
        'code-owner review and the gate\'s checks (gate, sign-off); Pages source "GitHub Actions"; the '
        "github-pages environment's deployment tag rule v*; a tag ruleset restricting who creates v* tags",
    ]


def init(directory: str | os.PathLike[str], owners: str, gate_ref: str | None = None, *,
         git: bool = True) -> Initialised:
    """Write a new catalog into `directory` (created if absent) owned by `owners` (`@user` or `@org/team`), its
    workflows pinning the gate's action at `gate_ref` (else the commit this package was built from), and run
    `git init -b main` there unless `git` is False or it is already a repository's root.

    BadInvocation (exit 3) or Refused (exit 1) before anything is written; OSError (exit 4) when writing fails
    part way (what was written stays: every file is new, so removing DIR's new files undoes it)."""
    root = os.path.abspath(os.fspath(directory))
    try:
        who = grammar.owners(owners)
        name = grammar.name(os.path.basename(root))
    except grammar.BadValue as exc:
        raise BadInvocation(str(exc)) from None
    ref, released = choose_ref(gate_ref)
    planned = files.plan(name, who.text, ref, released=released)
    reasons = refusals(root, list(planned))
    if reasons:
        raise Refused(reasons)
    in_repository = os.path.lexists(os.path.join(root, ".git"))
    if git and not in_repository and shutil.which("git") is None:  # said before anything is written
        raise OSError("git is not on PATH: install git, or pass --no-git")
    os.makedirs(root, exist_ok=True)
    for path, data in planned.items():
        parts = path.split("/")
        for depth in range(1, len(parts)):
            folder = os.path.join(root, *parts[:depth])
            if not os.path.isdir(folder):
                os.mkdir(folder)
        _write_new(os.path.join(root, *parts), data)
    initialised = False
    if git and not in_repository:
        git_init(root)
        initialised = True
    return Initialised(root=root, paths=list(planned), git_initialised=initialised, ref=ref,
                       released=released is not None and ref == released,
                       next_steps=next_steps(who.owner, name, in_repository or initialised))
