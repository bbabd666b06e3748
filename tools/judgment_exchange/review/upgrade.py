"""`exchange upgrade-diff --format markdown`, and a changed entry's upgrade-diff in a pull request's review
(issue #27 item 4; docs/reports.md, "Markdown"): upgrade-diff's own lines (consumer/render.py), each written
as a code span in a list nested by its indent, so no entry's text can forge a heading, link or table row."""

from __future__ import annotations

from typing import Any

from .markdown import Document, code


def lines_markdown(lines: list[str]) -> list[str]:
    """upgrade-diff's text lines as a Markdown list: each line a code span, nested by its indent (two spaces
    a level)."""
    out = []
    for line in lines:
        depth = max((len(line) - len(line.lstrip(" "))) // 2 - 1, 0)
        out.append("  " * depth + f"- {code(line.strip())}")
    return out


def render_upgrade(diff: dict[str, Any], limit: int | None = None) -> str:
    """The whole upgrade-diff as Markdown: the releases, the target's own check, any refusal with its fix, then
    each change under a heading of its own."""
    from ..consumer.render import change_lines

    frm, to = diff["from"], diff["to"]
    document = Document() if limit is None else Document(limit=limit)
    document.head = [f"## exchange upgrade-diff: {code(frm['tag'])} → {code(to['tag'])}", "",
                     f"- location: {code(diff['location'])}"]
    document.head += [f"- {label}: {code(side['tag'])} at commit {code(side['commit'])}"
                      for side, label in ((frm, "from"), (to, "to")) if "commit" in side]
    target = diff.get("target")
    if target:
        document.head.append(f"- target check: {code(target['result'])} (history {code(target['history'])}, "
                             f"{target['replayed']} fixture(s) replayed, {len(target['skipped'])} skipped)")
    document.head.append("")
    refusals = diff.get("refusals", [])
    if refusals:
        block = [f"### Refused ({len(refusals)})", ""]
        for refusal in refusals:
            where = " ".join(x for x in (refusal.get("entry"), refusal.get("path")) if x)
            block.append(f"- {code(refusal['code'])}{' ' + code(where) if where else ''}: {code(refusal['detail'])}")
            if refusal.get("fix"):
                block.append(f"  - fix: {code(refusal['fix'])}")
        document.blocks.append(block + [""])
    if diff["result"] == "refused":
        document.blocks.append(["**Refused: nothing here is reviewable.**", ""])
        return document.text()
    changes = diff.get("changes", [])
    for change in changes:
        document.blocks.append([f"### {code(change['id'])}: {change['change']}", "",
                                *lines_markdown(change_lines(change, str)), ""])
    document.blocks.append([f"**{len(changes)} change(s) to review.**" if changes else "**No entry changed.**", ""])
    return document.text()
