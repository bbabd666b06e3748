"""`exchange check --format github`: the gate's report as GitHub workflow commands and a step summary
(issue #9 item 6; docs/reports.md).

Each refusal becomes `::error file=PATH,line=N,title=CODE::MESSAGE` and each skipped fixture a
`::warning`; the message is the detail and the code's fix. GitHub reads one command per line, so every
value is escaped by GitHub's rules — data: `%`, CR, LF as `%25`, `%0D`, `%0A`; properties also `:` and
`,` as `%3A`, `%2C` — and every other control, format or line-separator character is written as a
visible `\\uXXXX`, so no file name or detail can end the line and forge a second command.

The line is the offending member's, found from the refusal's JSON Pointer in the file's bytes
(`line_of`), or the refusal's own line; a refusal on a file whose member is not located falls back to
line 1, and one on a directory or no path carries no line.

The step summary (`$GITHUB_STEP_SUMMARY`) holds every refusal grouped by entry, the skips, the
replayed count and history, because GitHub shows only a few annotations per step. Its text is
Markdown-escaped (every ASCII punctuation character backslash-escaped), so a detail cannot add a link,
an image or HTML. It stops before GitHub's 1 MiB summary limit, saying how many refusals it leaves out.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable, Mapping
from string import punctuation

from .codes import REGISTRY, doc_link
from .pointers import locate, unescape
from .quoting import entry_id
from .refusal import Refusal, Report, Skip

SUMMARY_LIMIT = 1_000_000
"""Bytes a summary may reach: GitHub refuses a step summary over 1 MiB."""

Reader = Callable[[str], "bytes | None"]


# --- escaping -----------------------------------------------------------------------------------


def _visible(text: str, percent: dict[str, str]) -> str:
    out = []
    for c in text:
        if c in percent:
            out.append(percent[c])
        elif unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs"):
            out.append(f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}")
        else:
            out.append(c)
    return "".join(out)


_DATA = {"%": "%25", "\r": "%0D", "\n": "%0A"}
_PROPERTY = _DATA | {":": "%3A", ",": "%2C"}


def escape_data(text: str) -> str:
    """A workflow command's message: GitHub's data escaping, other invisible characters made visible."""
    return _visible(text, _DATA)


def escape_property(text: str) -> str:
    """A workflow command's property value (file, title): data escaping plus `:` and `,`."""
    return _visible(text, _PROPERTY)


def command(kind: str, message: str, **properties: object) -> str:
    """One workflow command line: `::kind name=value,…::message` (None properties are left out)."""
    props = ",".join(f"{name}={escape_property(str(value))}" for name, value in properties.items()
                     if value is not None)
    return f"::{kind}{' ' + props if props else ''}::{escape_data(message)}"


def markdown_text(text: str) -> str:
    """Text for a Markdown cell: ASCII punctuation backslash-escaped (no link, image, HTML or table
    break), line breaks and other invisible characters written visibly."""
    out = []
    for c in _visible(text, {"\r": "\\r", "\n": "\\n"}):
        out.append("\\" + c if c in punctuation else c)
    return "".join(out)


# --- line location ---------------------------------------------------------------------------------


def line_of(data: bytes, pointer: str) -> int | None:
    """The 1-based line of the member a JSON Pointer (RFC 6901) names in a JSON document's bytes: the
    line of its key, or of the element; for a member that is absent, the line of its nearest present
    ancestor (also where the bytes stop being JSON). None for empty bytes or a string that is not a pointer."""
    if pointer and not pointer.startswith("/"):
        return None
    tokens = [unescape(t) for t in pointer.split("/")[1:]] if pointer else []
    found = locate(data, tokens, text_indices=True)  # the one pointer-to-span lookup (pointers.py)
    if not found:
        return None
    return data.count(b"\n", 0, found[-1].at) + 1


# --- the report ---------------------------------------------------------------------------------


def _located(refusal: Refusal, read: Reader) -> int | None:
    if refusal.line is not None:
        return refusal.line
    if refusal.path is None:
        return None
    data = read(refusal.path)
    if data is None:
        return None
    line = line_of(data, refusal.pointer) if refusal.pointer is not None else None
    return line or 1


def _message(refusal: Refusal) -> str:
    fix = refusal.how_to_fix()
    lines = [refusal.detail]
    if refusal.entry:
        lines[0] = f"{refusal.entry}: {refusal.detail}"
    if fix:
        lines.append(f"fix: {fix} ({doc_link(refusal.code)})")
    return "\n".join(lines)


def _entry_path(entry: str) -> str:
    return "entries/" + entry.replace(".", "/", 1)


def _skip_line(skip: Skip, read: Reader) -> tuple[str | None, int | None]:
    """A skipped fixture's annotation lands on its row of entry.json's fixtures; a skip whose entry the
    gate withheld (outside the id grammar, or a name the scan flags: docs/reports.md) names no file."""
    if entry_id(skip.entry) is None:
        return None, None
    path = f"{_entry_path(skip.entry)}/entry.json"
    data = read(path)
    if data is None:
        return path, None
    import json

    try:
        fixtures = json.loads(data).get("fixtures")
        index = next(i for i, f in enumerate(fixtures) if isinstance(f, dict) and f.get("name") == skip.fixture)
    except (ValueError, AttributeError, TypeError, StopIteration, RecursionError):
        return path, 1
    return path, line_of(data, f"/fixtures/{index}") or 1


