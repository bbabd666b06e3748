"""`exchange show`'s text for people (issue #18 item 1): the tags a location offers, a checked release's
cards and one entry's whole card, aligned and wrapped at 80 columns. The values are the cards' (already
shown or withheld by card.py); `safe` escapes anything a terminal would act on (cli/common.safe)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..consumer.check import ReleaseCheck

WIDTH = 80
LABEL = 14
Safe = Callable[[object], str]


def _value(value: Any) -> str:
    if isinstance(value, dict) and set(value) == {"withheld"}:
        return f"(withheld: {value['withheld']})"
    if value is None:
        return "-"
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_value(v)}" for k, v in value.items()) or "none"
    return str(value)


def field(label: str, value: Any, safe: Safe, indent: int = 2) -> list[str]:
    """`label` in a fixed column, the value wrapped at 80 columns beneath the value column."""
    text = safe(_value(value)) if not isinstance(value, str) else "\n".join(safe(x) for x in value.split("\n"))
    head = " " * indent + label.ljust(LABEL)
    lines: list[str] = []
    for number, paragraph in enumerate(text.split("\n")):
        # a word longer than the line (a digest, a URL) is never cut: it overflows on a line of its own, so a
        # copy from the terminal holds it whole (issue #26 item 6)
        wrapped = [paragraph] if len(paragraph.split()) <= 2 else \
            textwrap.wrap(paragraph, width=WIDTH - len(head), break_long_words=False, break_on_hyphens=False) or [""]
        for i, piece in enumerate(wrapped):
            lines.append((head if number == 0 and i == 0 else " " * len(head)) + piece)
    return lines


def listing_lines(location: str, offered: list[Any], branch: str | None, safe: Safe) -> list[str]:
    """The release tags, newest first, each with its ledger date and entry count; not yet checked."""
    lines = [f"releases of {safe(location)}, newest first (not yet checked: exchange show LOCATION TAG checks one)"]
    if branch is None:
        lines.append("  no ledger found on the location's main: dates and counts are the tags' own")
    if not offered:
        lines.append("  no release tag (vMAJOR.MINOR.PATCH naming a commit)")
    for release in offered:
        date = release.date or "-"
        count = "?" if release.entries is None else str(release.entries)
        where = "" if release.recorded or branch is None else f"  (not in {safe(branch)}'s ledger)"
        lines.append(f"  {release.tag:<12} {date:<10}  {count:>4} entr{'y' if count == '1' else 'ies'}  "
                     f"{release.commit[:12]}{where}")
    return lines


def _fixture(item: dict[str, Any]) -> str:
    result = item.get("result", "?")
    words = f"{item['name']}: {result}"
    if item.get("reader"):
        words += f" ({item['reader']})"
    skip = item.get("skip")
    if skip:
        ack = {True: "acknowledged", False: "not acknowledged", None: "no skips.json"}[skip.get("acknowledged")]
        words += f"; {skip['reason']}; {ack}"
    return words


def card_lines(card: dict[str, Any], safe: Safe, *, whole: bool = False) -> list[str]:
    """One entry's card; with `whole`, every field and the README in full."""
    kind = " ".join(str(x) for x in (card.get("kind"), card.get("direction")) if isinstance(x, str))
    lines = [f"{card['id']}  ({kind})"]
    lines += field("title", card.get("title"), safe)
    if whole and "description" in card:
        lines += field("description", card["description"], safe)
    pack = card.get("pack")
    if isinstance(pack, dict) and "withheld" not in pack:  # one line for the id, one per digest
        lines += field("pack", "\n".join([f"id {_value(pack.get('id'))}"]
                                         + ([f"versions {_value(pack['versions'])}"] if "versions" in pack else [])
                                         + [f"digest {_value(d)}" for d in pack.get("digests") or []]), safe)
    elif pack is not None:
        lines += field("pack", pack, safe)
    if "artifact" in card:
        lines += field("artifact", card["artifact"], safe)
    lines += field("requires", card.get("requires"), safe)
    lines += field("source kinds", card.get("sourceKinds"), safe)
    lines += field("licence", card.get("licence"), safe)
    lines += field("author", card.get("author"), safe)
    if whole:
        if "compatibility" in card:
            lines += field("compatibility", card["compatibility"], safe)
        lines += field("assertion", card.get("assertion"), safe)
        lines += ["  digests"] + [line for name, value in (card.get("digests") or {}).items()
                                  for line in (f"    {name}", f"      {safe(_value(value))}")]
    records = card.get("verification") or []
    lines += field("verification", [f"{r.get('date')} {r.get('result')} by {', '.join(r.get('readers') or [])}"
                                    if isinstance(r, dict) and "withheld" not in r else r for r in records]
                   if records else "none", safe)
    fixtures = card.get("fixtures") or []
    lines += field("fixtures", "\n".join(_fixture(f) for f in fixtures) if fixtures else "none", safe)
    for note in card.get("upgrade") or []:
        lines += field("upgrade note", f"from {_value(note['from'])}: {_value(note['note'])}", safe)
    readme = card.get("readme")
    if isinstance(readme, dict) and "firstParagraph" in readme:
        if whole and "text" in readme:
            lines += ["  README"] + readme_lines(readme["text"], safe)
        else:
            lines += field("README", readme["firstParagraph"] or "(no paragraph)", safe)
    else:
        lines += field("README", readme, safe)
    return lines


