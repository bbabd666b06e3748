"""Describing a value an entry's author controls without repeating it (issue #11 item 3; docs/reports.md).

A refusal's detail, path and entry may quote a value only once it has passed the grammar RFC 0019 §3
(or the dialect companion) gives it: a digest, an id, a fixture name, a release tag, one of the
closed file names. Anything else — a member name, a key, a string that failed its grammar, a file or
directory name — is described by its position and length (`described`), never shown, so a token an
author pasted into a name or value is never echoed into a log, a JSON report or a pull request
annotation. The scan's own refusals hide a name that holds a credential's shape the same way
(scan/__init__.py: the nearest clean directory, the name by position and length).

Paths (`split_path`, `path_text`): a repository path is quoted component by component while each component passes
the grammar its position has (the catalog layout below); from the first one that does not, the path
is cut to its nearest safe parent and the rest is described by length.

Grammar and scan (issue #16 item 4): a grammar can be fitted by a credential (a Slack token in lower
case is a fixture name), so a report shows a name only once the scan has cleared it too. `cleared`
gathers every name a report would show — each author-chosen component of a refusal's path, every entry
id and fixture name — and runs the scan's name check over them once (`flagged_names`, the scan's own
`scan_names`), and the scan's named shapes over every text it would show (details, notes, skips,
the reader); a flagged name is then unsafe exactly as a name outside its grammar is (`Withheld`), and a
flagged name or value inside a text is described by its length.

Stray names (issue #26 item 3): inside an entry directory, and for a catalog-stray-file's own name, a
component outside its place's grammar is shown when it passes the display grammar (`display_path`'s) and
the scan cleared it (`Withheld.scanned`); a stray name withheld all the same is told apart by its place in
its directory (`withheld_position`). A refusal's own fix is cleared as its detail is.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from .codes.catalog import CATALOG_STRAY_FILE
from .jsonstrict import described as described  # re-exported: the names shown or described
from .jsonstrict import member as member
from .jsonstrict import schema_words as schema_words
from .pointers import unescape
from .refusal import Refusal, Replay, Report, Skip
from .tree import id_order

_Named = TypeVar("_Named", Skip, Replay)

_PUBLISHER = re.compile(r"[a-z0-9]+")
_NAME = re.compile(r"[a-z0-9-]+(\.[a-z0-9-]+)*")
_ENTRY_ID = re.compile(r"[a-z0-9]+(\.[a-z0-9-]+)+")  # catalog/grammar.ENTRY_ID (§3), kept free of imports
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_FIXTURE = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")  # catalog/grammar.FIXTURE_NAME (§3)

ROOT_NAMES = frozenset(
    {
        "entries",
        "manifest.json",
        "skips.json",
        "releases.json",
        "verifier-pin.json",
        "README.md",
        "release-signers",
        "docs",
        "CONTRIBUTING.md",
        "LICENSE",
        ".github",
        "schemas",
        "tools",
        "tests",
    }
)
"""Names at the repository's root that a refusal may name (the catalog's own files and directories)."""

ENTRY_NAMES = frozenset({"entry.json", "README.md", "dialect.json", "output.json", "fixtures"})
"""The closed file set of an entry's root (RFC 0019 §3)."""

FIXTURE_FILES = frozenset({"case.json", "sources.json", "profiles.json", "preparation.json", "binding.json"})
"""The closed file set of a fixture directory (RFC 0019 §3)."""


def quoted(value: Any, grammar: re.Pattern[str], what: str = "value") -> str:
    """`value` in quotes when it is a string matching `grammar` (one the RFC gives it), else
    `described(value, what)`."""
    if isinstance(value, str) and grammar.fullmatch(value):
        return repr(value)
    return described(value, what)


def digest(value: Any) -> str:
    """A digest as written: shown when it is `sha256:` and 64 lowercase hexadecimal digits, else described."""
    return quoted(value, _DIGEST, "a value that is not a digest").strip("'")


def name(value: Any, what: str = "member name") -> str:
    """A member name, key or other author-chosen name with no grammar of its own (the dialect companion
    gives source, field and parameter names none): always described by length, never shown."""
    return described(value, what)


