"""An entry's card (issue #18 items 1, 2; RFC 0019 Implementation item 2): what a desk shows of each
entry of a checked release — title, entry kind, direction, pack when present, artifact pair when present,
requirements, source kinds, licence, author, assertion and verification records "as the entry gives
them" — and its fixtures with their replay result and reader, its skips with their acknowledgement, its
upgrade notes and its README's first paragraph (the whole README on an entry's own page).

Only a release that passed the consumer's check is carded (release.checked_release); each entry.json
is read from the release's commit and held to its manifest row's entryDigest before anything of it is
shown. A value is shown as the entry gives it once its §3 grammar held (the gate's check) and, for free
text with no grammar (a title, a description, the author, a note, the README), once the scan's credential
shapes find none in it (quoting.flagged_values); otherwise it is `{"withheld": why}`. Control and
bidirectional-override characters of free text are escaped (textsafe.escaped), newlines kept.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..catalog import documents as docs
from ..consumer import shown
from ..quoting import flagged_values
from ..refusal import Report
from ..textsafe import escaped
from ..tree import TooLarge, Tree, TreeError, id_order

README_BOUND = docs.README_BOUND
PARAGRAPH_CHARS = 600
"""A README's first paragraph is cut at this many characters on a list or a card (said so when cut)."""


class CardUnreadable(Exception):
    """An entry of a checked release could not be read, or is not the bytes its row pins."""


def free_text(value: Any, low: int, high: int) -> Any:
    """A free text member (shown.text: its bound and the scan), escaped for showing."""
    out = shown.text(value, low, high)
    return escaped(out) if isinstance(out, str) else out


def first_paragraph(readme: str) -> tuple[str, bool]:
    """The README's first paragraph that is not a heading (lines joined with spaces), and whether it was cut."""
    paragraph: list[str] = []
    for line in readme.splitlines():
        stripped = line.strip()
        if not stripped:
            if paragraph:
                break
            continue
        if not paragraph and (stripped.startswith("#") or stripped.startswith(("<!--", "---", "==="))):
            continue
        paragraph.append(stripped)
    text = " ".join(paragraph)
    if len(text) > PARAGRAPH_CHARS:
        return text[:PARAGRAPH_CHARS].rstrip() + "…", True
    return text, False


def _readme(tree: Tree, path: str) -> Any:
    """The README's text, or `{"withheld": why}`: within its bound, UTF-8, and cleared by the scan."""
    try:
        data = tree.read(f"{path}/README.md", README_BOUND)
    except TooLarge:
        return shown.withheld(f"over {README_BOUND} bytes")
    except TreeError:
        return shown.withheld("absent")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return shown.withheld("not UTF-8")
    if flagged_values([text]):
        return shown.withheld("it holds a shape the scan refuses (a credential)")
    return escaped(text)


def _pack(value: Any) -> Any:
    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
        return shown.withheld("not the pack object {id, versions | digests}")
    out: dict[str, Any] = {"id": free_text(value["id"], 1, 2048)}
    if isinstance(value.get("versions"), str):
        out["versions"] = free_text(value["versions"], 1, 64)
    if isinstance(value.get("digests"), list):
        out["digests"] = [shown.digest(d) for d in value["digests"]]
    return out


def _requires(value: Any) -> Any:
    if not isinstance(value, dict):
        return shown.withheld("not an object")
    return {name: (shown.digest(item) if name != "platform" else free_text(item, 1, 64))
            for name, item in value.items() if name in ("inputProfile", "connectionProfile", "platform")}


def _verification(value: Any) -> Any:
    if not isinstance(value, list):
        return shown.withheld("not an array")
    out = []
    for record in value:
        if not isinstance(record, dict):
            out.append(shown.withheld("not an object"))
            continue
        out.append({name: record[name] for name in ("date", "runner", "runtime", "readers", "result")
                    if name in record})
    return out


def _upgrade(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, dict):
        return []
    return [{"from": shown.digest(key), "note": free_text(note, 1, 2048)} for key, note in value.items()]


