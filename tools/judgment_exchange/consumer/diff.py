"""What changed between two releases, for a reviewer to decide from (RFC 0019 §7 "An update is an
explicit, reviewed upgrade"; issue #10 item 6; docs/release-contract.md, "upgrade-diff").

The target release passes the same gate as `release-check` first: a failing release is never presented
as reviewable. Per changed entry it gives the files added, removed and changed under the entry's path
(each with its blob digest: sha256 over the blob's bytes), the reviewed members that changed, both
sides' pins and canonical digests, and the upgrade note keyed by the imported entryDigest (a changed
entry without one is flagged `upgrade-note-missing`); withdrawn and added entries.

What a reviewer reads of a changed entry (issue #18 item 5): every entry.json member that changed, old
and new (`shown.entry_member`: each side shown only where its grammar and the scan cleared it — the
release being left is scanned here too, though only the target is checked); the README as a bounded
unified diff (`_readme`); the dialect's or output document's changes as JSON pointers with each side's
type, and its value where that is not author text (`_documents`); the fixtures added, removed and
re-recorded (`_fixtures`); and the upgrade note for the imported entryDigest.
"""

from __future__ import annotations

import difflib
import hashlib
import tempfile
from typing import TYPE_CHECKING, Any

from ..catalog import documents as docs
from ..catalog.entry import MEMBERS
from ..catalog.grammar import release_key
from ..codes.catalog import MANIFEST_ENTRY_MISSING, UPGRADE_TARGET_NOT_HIGHER
from ..codes.history import UPGRADE_NOTE_MISSING
from ..history.upgrade import changed_without_note
from ..jsonstrict import JsonRefusal, loads
from ..pointers import pointer as json_pointer
from ..quoting import described, flagged_values, pointer_text
from ..refusal import Refusal
from ..tree import DIR, FILE, GitTree, TooLarge, TreeError, id_order
from . import shown
from .check import (
    MAX_HISTORY,
    LocationError,
    gate,
    hold_withdrawn,
    lock_refusals,
    open_location,
    resolve_tag,
    unreadable,
)
from .lock import Lock, without_credentials

if TYPE_CHECKING:
    from .signed import Signing

Tokens = tuple[str | int, ...]
"""A place in a JSON document: its member names and array indexes from the root."""

BLOB_BOUND = 16 * 1024 * 1024  # the largest file bound of §3 (a fixture directory's); larger is not read
MAX_FILES = 4096
MAX_DEPTH = 16
REVIEWED = ("kind", "direction", "title", "description", "compatibility", "artifact", "dialectDigest",
            "dialectCanonicalDigest", "outputDigest", "outputCanonicalDigest")
NOTE_MISSING = UPGRADE_NOTE_MISSING
README_LINES = 200
README_CHARS = 16 * 1024
LINE_CHARS = 1024
"""A README's diff is cut after 200 lines or 16 KiB of lines, a line after 1024 characters (said so)."""
DOCUMENT_CHANGES = 100
"""At most this many pointers of a dialect or output document are listed; the rest are counted."""
DOCUMENTS = (("dialect.json", docs.DIALECT_BOUND), ("output.json", docs.OUTPUT_BOUND))


class _Files:
    """An entry's files in one release: path to (kind, object id), read from the object database."""

    def __init__(self, tree: GitTree) -> None:
        self.tree = tree
        self.digests: dict[str, dict[str, Any]] = {}
        self.walks: dict[str, dict[str, tuple[str, str | None]]] = {}

    def walk(self, root: str) -> dict[str, tuple[str, str | None]]:
        if root not in self.walks:
            self.walks[root] = self._walk(root)
        return self.walks[root]

    def _walk(self, root: str) -> dict[str, tuple[str, str | None]]:
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

    def describe(self, path: str, kind: str, oid: str | None) -> dict[str, Any]:
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


