"""`exchange check --format markdown` (issue #27 item 4; docs/reports.md, "Markdown"): the gate's verdict as
a review a maintainer reads in one screen — the result, what was checked, each refusal with its fix, the
skipped fixtures and warnings, and for each entry the change adds or changes (`--base`), whether it is new
or changed against the base and its card.

Everything shown comes from the gate's report after its last step (`quoting.cleared`: a name only
where its grammar and the scan cleared it) or from an entry's card (`browse/card.py`: each value held to
its grammar, free text to the scan), and every such value is written by `markdown.code` — never as
Markdown. A card is shown only for an entry the report refuses nothing of and whose entry.json is the
bytes its manifest row pins; otherwise the review says why it is not shown.

`EntryReview.changes` holds a changed entry's upgrade-diff against the base, as `exchange upgrade-diff` makes it
between two releases (consumer/diff.tree_changes, its lines by consumer/render.change_lines), each line a code
span (review/upgrade.py), when both sides are commits (`--commit`, as the trusted job runs it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..catalog.grammar import ENTRY_ID
from ..codes import REGISTRY, doc_link
from ..refusal import Refusal, Report
from ..tree import Tree
from .markdown import Document, code, shown

PARAGRAPH_CHARS = 600
"""A description or README paragraph on a card is cut at this many characters (said so)."""

TOUCHED_SHOWN = 20
"""The review's head names at most this many touched entries, then how many more (issue #38 item 4: the head is
never cut, and 20,000 ids made it exceed GitHub's 1 MiB job-summary limit, which drops the whole summary)."""


@dataclass
class EntryReview:
    """One entry the change touches: `state` (new, changed, withdrawn, unknown), the base's and the change's
    entryDigest, its card (None with `why` when not shown) and `changes`, an upgrade-diff's lines (later)."""

    id: str
    state: str
    before: str | None = None
    after: str | None = None
    card: dict[str, Any] | None = None  # the entry's card as read (JSON)
    why: str | None = None
    changes: list[str] | None = None


@dataclass
class Review:
    """What the review shows: the report, the checked tree's label, and the entries the change touches."""

    report: Report
    label: str
    base: str | None = None
    entries: list[EntryReview] = field(default_factory=list)
    doc_base: str = ""


def _rows(tree: Tree | None) -> dict[str, dict[str, Any]] | None:
    """The manifest's rows by id (None when it cannot be read as a manifest)."""
    if tree is None:
        return None
    from ..catalog.manifest import read_manifest
    from ..tree import TreeError

    try:
        manifest = read_manifest(tree)
    except (TreeError, OSError):
        return None
    return manifest.rows if manifest.readable else None


def _refused(report: Report, entry_id: str) -> bool:
    """Whether the report refuses anything of the entry: a refusal naming it, or one under its directory."""
    path = "entries/" + entry_id.replace(".", "/", 1)
    return any(r.entry == entry_id or (r.path or "").startswith(path + "/") or r.path == path
               for r in report.refusals)


def touched_entries(report: Report, tree: Tree, base_tree: Tree | None) -> list[EntryReview]:
    """Each entry the change touches (the report's `touched`, ids of §3's grammar only: the report already
    described any other), new or changed against the base's manifest, with its card where it may be shown."""
    from ..browse.card import CardUnreadable, card

    if not report.touched:
        return []
    head, base = _rows(tree), _rows(base_tree)
    diffs = _diffs(tree, base_tree) if head is not None and base is not None else {}
    out = []
    for entry_id in report.touched:
        if ENTRY_ID.fullmatch(entry_id) is None:
            continue
        row = (head or {}).get(entry_id)
        before = (base or {}).get(entry_id)
        state = ("unknown" if base is None else "changed" if before is not None and row is not None
                 else "new" if row is not None else "withdrawn")
        item = EntryReview(entry_id, state, before["entryDigest"] if before else None,
                           row["entryDigest"] if row else None)
        if row is None:
            item.why = "no manifest row in the change" if head is not None else "the change's manifest cannot be read"
        elif _refused(report, entry_id):
            item.why = "the gate refuses this entry: its card is shown once its refusals are fixed"
        else:
            try:
                item.card = card(tree, row, report)
            except CardUnreadable:
                item.why = "its entry.json is not the bytes its manifest row pins"
            if item.card is not None and entry_id in diffs:
                item.changes = diffs[entry_id]
        out.append(item)
    return out