def entry_id(value: str | None, flagged: Collection[str] = frozenset()) -> str | None:
    """An entry id fit to show: the id when it matches §3's grammar and neither it, its publisher nor its
    name is among the names the scan `flagged` (issue #16 item 4), else None."""
    if not isinstance(value, str) or not _ENTRY_ID.fullmatch(value):
        return None
    if flagged and (value in flagged or any(part in flagged for part in value.split(".", 1))):
        return None
    return value


def _component_safe(parts: list[str], i: int) -> bool:
    part = parts[i]
    if i == 0:
        return part in ROOT_NAMES
    if parts[0] != "entries":
        return False
    if i == 1:
        return _PUBLISHER.fullmatch(part) is not None
    if i == 2:
        return _NAME.fullmatch(part) is not None
    if i == 3:
        return part in ENTRY_NAMES
    if i == 4:
        return parts[3] == "fixtures" and _FIXTURE.fullmatch(part) is not None
    if i == 5:
        return parts[3] == "fixtures" and part in FIXTURE_FILES
    return False


def path_names(path: str) -> list[str]:
    """The author-chosen components of `path` (publisher, name, fixture) that pass their grammar, up to
    the first component that does not: the names a report would show, for the scan to clear."""
    parts = path.split("/")
    out = []
    for i in range(len(parts)):
        if not _component_safe(parts, i):
            break
        if i in (1, 2, 4):
            out.append(parts[i])
    return out


def split_path(path: str, flagged: Collection[str] = frozenset()) -> tuple[str, str | None]:
    """`(safe, rest)`: the longest prefix of `path` whose every component passes its grammar and is not
    among the names the scan `flagged`, and a description of the rest (None when the whole path is
    safe). An empty safe prefix is '.'."""
    return _split(path, flagged)


def _split(path: str, flagged: Collection[str], code: str | None = None,
           scanned: Collection[str] = frozenset()) -> tuple[str, str | None]:
    """`split_path`, where a component the display grammar may show (`_by_display`, for a refusal of `code`) is
    safe too once the scan has cleared it (it is among the `scanned` names and not `flagged`)."""
    parts = path.split("/")
    for i in range(len(parts)):
        shown = _component_safe(parts, i) or (parts[i] in scanned and _by_display(parts, i, code))
        if not shown or parts[i] in flagged:
            safe = "/".join(parts[:i]) or "."
            more = len(parts) - i - 1
            rest = described(parts[i], "a name") + (f" and {more} more level{'s' if more != 1 else ''} below it"
                                                     if more else "")
            return safe, rest
    return path, None


def path_text(path: str, flagged: Collection[str] = frozenset()) -> str:
    """A path for a detail: the path when safe, else its safe parent and a description of the rest."""
    safe, rest = split_path(path, flagged)
    return path if rest is None else f"{safe}/{rest}"


_DISPLAY = re.compile(r"\.?[A-Za-z0-9_][A-Za-z0-9._-]{0,62}")
"""The display grammar of one component of a repository path outside the catalog's own grammars (a root
file, a folder of the gate's, a stray file's name): letters, digits, `_`, `.` and `-`, at most 64, no `..`."""

DISPLAY_DEPTH = 8


def display_path(path: str) -> str:
    """A repository path for a detail or a note, shown whole when every component passes the display grammar
    (at most DISPLAY_DEPTH of them) and none is a name the scan's name check flags; else `path_text` (its
    nearest safe parent and a description of the rest). Issue #24 item 1: a gate file a pull request changes
    is named in the report; docs/reports.md."""
    parts = path.split("/")
    if len(parts) <= DISPLAY_DEPTH and all(_displayable(p) for p in parts) and not flagged_names(parts):
        return path
    return path_text(path)


def _displayable(name: str) -> bool:
    """One name within the display grammar (no `..`)."""
    return _DISPLAY.fullmatch(name) is not None and ".." not in name


def _by_display(parts: list[str], i: int, code: str | None) -> bool:
    """Whether a refusal of `code` may show component `i` of its path by the display grammar where the component
    fails its position's grammar (issue #26 item 3): a name inside an entry directory (below
    entries/<publisher>/<name>/, where every name but the format's is a stray file's or folder's), and a
    catalog-stray-file's own name. The entry's own path keeps §3's grammar: it is the entry's id."""
    if code is None or not _displayable(parts[i]):
        return False
    inside = parts[0] == "entries" and i >= 3
    return inside or (code == CATALOG_STRAY_FILE and i == len(parts) - 1)