def _fixtures(entry: dict[str, Any], entry_id: str, report: Report) -> list[dict[str, Any]]:
    replays = {r.fixture: r for r in report.replays if r.entry == entry_id}
    skips = {s.fixture: s for s in report.skipped if s.entry == entry_id}
    out = []
    for item in entry.get("fixtures") or []:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        name = item["name"]
        record: dict[str, Any] = {"name": name, "preparationDigest": shown.digest(item.get("preparationDigest"))}
        replay = replays.get(name)
        if replay is not None:
            record["result"], record["reader"] = replay.result, replay.reader
        else:
            record["result"] = "held by digests"  # an entry whose fixtures the verifier does not replay
        skip = skips.get(name)
        if skip is not None:
            record["skip"] = {"reason": skip.reason, "kinds": list(skip.kinds), "acknowledged": skip.acknowledged}
        out.append(record)
    return out


def card(tree: Tree, row: dict[str, Any], report: Report, *, whole: bool = False) -> dict[str, Any]:
    """The card of the entry `row` pins, read from the checked release's `tree` (CardUnreadable when its
    entry.json is not the bytes the row's entryDigest pins). With `whole`, the README in full."""
    path = row["path"]
    try:
        data = tree.read(f"{path}/entry.json", docs.ENTRY_BOUND)
    except (TreeError, TooLarge) as exc:
        raise CardUnreadable(f"{row['id']}: entry.json cannot be read ({exc})") from exc
    if "sha256:" + hashlib.sha256(data).hexdigest() != row["entryDigest"]:
        raise CardUnreadable(f"{row['id']}: entry.json is not the bytes its manifest row pins")
    entry = json.loads(data)
    summary = shown.summary(entry, row)
    out: dict[str, Any] = {"id": row["id"], "kind": summary.get("kind"), "direction": summary.get("direction"),
                           "title": escaped(summary["title"]) if isinstance(summary.get("title"), str)
                           else summary.get("title")}
    if "description" in entry:
        out["description"] = free_text(entry["description"], 1, 4096)
    if "pack" in entry:
        out["pack"] = _pack(entry["pack"])
    if "artifact" in summary:
        out["artifact"] = summary["artifact"]
    if "compatibility" in summary:
        out["compatibility"] = summary["compatibility"]
    out["requires"] = _requires(entry.get("requires"))
    out["sourceKinds"] = [k for k in entry.get("sourceKinds") or [] if isinstance(k, str)]
    out["licence"] = free_text(entry.get("licence"), 1, 100)  # in §3's grammar; the scan clears it too
    out["author"] = free_text(entry.get("author"), 1, 100)
    out["assertion"] = entry.get("assertion")  # the fixed sentence (§3), held byte for byte by the gate
    out["verification"] = _verification(entry.get("verification"))
    out["digests"] = {name: summary[name] for name in ("entryDigest", "dialectDigest", "outputDigest",
                                                        "dialectCanonicalDigest", "outputCanonicalDigest")
                      if name in summary}
    out["fixtures"] = _fixtures(entry, row["id"], report)
    out["upgrade"] = _upgrade(entry.get("upgrade"))
    readme = _readme(tree, path)
    if isinstance(readme, str):
        paragraph, cut = first_paragraph(readme)
        out["readme"] = {"firstParagraph": paragraph, "cut": cut} | ({"text": readme} if whole else {})
    else:
        out["readme"] = readme
    return out


def cards(tree: Tree, rows: dict[str, dict[str, Any]], report: Report, *,
          only: str | None = None) -> list[dict[str, Any]]:
    """Every entry's card in the manifest's order (its ids' byte order), or only the entry `only` with its
    whole README; [] when `only` names no entry of the release."""
    ids = sorted(rows, key=id_order)
    if only is not None:
        ids = [i for i in ids if i == only]
    return [card(tree, rows[i], report, whole=only is not None) for i in ids]
