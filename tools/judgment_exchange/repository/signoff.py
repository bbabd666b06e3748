"""A DCO sign-off on every commit of a pull request (RFC 0019 §6, Contributions; `exchange signoff`).

What counts (CONTRIBUTING.md, "What CI runs"): a non-merge commit is signed off when the trailer block
of its message — found as git finds it for `git commit -s` and `git interpret-trailers` — holds a
`Signed-off-by: NAME <EMAIL>` trailer whose EMAIL is the commit author's email (compared without
regard to case). Merge commits are not checked (a merge carries no change of its own to certify).
Commits are read through GitPython; the message and the author are author-controlled text, so a
refusal names a commit by its id only and says which of the three reasons applies.
"""

from __future__ import annotations

from ..gitfail import reason
import re
from dataclasses import dataclass, field

from ..refusal import Refusal

CODE = "signoff-missing"
KEY = "signed-off-by"
# git's trailer.c: lines git itself writes; a paragraph holding one is a trailer block when at
# least a quarter of its lines are trailers.
GIT_GENERATED = ("Signed-off-by: ", "(cherry picked from commit ")
COMMENT = "#"
IDENTITY = re.compile(r"(?P<name>[^<>\n]*[^<>\s])[ \t]+<(?P<email>[^<>\s]+)>")

NO_TRAILER = "no-trailer"
MALFORMED = "malformed"
NOT_AUTHOR = "not-author"

REASONS = {
    NO_TRAILER: "its message has no Signed-off-by trailer (the sign-off must be in the message's last "
                "paragraph, as git commit -s writes it)",
    MALFORMED: "its Signed-off-by trailer is not of the form 'Signed-off-by: Name <email>'",
    NOT_AUTHOR: "no Signed-off-by trailer names the commit author's email (sign off as the author)",
}


def _separator(line: str) -> int:
    """git's find_separator: the position of ':' after a token of letters, digits and '-' (and
    whitespace after the token), or -1."""
    whitespace = False
    for i, c in enumerate(line):
        if not whitespace and (c.isascii() and c.isalnum() or c == "-"):
            continue
        if i and c in " \t":
            whitespace = True
            continue
        return i if c == ":" else -1
    return -1


SPACE = " \t\r"          # git's isspace (sane_ctype): these and the newline, never Unicode spaces


def _blank(line: str) -> bool:
    return not line.strip(SPACE)


def trailer_block(message: str) -> list[str]:
    """The lines of the message's trailer block, by git's rule (trailer.c `find_trailer_start`): the
    last paragraph after the title whose lines are all trailers (or their continuations), or which
    holds a git-generated trailer and at least 25% trailer lines. Empty when there is none."""
    lines = message.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    title_end = len(lines)
    for i, line in enumerate(lines):
        if line.startswith(COMMENT):
            continue
        if _blank(line):
            title_end = i
            break
    only_spaces, recognized, trailers, others, continuations = True, False, 0, 0, 0
    for i in range(len(lines) - 1, title_end - 1, -1):
        line = lines[i]
        if line.startswith(COMMENT):
            others += continuations
            continuations = 0
            continue
        if _blank(line):
            if only_spaces:
                continue
            others += continuations
            if (recognized and trailers * 3 >= others) or (trailers and not others):
                return lines[i + 1:]
            return []
        only_spaces = False
        if line.startswith(GIT_GENERATED):
            trailers += 1
            continuations = 0
            recognized = True
        elif _separator(line) >= 1 and line[0] not in SPACE:
            trailers += 1
            continuations = 0
        elif line[0] in SPACE:
            continuations += 1
        else:
            others += 1 + continuations
            continuations = 0
    return []


def trailers(message: str) -> list[tuple[str, str]]:
    """(token, value) of each trailer in the trailer block; a continuation line joins its trailer's
    value with a newline; lines of the block that are not trailers are left out."""
    out: list[tuple[str, str]] = []
    current = False
    for line in trailer_block(message):
        if line.startswith(COMMENT):
            current = False
            continue
        sep = _separator(line)
        if sep >= 1 and line[0] not in SPACE:
            out.append((line[:sep].strip(SPACE), line[sep + 1:].strip(SPACE)))
            current = True
        elif current and line[:1] in tuple(SPACE) and out:
            token, value = out[-1]
            out[-1] = (token, f"{value}\n{line.strip(SPACE)}")
        else:
            current = False
    return out


