"""Artifact identity within a release, and the history walk, as the gate calls them (RFC 0019 §§3, 7)."""

from __future__ import annotations

import os

from ..refusal import Refusal, Report
from ..tree import Tree
from .directory import EntryCheck


def current_entries(checks: list[EntryCheck]) -> list:
    """The candidate release's entries in the form history reads."""
    from ..history import CurrentEntry

    out = []
    for c in checks:
        if c.entry is None:
            continue
        upgrade = c.entry.get("upgrade")
        out.append(CurrentEntry(id=c.id, path=c.path, entry_value=c.entry, dialect_digest=c.dialect_digest,
                                artifact=c.artifact,
                                upgrade_keys=list(upgrade) if isinstance(upgrade, dict) else []))
    return out


def identity_check(checks: list[EntryCheck]) -> list[Refusal]:
    """Two rows of this release with one artifact pair and different canonical digests."""
    from ..history import artifact_refusals

    return artifact_refusals(current_entries(checks))


def enclosing_work_tree(path: str) -> str | None:
    """The root of the git work tree `path` lies inside when `path` is not itself a repository; else None.

    A catalog nested in another repository (docs/demo-catalog/) has no releases of its own: the tags
    there are the enclosing repository's releases, whose manifest.json is the enclosing catalog's.
    A directory in no repository at all is still artifact-history-invalid (docs/releasing.md).
    """
    import git

    try:
        git.Repo(path).close()
        return None
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, OSError):
        pass
    try:
        repo = git.Repo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, OSError):
        return None
    try:
        root = repo.working_tree_dir
    finally:
        repo.close()
    if root is None or os.path.realpath(root) == os.path.realpath(path):
        return None
    return str(root)


def history_check(tree: Tree, checks: list[EntryCheck], options, report: Report) -> None:
    """Upgrade keys and artifact history against every previous release (no form-only fallback)."""
    from ..history import check_history

    repository = options.repository or getattr(tree, "repository", None)
    if repository is None or not os.path.exists(repository):
        report.refusals.append(Refusal("artifact-history-invalid", None, "no git repository to read releases from"))
        report.history = "checked"
        return
    enclosing = enclosing_work_tree(repository)
    if enclosing is not None:
        report.history = "skipped"
        report.checks = [c for c in report.checks if c != "history"]
        where = os.path.relpath(os.path.realpath(repository), os.path.realpath(enclosing))
        report.notes.append(
            f"history not read: the catalog is the directory {where} inside "
            "a git repository, not a repository's root; a catalog's releases are the tags of the repository "
            "whose root holds its manifest.json (RFC 0019 §7), so this catalog has no releases of its own")
        return
    ledger, manifest, base_ledger = _ledger_inputs(tree, repository, options.base)
    result = check_history(repository, current_entries(checks), release_tag=options.release_tag, base=options.base,
                           max_releases=options.max_history, ledger=ledger, anchor=getattr(tree, "commit", None),
                           base_ledger=base_ledger, manifest=manifest)
    report.history = result.status
    report.refusals += result.refusals
    report.notes += result.notes


def _optional(tree: Tree, path: str, limit: int) -> bytes | None:
    """A file's bytes, or None when the tree has no file there (an unreadable file raises TreeError)."""
    from ..tree import MISSING, TooLarge

    if tree.stat(path).kind == MISSING:
        return None
    try:
        return tree.read(path, limit)
    except TooLarge:
        return b"\0" * (limit + 1)  # over the ledger's bound: read_ledger refuses it (release-ledger-invalid)


def _ledger_inputs(tree: Tree, repository: str, base: str | None):
    """The checked tree's releases.json and manifest.json, and a pull request's base releases.json."""
    from ..history.ledger import LEDGER, LEDGER_MAX_BYTES
    from ..tree import GitTree, TreeError

    ledger = _optional(tree, LEDGER, LEDGER_MAX_BYTES)
    manifest = _optional(tree, "manifest.json", 1 << 20)
    base_ledger = None
    if base:
        try:
            base_ledger = (_optional(GitTree(repository, base), LEDGER, LEDGER_MAX_BYTES),)
        except TreeError:
            base_ledger = None  # the pull request's check already refuses an unreadable base (base-unreadable)
    return ledger, manifest, base_ledger