def _kept(line: str, fenced: bool) -> bool:
    """A README line shown as written: inside a fenced code block, a fence, a table row, indented code."""
    return fenced or line.lstrip().startswith(("```", "~~~", "|")) or line.startswith(("    ", "\t"))


def _starts_block(line: str) -> bool:
    """A line that begins a paragraph of its own: a heading, a list item, a quote, a rule, an HTML line."""
    stripped = line.lstrip()
    return stripped.startswith(("#", "- ", "* ", "+ ", ">", "---", "***", "<")) or \
        (stripped[:1].isdigit() and stripped.split(" ", 1)[0].rstrip(".)").isdigit() and
         stripped.split(" ", 1)[0][-1:] in ".)")


def readme_lines(text: str, safe: Safe, indent: str = "    ") -> list[str]:
    """A README for a terminal: each line indented; prose reflowed as paragraphs and wrapped at 80 columns
    (consecutive prose lines are one paragraph, as Markdown reads them: issue #26 item 6, they were wrapped
    line by line); lines inside a fenced code block, table rows and indented code kept as written; a word
    longer than the line (a URL, a digest) is never cut."""
    out: list[str] = []
    fenced = False
    paragraph: list[str] = []

    def flush() -> None:
        if not paragraph:
            return
        first = paragraph[0]
        lead = first[:len(first) - len(first.lstrip())]
        bullet = lead + (first.lstrip()[:2] if first.lstrip()[:2] in ("- ", "* ", "+ ") else "")
        joined = " ".join(p.strip() for p in paragraph)
        out.extend(
            textwrap.wrap(
                joined,
                WIDTH,
                initial_indent=indent + lead,
                subsequent_indent=indent + " " * len(bullet),
                break_long_words=False,
                break_on_hyphens=False,
            )
            or [indent.rstrip()]
        )
        paragraph.clear()

    for raw in text.rstrip("\n").split("\n"):
        line = safe(raw)
        if line.lstrip().startswith(("```", "~~~")):
            flush()
            fenced = not fenced
            out.append((indent + line).rstrip())
            continue
        if _kept(line, fenced):
            flush()
            out.append((indent + line).rstrip())
            continue
        if not line.strip():
            flush()
            out.append(indent.rstrip())
            continue
        if _starts_block(line):
            flush()
            if line.lstrip().startswith("#"):
                out.append((indent + line).rstrip())
                continue
        paragraph.append(line)
    flush()
    return out


def release_lines(check: ReleaseCheck, cards: list[dict[str, Any]], safe: Safe) -> list[str]:
    """A checked release's header and every entry's card."""
    report = check.report
    reader = report.reader.text() if report.reader is not None else "none (no fixture replayed)"
    lines = [f"release {safe(check.tag)} of {safe(check.location)}", f"commit {check.commit}",
             f"checked: pass (the consumer's check, docs/release-contract.md); history {report.history}; "
             f"{report.replayed} fixture(s) replayed, {len(report.skipped)} skipped",
             f"reader: {safe(reader)}"]
    lines = [x for line in lines for x in (textwrap.wrap(line, WIDTH, subsequent_indent="  ",
                                                         break_on_hyphens=False, break_long_words=False) or [""])]
    lines.append(f"{len(cards)} entr{'y' if len(cards) == 1 else 'ies'}")
    for card in cards:
        lines += [""] + card_lines(card, safe)
    return lines
