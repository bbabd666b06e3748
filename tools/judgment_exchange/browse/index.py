"""`exchange index`'s document (issue #18 item 2; RFC 0019 §7; docs/browse.md, "index.json"): one checked
release, its entries' cards and the digests each was checked against, as a closed, versioned JSON document
whose schema is `schemas/index.schema.json`.

Everything is read through the consumer's checked release (release.checked_release) and card.cards, one
entry at a time with its whole README; the release's date is its row in the ledger of the checked commit
(releases.json, a blob of the same tree). Nothing here is a second reader of the catalog. The index is
derived and not authoritative: it says so, and a consumer still checks the release.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib.resources import files

from ..consumer.check import ReleaseCheck
from ..consumer.lock import Lock
from ..tree import TooLarge, Tree, TreeError
from .card import cards
from .release import checked_release

INDEX_VERSION = 1
NOTE = ("This index is derived from the release it names and is not authoritative: it shows what that release "
        "held when exchange index checked it. Before importing anything, check the release yourself "
        "(exchange release-check LOCATION TAG; RFC 0019 §7): a consumer relies on its own check, never on this "
        "index or its site.")
SCHEMA_NAME = "index.schema.json"


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
    document: dict | None = None
    whole: list[dict] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.document is not None


def ledger_date(tree: Tree, tag: str) -> str | None:
    """The date of `tag`'s row in the checked commit's own ledger (releases.json), None when it has none."""
    from ..history.ledger import LEDGER, LEDGER_MAX_BYTES, LedgerFormError, read_ledger

    try:
        rows = read_ledger(tree.read(LEDGER, LEDGER_MAX_BYTES))
    except (TreeError, TooLarge, LedgerFormError):
        return None
    return next((row.date for row in rows if row.tag == tag), None)


def _listed(card: dict) -> dict:
    """A card as index.json lists it: item 1's card (the README's first paragraph, not its text) and its page."""
    out = dict(card)
    readme = out.get("readme")
    if isinstance(readme, dict) and "text" in readme:
        out["readme"] = {k: v for k, v in readme.items() if k != "text"}
    return out | {"page": page_path(card["id"])}


def build(location: str, tag: str, *, history: int | None, lock: Lock | None = None) -> Built:
    """The index of `tag` at `location`, or only its check when the check refused it (LocationError when the
    location or an object cannot be read; card.CardUnreadable when an entry is not the bytes its row pins)."""
    with checked_release(location, tag, history=history, lock=lock) as checked:
        result = checked.check
        if not checked.passed:
            return Built(result)
        ids = sorted(checked.rows, key=lambda i: i.encode("utf-8", "surrogateescape"))
        whole = [card for entry_id in ids for card in cards(checked.tree, checked.rows, result.report, only=entry_id)]
        date = ledger_date(checked.tree, tag)
    report = result.report
    assert result.state is not None and result.commit is not None  # a passing check records both
    release = {"location": result.location, "tag": result.tag, "commit": result.commit,
               "manifestDigest": result.state.manifest_digest, "date": date,
               "check": {"result": "pass", "history": report.history, "replayed": report.replayed,
                         "skipped": len(report.skipped)},
               "reader": report.reader.as_json() if report.reader is not None else None}
    document = {"indexVersion": INDEX_VERSION, "note": NOTE, "release": release,
                "entries": [_listed(card) for card in whole]}
    return Built(result, document, whole)


def encode(document: dict) -> bytes:
    """index.json's bytes: two-space indented, members in their fixed order, ASCII (every other character
    as its JSON escape, so no text can fail to encode), one final newline."""
    return (json.dumps(document, indent=2, ensure_ascii=True) + "\n").encode("ascii")
