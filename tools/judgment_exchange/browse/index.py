"""`exchange index`'s document (issue #18 item 2, issue #27; RFC 0019 §7; docs/browse.md, "index.json"): one
checked release, its public address when given, its entries' cards, the digests each was checked against
and each entry's files, as a closed, versioned JSON document whose schema is `schemas/index.schema.json`.

Everything is read through the consumer's checked release (release.checked_release) and card.cards, one
entry at a time with its whole README; the release's date is its row in the ledger of the checked commit
(releases.json, a blob of the same tree). Nothing here is a second reader of the catalog. The index is
derived and not authoritative: it says so, and a consumer still checks the release.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

from ..consumer.check import ReleaseCheck
from ..consumer.lock import Lock
from ..tree import FILE, TooLarge, Tree, TreeError, id_order
from .card import cards
from .documents import EntryFile, dialect_view, entry_files
from .release import checked_release

INDEX_VERSION = 2
"""Version 2 (issue #27): `release.address` and each card's `files`. Version 1 had neither."""
SCHEMA_NAME = "index.schema.json"
KNOWN_DOCS = (("README.md", "the catalog's README"), ("CONTRIBUTING.md", "how to contribute an entry"),
              ("docs/release-contract.md", "what a release promises and how a consumer checks it"),
              ("docs/entry-format.md", "what an entry holds"), ("docs/browse.md", "how this site is made"))
"""The documents a page links to at the release commit, where the release holds them (and the address is
a forge's): our own list, never a path an author wrote."""


def check_command(release: dict[str, Any]) -> str:
    """The command that checks the release: `exchange release-check ADDRESS TAG`, or with no address the
    location as given (shell-quoted, so the command is copied whole)."""
    where = release.get("address") or release["location"]
    return f"exchange release-check {shlex.quote(where)} {release['tag']}"


def note(release: dict[str, Any]) -> str:
    """index.json's note: derived, not authoritative, and the command that checks the release (§7)."""
    return ("This index is derived from the release it names and is not authoritative: it shows what that release "
            "held when exchange index checked it. Before importing anything, check the release yourself "
            f"({check_command(release)}; RFC 0019 §7): a consumer relies on its own check, never on this "
            "index or its site.")


def page_path(entry_id: str) -> str:
    """An entry's page in the site (ids are §3's grammar, [a-z0-9.-], so a safe file name)."""
    return f"entries/{entry_id}.html"


def schema_bytes() -> bytes:
    """index.json's JSON Schema as shipped in the package (published beside the index)."""
    return (files("judgment_exchange") / "schemas" / SCHEMA_NAME).read_bytes()


@dataclass
class Built:
    """An index built from one release: the check, and when it passed index.json's value and each
    entry's whole card (with its README's text) for its page."""

    check: ReleaseCheck
    document: dict[str, Any] | None = None
    whole: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, list[EntryFile]] = field(default_factory=dict)
    """Each entry's files as the commit holds them (documents.entry_files), by entry id."""
    dialects: dict[str, dict[str, Any]] = field(default_factory=dict)
    """What each entry's dialect reads (documents.dialect_view), by entry id, where it has a dialect."""
    releases: list[tuple[str, str]] = field(default_factory=list)
    """Every release the checked commit's ledger records (tag, date), newest first."""
    documents: list[tuple[str, str]] = field(default_factory=list)
    """The KNOWN_DOCS the release holds (path, what it is)."""

    @property
    def passed(self) -> bool:
        return self.document is not None


def ledger_rows(tree: Tree) -> list[tuple[str, str]]:
    """Every row of the checked commit's own ledger (releases.json) as (tag, date), newest first; [] when
    it has none or cannot be read as a ledger."""
    from ..catalog.grammar import release_key
    from ..history.ledger import LEDGER, LEDGER_MAX_BYTES, LedgerFormError, read_ledger

    try:
        rows = read_ledger(tree.read(LEDGER, LEDGER_MAX_BYTES))
    except (TreeError, TooLarge, LedgerFormError):
        return []
    out = [(row.tag, row.date) for row in rows if release_key(row.tag) is not None]
    return sorted(out, key=lambda row: release_key(row[0]) or (0, 0, 0), reverse=True)


def held_documents(tree: Tree) -> list[tuple[str, str]]:
    """The KNOWN_DOCS the release's commit holds as files."""
    out = []
    for path, what in KNOWN_DOCS:
        try:
            if tree.stat(path).kind == FILE:
                out.append((path, what))
        except TreeError:
            continue
    return out


def _listed(card: dict[str, Any], entry_files: list[EntryFile]) -> dict[str, Any]:
    """A card as index.json lists it: item 1's card (the README's first paragraph, not its text), its page
    and its files."""
    out = dict(card)
    readme = out.get("readme")
    if isinstance(readme, dict) and "text" in readme:
        out["readme"] = {k: v for k, v in readme.items() if k != "text"}
    return out | {"page": page_path(card["id"]), "files": [f.as_json(card["id"]) for f in entry_files]}


def build(location: str, tag: str, *, history: int | None, lock: Lock | None = None,
          address: str | None = None) -> Built:
    """The index of `tag` at `location`, or only its check when the check refused it (LocationError when the
    location or an object cannot be read; card.CardUnreadable when an entry is not the bytes its row pins;
    documents.DocumentUnreadable when one of its files cannot be read). `address`: the catalog's public
    address (address.checked_address), shown wherever the location is."""
    with checked_release(location, tag, history=history, lock=lock) as checked:
        result = checked.check
        if not checked.passed:
            return Built(result)
        tree = checked.tree
        assert tree is not None
        ids = sorted(checked.rows, key=id_order)
        whole = [card for entry_id in ids for card in cards(tree, checked.rows, result.report, only=entry_id)]
        held = {card["id"]: entry_files(tree, checked.rows[card["id"]]["path"],
                                        [f["name"] for f in card["fixtures"]]) for card in whole}
        dialects = {entry_id: view for entry_id, found in held.items() for item in found
                    if item.path == "dialect.json" and (view := dialect_view(item.data)) is not None}
        releases = ledger_rows(tree)
        documents = held_documents(tree)
    date = next((day for row_tag, day in releases if row_tag == tag), None)
    report = result.report
    assert result.state is not None and result.commit is not None  # a passing check records both
    # the published index carries no local path (issue #34 item 8): with an address, the address is the location
    release = {"location": address or result.location, "address": address, "tag": result.tag,
               "commit": result.commit,
               "manifestDigest": result.state.manifest_digest, "date": date,
               "check": {"result": "pass", "history": report.history, "replayed": report.replayed,
                         "skipped": len(report.skipped)},
               "reader": report.reader.as_json() if report.reader is not None else None}
    document = {"indexVersion": INDEX_VERSION, "note": note(release), "release": release,
                "entries": [_listed(card, held[card["id"]]) for card in whole]}
    return Built(result, document, whole, held, dialects, releases, documents)


def encode(document: dict[str, Any]) -> bytes:
    """index.json's bytes: two-space indented, members in their fixed order, ASCII (every other character
    as its JSON escape, so no text can fail to encode), one final newline."""
    return (json.dumps(document, indent=2, ensure_ascii=True) + "\n").encode("ascii")