def _file_changes(old: _Files, new: _Files, old_root: str | None, new_root: str | None) -> dict[str, Any]:
    before = old.walk(old_root) if old_root else {}
    after = new.walk(new_root) if new_root else {}
    added = [new.describe(p, *after[p]) for p in sorted(set(after) - set(before), key=id_order)]
    removed = [old.describe(p, *before[p]) for p in sorted(set(before) - set(after), key=id_order)]
    changed: list[dict[str, Any]] = []
    for p in sorted(set(before) & set(after), key=id_order):
        if before[p] != after[p]:
            was, now = old.describe(p, *before[p]), new.describe(p, *after[p])
            changed.append({"path": p, "from": {k: v for k, v in was.items() if k != "path"},
                            "to": {k: v for k, v in now.items() if k != "path"}})
    return {"added": added, "removed": removed, "changed": changed}


def _entry(tree: GitTree, row: dict[str, Any]) -> object:
    """entry.json's JSON value at the row's path, or None when it does not read."""
    read = docs.read_json(tree, f"{row['path']}/entry.json", docs.ENTRY_BOUND)
    return read.value if read.refusal is None else None


def _members(was: Any, now: Any) -> list[dict[str, Any]]:
    """Every entry.json member whose value differs between the two sides, in §3's order (a member outside
    §3's list after them, its name described): `{member, from, to}`, each side through
    `shown.entry_member`, null where the member is absent. [] when either side is not a JSON object
    (its summary says so)."""
    if not isinstance(was, dict) or not isinstance(now, dict):
        return []
    names = [n for n in MEMBERS if n in was or n in now]
    names += list(dict.fromkeys(n for n in [*was, *now] if n not in MEMBERS))
    out: list[dict[str, Any]] = []
    for name in names:
        if name in was and name in now and _same(was[name], now[name]):
            continue
        out.append({"member": name if name in MEMBERS else described(name, "a member name"),
                    "from": shown.entry_member(name, was[name]) if name in was else None,
                    "to": shown.entry_member(name, now[name]) if name in now else None})
    return out


def _same(a: Any, b: Any) -> bool:
    """JSON values equal as read (numbers by their literal): a number is never true, an object's order moot."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=False))
    return bool(a == b)  # a string, Number, true/false or null: its == is a bool already


def _blob(files: _Files, path: str, item: tuple[str, str | None] | None, bound: int, label: str,
          what: str) -> tuple[bytes | None, str | None]:
    """A file's bytes within `bound`, or why it is not read (absent is b"" with no reason, for the caller)."""
    if item is None:
        return None, None
    kind, oid = item
    if kind != FILE or oid is None:
        return None, f"{label}'s {what} is a {kind}, not a file"
    try:
        return files.tree.store.blob(oid, bound, path), None
    except TooLarge as exc:
        return None, f"{label}'s {what} is {exc.size} bytes, over its bound of {bound}; not read"


def _readme_lines(text: str) -> list[str]:
    from ..textsafe import escaped

    lines = escaped(text).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _readme(old: _Files, new: _Files, old_root: str, new_root: str,
            labels: tuple[str, str]) -> dict[str, Any] | None:
    """The README as a unified diff of its lines (None when its blob did not change): each side read
    within its bound (64 KiB), decoded as UTF-8 and scanned for the scan's credential shapes; a side that
    is none of these is described and nothing is diffed — no line of a side holding a credential shape
    is shown. Every line has its control and bidirectional characters escaped (textsafe.escaped);
    the diff is cut at README_LINES lines or README_CHARS characters, a line at LINE_CHARS."""
    sides = [(old, f"{old_root}/README.md", labels[0]), (new, f"{new_root}/README.md", labels[1])]
    items = [files.walk(path.rsplit("/", 1)[0]).get(path) for files, path, _ in sides]
    if items[0] == items[1]:
        return None
    texts: list[str] = []
    reasons: list[str] = []
    for (files, path, label), item in zip(sides, items, strict=False):
        data, why = _blob(files, path, item, docs.README_BOUND, label, "README.md")
        if why is not None:
            reasons.append(why)
            continue
        if data is None:
            texts.append("")  # absent on this side: every line of the other is added or removed
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            reasons.append(f"{label}'s README.md is not UTF-8 ({len(data)} bytes)")
            continue
        if flagged_values([text]):
            reasons.append(f"{label}'s README.md holds a shape the scan refuses (a credential); none of its "
                           "lines is shown")
            continue
        texts.append(text)
    if reasons:
        return shown.withheld("; ".join(reasons) + "; not diffed")
    absent = [label for (_, _, label), item in zip(sides, items, strict=False) if item is None]
    lines = list(difflib.unified_diff(_readme_lines(texts[0]), _readme_lines(texts[1]),
                                      f"{labels[0]} README.md" + (" (absent)" if labels[0] in absent else ""),
                                      f"{labels[1]} README.md" + (" (absent)" if labels[1] in absent else ""),
                                      lineterm=""))
    out: list[str] = []
    size = 0
    for line in lines:
        if len(line) > LINE_CHARS:
            line = f"{line[:LINE_CHARS]} … ({len(line) - LINE_CHARS} more characters)"
        if len(out) >= README_LINES or size + len(line) + 1 > README_CHARS:
            break
        out.append(line)
        size += len(line) + 1
    more = len(lines) - len(out)
    return {"diff": out, "cut": more > 0} | ({"more": more} if more else {})