def display_names(path: str, code: str | None) -> list[str]:
    """The components of a refusal's path that `redact` may show by the display grammar, for the scan to clear."""
    parts = path.split("/")
    return [parts[i] for i in range(len(parts)) if not _component_safe(parts, i) and _by_display(parts, i, code)]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def withheld_position(name: str, names: Iterable[str]) -> str:
    """For a stray name a report will withhold — outside the display grammar, or flagged by the scan's name
    check — where it is among `names` (its directory's), so that each withheld name is told apart and can be
    found without being shown (issue #26 item 3; docs/reports.md); '' for a name the report shows."""
    if _displayable(name) and not flagged_names([name]):
        return ""
    ordered = sorted(set(names) | {name}, key=id_order)
    return (f" (its name is withheld: it is the {_ordinal(ordered.index(name) + 1)} of the {len(ordered)} names in "
            "its directory in byte order, as `LC_ALL=C ls -A` lists them)")


# --- grammar and scan (issue #16 item 4; docs/reports.md) -----------------------------------------


class Withheld:
    """What one report may not show beyond its grammars (issue #16 item 4; docs/reports.md): `flagged`,
    the grammar-passing names the scan's name check flags, and `hidden`, each string (a flagged name, a
    value the scan's named shapes find in a text, an id outside its grammar) with the description that
    stands for it wherever it occurs in a text the report shows."""

    def __init__(self, flagged: Collection[str] = frozenset(), hidden: Mapping[str, str] | None = None,
                 scanned: Collection[str] = frozenset()) -> None:
        self.flagged = frozenset(flagged)
        self.hidden = {k: v for k, v in (hidden or {}).items() if k}
        self.scanned = frozenset(scanned)
        """Every name the scan's name check was run over (a stray name is shown only once it is among them)."""

    def text(self, value: str) -> str:
        """`value` with every occurrence of a hidden string described; overlapping occurrences are
        described together, so no part of either is left."""
        if not self.hidden or not isinstance(value, str):
            return value
        spans = []
        for secret in self.hidden:
            at = value.find(secret)
            while at >= 0:
                spans.append((at, at + len(secret)))
                at = value.find(secret, at + 1)
        if not spans:
            return value
        spans.sort()
        merged = [list(spans[0])]
        for start, end in spans[1:]:
            if start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        out, at = [], 0
        for start, end in merged:
            piece = value[start:end]
            out += [value[at:start], self.hidden.get(piece) or described(piece, "a value")]
            at = end
        return "".join(out + [value[at:]])

    def entry(self, value: str | None) -> str | None:
        """`entry_id` against this report's flagged names."""
        return entry_id(value, self.flagged)


NOTHING = Withheld()
"""No name flagged, nothing hidden: the grammars alone (the default of `redact` and `redact_skip`)."""


def id_names(value: Any) -> list[str]:
    """An entry id of the grammar, its publisher and its name: each a name the scan must clear."""
    if not isinstance(value, str) or not _ENTRY_ID.fullmatch(value):
        return []
    return [value, *value.split(".", 1)]


def flagged_names(names: Iterable[str]) -> frozenset[str]:
    """The names among `names` that the scan's name check flags (scan/file_scan.py `scan_names`: a named
    credential shape or a local path), in one run over all of them; the scan is imported only when
    there is a name to clear."""
    unique = sorted({n for n in names if isinstance(n, str) and n and "/" not in n})
    if not unique:
        return frozenset()
    from .scan.file_scan import scan_names

    return frozenset(scan_names([(n, "name") for n in unique]))


def flagged_values(texts: Iterable[str], own: Collection[str] = frozenset()) -> dict[str, str]:
    """Each value the scan's named credential shapes find in `texts` (scan/engine.py; the generic codes
    are not applied, as to names), with its description; a line a detector fails on is withheld whole.
    One run over every line of every text; the scan is imported only when there is text to scan. A text
    the gate writes whole from its own words (`own`: the reader's, repository/pin.ReaderChoice.own_words) is not
    scanned (issue #20); it is passed in, so this module imports nothing above it (issue #29)."""
    lines = [line for text in texts if isinstance(text, str) and text not in own
             for line in text.splitlines() if line.strip()]
    if not lines:
        return {}
    from .codes.shapes import GENERIC
    from .scan.engine import engine

    out: dict[str, str] = {}
    for hit in engine().scan_lines("report", enumerate(lines, start=1)):
        if hit.code in GENERIC:
            continue
        line = lines[hit.line - 1]
        value = hit.value if hit.value and hit.value in line else line
        out.setdefault(value, described(value, "a value"))
    return out


