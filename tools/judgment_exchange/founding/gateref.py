"""The commit of Judgment-Pack/judgment-pack-exchange a new catalog's workflows pin the gate's action to
(RFC 0019 §2: "An Exchange is any repository in the entry format…"; issue #33 item 1; docs/init.md, "The
gate's commit").

`judgment_exchange/_commit.txt` holds `$Format:%H$`, which the repository's `.gitattributes` marks
`export-subst`: `git archive` — and so every wheel built from an archive, GitHub's action downloads among
them — writes the archived commit there, the way setuptools-scm's `.git_archival.txt` works. A package built
from a checkout (an editable install) still holds the placeholder: it does not know its commit, and
`exchange init` then needs `--gate-ref`.
"""

from __future__ import annotations

from importlib import resources

from .. import __version__
from . import grammar

ACTION = "Judgment-Pack/judgment-pack-exchange/.github/actions/gate"
"""The gate as a reusable composite action (issue #33 item 2), by its path in this repository."""

PLACEHOLDER = "@@GATE_ACTION@@"
"""The one placeholder of the workflow and Dependabot templates: the action's whole pinned `uses:` value."""


def built_from() -> str | None:
    """The commit the installed package was built from, when its `_commit.txt` was filled by `git archive`
    (40 lowercase hexadecimal digits); None when it still holds the placeholder or cannot be read."""
    try:
        text = resources.files("judgment_exchange").joinpath("_commit.txt").read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return None
    text = text.strip()
    return text if grammar.REF.fullmatch(text) else None


def release_tag() -> str:
    """The gate's release tag this package's version is published under (`gate/vX.Y.Z`, issue #33 item 4)."""
    return f"gate/v{__version__}"


def action_pin(ref: str, released: str | None) -> str:
    """The `uses:` value pinning the gate's action at `ref` (already grammar-checked), with its comment: the
    release tag when `ref` is `released` (the commit this package was built from, whose version Dependabot's
    path-prefixed tags read), else a comment saying the pin is moved by hand."""
    ref = grammar.ref(ref)
    if released is not None and ref == released:
        return f"{ACTION}@{ref} # {release_tag()}"
    return f"{ACTION}@{ref} # a commit named by --gate-ref, not this package's release: moved by hand (docs/init.md)"
