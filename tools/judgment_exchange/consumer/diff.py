"""What changed between two releases, for a reviewer to decide from (RFC 0019 §7 "An update is an
explicit, reviewed upgrade"; issue #10 item 6; docs/release-contract.md, "upgrade-diff").

The target release passes the same gate as `release-check` first: a failing release is never presented
as reviewable. Per changed entry it gives the files added, removed and changed under the entry's path
(each with its blob digest: sha256 over the blob's bytes), the reviewed members that changed, both
sides' pins and canonical digests, and the upgrade note keyed by the imported entryDigest (a changed
entry without one is flagged `upgrade-note-missing`); withdrawn and added entries.
"""

from __future__ import annotations

import hashlib
import tempfile

from ..catalog.grammar import release_key
from ..refusal import Refusal
from ..tree import DIR, FILE, GitTree, TooLarge, TreeError
from . import shown
from .check import LocationError, MAX_HISTORY, gate, lock_refusals, open_location, resolve_tag, unreadable
from .lock import Lock

BLOB_BOUND = 16 * 1024 * 1024  # the largest file bound of §3 (a fixture directory's); larger is not read
MAX_FILES = 4096
MAX_DEPTH = 16
REVIEWED = ("kind", "direction", "title", "description", "compatibility", "artifact", "dialectDigest",
            "dialectCanonicalDigest", "outputDigest", "outputCanonicalDigest")
NOTE_MISSING = "upgrade-note-missing"


class _Files:
    """An entry's files in one release: path to (kind, object id), read from the object database."""

    def __init__(self, tree: GitTree) -> None:
        self.tree = tree
        self.digests: dict[str, dict] = {}

    def walk(self, root: str) -> dict[str, tuple[str, str | None]]:
        out: dict[str, tuple[str, str | None]] = {}
        pending = [(root, 0)]
        while pending:
            path, depth = pending.pop()
            for node in self.tree.list(path):
                child = f"{path}/{node.name}"
                if node.kind == DIR and depth < MAX_DEPTH:
                    pending.append((child, depth + 1))
                else:
                    out[child] = (node.kind, self.tree.object_id(child))
                if len(out) > MAX_FILES:
                    raise LocationError(f"{root}: more than {MAX_FILES} files in one entry at "
                                        f"{self.tree.label}; not reviewable")
        return out

    def describe(self, path: str, kind: str, oid: str | None) -> dict:
        """A file for review: its path and blob digest (sha256 over the blob bytes); another kind named."""
        if kind != FILE or oid is None:
            return {"path": path, "type": kind}
        if oid not in self.digests:
            try:
                data = self.tree.store.blob(oid, BLOB_BOUND, path)
                self.digests[oid] = {"blobDigest": "sha256:" + hashlib.sha256(data).hexdigest()}
            except TooLarge as exc:
                self.digests[oid] = {"size": exc.size, "blobDigest": shown.withheld(
                    f"over {BLOB_BOUND} bytes; not read")}
        return {"path": path} | self.digests[oid]


def _file_changes(old: _Files, new: _Files, old_root: str | None, new_root: str | None) -> dict:
    before = old.walk(old_root) if old_root else {}
    after = new.walk(new_root) if new_root else {}
    key = lambda p: p.encode("utf-8", "surrogateescape")  # noqa: E731
    added = [new.describe(p, *after[p]) for p in sorted(set(after) - set(before), key=key)]
    removed = [old.describe(p, *before[p]) for p in sorted(set(before) - set(after), key=key)]
    changed = []
    for p in sorted(set(before) & set(after), key=key):
        if before[p] != after[p]:
            was, now = old.describe(p, *before[p]), new.describe(p, *after[p])
            changed.append({"path": p, "from": {k: v for k, v in was.items() if k != "path"},
                            "to": {k: v for k, v in now.items() if k != "path"}})
    return {"added": added, "removed": removed, "changed": changed}


def _entry(tree: GitTree, row: dict):
    from ..catalog import documents as docs

    read = docs.read_json(tree, f"{row['path']}/entry.json", docs.ENTRY_BOUND)
    return read.value if read.refusal is None else None