_ABSENT = object()


def _pointer(tokens: Tokens) -> str:
    return json_pointer(tokens)


def _walk_values(was: Any, now: Any) -> list[tuple[Tokens, Any, Any]]:
    """Every place two JSON values differ, in document order: objects by member name (the old side's
    order, then members only the new side has), arrays by index; a place whose two types differ is not
    descended. Each is (tokens, old or _ABSENT, new or _ABSENT)."""
    out: list[tuple[Tokens, Any, Any]] = []
    stack: list[tuple[Tokens, Any, Any]] = [((), was, now)]
    while stack:
        tokens, a, b = stack.pop()
        if isinstance(a, dict) and isinstance(b, dict):
            keys = [*a, *(k for k in b if k not in a)]
            stack.extend(((*tokens, k), a.get(k, _ABSENT), b.get(k, _ABSENT)) for k in reversed(keys))
        elif isinstance(a, list) and isinstance(b, list):
            stack.extend(((*tokens, i), a[i] if i < len(a) else _ABSENT, b[i] if i < len(b) else _ABSENT)
                         for i in reversed(range(max(len(a), len(b)))))
        elif not _same(a, b):
            out.append((tokens, a, b))
    return out


def _documents(old: _Files, new: _Files, old_root: str, new_root: str,
               labels: tuple[str, str]) -> dict[str, dict[str, Any]]:
    """Each of dialect.json and output.json whose blob changed and is on both sides: the JSON pointers
    where its values differ (`pointer_text`: a member name the author chose described by length), each
    with `change` (changed, added, removed) and each side's `shown.document_value`; at most
    DOCUMENT_CHANGES of them (`more` counts the rest). Both sides are read strictly within the
    document's bound; one that does not read is said so (`notCompared`) and nothing is compared — the
    release being left was never gated by this run."""
    out: dict[str, dict[str, Any]] = {}
    for name, bound in DOCUMENTS:
        sides = [(old, f"{old_root}/{name}", labels[0]), (new, f"{new_root}/{name}", labels[1])]
        items = [files.walk(path.rsplit("/", 1)[0]).get(path) for files, path, _ in sides]
        if items[0] == items[1] or None in items:
            continue  # unchanged, or added or removed (listed under files)
        values: list[Any] = []
        reasons: list[str] = []
        for (files, path, label), item in zip(sides, items, strict=False):
            data, why = _blob(files, path, item, bound, label, name)
            if why is not None:
                reasons.append(why)
                continue
            try:
                values.append(loads(data or b"", docs.json_bounds(bound)))
            except JsonRefusal as exc:
                reasons.append(f"{label}'s {name} is not one strict JSON value within its bounds ({exc.kind})")
        if reasons:
            out[name] = {"notCompared": "; ".join(reasons) + "; nothing of it is compared"}
            continue
        places = _walk_values(values[0], values[1])
        changes: list[dict[str, Any]] = []
        for tokens, a, b in places[:DOCUMENT_CHANGES]:
            change: dict[str, Any] = {"pointer": pointer_text(_pointer(tokens)),
                                      "change": "added" if a is _ABSENT else "removed" if b is _ABSENT else "changed"}
            if a is not _ABSENT:
                change["from"] = shown.document_value(a)
            if b is not _ABSENT:
                change["to"] = shown.document_value(b)
            changes.append(change)
        more = len(places) - len(changes)
        out[name] = {"changes": changes, "cut": more > 0} | ({"more": more} if more else {})
    return out


