"""The grammars of every value `exchange init` writes into a template (RFC 0019 §2: "An Exchange is any
repository in the entry format…"; issue #33 item 1; docs/init.md).

Nothing an author typed reaches a written file unless it passed its grammar here first: the owners (TEAM,
GitHub's `@user` or `@org/team`), the gate's commit (`--gate-ref`, 40 lowercase hexadecimal digits) and the
catalog's name (DIR's last component). A value outside its grammar is a bad invocation (exit 3): `BadValue`
names the option and the grammar, never the value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LOGIN = r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}"
"""A GitHub user or organisation login: alphanumerics and single hyphens, neither first nor last, at most 39."""

TEAM_SLUG = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}"
"""A team's slug after `@org/`: alphanumerics, `_`, `.` and `-`, starting with an alphanumeric, at most 100."""

OWNERS = re.compile(rf"@(?P<owner>{LOGIN})(?:/(?P<team>{TEAM_SLUG}))?")
REF = re.compile(r"[0-9a-f]{40}")
NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}")

OWNERS_GRAMMAR = ("@user or @org/team: a GitHub login (letters, digits and single hyphens, not first or last, "
                  "at most 39 characters), and a team slug (letters, digits, '_', '.', '-', starting with a letter "
                  "or digit, at most 100 characters)")
REF_GRAMMAR = "a full commit id: exactly 40 lowercase hexadecimal digits"
NAME_GRAMMAR = ("1 to 100 letters, digits, '.', '_' or '-', not starting with '.' (the catalog's repository "
                "name on GitHub)")


class BadValue(ValueError):
    """A value outside its grammar (exit 3). The message names the option and the grammar; never the value."""

    def __init__(self, option: str, grammar: str) -> None:
        super().__init__(f"{option} is {grammar}; the value given is not (it is not repeated here)")
        self.option = option
        self.grammar = grammar


@dataclass(frozen=True)
class Owners:
    """The catalog's owners as CODEOWNERS names them: `@user`, or `@org/team`."""

    text: str
    owner: str
    """The GitHub account the catalog's repository lives under: the user, or the team's organisation."""
    team: str | None


def owners(value: object) -> Owners:
    """`--owners TEAM` once it passed its grammar (OWNERS), else BadValue."""
    match = OWNERS.fullmatch(value) if isinstance(value, str) else None
    if match is None or not isinstance(value, str):
        raise BadValue("--owners", OWNERS_GRAMMAR)
    return Owners(value, match.group("owner"), match.group("team"))


def ref(value: object, option: str = "--gate-ref") -> str:
    """A gate commit once it passed its grammar (REF), else BadValue."""
    if not isinstance(value, str) or REF.fullmatch(value) is None:
        raise BadValue(option, REF_GRAMMAR)
    return value


def name(value: object) -> str:
    """The catalog's name (DIR's last component) once it passed its grammar (NAME), else BadValue."""
    if not isinstance(value, str) or NAME.fullmatch(value) is None:
        raise BadValue("DIR's last component (the catalog's name)", NAME_GRAMMAR)
    return value
