"""The consumer commands' text for people (interfaces.md): every author value through `safe` (cli._safe),
withheld values described, absent ones said to be absent; never `None`, never an empty field.

An entry id or a file path of either release is shown only once its grammar and the scan have cleared it
(`clear_diff`; issue #16 item 4; docs/reports.md): the release being left was never gated by this run,
so its withdrawn entries and removed files are held to the same rule as the gate's report.
"""

from __future__ import annotations

from typing import Any, Callable

from ..quoting import Withheld, described, id_names, path_names, path_text, redact, withheld
from ..refusal import Refusal

Safe = Callable[[object], str]


def _file_items(change: dict) -> list[dict]:
    files = change.get("files", {})
    return [*files.get("added", []), *files.get("removed", []), *files.get("changed", [])]


def _refusal(item: dict, shown: Withheld) -> dict:
    """A refusal of the diff (as_json's form) through `quoting.redact`: its path, entry and detail cleared."""
    refusal = redact(Refusal(item.get("code", ""), item.get("path"), item.get("detail") or "", item.get("entry")),
                     shown)
    return item | {"path": refusal.path, "entry": refusal.entry, "detail": refusal.detail}


def clear_diff(diff: dict) -> dict:
    """upgrade-diff's result with every entry id and file path shown only when its grammar and the scan
    clear it (issue #16 item 4): a withheld id is described, a path cut to its nearest safe parent, and a
    refusal redacted as the gate's are; one scan over every name and detail."""
    changes = diff.get("changes", [])
    names: list[str] = []
    for change in changes:
        names += id_names(change.get("id"))
        names += [n for item in _file_items(change) for n in path_names(str(item.get("path", "")))]
        for side in ("from", "to"):
            names += path_names(str(change.get("pathChanged", {}).get(side, "")))
    refusals = diff.get("refusals", [])
    for item in refusals:
        names += path_names(item["path"]) if isinstance(item.get("path"), str) else []
        names += id_names(item.get("entry"))
    shown = withheld(names, [item.get("detail") or "" for item in refusals])
    out = dict(diff)
    if refusals:
        out["refusals"] = [_refusal(item, shown) for item in refusals]
    if changes:
        out["changes"] = [_change(change, shown) for change in changes]
    return out


def _change(change: dict, shown: Withheld) -> dict:
    out = dict(change)
    ident = change.get("id")
    out["id"] = shown.entry(ident) or described(ident, "an entry id")
    if "files" in change:
        out["files"] = {verb: [item | {"path": path_text(str(item.get("path", "")), shown.flagged)} for item in items]
                        for verb, items in change["files"].items()}
    if "pathChanged" in change:
        out["pathChanged"] = {side: path_text(str(path), shown.flagged) for side, path in change["pathChanged"].items()}
    return out


def value(item: Any, safe: Safe) -> str:
    """One reviewed value: text as is (escaped), a withheld one described, an absent one named."""
    if item is None:
        return "absent"
    if isinstance(item, dict) and "withheld" in item:
        return f"(withheld: {safe(item['withheld'])})"
    if isinstance(item, dict):
        return ", ".join(f"{k} {safe(v)}" for k, v in item.items())
    return safe(item)


def summary(side: dict, safe: Safe) -> str:
    """One side of an upgrade review on one line: kind, direction, title, pins and canonical digests."""
    order = ("kind", "direction", "title", "entryDigest", "dialectDigest", "dialectCanonicalDigest", "outputDigest",
             "outputCanonicalDigest", "artifact", "compatibility", "description")
    return "; ".join(f"{name} {value(side[name], safe)}" for name in order if name in side)


def diff_lines(diff: dict, safe: Safe) -> list[str]:
    """upgrade-diff's text: the releases, the target's own check, each change with its files and fields
    (ids and paths already cleared by `clear_diff`, in diff.upgrade_diff)."""
    frm, to = diff["from"], diff["to"]
    lines = [f"upgrade {frm['tag']} -> {to['tag']} of {safe(diff['location'])}"]
    for side, label in ((frm, "from"), (to, "to")):
        if "commit" in side:
            lines.append(f"{label}: {side['tag']} at commit {side['commit']}")
    target = diff.get("target")
    if target:
        lines.append(f"target check: {target['result']} (history {target['history']}, {target['replayed']} "
                     f"fixture(s) replayed, {len(target['skipped'])} skipped)")
    for refusal in diff.get("refusals", []):
        where = " ".join(x for x in (refusal.get("entry"), refusal.get("path")) if x)
        lines.append(f"refused {refusal['code']}: {safe(where) + ': ' if where else ''}{safe(refusal['detail'])}")
        if refusal.get("fix"):
            lines.append(f"  fix: {refusal['fix']}")
    if diff["result"] == "refused":
        lines.append("result: refused; nothing here is reviewable" if target else "result: refused")
        return lines
    lines.append("file digests: sha256 over each blob's bytes")
    for change in diff.get("changes", []):
        lines.append(f"{change['change']} {safe(change['id'])}")
        for side in ("from", "to"):
            if side in change:
                lines.append(f"  {side}: {summary(change[side], safe)}")
        for name, pair in change.get("fields", {}).items():
            lines.append(f"  {name}: {value(pair['from'], safe)} -> {value(pair['to'], safe)}")
        files = change.get("files", {})
        for verb in ("added", "removed"):
            for item in files.get(verb, []):
                lines.append(f"  file {verb} {safe(item['path'])} {_blob(item, safe)}")
        for item in files.get("changed", []):
            lines.append(f"  file changed {safe(item['path'])} {_blob(item['from'], safe)} -> "
                         f"{_blob(item['to'], safe)}")
        if "upgradeNote" in change:
            lines.append(f"  upgrade note (keyed by {change['importedEntryDigest']}): "
                         f"{value(change['upgradeNote'], safe)}")
        if "upgrade-note-missing" in change.get("flags", []):
            lines.append(f"  flagged: no upgrade note keyed by the imported {change['importedEntryDigest']}; "
                         "the absence approves nothing (RFC 0019 §7)")
        if "note" in change:
            lines.append(f"  {change['note']}")
    if not diff.get("changes"):
        lines.append("no entry changed")
    lines.append(f"result: {len(diff.get('changes', []))} change(s) to review")
    return lines


def _blob(item: dict, safe: Safe) -> str:
    if "blobDigest" in item:
        return value(item["blobDigest"], safe)
    return f"({safe(item.get('type', 'not a file'))}, no blob digest)"