def _diffs(tree: Tree, base_tree: Tree | None) -> dict[str, list[str]]:
    """Each changed entry's upgrade-diff lines against the base, in Markdown; {} unless both sides are commits
    (a working tree has no object ids to compare) or when the difference cannot be made."""
    from ..consumer.check import LocationError
    from ..consumer.diff import tree_changes
    from ..consumer.render import change_lines
    from ..tree import GitTree, TreeError
    from .upgrade import lines_markdown

    if not isinstance(tree, GitTree) or not isinstance(base_tree, GitTree):
        return {}
    try:
        diff = tree_changes(base_tree, tree, ("the base", "the change"))
    except (TreeError, LocationError, OSError):
        return {}
    return {change["id"]: lines_markdown(change_lines(change, str)) for change in diff.get("changes", [])
            if change.get("change") == "changed"}


# --- writing the review ---------------------------------------------------------------------------------


def _verdict(report: Report) -> str:
    if report.passed:
        return "pass"
    count = len(report.refusals)
    return f"fail, {count} refusal{'' if count == 1 else 's'}"


def _checked(review: Review) -> list[str]:
    report = review.report
    lines = [
        "**What was checked**",
        "",
        f"- the catalog: {code(review.label)}" + (f", against the base {code(review.base)}" if review.base else ""),
        f"- entries checked: {report.entries}",
    ]
    if report.touched is not None:
        lines.append(f"- entries this change touches: {_some(list(report.touched))}")
    if report.checks:
        lines.append(f"- checks: {shown(list(report.checks))}")
    lines.append(f"- fixtures replayed with agreement: {report.replayed}; held by their digests only: "
                 f"{len(report.skipped)}")
    if report.reader is not None:
        lines.append(f"- replayed by: {code(report.reader.text())}")
    lines.append(f"- history: {code(report.history)}")
    lines += [f"- note: {code(note)}" for note in report.notes]
    return lines + [""]


def _some(ids: list[str]) -> str:
    """The first TOUCHED_SHOWN ids, then how many more; `none` for no id."""
    if not ids:
        return "none"
    more = len(ids) - TOUCHED_SHOWN
    return shown(ids[:TOUCHED_SHOWN]) + (f" and {more} more" if more > 0 else "")


def _finding(r: Refusal, doc_base: str) -> list[str]:
    """One refusal or warning: its code (linked to its row in docs/codes.md), where, what, and its fix."""
    name = f"[{code(r.code)}]({doc_base}{doc_link(r.code)})" if r.code in REGISTRY else code(r.code)
    where = ", ".join(part for part in (f"file {code(r.path)}" if r.path else "",
                                        f"line {r.line}" if r.line is not None else "") if part)
    lines = [f"- {name}" + (f" ({where})" if where else "") + f": {code(r.detail)}"]
    fix = r.how_to_fix()
    if fix:
        lines.append(f"  - fix: {code(fix)}")
    return lines


def _refusals(review: Review) -> list[list[str]]:
    """A block per entry (and one for the catalog as a whole): its refusals."""
    groups: dict[str | None, list[Refusal]] = {}
    for r in review.report.refusals:
        groups.setdefault(r.entry, []).append(r)
    blocks = []
    for entry in sorted(groups, key=lambda e: (e is None, e or "")):
        found = groups[entry]
        title = code(entry) if entry else "the catalog"
        block = [f"### Refused: {title} ({len(found)})", ""]
        for r in found:
            block += _finding(r, review.doc_base)
        blocks.append(block + [""])
    return blocks


