"""Markdown that an entry's text cannot forge (issue #27 item 4; docs/reports.md, "Markdown").

A review is read where GitHub renders Markdown (a job summary: GitHub-flavoured Markdown, then GitHub's
own filters that link `@name`, `#123` and commit ids in text). Escaping punctuation with backslashes is not
enough there: an escaped `@` is still an `@` once the text is parsed, and the e-mail autolink and the
mention filter read the parsed text. So every value that comes from the report or from an entry — a
detail, a path, an id, a title, a note, a fix — is written as a **code span** (`code`), and only the
review's own words are written as Markdown:

- a code span's content is never parsed: no emphasis, link, autolink, image, HTML or mention, and GitHub's
  filters leave code alone;
- its fence is one backtick longer than the longest run of backticks in the value, padded with a space
  where the value begins or ends with a backtick (CommonMark's rule), so the value cannot close it;
- line breaks and every other control, format (bidirectional override, zero-width) or separator character
  are written as visible escapes (`textsafe.escape`), so a value is one line and cannot start a heading,
  a list item or a table row of its own.

The review has no table: a value sits in a list item, where a `|` is only a character.

`Document` assembles blocks under GitHub's limit on a step summary's size, saying how much it left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..textsafe import escape

SUMMARY_LIMIT = 1_000_000
"""Bytes a review may reach: GitHub refuses a step summary over 1 MiB."""
_TICKS = re.compile(r"`+")


def visible(value: str) -> str:
    """`value` as one line: line breaks, tabs, control, format and separator characters as escapes."""
    return escape(value)


def code(value: str) -> str:
    """`value` as a code span no text can close or leave (an empty value is written `(empty)`)."""
    text = visible(value)
    if text == "":
        return "(empty)"
    longest = max((len(run) for run in _TICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text[0] == "`" or text[-1] == "`" or (text[0] == " " and text[-1] == " " and text.strip()) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def shown(value: object) -> str:
    """A card's value: a string as a code span, `{"withheld": why}` as the word and its reason, a list
    each item, an object each `name value`, null `none`."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return code(value)
    if isinstance(value, dict):
        if set(value) == {"withheld"} and isinstance(value["withheld"], str):
            return f"*withheld* ({code(value['withheld'])})"
        return ", ".join(f"{code(str(name))} {shown(item)}" for name, item in value.items()) or "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(shown(item) for item in value) or "none"
    return code(str(value))


@dataclass
class Document:
    """A review's blocks, each a list of lines, kept while the whole stays under `limit` bytes."""

    limit: int = SUMMARY_LIMIT
    head: list[str] = field(default_factory=list)
    blocks: list[list[str]] = field(default_factory=list)

    def text(self) -> str:
        reserve = 400  # the note saying what was left out
        lines = list(self.head)
        size = sum(len(line.encode("utf-8")) + 1 for line in lines)
        for index, block in enumerate(self.blocks):
            cost = sum(len(line.encode("utf-8")) + 1 for line in block)
            if size + cost + reserve > self.limit:
                left = len(self.blocks) - index
                lines += ["", f"**{left} more section(s) not shown: the review reached GitHub's size limit for a "
                              "job summary. Run `exchange check` for the whole report.**"]
                break
            lines += block
            size += cost
        return "\n".join(lines).rstrip("\n") + "\n"
