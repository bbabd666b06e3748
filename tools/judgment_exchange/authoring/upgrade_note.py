"""`exchange upgrade-note ENTRY_ID TEXT [--release TAG]` (RFC 0019 §3 `upgrade`; issue #17 item 5).

An upgrade note tells a consumer who imported a released entry what changed since: its key is that
release's entryDigest of the entry (the manifest row's, never a dialect digest), its value a string of 1
to 2,048 characters; `upgrade` holds 1 to 32 notes. The note is keyed by the entry's row in the release
TAG (default: the latest release holding the entry), read from the release's own manifest.json, the
releases being the ledger's rows (releases.json; each read at the commit its row records and held to its
manifestDigest), or, in a catalog without a ledger, its release tags. The ledger's rows are the working
tree's and then those main's ledger adds (main as every command resolves it): a branch cut before a release
lacks that release's row, which the gate's upgrade-note-missing warning names (issue #34 item 7). entry.json is edited
in place
(jsonedit: every other byte kept), then the entry's manifest row is re-pinned.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..catalog import documents as docs
from ..catalog.grammar import ENTRY_ID, release_key
from ..gitfail import reason
from ..jsonstrict import well_formed

if TYPE_CHECKING:
    from git import Repo

    from ..history.ledger import LedgerRow
    from ..tree import ObjectStore

MAX_NOTES = 32
NOTE_CHARS = (1, 2048)
PASS, REFUSED, USAGE, IO = 0, 1, 3, 4


@dataclass
class Outcome:
    """What the command says, and its exit status."""

    status: int
    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Released:
    """The entry's row in one release: the release's tag and the row's entryDigest."""

    tag: str
    entry_digest: str


class HistoryUnreadable(Exception):
    """The releases could not be read (exit 4): a missing tag or object, a manifest that is not its row's."""


def _manifest_rows(data: bytes) -> dict[str, str]:
    """id → entryDigest of every row of a release's manifest.json that has both as strings (whatever its
    version: the upgrade-history check reads them so, RFC 0019 §3)."""
    try:
        rows = json.loads(data)
    except (ValueError, RecursionError):
        return {}
    if not isinstance(rows, list):
        return {}
    return {r["id"]: r["entryDigest"] for r in rows
            if isinstance(r, dict) and isinstance(r.get("id"), str) and isinstance(r.get("entryDigest"), str)}


def releases_of(root: str, entry_id: str) -> list[Released]:
    """Every release holding `entry_id`, in tag order: the ledger's rows (or the release tags, in a catalog
    without a ledger), each release's manifest read from the object database."""
    import git

    from ..history.ledger import LEDGER, LEDGER_MAX_BYTES, LedgerFormError, read_ledger
    from ..history.tags import TagListingError, list_releases
    from ..tree import ObjectStore, ReleaseTree, TooLarge, TreeError, read_regular

    try:
        repo = git.Repo(root)
    except Exception as exc:  # InvalidGitRepositoryError, NoSuchPathError, …
        raise HistoryUnreadable(f"{root} is not the root of a git repository ({reason(exc)})") from exc
    try:
        store = ObjectStore(repo)
        try:
            ledger = read_ledger(read_regular(os.path.join(root, LEDGER), LEDGER_MAX_BYTES))
        except FileNotFoundError:
            ledger = None
        except (OSError, LedgerFormError) as exc:
            raise HistoryUnreadable(f"{LEDGER} cannot be read ({exc})") from exc
        main_rows = _main_ledger(repo, store)
        places: list[tuple[str, str, str | None]]
        if ledger is not None or main_rows:
            # the working tree's rows, then main's rows it lacks: a branch cut before a release knows only
            # main's ledger of it, which the gate's warning reads (issue #34 item 7)
            rows = list(ledger or [])
            rows += [row for row in main_rows if row.tag not in {r.tag for r in rows}]
            places = [(row.tag, row.commit, row.manifest_digest) for row in rows]
        else:
            try:
                places = [(r.tag, r.commit, None) for r in list_releases(repo, store).releases]
            except TagListingError as exc:
                raise HistoryUnreadable(str(exc)) from exc
        out = []
        for tag, commit, pinned in places:
            try:
                tree = ReleaseTree(store, commit, tag)
                blob = tree.blob_id("manifest.json")
                data = store.blob(blob, docs.MANIFEST_BOUND, "manifest.json") if blob is not None else b"[]"
            except (TreeError, TooLarge) as exc:
                raise HistoryUnreadable(f"release {tag}'s manifest at {commit[:12]} cannot be read ({exc}): fetch "
                                        "the releases (git fetch upstream --tags)") from exc
            if pinned is not None and "sha256:" + hashlib.sha256(data).hexdigest() != pinned:
                raise HistoryUnreadable(f"release {tag}'s manifest at {commit[:12]} is not the one its ledger row "
                                        "pins: run exchange check to see why")
            digest = _manifest_rows(data).get(entry_id)
            if digest is not None:
                out.append(Released(tag, digest))
    finally:
        repo.close()
    return sorted(out, key=lambda r: release_key(r.tag) or (0, 0, 0))