def _changes(old: GitTree, new: GitTree, imported: dict[str, str] | None) -> dict:
    """The reviewed difference of two releases' entries; both manifests must read in §3's form (O17).
    `imported` (the lock's entries) gives the entryDigest an upgrade note is keyed by; else the
    previous release's row."""
    from ..catalog.manifest import read_manifest

    manifests = (read_manifest(old), read_manifest(new))
    refused = [r for m in manifests for r in m.refusals]
    if refused:
        return {"result": "refused", "refusals": [r.as_json() for r in refused]}
    old_rows, new_rows = manifests[0].rows, manifests[1].rows
    old_files, new_files = _Files(old), _Files(new)
    changes = []
    for entry_id in sorted(set(old_rows) | set(new_rows), key=lambda i: i.encode("utf-8", "surrogateescape")):
        before, after = old_rows.get(entry_id), new_rows.get(entry_id)
        if after is None:
            changes.append({"id": entry_id, "change": "withdrawn", "from": shown.summary(_entry(old, before), before),
                            "note": "stays imported at its old commit; never silently removed"})
            continue
        if before is None:
            changes.append({"id": entry_id, "change": "added", "to": shown.summary(_entry(new, after), after),
                            "files": _file_changes(old_files, new_files, None, after["path"])})
            continue
        if old.object_id(before["path"]) == new.object_id(after["path"]) and before == after:
            continue
        was_entry, now_entry = _entry(old, before), _entry(new, after)
        was, now = shown.summary(was_entry, before), shown.summary(now_entry, after)
        key = (imported or {}).get(entry_id, before["entryDigest"])
        change = {"id": entry_id, "change": "changed", "from": was, "to": now,
                  "files": _file_changes(old_files, new_files, before["path"], after["path"]),
                  "fields": {name: {"from": was.get(name), "to": now.get(name)} for name in REVIEWED
                             if was.get(name) != now.get(name)},
                  "kindChanged": was.get("kind") != now.get("kind"),
                  "directionChanged": was.get("direction") != now.get("direction"),
                  "importedEntryDigest": key}
        if before["path"] != after["path"]:
            change["pathChanged"] = {"from": before["path"], "to": after["path"]}
        note = shown.upgrade_note(now_entry, key) if key != after["entryDigest"] else None
        if note is not None:
            change["upgradeNote"] = note
        elif key != after["entryDigest"]:
            change["flags"] = [NOTE_MISSING]
        changes.append(change)
    return {"result": "changes", "changes": changes}


def upgrade_diff(location: str, from_tag: str | None, to_tag: str, *, lock: Lock | None = None,
                 history: int | None = MAX_HISTORY) -> dict:
    """What changed between two releases, for review before an upgrade (§7). With `lock`, FROM is the
    lock's release (ValueError when `from_tag` names another) and notes are keyed by its entryDigests.
    Refuses a lower or equal target, a moved locked tag, and a target that fails its own check. Every id,
    path and refusal in the result is shown only where its grammar and the scan cleared it (render.clear_diff):
    the release being left is never gated by this run (issue #16 item 4)."""
    from .render import clear_diff

    return clear_diff(_upgrade_diff(location, from_tag, to_tag, lock=lock, history=history))


def _upgrade_diff(location: str, from_tag: str | None, to_tag: str, *, lock: Lock | None,
                  history: int | None) -> dict:
    if lock is not None:
        if from_tag is not None and from_tag != lock.tag:
            raise ValueError(f"FROM_TAG {from_tag} is not the locked {lock.tag}; give only TO_TAG with --lock")
        from_tag = lock.tag
    if from_tag is None:
        raise ValueError("give FROM_TAG TO_TAG, or --lock FILE TO_TAG")
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
            if not refusals and lock is not None:
                refusals.extend(lock_refusals(repo, location, to_tag, lock))
            out = {"location": location,
                   "from": {"tag": from_tag} | ({"commit": commits[from_tag]} if commits.get(from_tag) else {}),
                   "to": {"tag": to_tag} | ({"commit": commits[to_tag]} if commits.get(to_tag) else {})}
            if refusals:
                return out | {"result": "refused", "refusals": [r.as_json() for r in refusals]}
            report = gate(repo, to_tag, commits[to_tag], entries=None, history=history)
            out["target"] = {"result": "pass" if report.passed else "fail", "history": report.history,
                             "replayed": report.replayed, "skipped": [s.as_json() for s in report.skipped]}
            if not report.passed:
                return out | {"result": "refused", "refusals": [r.as_json() for r in report.refusals]}
            try:
                return out | _changes(GitTree(repo, commits[from_tag]), GitTree(repo, commits[to_tag]),
                                      lock.entries if lock is not None else None)
            except TreeError as exc:
                raise LocationError(f"{location}: {unreadable(exc)}") from exc
        finally:
            repo.close()