def withheld(names: Iterable[str] = (), texts: Iterable[str] = (), hidden: Mapping[str, str] | None = None,
             own: Collection[str] = frozenset()) -> Withheld:
    """The `Withheld` of one report: `names` through the scan's name check, `texts` through its named
    shapes (but `own`, the gate's own words: flagged_values), plus the strings `hidden` already names."""
    names = list(names)
    flagged = flagged_names(names)
    table = {name: described(name, "a name") for name in sorted(flagged, key=len, reverse=True)}
    table.update({k: v for k, v in (hidden or {}).items() if k not in table})
    for value, description in flagged_values(texts, own).items():
        table.setdefault(value, description)
    return Withheld(flagged, table, {n for n in names if isinstance(n, str)})


def redact(refusal: Refusal, shown: Withheld = NOTHING) -> Refusal:
    """The refusal with its path cut to its nearest safe parent (the rest described in the detail) and its
    entry dropped when the id is outside §3's grammar — or, with `shown`, when a component or the id is
    a name the scan flagged; every hidden string in the detail is described. The pointer is kept: it only
    finds a line."""
    out = refusal
    if refusal.path is not None:
        safe, rest = _split(refusal.path, shown.flagged, refusal.code, shown.scanned)
        if rest is not None:
            detail = out.detail.replace(refusal.path, f"{safe}/{rest}")  # a detail that repeats its own path
            fix = out.fix.replace(refusal.path, f"{safe}/{rest}") if out.fix is not None else None
            out = replace(out, path=safe, detail=f"in {rest} below this path (the name is not shown): {detail}",
                          pointer=None, line=None, fix=fix)
    if out.entry is not None and shown.entry(out.entry) is None:
        out = replace(out, entry=None)
    if shown.hidden:
        detail = shown.text(out.detail)
        out = replace(out, detail=detail) if detail != out.detail else out
        if out.fix is not None and shown.text(out.fix) != out.fix:  # a refusal's own fix may name its paths
            out = replace(out, fix=shown.text(out.fix))
    return out


def redact_skip(skip: _Named, shown: Withheld = NOTHING) -> _Named:
    """A skip's (or a replay record's) entry and fixture, shown only within their grammars and, with
    `shown`, only when the scan cleared them; its texts with every hidden string described."""
    if shown.entry(skip.entry) is not None:
        entry = skip.entry
    elif entry_id(skip.entry) is None:
        entry = "<an entry outside the id grammar>"
    else:
        entry = described(skip.entry, "an entry id")
    fixture = skip.fixture if (_FIXTURE.fullmatch(skip.fixture or "") and skip.fixture not in shown.flagged) \
        else described(skip.fixture, "a fixture name")
    changes: dict[str, Any] = {"entry": entry, "fixture": fixture} if (entry, fixture) != (skip.entry, skip.fixture) \
        else {}
    if shown.hidden:
        for name in ("reason", "reader", "result"):
            value = getattr(skip, name, None)
            if isinstance(value, str) and shown.text(value) != value:
                changes[name] = shown.text(value)
        for name in ("kinds", "sources", "unchecked"):
            value = getattr(skip, name, None)
            if isinstance(value, tuple) and any(shown.text(v) != v for v in value):
                changes[name] = tuple(shown.text(v) for v in value)
    return replace(skip, **changes) if changes else skip


def _texts(report: Report) -> list[str]:
    """Every free text of the report that may hold an author's value: details, notes, skips' and
    replays' texts, the reader's words."""
    texts = [r.detail for r in [*report.refusals, *report.warnings]] + list(report.notes)
    texts += [r.fix for r in [*report.refusals, *report.warnings] if r.fix is not None]
    for s in report.skipped:
        texts += [s.reason, s.reader or "", *s.kinds, *s.sources, *s.unchecked]
    texts += [r.reader for r in report.replays]
    reader = report.reader
    if reader is not None and dataclasses.is_dataclass(reader) and not isinstance(reader, type):
        texts += [getattr(reader, name, None) or "" for name in ("name", "pinned", "fallback")]
    return texts


