"""The consumer commands' text for people (interfaces.md): every author value through `safe` (cli._safe),
withheld values described, absent ones said to be absent; never `None`, never an empty field.

An entry id or a file path of either release is shown only once its grammar and the scan have cleared it
(`clear_diff`; issue #16 item 4; docs/reports.md): the release being left was never gated by this run,
so its withdrawn entries and removed files are held to the same rule as the gate's report.
"""

from __future__ import annotations

from typing import Any, Callable

from ..catalog.grammar import FIXTURE_NAME
from ..codes.history import UPGRADE_NOTE_MISSING
from ..quoting import Withheld, described, id_names, path_names, path_text, redact, withheld
from ..refusal import Refusal

Safe = Callable[[object], str]


def _file_items(change: dict[str, Any]) -> list[dict[str, Any]]:
    files = change.get("files", {})
    return [*files.get("added", []), *files.get("removed", []), *files.get("changed", [])]


def _fixture_items(change: dict[str, Any]) -> list[dict[str, Any]]:
    fixtures = change.get("fixtures", {})
    return [*fixtures.get("added", []), *fixtures.get("removed", []), *fixtures.get("reRecorded", [])]


def _fixture_name(name: object, shown: Withheld) -> str:
    """A fixture's name when §3's grammar and the scan clear it, else described by its length."""
    if isinstance(name, str) and FIXTURE_NAME.fullmatch(name) and name not in shown.flagged:
        return name
    return described(name, "a fixture name")


def _refusal(item: dict[str, Any], shown: Withheld) -> dict[str, Any]:
    """A refusal of the diff (as_json's form) through `quoting.redact`: its path, entry and detail cleared."""
    refusal = redact(Refusal(item.get("code", ""), item.get("path"), item.get("detail") or "", item.get("entry")),
                     shown)
    return item | {"path": refusal.path, "entry": refusal.entry, "detail": refusal.detail}


def clear_diff(diff: dict[str, Any]) -> dict[str, Any]:
    """upgrade-diff's result with every entry id, file path and fixture name shown only when its grammar
    and the scan clear it (issue #16 item 4): a withheld id or fixture name is described, a path cut to its
    nearest safe parent, and a refusal redacted as the gate's are; one scan over every name and detail.
    (entry.json's members, the README's lines and the documents' pointers are cleared where they are made,
    in diff.py and shown.py.)"""
    changes = diff.get("changes", [])
    names: list[str] = []
    for change in changes:
        names += id_names(change.get("id"))
        names += [n for item in _file_items(change) for n in path_names(str(item.get("path", "")))]
        for item in _fixture_items(change):
            name = item.get("name")
            names += [name] if isinstance(name, str) and FIXTURE_NAME.fullmatch(name) else []
            names += [n for path in item.get("files", []) for n in path_names(str(path))]
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


def _change(change: dict[str, Any], shown: Withheld) -> dict[str, Any]:
    out = dict(change)
    ident = change.get("id")
    out["id"] = shown.entry(ident) or described(ident, "an entry id")
    if "files" in change:
        out["files"] = {verb: [item | {"path": path_text(str(item.get("path", "")), shown.flagged)} for item in items]
                        for verb, items in change["files"].items()}
    if "pathChanged" in change:
        out["pathChanged"] = {side: path_text(str(path), shown.flagged) for side, path in change["pathChanged"].items()}
    if "fixtures" in change:
        out["fixtures"] = {verb: [item | {"name": _fixture_name(item.get("name"), shown)}
                                  | ({"files": [path_text(str(p), shown.flagged) for p in item["files"]]}
                                     if "files" in item else {}) for item in items]
                           for verb, items in change["fixtures"].items()}
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


def summary(side: dict[str, Any], safe: Safe, listed: frozenset[str] | set[str] = frozenset()) -> str:
    """One side of an upgrade review on one line: kind, direction, title, pins and canonical digests; a member
    in `listed` (shown old -> new below) is left out, so a changed title or description is said once (issue #26
    item 6: each was printed three times)."""
    order = ("kind", "direction", "title", "entryDigest", "dialectDigest", "dialectCanonicalDigest", "outputDigest",
             "outputCanonicalDigest", "artifact", "compatibility", "description")
    return "; ".join(f"{name} {value(side[name], safe)}" for name in order if name in side and name not in listed)


