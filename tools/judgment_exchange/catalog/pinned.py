"""An untouched entry held by its manifest pins (issue #12 item 5; docs/performance.md, "The pull-request path").

On a pull request (`exchange check --base REV`) an entry whose files are identical to the base's is
not form-checked, replayed or scanned again: its files are read and hashed once and held against its
manifest row (RFC 0019 §3 "Manifest form": entryDigest, dialectDigest, outputDigest, each fixture's
name and file list). `pinned_entry` reads what that needs; `held` says whether the entry is held —
read cleanly and matching its row — and otherwise the gate gives the entry every check, so whatever
is wrong with it is reported exactly as the full gate reports it.
"""

from __future__ import annotations

from ..canon import digest
from ..tree import DIR, FILE, Tree, TreeError
from . import documents as docs
from . import grammar
from .directory import BINDING, FIXTURE_OPTIONAL, FIXTURE_REQUIRED, EntryCheck, FixtureCheck, entry_id, entry_path
from .manifest import Manifest, check_rows

ENTRY_FILES = ("entry.json", "README.md", "dialect.json", "output.json")
FIXTURE_FILES = FIXTURE_REQUIRED + FIXTURE_OPTIONAL + (BINDING,)


def _kinds(tree: Tree, path: str) -> dict[str, str]:
    """Each name in a directory and its kind, in the tree's order (a WorkingTree's `kinds` needs no
    stat per entry; any other tree's `list`)."""
    kinds = getattr(tree, "kinds", None)
    if kinds is not None:
        return dict(kinds(path))
    return {n.name: n.kind for n in tree.list(path)}


def pinned_entry(tree: Tree, path: str) -> tuple[EntryCheck, bool]:
    """The EntryCheck the manifest, identity and history read (entry.json's value, the stored-byte
    digests, the fixture file lists), and whether it was read cleanly: entry.json a strict JSON
    object within its bound, every name in the directory and its fixtures one an entry may hold, each
    fixture entry.json lists present as a directory and none other. No form check, replay or scan."""
    check = EntryCheck(entry_id(path), path)
    if entry_path(check.id) != path or not grammar.ENTRY_ID.fullmatch(check.id):
        return check, False
    try:
        listing = _kinds(tree, path)
    except TreeError:
        return check, False
    clean = all(name in ENTRY_FILES and kind == FILE or name == "fixtures" and kind == DIR
                for name, kind in listing.items())
    if "entry.json" not in listing:
        return check, False
    read = docs.read_json(tree, f"{path}/entry.json", docs.ENTRY_BOUND)
    if read.data is not None:
        check.stored["entry.json"] = digest(read.data)
    if read.refusal or not isinstance(read.value, dict):
        return check, False
    check.entry = read.value
    for document, limit in (("dialect.json", docs.DIALECT_BOUND), ("output.json", docs.OUTPUT_BOUND)):
        if document in listing:
            check.present.add(document)
            raw = docs.read_bytes(tree, f"{path}/{document}", limit)
            if raw.data is None:
                return check, False
            check.stored[document] = digest(raw.data)
    named = [f for f in check.entry.get("fixtures") or [] if isinstance(f, dict)] \
        if isinstance(check.entry.get("fixtures"), list) else []
    names = [f.get("name") for f in named]
    if "fixtures" in listing:
        try:
            present = _kinds(tree, f"{path}/fixtures")
        except TreeError:
            return check, False
    else:
        present = {}
    if sorted(present) != sorted(n for n in names if isinstance(n, str)) or len(set(names)) != len(names):
        clean = False
    for item in named:
        name = item.get("name")
        if not isinstance(name, str) or name not in present or present[name] != DIR:
            clean = False
            continue
        fpath = f"{path}/fixtures/{name}"
        try:
            nodes = _kinds(tree, fpath)
        except TreeError:
            return check, False
        if any(n not in FIXTURE_FILES or kind != FILE for n, kind in nodes.items()):
            clean = False
        prep = item.get("preparationDigest")
        check.fixtures.append(FixtureCheck(name, fpath, list(nodes),
                                           prep if isinstance(prep, str) else None, False))
    return check, clean


def held(check: EntryCheck, clean: bool, manifest: Manifest) -> bool:
    """Whether an untouched entry is held by its pins: read cleanly, its row readable, and the row's
    kind, digests and fixture lists the entry's own (manifest.check_rows on this entry alone)."""
    if not clean or check.id not in manifest.rows or any(r.entry == check.id for r in manifest.refusals):
        return False
    return not check_rows(Manifest(rows={check.id: manifest.rows[check.id]}, readable=True), [check])