def signoff_finding(message: str, author_email: str) -> str | None:
    """None when the message is signed off by the author; else NO_TRAILER, MALFORMED or NOT_AUTHOR."""
    values = [value for token, value in trailers(message) if token.lower() == KEY]
    if not values:
        return NO_TRAILER
    emails = [m.group("email") for m in (IDENTITY.fullmatch(v) for v in values) if m]
    if not emails:
        return MALFORMED
    wanted = author_email.strip().casefold()
    if wanted and any(e.casefold() == wanted for e in emails):
        return None
    return NOT_AUTHOR


AUTHOR = re.compile(rb"author [^<>\n]*<(?P<email>[^<>\n]*)>")


@dataclass(frozen=True)
class CommitText:
    """What the sign-off check reads of one commit object: its number of parents, its author's
    email and its message (decoded as UTF-8, any invalid byte replaced, both alike)."""

    parents: int
    author_email: str
    message: str


def read_commit(raw: bytes) -> CommitText:
    """A raw commit object's parents, author email and message (git's commit object format): header
    lines up to the first empty line, the message after it. Never decodes by the object's own
    `encoding` header, so no header value can make reading fail."""
    header, _, message = raw.partition(b"\n\n")
    parents, email = 0, b""
    for line in header.split(b"\n"):
        if line.startswith(b"parent "):
            parents += 1
        elif line.startswith(b"author ") and not email:
            m = AUTHOR.match(line)
            email = m.group("email") if m else b""
    return CommitText(parents, email.decode("utf-8", "replace"), message.decode("utf-8", "replace"))


class RepositoryUnreadable(Exception):
    """The directory is not a git repository, or its objects cannot be read (exit 4)."""


class HeadUnborn(Exception):
    """HEAD names no commit (a bad invocation: there is nothing to check)."""


@dataclass
class SignoffReport:
    """`exchange signoff`'s result: the base and head commits, what was checked, the refusals (each
    with the commit it names, or None)."""

    base: str | None = None
    head: str | None = None
    commits: int = 0
    merges: int = 0
    refusals: list[tuple[Refusal, str | None]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.refusals

    def as_json(self) -> dict:
        return {
            "result": "pass" if self.passed else "fail",
            "base": self.base,
            "head": self.head,
            "commits": self.commits,
            "merges": self.merges,
            "refusals": [r.as_json() | {"commit": c} for r, c in self.refusals],
        } | ({"notes": self.notes} if self.notes else {})


def check_signoff(repository: str, base: str) -> SignoffReport:
    """Every non-merge commit in BASE..HEAD of the repository at `repository` (its root), checked for
    the author's sign-off; each commit's object read whole through GitPython's object database. `base`
    is a revision, or "auto" (pullrequest.resolve_auto). Raises RepositoryUnreadable, HeadUnborn, or
    pullrequest.BaseUnresolved for `auto`."""
    import git

    from .pullrequest import AUTO, resolve_auto

    report = SignoffReport()
    try:
        repo = git.Repo(repository)
    except Exception as exc:  # InvalidGitRepositoryError, NoSuchPathError, …
        raise RepositoryUnreadable(f"{repository} is not the root of a git repository "
                                   f"({reason(exc)})") from exc
    try:
        try:
            report.head = repo.commit("HEAD").hexsha
        except Exception as exc:
            raise HeadUnborn("HEAD names no commit yet; nothing to check") from exc
        if base == AUTO:
            auto = resolve_auto(repository)
            report.notes.append(auto.describe())
            report.base = auto.commit
        else:
            try:
                report.base = repo.commit(base).hexsha
            except Exception as exc:  # BadName, ValueError, … for a revision that names no commit
                report.refusals.append((Refusal("base-unreadable", None,
                                                f"--base names no commit here ({reason(exc)}); fetch "
                                                "the base branch (git fetch) or name another revision"), None))
                return report
        try:
            for commit in repo.iter_commits(f"{report.base}..{report.head}"):
                text = read_commit(repo.odb.stream(commit.binsha).read())
                if text.parents > 1:
                    report.merges += 1
                    continue
                report.commits += 1
                finding = signoff_finding(text.message, text.author_email)
                if finding is not None:
                    report.refusals.append((Refusal(CODE, None, f"commit {commit.hexsha}: {REASONS[finding]}"),
                                            commit.hexsha))
        except Exception as exc:  # the object database failing mid-walk
            if exc.__class__.__module__.startswith(("git", "gitdb")):
                raise RepositoryUnreadable(f"the commits cannot be read ({reason(exc)})") from exc
            raise
    finally:
        repo.close()
    return report
