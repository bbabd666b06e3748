"""A consumer's checks of a tagged release before import (RFC 0019 §7).

The release is the tag resolved to its commit (annotated tags peeled); every file is read as a blob
of that commit. The same gate as the catalog's CI runs on those bytes: the consumer relies on no
catalog CI result. History is read when asked (up to maxHistoryReleases earlier releases); without
it the report says `artifact-history-unchecked`, which is neither a refusal nor proof.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field

from .catalog.gate import CatalogUnreadable, GateOptions, check_catalog
from .catalog.grammar import release_key
from .refusal import Refusal, Report
from .tree import GitTree, TreeError

UNCHECKED = "artifact-history-unchecked"
MAX_HISTORY = 128


class LocationError(Exception):
    """The catalog location cannot be opened as a git repository (exit 4)."""


@dataclass
class ReleaseCheck:
    """What a consumer retains and reviews: location, tag, resolved commit, the gate's report."""

    location: str
    tag: str
    commit: str | None = None
    report: Report = field(default_factory=Report)

    def as_json(self) -> dict:
        out = self.report.as_json()
        return {"location": self.location, "tag": self.tag, "commit": self.commit, **out,
                "results": self.report.results()}


def open_location(location: str, workdir: str):
    """A local directory holding the catalog's repository, or a git URL cloned bare into `workdir`."""
    import git

    try:
        if os.path.isdir(location):
            return git.Repo(location)
        return git.Repo.clone_from(location, os.path.join(workdir, "catalog.git"), bare=True, no_checkout=True)
    except Exception as exc:  # GitPython raises several types for an unopenable location
        raise LocationError(f"{location}: not a catalog's git repository ({exc.__class__.__name__})") from exc


def resolve_tag(repo, tag: str) -> tuple[str | None, Refusal | None]:
    """The commit a release tag names (§7): the grammar, a tag that exists, a commit once peeled."""
    if release_key(tag) is None:
        return None, Refusal("release-tag-invalid", None, f"{tag!r} is not a release tag vMAJOR.MINOR.PATCH")
    try:
        ref = repo.tags[tag]
    except (IndexError, KeyError):
        return None, Refusal("release-tag-invalid", None, f"no tag {tag} in the catalog")
    try:
        obj = ref.object
        while obj.type == "tag":
            obj = obj.object
    except Exception as exc:
        return None, Refusal("release-tag-invalid", None, f"{tag} cannot be resolved ({exc.__class__.__name__})")
    if obj.type != "commit":
        return None, Refusal("release-tag-invalid", None, f"{tag} resolves to a {obj.type}, not a commit")
    return obj.hexsha, None


def release_check(location: str, tag: str, *, entries: list[str] | None = None, history: int | None = MAX_HISTORY,
                  expect_commit: str | None = None) -> ReleaseCheck:
    """Verify a tagged release before import (§7); `history` None reads no history."""
    result = ReleaseCheck(location, tag)
    with tempfile.TemporaryDirectory(prefix="exchange-release-") as workdir:
        repo = open_location(location, workdir)
        try:
            commit, refusal = resolve_tag(repo, tag)
            result.commit = commit
            if refusal:
                result.report.refusals.append(refusal)
                return result
            if expect_commit and commit != expect_commit.lower():
                result.report.refusals.append(Refusal(
                    "release-tag-moved", None, f"{tag} now resolves to {commit}, not the retained {expect_commit}"))
                return result
            path = repo.git_dir if repo.bare else repo.working_tree_dir
            options = GateOptions(entries=entries or [], history=history is not None, repository=str(path),
                                  release_tag=tag, max_history=history)
            try:
                result.report = check_catalog(GitTree(repo, commit), options)
            except (TreeError, CatalogUnreadable) as exc:
                raise LocationError(f"{tag} at {commit}: {exc}") from exc
            if history is None:
                result.report.history = UNCHECKED
        finally:
            repo.close()
    return result


def _entry_summary(tree: GitTree, row: dict) -> dict:
    from .catalog import documents as docs

    read = docs.read_json(tree, f"{row['path']}/entry.json", docs.ENTRY_BOUND)
    entry = read.value if isinstance(read.value, dict) else {}
    ref = entry.get("dialect") if isinstance(entry.get("dialect"), dict) else {}
    return {"kind": entry.get("kind"), "direction": entry.get("direction"), "entryDigest": row.get("entryDigest"),
            "artifact": entry.get("artifact"), "dialectDigest": ref.get("digest"),
            "compatibility": entry.get("compatibility"), "upgrade": entry.get("upgrade")}


def upgrade_diff(location: str, from_tag: str, to_tag: str) -> dict:
    """What changed between two releases, for review before an upgrade (§7); refuses a lower target."""
    with tempfile.TemporaryDirectory(prefix="exchange-upgrade-") as workdir:
        repo = open_location(location, workdir)
        try:
            commits, refusals = {}, []
            for tag in (from_tag, to_tag):
                commit, refusal = resolve_tag(repo, tag)
                commits[tag] = commit
                if refusal:
                    refusals.append(refusal)
            if not refusals and release_key(to_tag) <= release_key(from_tag):
                refusals.append(Refusal("upgrade-target-not-higher", None,
                                        f"{to_tag} is not higher than {from_tag}: an upgrade moves to a higher tag"))
            out = {"location": location, "from": {"tag": from_tag, "commit": commits.get(from_tag)},
                   "to": {"tag": to_tag, "commit": commits.get(to_tag)}}
            if refusals:
                return out | {"result": "refused", "refusals": [r.as_json() for r in refusals]}
            try:
                return out | _changes(GitTree(repo, commits[from_tag]), GitTree(repo, commits[to_tag]))
            except TreeError as exc:
                raise LocationError(f"{location}: {exc}") from exc
        finally:
            repo.close()


def _changes(old: GitTree, new: GitTree) -> dict:
    """The reviewed difference of two releases' entries; both manifests must read in §3's form."""
    from .catalog.manifest import read_manifest

    manifests = (read_manifest(old), read_manifest(new))
    refused = [r for m in manifests for r in m.refusals]  # a manifest form error refuses the review (O17)
    if refused:
        return {"result": "refused", "refusals": [r.as_json() for r in refused]}
    old_rows, new_rows = manifests[0].rows, manifests[1].rows
    changes = []
    for entry_id in sorted(set(old_rows) | set(new_rows), key=lambda i: i.encode("utf-8")):
        before, after = old_rows.get(entry_id), new_rows.get(entry_id)
        if after is None:
            changes.append({"id": entry_id, "change": "withdrawn", "from": _entry_summary(old, before),
                            "note": "stays imported at its old commit; never silently removed"})
            continue
        if before is None:
            changes.append({"id": entry_id, "change": "added", "to": _entry_summary(new, after)})
            continue
        if old.object_id(before["path"]) == new.object_id(after["path"]) and before == after:
            continue
        was, now = _entry_summary(old, before), _entry_summary(new, after)
        notes = now.get("upgrade") if isinstance(now.get("upgrade"), dict) else {}
        changes.append({"id": entry_id, "change": "changed", "from": was, "to": now,
                        "kindChanged": was["kind"] != now["kind"],
                        "directionChanged": was["direction"] != now["direction"],
                        "upgradeNote": notes.get(before.get("entryDigest"))})
    return {"result": "changes", "changes": changes}