def diff_lines(diff: dict[str, Any], safe: Safe) -> list[str]:
    """upgrade-diff's text: the releases, the target's own check, each change with its pins, the entry.json
    members changed (old -> new), its files, the README's unified diff, the dialect's or output document's
    changed pointers, the fixtures added, removed and re-recorded, and the upgrade note (ids and paths
    already cleared by `clear_diff`, in diff.upgrade_diff; every author value through `safe`)."""
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
        lines += change_lines(change, safe)
    if not diff.get("changes"):
        lines.append("no entry changed")
    lines.append(f"result: {len(diff.get('changes', []))} change(s) to review")
    return lines


def change_lines(change: dict[str, Any], safe: Safe) -> list[str]:
    """One entry's change in upgrade-diff's text, below its `changed ID` line: its pins (a member shown old ->
    new is not repeated in them), the entry.json members changed, its files, the README's unified diff, the
    documents' changed pointers, the fixtures and the upgrade note (issue #27: the review of a pull request
    shows the same lines for its changed entry)."""
    lines: list[str] = []
    members = change.get("members", [])
    listed = {item["member"] for item in members}
    for side in ("from", "to"):
        if side in change:
            lines.append(f"  {side}: {summary(change[side], safe, listed)}")
    for name, pair in change.get("fields", {}).items():
        if name not in listed:  # a pin of the row or a canonical digest; entry.json's members follow
            lines.append(f"  {name}: {value(pair['from'], safe)} -> {value(pair['to'], safe)}")
    if members:
        lines.append("  entry.json members changed (old -> new):")
        for item in members:
            lines.append(f"    {safe(item['member'])}: {shape(item['from'], safe)} -> {shape(item['to'], safe)}")
    files = change.get("files", {})
    for verb in ("added", "removed"):
        for item in files.get(verb, []):
            lines.append(f"  file {verb} {safe(item['path'])} {_blob(item, safe)}")
    for item in files.get("changed", []):
        lines.append(f"  file changed {safe(item['path'])} {_blob(item['from'], safe)} -> "
                     f"{_blob(item['to'], safe)}")
    lines += _readme_lines(change.get("readme"), safe)
    for name, document in change.get("documents", {}).items():
        lines += _document_lines(name, document, safe)
    lines += _fixture_lines(change.get("fixtures"), safe)
    if "upgradeNote" in change:
        lines.append(f"  upgrade note (keyed by {change['importedEntryDigest']}): "
                     f"{value(change['upgradeNote'], safe)}")
    if UPGRADE_NOTE_MISSING in change.get("flags", []):
        lines.append(f"  flagged: no upgrade note keyed by the imported {change['importedEntryDigest']}; "
                     "the absence approves nothing (RFC 0019 §7)")
    if "note" in change:
        lines.append(f"  {change['note']}")
    return lines


STRUCTURE_CHARS = 400
"""A structured member (an object or array) is written on one line of at most this many characters."""


def shape(item: Any, safe: Safe) -> str:
    """One side of an entry.json member on one line: text as is (escaped), a withheld part described, an
    object as {name: value, ...}, an array as [value, ...]; absent named. An object or array longer than
    STRUCTURE_CHARS is cut, said so (the JSON report holds it whole)."""
    def one(x: Any) -> str:
        if isinstance(x, dict) and set(x) == {"withheld"}:
            return f"(withheld: {safe(x['withheld'])})"
        if isinstance(x, dict):
            return "{" + ", ".join(f"{safe(k)}: {one(v)}" for k, v in x.items()) + "}"
        if isinstance(x, list):
            return "[" + ", ".join(one(v) for v in x) + "]"
        if isinstance(x, bool):
            return "true" if x else "false"
        return "null" if x is None else safe(x)

    if item is None:
        return "absent"
    out = one(item)
    if isinstance(item, (dict, list)) and "withheld" not in item and len(out) > STRUCTURE_CHARS:
        more = len(out) - STRUCTURE_CHARS
        return f"{out[:STRUCTURE_CHARS]}… ({more} more characters; the JSON report has it whole)"
    return out


