"""What the tests of `exchange init` share (issue #33 item 1; docs/init.md): the file list written out by hand,
a directory's whole listing (to show a refusal wrote nothing), and the CLI run in-process."""

from __future__ import annotations

import os
from pathlib import Path

from judgment_exchange.cli import main

REF = "0123456789abcdef0123456789abcdef01234567"
OTHER_REF = "89abcdef0123456789abcdef0123456789abcdef"

FILES = sorted([
    "manifest.json", "releases.json", "skips.json", "entries/README.md", ".gitattributes", ".gitignore",
    "verifier-pin.json", "README.md", "CONTRIBUTING.md", ".github/CODEOWNERS", ".github/dependabot.yml",
    ".github/workflows/gate.yml", ".github/workflows/ci.yml", ".github/workflows/release.yml",
])
"""Every file a new catalog holds, written out by hand from issue #33 item 1."""


def listing(root: Path) -> list[str]:
    """Every path under `root` (files, folders, links, .git's own), and `root` itself: a refusal leaves it as
    it was."""
    if not os.path.lexists(root):
        return []
    found = ["."]
    for folder, dirs, names in os.walk(root):
        for name in dirs + names:
            found.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(found)


def files(root: Path) -> list[str]:
    """The files under `root`, outside .git, by '/'-separated path."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.is_file() and ".git" not in p.relative_to(root).parts[:1])


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """`exchange ARGV` in this process: its status, standard output and standard error."""
    capsys.readouterr()
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def init(capsys, directory: Path, owners: str = "@acme/catalog-maintainers", *extra: str,
         ref: str | None = REF) -> tuple[int, str, str]:
    return run(capsys, "init", str(directory), "--owners", owners, *(("--gate-ref", ref) if ref else ()), *extra)