def _fixture_sides(files: _Files, root: str | None, entry: Any) -> dict[str, dict[str, Any]]:
    """A release's fixtures of one entry by name: those entry.json lists and those with a directory under
    fixtures/, each with its listed preparationDigest (when listed) and its files (path to object)."""
    out: dict[str, dict[str, Any]] = {}
    items = entry.get("fixtures") if isinstance(entry, dict) else None
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("name"), str) and item["name"] not in out:
            out[item["name"]] = {"listed": True, "preparationDigest": item.get("preparationDigest"), "files": {}}
    if root is None:
        return out
    prefix = f"{root}/fixtures/"
    for path, item in files.walk(root).items():
        if path.startswith(prefix) and "/" in path[len(prefix):]:
            name, _, inner = path[len(prefix):].partition("/")
            out.setdefault(name, {"listed": False, "preparationDigest": None, "files": {}})["files"][inner] = \
                (path, item)
    return out


def _fixtures(old: _Files, new: _Files, old_root: str, new_root: str, was: Any, now: Any) -> dict[str, Any]:
    """The fixtures added, removed and re-recorded (the same name, a file's blob or the listed
    preparationDigest changed): each by `name` (cleared by render.clear_diff), with its
    preparationDigest, and for a re-recorded one the paths of its files that changed."""
    before, after = _fixture_sides(old, old_root, was), _fixture_sides(new, new_root, now)
    def one(name: str, side: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"name": name}
        if side["listed"]:
            out["preparationDigest"] = shown.digest(side["preparationDigest"])
        return out

    rerecorded: list[dict[str, Any]] = []
    for name in sorted(set(before) & set(after), key=id_order):
        a, b = before[name], after[name]
        paths = [a["files"][f][0] if f in a["files"] else b["files"][f][0]
                 for f in sorted(set(a["files"]) | set(b["files"]), key=id_order)
                 if a["files"].get(f, (None, None))[1] != b["files"].get(f, (None, None))[1]]
        digests = (a["preparationDigest"], b["preparationDigest"])
        if not paths and digests[0] == digests[1]:
            continue
        item: dict[str, Any] = {"name": name, "files": paths}
        if digests[0] != digests[1]:
            item["preparationDigest"] = {"from": shown.digest(digests[0]) if a["listed"] else None,
                                         "to": shown.digest(digests[1]) if b["listed"] else None}
        rerecorded.append(item)
    return {"added": [one(n, after[n]) for n in sorted(set(after) - set(before), key=id_order)],
            "removed": [one(n, before[n]) for n in sorted(set(before) - set(after), key=id_order)],
            "reRecorded": rerecorded}


def _not_directories(tree: GitTree, rows: dict[str, dict[str, Any]], label: str) -> list[Refusal]:
    """manifest-entry-missing for each row whose path is not an entry directory in the release `tree` (its
    entries/ a file, a symlink or a submodule, or no such directory): that release's files under it cannot
    be read for review. Each component is asked in turn, so none is read through (issue #25 item 5)."""
    out: list[Refusal] = []
    for entry_id, row in rows.items():
        parts = row["path"].split("/")
        if any(tree.stat("/".join(parts[:n])).kind != DIR for n in range(1, len(parts) + 1)):
            out.append(Refusal(MANIFEST_ENTRY_MISSING, "manifest.json", f"row {entry_id!r} of {label} names "
                               f"{row['path']}, which is not an entry directory in that release", entry_id))
    return out