def _readme_lines(readme: Any, safe: Safe) -> list[str]:
    """README.md's unified diff, indented; withheld described; the cut said with its count."""
    if readme is None:
        return []
    if "withheld" in readme:
        return [f"  README.md changed, not shown: {safe(readme['withheld'])}"]
    if not readme["diff"]:
        return ["  README.md changed, no line differs as shown (line endings, tabs or a final newline only)"]
    out = ["  README.md (unified diff; control characters escaped):"]
    out += [f"    {safe(line)}" for line in readme["diff"]]
    if readme.get("cut"):
        out.append(f"    … {readme.get('more', 0)} more lines not shown")
    return out


def _side(item: dict[str, Any], safe: Safe) -> str:
    words: str = item["type"]  # document_value's type name
    if "length" in item:
        words += f" of {item['length']} characters"
    elif "size" in item:
        words += f" of {item['size']} {'members' if item['type'] == 'an object' else 'items'}"
    return words


def _plain(item: dict[str, Any], safe: Safe) -> str | None:
    if "value" not in item:
        return None
    x = item["value"]
    return "null" if x is None else ("true" if x else "false") if isinstance(x, bool) else safe(x)


def _document_lines(name: str, document: dict[str, Any], safe: Safe) -> list[str]:
    """A dialect or output document's changes: `pointer: old type -> new type (old value -> new value)`,
    a value only where it is not author text."""
    if "notCompared" in document:
        return [f"  {name} changed, not compared: {safe(document['notCompared'])}"]
    changes = document["changes"]
    total = len(changes) + document.get("more", 0)
    if not total:
        return [f"  {name} changed, no value differs (its bytes did: formatting or member order only)"]
    out = [f"  {name}: {total} value(s) changed (pointer: old type -> new type, values where not author text):"]
    for item in changes:
        where = safe(item["pointer"]) or "(the whole document)"
        was, now = item.get("from"), item.get("to")
        types = " -> ".join(_side(x, safe) if x else "absent" for x in (was, now))
        values = [_plain(x, safe) if x else None for x in (was, now)]
        plain = ""
        if any(v is not None for v in values):
            parts = [
                v if v is not None else "absent" if x is None else "not shown"
                for v, x in zip(values, (was, now), strict=False)
            ]
            plain = f" ({parts[0]} -> {parts[1]})"
        out.append(f"    {where}: {types}{plain}")
    if document.get("cut"):
        out.append(f"    … {document.get('more', 0)} more pointers not shown")
    return out


def _fixture_lines(fixtures: dict[str, Any] | None, safe: Safe) -> list[str]:
    """Fixtures added, removed and re-recorded (a file's blob or the preparationDigest changed)."""
    if not fixtures:
        return []
    out = []
    for verb in ("added", "removed"):
        for item in fixtures.get(verb, []):
            prep = (f" (preparationDigest {value(item['preparationDigest'], safe)})"
                    if "preparationDigest" in item else "")
            out.append(f"  fixture {verb} {safe(item['name'])}{prep}")
    for item in fixtures.get("reRecorded", []):
        out.append(f"  fixture re-recorded {safe(item['name'])}")
        if "preparationDigest" in item:
            pair = item["preparationDigest"]
            out.append(f"    preparationDigest {value(pair['from'], safe)} -> {value(pair['to'], safe)}")
        for path in item.get("files", []):
            out.append(f"    file changed {safe(path)}")
    return out


def _blob(item: dict[str, Any], safe: Safe) -> str:
    if "blobDigest" in item:
        return value(item["blobDigest"], safe)
    return f"({safe(item.get('type', 'not a file'))}, no blob digest)"


def entry_lines(results: list[dict[str, Any]], safe: Safe) -> list[str]:
    """release-check's text for each entry's record (check.py `ReleaseCheck.results`): `pass`, `refused`, or
    `not checked` with the refusals that stopped its checks and why (issue #25 item 4)."""
    out = []
    for item in results:
        if item["result"] == "not-checked":
            out.append(f"entry {safe(item['id'])}: not checked ({', '.join(item['stoppedBy'])}: {item['reason']})")
        else:
            out.append(f"entry {safe(item['id'])}: {item['result']}")
    return out