def _cut(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PARAGRAPH_CHARS else flat[:PARAGRAPH_CHARS].rstrip() + "… (cut)"


def _card_lines(card: dict[str, Any]) -> list[str]:
    lines = [f"- title: {shown(card.get('title'))}",
             f"- kind: {shown(card.get('kind'))}; direction: {shown(card.get('direction'))}"]
    description = card.get("description")
    if description is not None:
        lines.append(f"- description: {shown(_cut(description) if isinstance(description, str) else description)}")
    for name, label in (("pack", "pack"), ("artifact", "artifact"), ("compatibility", "compatibility")):
        if name in card:
            lines.append(f"- {label}: {shown(card[name])}")
    lines += [f"- requires: {shown(card.get('requires'))}",
              f"- source kinds: {shown(card.get('sourceKinds'))}",
              f"- licence: {shown(card.get('licence'))}; author: {shown(card.get('author'))}",
              f"- digests: {shown(card.get('digests'))}"]
    fixtures = card.get("fixtures") or []
    if fixtures:
        lines.append("- fixtures:")
        for fixture in fixtures:
            reader = f", replayed by {code(fixture['reader'])}" if "reader" in fixture else ""
            skip = f"; skipped: {code(fixture['skip']['reason'])}" if "skip" in fixture else ""
            lines.append(f"  - {code(fixture['name'])}: {code(fixture['result'])}{reader}{skip}")
    for note in card.get("upgrade") or []:
        lines.append(f"- upgrade note from {shown(note.get('from'))}: {shown(note.get('note'))}")
    readme = card.get("readme")
    if isinstance(readme, dict):
        lines.append(f"- README, first paragraph: {shown(_cut(readme.get('firstParagraph') or ''))}")
    else:
        lines.append(f"- README: {shown(readme)}")
    return lines


def _entry_block(item: EntryReview) -> list[str]:
    state = {"new": "a new entry", "changed": "changed against the base", "withdrawn": "withdrawn (its row removed)",
             "unknown": "the base's manifest cannot be read"}[item.state]
    block = [f"### {code(item.id)}: {state}", ""]
    if item.state == "changed":
        block.append(f"- entryDigest: {code(item.before or '')} → {code(item.after or '')}")
    if item.card is not None:
        block += _card_lines(item.card)
    elif item.why:
        block.append(f"- card not shown: {item.why}")
    if item.changes:
        block += ["", "**What changed against the base**", "", *item.changes]
    return block + [""]


def render(review: Review, limit: int | None = None) -> str:
    """The review's Markdown: verdict, what was checked, refusals by entry, warnings, skipped fixtures, then
    each touched entry's card (cut before GitHub's summary limit, saying so)."""
    report = review.report
    document = Document() if limit is None else Document(limit=limit)
    document.head = [f"## exchange check: {_verdict(report)}", ""] + _checked(review)
    document.blocks += _refusals(review)
    if report.warnings:
        block = [f"### Warnings, never a refusal ({len(report.warnings)})", ""]
        for w in report.warnings:
            block += _finding(w, review.doc_base)
        document.blocks.append(block + [""])
    if report.skipped:
        block = [f"### Fixtures held by their digests only ({len(report.skipped)})", ""]
        block += [f"- {code(s.entry)} fixture {code(s.fixture)}: {code(s.text())}" for s in report.skipped]
        document.blocks.append(block + [""])
    if report.touched is None:
        document.blocks.append(["*No base was given (`--base`), so no entry is shown as new or changed.*", ""])
    for item in review.entries:
        document.blocks.append(_entry_block(item))
    return document.text()


def review_of(report: Report, tree: Tree, label: str, *, base: str | None = None, base_tree: Tree | None = None,
              doc_base: str = "") -> Review:
    """The review of one run of the gate on `tree` (with `base_tree`, the base's tree, for new or changed)."""
    return Review(report, label, base, touched_entries(report, tree, base_tree), doc_base)