def _changes(old: GitTree, new: GitTree, imported: dict[str, str] | None,
             labels: tuple[str, str] = ("FROM", "TO"), lock: Lock | None = None) -> dict[str, Any]:
    """The reviewed difference of two releases' entries; both manifests must read in §3's form (O17).
    `imported` (the lock's entries) gives the entryDigest an upgrade note is keyed by; else the
    previous release's row. `labels` name the two releases (their tags) in what is said of each side."""
    from ..catalog.manifest import read_manifest

    manifests = (read_manifest(old), read_manifest(new))
    refused = [r for m in manifests for r in m.refusals]
    if refused:
        return {"result": "refused", "refusals": [r.as_json() for r in refused]}
    old_rows, new_rows = manifests[0].rows, manifests[1].rows
    absent = _not_directories(old, old_rows, labels[0])  # the release being left was never gated here (issue #25)
    if absent:
        return {"result": "refused", "refusals": [r.as_json() for r in absent]}
    old_files, new_files = _Files(old), _Files(new)
    changes: list[dict[str, Any]] = []
    for entry_id in sorted(set(old_rows) | set(new_rows), key=id_order):
        before, after = old_rows.get(entry_id), new_rows.get(entry_id)
        if after is None:
            assert before is not None  # an id of one release's rows at least
            at = (f"withdrawn, imported at {lock.commit} ({lock.tag})" if lock is not None and entry_id in lock.entries
                  else "stays imported at its old commit")
            changes.append({"id": entry_id, "change": "withdrawn", "from": shown.summary(_entry(old, before), before),
                            "note": f"{at}; never silently removed"})
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
        change: dict[str, Any] = {"id": entry_id, "change": "changed", "from": was, "to": now,
                  "files": _file_changes(old_files, new_files, before["path"], after["path"]),
                  "fields": {name: {"from": was.get(name), "to": now.get(name)} for name in REVIEWED
                             if was.get(name) != now.get(name)},
                  "members": _members(was_entry, now_entry),
                  "kindChanged": was.get("kind") != now.get("kind"),
                  "directionChanged": was.get("direction") != now.get("direction"),
                  "importedEntryDigest": key}
        readme = _readme(old_files, new_files, before["path"], after["path"], labels)
        if readme is not None:
            change["readme"] = readme
        change["documents"] = _documents(old_files, new_files, before["path"], after["path"], labels)
        change["fixtures"] = _fixtures(old_files, new_files, before["path"], after["path"], was_entry, now_entry)
        if before["path"] != after["path"]:
            change["pathChanged"] = {"from": before["path"], "to": after["path"]}
        notes = now_entry.get("upgrade") if isinstance(now_entry, dict) else None
        if changed_without_note(key, after["entryDigest"], notes):  # the one rule (history/upgrade.py)
            change["flags"] = [NOTE_MISSING]
        elif key != after["entryDigest"]:
            change["upgradeNote"] = shown.upgrade_note(now_entry, key)
        changes.append(change)
    for entry_id, kept in sorted((lock.withdrawn if lock is not None else {}).items(),
                                 key=lambda item: id_order(item[0])):
        if entry_id not in new_rows:  # withdrawn by an earlier release, kept by the lock (issue #34 item 4)
            changes.append({"id": entry_id, "change": "withdrawn", "importedAt": kept.as_json(),
                            "note": f"{kept.shown()}; kept by the lock until a reviewed --forget"})
    return {"result": "changes", "changes": changes}


def tree_changes(old: GitTree, new: GitTree, labels: tuple[str, str]) -> dict[str, Any]:
    """The reviewed difference of two commits' entries, as upgrade-diff makes it between releases, every id,
    path and name cleared (render.clear_diff): a pull request's review shows its changed entry's lines
    (issue #27 item 4; review/check.py). `labels` name the two sides."""
    from .render import clear_diff

    return clear_diff(_changes(old, new, None, labels))