def _main_ledger(repo: Repo, store: ObjectStore) -> list[LedgerRow]:
    """The rows of releases.json at main's tip as every command resolves main (history/mainline.resolve_main:
    the upstream default branch as fetched, else the local main): the ledger the gate's upgrade-note-missing
    warning keys by. [] when main names no commit or holds no ledger in its form (the gate refuses that)."""
    from ..history.ledger import LEDGER, LEDGER_MAX_BYTES, LedgerFormError, read_ledger
    from ..history.mainline import resolve_main
    from ..tree import ReleaseTree, TooLarge, TreeError

    try:
        main = resolve_main(repo, store)
        if main.tip is None:
            return []
        blob = ReleaseTree(store, main.tip, main.name).blob_id(LEDGER)
        return [] if blob is None else list(read_ledger(store.blob(blob, LEDGER_MAX_BYTES, LEDGER)))
    except (TreeError, TooLarge, LedgerFormError):
        return []


def note_problem(text: str) -> str | None:
    """Why TEXT is not an upgrade note (RFC 0019 §3: a string of 1 to 2,048 characters), or None."""
    if not NOTE_CHARS[0] <= len(text) <= NOTE_CHARS[1] or not text.strip():
        return f"an upgrade note is 1 to {NOTE_CHARS[1]} characters, not only whitespace (it has {len(text)})"
    if not well_formed(text):
        return "an upgrade note is text: it holds a character that is not well-formed Unicode"
    return None


def add_note(root: str, entry_id: str, text: str, release: str | None = None) -> Outcome:
    """Key TEXT by the entry's released entryDigest and write it into entry.json, then its manifest row."""
    from .fixture_add import Stop, update_manifest, write_file
    from .jsonedit import JsonEditError, insert_member, replace_member

    if not ENTRY_ID.fullmatch(entry_id):
        return Outcome(USAGE, [f"{entry_id!r} is not an entry id PUBLISHER.NAME (RFC 0019 §3)"])
    if release is not None and release_key(release) is None:
        return Outcome(USAGE, [f"--release {release!r}: not a release tag vMAJOR.MINOR.PATCH"])
    if (problem := note_problem(text)) is not None:
        return Outcome(USAGE, [problem])
    rel = "entries/" + entry_id.replace(".", "/", 1)
    path = os.path.join(root, *rel.split("/"), "entry.json")
    try:
        from ..tree import read_regular

        data = read_regular(path, docs.ENTRY_BOUND)
    except FileNotFoundError:
        return Outcome(REFUSED, [f"refused entry-unknown: {rel}/entry.json: no entry {entry_id} in this catalog "
                                 "(entries/PUBLISHER/NAME/entry.json)"])
    except OSError as exc:
        return Outcome(IO, [f"{rel}/entry.json: {exc.strerror or exc}"])
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, dict):
        return Outcome(REFUSED, [f"{rel}/entry.json is not one JSON object: run exchange check and fix it first"])
    try:
        held = releases_of(root, entry_id)
    except HistoryUnreadable as exc:
        return Outcome(IO, [str(exc)])
    if release is not None:
        held = [r for r in held if r.tag == release]
        if not held:
            return Outcome(REFUSED, [f"{entry_id} is in no release {release} of this catalog: give a release that "
                                     "holds it (its manifest has the entry's row), or leave --release out"])
    if not held:
        return Outcome(REFUSED, [f"{entry_id} is in no release yet: a new entry needs no upgrade note (RFC 0019 §3: "
                                 "a note is keyed by a released entryDigest)"])
    target = held[-1]
    notes = value.get("upgrade")
    try:
        if notes is None:
            edited = insert_member(data, (), "upgrade", {target.entry_digest: text})
            said = "added"
        elif not isinstance(notes, dict):
            return Outcome(REFUSED, [f"{rel}/entry.json: upgrade is not an object of notes: correct it first "
                                     "(exchange check says how)"])
        elif target.entry_digest in notes:
            edited = replace_member(data, ("upgrade", target.entry_digest), text)
            said = "replaced"
        elif len(notes) >= MAX_NOTES:
            return Outcome(REFUSED, [f"{rel}/entry.json: upgrade holds {MAX_NOTES} notes already, its bound (RFC 0019 "
                                     "§3): remove the note of a release no consumer still holds"])
        else:
            edited = insert_member(data, ("upgrade",), target.entry_digest, text)
            said = "added"
    except JsonEditError as exc:
        return Outcome(REFUSED, [f"{rel}/entry.json cannot be edited in place ({exc}): correct it first"])
    try:
        write_file(path, edited)
        manifest = update_manifest(root, rel)
    except Stop as stop:
        return Outcome(stop.status, [stop.detail])
    except OSError as exc:
        return Outcome(IO, [f"{rel}/entry.json: {exc.strerror or exc}"])
    return Outcome(PASS, [f"{rel}/entry.json: upgrade note keyed by {target.entry_digest} ({entry_id} at "
                          f"{target.tag}) {said}", manifest,
                          "next: exchange check --base auto, then commit entry.json and manifest.json together"])
