"""A reading of GitHub's CODEOWNERS file, written from GitHub's documentation ("About code owners"): one
`pattern owner...` per line, `#` comments; patterns follow .gitignore's rules except that `!` negation,
`[ ]` ranges and `\\#` escapes are not supported; the LAST matching line decides a path's owners, and a
line with a pattern and no owner leaves the path unowned. Owners are `@user`, `@org/team` or an email.
Used by tests/repository/test_codeowners.py; independent of the package's own path rules."""

from __future__ import annotations

import re
from dataclasses import dataclass

OWNER = re.compile(r"@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:/[A-Za-z0-9][A-Za-z0-9._-]*)?"
                   r"|[^@\s]+@[^@\s]+\.[^@\s]+")


@dataclass(frozen=True)
class Rule:
    line: int
    pattern: str
    owners: tuple[str, ...]
    regex: re.Pattern[str]


class FormError(ValueError):
    """A line that is not a CODEOWNERS rule."""


def _regex(pattern: str) -> re.Pattern[str]:
    """The paths (files, and directories whose files it then covers) a .gitignore-style pattern matches."""
    directory = pattern.endswith("/")
    body = pattern.rstrip("/")
    anchored = body.startswith("/") or "/" in body
    body = body.lstrip("/")
    out = []
    i = 0
    while i < len(body):
        if body.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif body.startswith("/**", i) and i + 3 == len(body):
            out.append("/.*")
            i += 3
        elif body.startswith("**", i):
            out.append(".*")
            i += 2
        elif body[i] == "*":
            out.append("[^/]*")
            i += 1
        elif body[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(body[i]))
            i += 1
    core = "".join(out)
    prefix = "" if anchored else "(?:.*/)?"
    # a pattern names a file or a directory; a directory covers everything below it. A pattern with a
    # trailing slash names only directories, so it must be followed by a deeper component.
    tail = "/.+" if directory else "(?:/.+)?"
    return re.compile(prefix + core + tail)


def parse(text: str) -> list[Rule]:
    rules = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        pattern, owners = words[0], tuple(words[1:])
        if pattern.startswith("!") or "[" in pattern or pattern.startswith("\\#"):
            raise FormError(f"line {number}: {pattern!r} uses syntax CODEOWNERS does not support")
        for owner in owners:
            if owner.startswith("#"):
                raise FormError(f"line {number}: a comment after the owners is not an owner")
            if not OWNER.fullmatch(owner):
                raise FormError(f"line {number}: {owner!r} is not @user, @org/team or an email")
        rules.append(Rule(number, pattern, owners, _regex(pattern)))
    return rules


def owners_of(rules: list[Rule], path: str) -> tuple[str, ...]:
    """The owners of a repository path: the last matching rule's (none when no rule matches)."""
    found: tuple[str, ...] = ()
    for rule in rules:
        if rule.regex.fullmatch(path):
            found = rule.owners
    return found