def upgrade_diff(location: str, from_tag: str | None, to_tag: str, *, lock: Lock | None = None,
                 history: int | None = MAX_HISTORY, signing: Signing | None = None) -> dict[str, Any]:
    """What changed between two releases, for review before an upgrade (§7). With `lock`, FROM is the
    lock's release (ValueError when `from_tag` names another) and notes are keyed by its entryDigests.
    Refuses a lower or equal target, a moved locked tag, and a target that fails its own check. Every id,
    path and refusal in the result is shown only where its grammar and the scan cleared it (render.clear_diff):
    the release being left is never gated by this run (issue #16 item 4)."""
    from .render import clear_diff

    return clear_diff(_upgrade_diff(location, from_tag, to_tag, lock=lock, history=history, signing=signing))


def _upgrade_diff(location: str, from_tag: str | None, to_tag: str, *, lock: Lock | None,
                  history: int | None, signing: Signing | None = None) -> dict[str, Any]:
    if lock is not None:
        if from_tag is not None and from_tag != lock.tag:
            raise ValueError(f"FROM_TAG {from_tag} is not the locked {lock.tag}; give only TO_TAG with --lock")
        from_tag = lock.tag
    if from_tag is None:
        raise ValueError("give FROM_TAG TO_TAG, or --lock FILE TO_TAG")
    with tempfile.TemporaryDirectory(prefix="exchange-upgrade-") as workdir:
        repo = open_location(location, workdir)
        try:
            commits: dict[str, str] = {}  # each tag resolved
            refusals: list[Refusal] = []
            for tag in (from_tag, to_tag):
                commit, refusal = resolve_tag(repo, tag)
                if commit is not None:
                    commits[tag] = commit
                if refusal and lock is not None and tag == lock.tag:
                    refusals.extend(lock_refusals(repo, location, to_tag, lock))  # the lock's code wins
                    break
                if refusal:
                    refusals.append(refusal)
            to_key, from_key = release_key(to_tag), release_key(from_tag)  # both in the grammar: both resolved
            if not refusals and to_key is not None and from_key is not None and to_key <= from_key:
                refusals.append(Refusal(UPGRADE_TARGET_NOT_HIGHER, None,
                                        f"{to_tag} is not higher than {from_tag}: an upgrade moves to a higher tag"))
            if not refusals and lock is not None:
                refusals.extend(lock_refusals(repo, location, to_tag, lock))
            if not refusals:  # the target's signature: --signers, --require-signed, the lock's signers (issue #36)
                from .signed import Signing, check_signatures

                refusals.extend(check_signatures(repo, to_tag, commits[to_tag], signing=signing or Signing(),
                                                 lock=lock, history=history).refusals)
            out = {"location": without_credentials(location),  # a URL's user name and password never printed
                   "from": {"tag": from_tag} | ({"commit": commits[from_tag]} if commits.get(from_tag) else {}),
                   "to": {"tag": to_tag} | ({"commit": commits[to_tag]} if commits.get(to_tag) else {})}
            if refusals:
                return out | {"result": "refused", "refusals": [r.as_json() for r in refusals]}
            report = gate(repo, to_tag, commits[to_tag], entries=None, history=history, lock=lock)
            if lock is not None:  # the lock's withdrawn entries' pairs held too (issue #34 item 4)
                hold_withdrawn(repo, commits[to_tag], lock, frozenset(), report)
            out["target"] = {"result": "pass" if report.passed else "fail", "history": report.history,
                             "replayed": report.replayed, "skipped": [s.as_json() for s in report.skipped]}
            if not report.passed:
                return out | {"result": "refused", "refusals": [r.as_json() for r in report.refusals]}
            try:
                diff = _changes(GitTree(repo, commits[from_tag]), GitTree(repo, commits[to_tag]),
                                lock.entries if lock is not None else None, (from_tag, to_tag),
                                lock=lock)
                return out | diff
            except TreeError as exc:
                raise LocationError(f"{location}: {unreadable(exc)}") from exc
        finally:
            repo.close()