def _refusal_names(refusals: Iterable[Refusal]) -> list[str]:
    """The author-chosen names the refusals would show (their paths' components and entry ids), for the scan."""
    names: list[str] = []
    for r in refusals:
        names += path_names(r.path) + display_names(r.path, r.code) if r.path is not None else []
        names += id_names(r.entry)
    return names


def clear_refusals(refusals: Iterable[Refusal]) -> list[Refusal]:
    """Refusals printed outside a report (exchange fix's blockers) cleared as `cleared` clears a
    report's: a path, entry or detail is shown only when its grammar and
    the scan cleared it (docs/reports.md)."""
    refusals = list(refusals)
    texts = [r.detail for r in refusals] + [r.fix for r in refusals if r.fix is not None]
    shown = withheld(_refusal_names(refusals), texts)
    return [redact(r, shown) for r in refusals]


def cleared_paths(paths: list[tuple[str, str | None]]) -> list[str]:
    """Each (path, refusal code) as a report shows a refusal's path: whole when its grammar, or the display
    grammar for that code, and the scan cleared every component; else its safe parent and a description."""
    shown = withheld([name for path, code in paths for name in path_names(path) + display_names(path, code)])
    out = []
    for path, code in paths:
        safe, rest = _split(path, shown.flagged, code, shown.scanned)
        out.append(path if rest is None else f"{safe}/{rest}")
    return out


def cleared_text(text: str) -> str:
    """A line outside a report that may name a file an author chose (exit 4's reason: a directory that cannot
    be listed), with every value the scan's named shapes flag described (docs/reports.md)."""
    return withheld(texts=[text]).text(text)


def cleared(report: Report) -> Report:
    """The gate's last step (issue #11 item 3, issue #16 item 4; docs/reports.md): `report` as shown, a new
    Report (`report` is left as it is) — nothing an author chose is shown unless its grammar and the scan cleared
    it, in every refusal's and warning's path, entry and detail, the skips, the replay records, the checked and
    touched entries, the notes and the reader."""
    names = _refusal_names([*report.refusals, *report.warnings])
    records: list[Skip | Replay] = [*report.skipped, *report.replays]
    for s in records:
        names += id_names(s.entry)
        names += [s.fixture] if isinstance(s.fixture, str) and _FIXTURE.fullmatch(s.fixture) else []
    for c in [*report.checked, *(report.touched or ())]:
        names += id_names(c)
    # an id outside the grammar in touched is described wherever a detail lists it (one-entry-per-pull-request)
    outside = {t: described(t, "an entry id") for t in report.touched or () if entry_id(t) is None}
    own = frozenset(getattr(report.reader, "own_words", ()) or ())  # the reader's own words (repository/pin.py)
    shown = withheld(names, _texts(report), outside, own)
    touched = None if report.touched is None else [t if shown.entry(t) else described(t, "an entry id")
                                                   for t in report.touched]
    out = replace(report, refusals=[redact(r, shown) for r in report.refusals],
                  warnings=[redact(r, shown) for r in report.warnings],
                  skipped=[redact_skip(s, shown) for s in report.skipped],
                  replays=[redact_skip(r, shown) for r in report.replays],
                  checked=[c for c in report.checked if shown.entry(c)], touched=touched)
    if shown.hidden:
        out.notes = [shown.text(n) for n in report.notes]
        out.gate_review = shown.text(report.gate_review) if report.gate_review is not None else None
        reader = report.reader
        if reader is not None and dataclasses.is_dataclass(reader) and not isinstance(reader, type):
            changed = {name: shown.text(getattr(reader, name)) for name in ("name", "pinned", "fallback")
                       if isinstance(getattr(reader, name, None), str)
                       and shown.text(getattr(reader, name)) != getattr(reader, name)}
            if changed:
                out.reader = replace(reader, **changed)
    return out


CLEARED = ("refusals", "warnings", "skipped", "replays", "checked", "touched", "notes", "gate_review", "reader")
"""The report's fields `cleared` may change."""


_INDEX = re.compile(r"0|[1-9][0-9]*")


def pointer_text(pointer: str) -> str:
    """A JSON pointer for a detail: each token shown when it is an array index or one of our schema's
    member names (`schema_words`), else described by length (it is a name the author chose)."""
    if not pointer:
        return pointer
    out = []
    for token in pointer.split("/")[1:]:
        raw = unescape(token)
        out.append(token if _INDEX.fullmatch(token) or raw in schema_words() else described(raw, "a name"))
    return "/" + "/".join(out)