def workflow_commands(report: Report, read: Reader, prefix: str = "") -> list[str]:
    """Every refusal as an ::error, every warning and every skipped fixture as a ::warning, in the report's order;
    a change to the gate's own files as a ::notice naming them.
    `prefix` joins the catalog's directory to its repository-relative paths (GitHub wants paths from
    the workspace root)."""
    out = []
    for r in report.refusals:
        path = prefix + r.path if r.path is not None else None
        line = _located(r, read) if r.path is not None else None
        out.append(command("error", _message(r), file=path, line=line, title=r.code))
    for w in report.warnings:  # never a refusal: a ::warning on its file and line
        path = prefix + w.path if w.path is not None else None
        line = _located(w, read) if w.path is not None else None
        out.append(command("warning", _message(w), file=path, line=line, title=w.code))
    for s in report.skipped:
        path, line = _skip_line(s, read)
        out.append(command("warning", f"{s.entry}: fixture {s.fixture} skipped (replay did not recompute it): "
                                      f"{s.text()}",
                           file=prefix + path if path is not None else None, line=line, title="fixture skipped"))
    if report.gate_review is not None:  # a passing change to the gate is never silent (issue #38 item 5)
        out.append(command("notice", report.gate_review, title="the gate's own files: the maintainers review them"))
    reader = report.reader
    if reader is not None and reader.pinned and reader.fallback:  # a pin not replayed through, never silent
        out.append(command("warning", f"fixtures replayed by {reader.text()}", file=prefix + "verifier-pin.json",
                           title="pinned verifier not used"))
    return out


def summary(report: Report, read: Reader, prefix: str = "", limit: int = SUMMARY_LIMIT, doc_base: str = "") -> str:
    """The step summary: the verdict, counts, then every refusal grouped by entry, then the skips.
    `doc_base` makes each code's docs/codes.md link absolute (a summary is not shown beside the files)."""
    verdict = "pass" if report.passed else f"fail ({len(report.refusals)} refusal(s))"
    head = [f"## exchange check: {verdict}", "",
            f"- entries checked: {report.entries}",
            f"- fixtures replayed with agreement: {report.replayed}",
            f"- fixtures skipped: {len(report.skipped)}",
            f"- history: {markdown_text(report.history)}"]
    if report.reader is not None:  # the reader every fixture was replayed through (docs/verifier-pin.md)
        head.append(f"- reader: {markdown_text(report.reader.text())}")
    if report.touched is not None:
        head.append(f"- touched: {markdown_text(', '.join(report.touched) or 'no entry')}")
    head.append("")
    groups: dict[str | None, list[Refusal]] = {}
    for r in report.refusals:
        groups.setdefault(r.entry, []).append(r)
    body: list[str] = []
    for entry in sorted(groups, key=lambda e: (e is None, e or "")):
        body += [f"### {markdown_text(entry) if entry else 'the catalog'}", "",
                 "| code | file | line | detail | fix |", "|---|---|---|---|---|"]
        for r in groups[entry]:
            number = _located(r, read) if r.path is not None else None
            code = f"[`{r.code}`]({doc_base}{doc_link(r.code)})" if r.code in REGISTRY else markdown_text(r.code)
            body.append(f"| {code} | {markdown_text(prefix + r.path) if r.path else ''} | {number or ''} "
                        f"| {markdown_text(r.detail)} | {markdown_text(r.how_to_fix() or '')} |")
        body.append("")
    if report.warnings:
        body += ["### Warnings (never a refusal)", "", "| code | entry | file | detail | what to do |",
                 "|---|---|---|---|---|"]
        body += [f"| {markdown_text(w.code)} | {markdown_text(w.entry or '')} | "
                 f"{markdown_text(prefix + w.path) if w.path else ''} | {markdown_text(w.detail)} | "
                 f"{markdown_text(w.how_to_fix() or '')} |" for w in report.warnings]
        body.append("")
    if report.skipped:
        body += [
            "### Skipped fixtures (held by their digests only)",
            "",
            "| entry | fixture | reason |",
            "|---|---|---|",
        ]
        body += [f"| {markdown_text(s.entry)} | {markdown_text(s.fixture)} | {markdown_text(s.text())} |"
                 for s in report.skipped]
        body.append("")
    text = "\n".join(head + body) + "\n"
    if len(text.encode("utf-8")) <= limit:
        return text
    kept, size = head[:], len("\n".join(head).encode("utf-8")) + 200
    for i, line in enumerate(body):
        size += len(line.encode("utf-8")) + 1
        if size > limit:
            left = sum(1 for b in body[i:] if b.startswith("| ") and not b.startswith("| code") and
                       not b.startswith("| entry"))
            kept += ["", f"**{left} more row(s) not shown: the summary reached GitHub's size limit; run "
                         "`exchange check` locally for the whole report.**"]
            break
        kept.append(line)
    return "\n".join(kept) + "\n"


def doc_base(env: Mapping[str, str]) -> str:
    """`SERVER/OWNER/REPO/blob/SHA/` from GitHub's default variables, so a summary's code links open the
    docs at the checked commit; empty (links relative to the repository root) outside a workflow."""
    parts = [env.get(name, "") for name in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA")]
    if not all(parts) or not all(c.isalnum() or c in "-_./:" for c in "".join(parts)):
        return ""
    return f"{parts[0]}/{parts[1]}/blob/{parts[2]}/"


def emit(report: Report, read: Reader, write: Callable[[str], object], prefix: str = "",
         environ: dict[str, str] | None = None) -> str | None:
    """Write the commands with `write`; append the summary to $GITHUB_STEP_SUMMARY when it is set.
    Returns an error text when the summary file could not be written, else None."""
    for line in workflow_commands(report, read, prefix):
        write(line + "\n")
    env = os.environ if environ is None else environ
    target = env.get("GITHUB_STEP_SUMMARY")
    if not target:
        return None
    try:
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(summary(report, read, prefix, doc_base=doc_base(env)))
    except OSError as exc:
        return f"{target}: {exc.strerror}"
    return None
