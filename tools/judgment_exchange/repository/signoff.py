"""A DCO sign-off on every commit of a pull request (RFC 0019 §6, Contributions; `exchange signoff`).

What counts (CONTRIBUTING.md, "What CI runs"): a commit that carries change is signed off when the
trailer block of its message — found as git finds it for `git commit -s` and `git interpret-trailers` —
holds a `Signed-off-by: NAME <EMAIL>` trailer whose EMAIL is the commit author's email (compared without
regard to case). Every commit carries change except a clean merge of two parents: a merge whose tree is
exactly the tree `git merge-tree --write-tree P1 P2` computes from its parents (git ≥ 2.38; issue #25
item 2), such as the forge's "update branch" merge. A merge whose tree differs, whose parents conflict
(the resolution is its own change), or of three or more parents is checked like any commit; with a git
older than 2.38 every merge is. Commits are read through GitPython; the message and the author are
author-controlled text, so a refusal names a commit by its id only and says which reason applies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..codes.repository import BASE_UNREADABLE, SIGNOFF_MISSING
from ..gitfail import reason
from ..refusal import Refusal

if TYPE_CHECKING:
    from git import Repo  # GitPython, imported at run time only where a repository is opened (check_signoff)

CODE = SIGNOFF_MISSING
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
    """What the sign-off check reads of one commit object: its tree and parents' ids (as the object
    writes them), its author's email and its message (decoded as UTF-8, any invalid byte replaced,
    both alike)."""

    tree: str
    parent_ids: tuple[str, ...]
    author_email: str
    message: str

    @property
    def parents(self) -> int:
        return len(self.parent_ids)


def read_commit(raw: bytes) -> CommitText:
    """A raw commit object's tree, parents, author email and message (git's commit object format):
    header lines up to the first empty line, the message after it. Never decodes by the object's own
    `encoding` header, so no header value can make reading fail."""
    header, _, message = raw.partition(b"\n\n")
    tree, parents, email = b"", [], b""
    for line in header.split(b"\n"):
        if line.startswith(b"tree ") and not tree:
            tree = line[5:]
        elif line.startswith(b"parent "):
            parents.append(line[7:].decode("ascii", "replace"))
        elif line.startswith(b"author ") and not email:
            m = AUTHOR.match(line)
            email = m.group("email") if m else b""
    return CommitText(tree.decode("ascii", "replace"), tuple(parents), email.decode("utf-8", "replace"),
                      message.decode("utf-8", "replace"))


# --- which merges carry change (issue #25 item 2) ------------------------------------------------------

MERGE_TREE_SINCE = (2, 38)
"""`git merge-tree --write-tree` (the clean merge of two commits, without a work tree) is git 2.38's."""
OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")

CLEAN = None
CHANGED = "changed"
CONFLICTED = "conflicted"
OCTOPUS = "octopus"
UNCOMPUTED = "uncomputed"
OLD_GIT = "old-git"

WHY_CHECKED = {
    CHANGED: "a merge whose tree is not the clean merge of its parents (git merge-tree --write-tree) carries a "
             "change of its own",
    CONFLICTED: "a merge whose parents conflict carries its own resolution",
    OCTOPUS: "a merge of three or more parents is always checked",
    UNCOMPUTED: "git cannot compute the clean merge of this merge's parents (git merge-tree --write-tree "
                "fails: unrelated histories, or objects it cannot read), so it is checked",
    OLD_GIT: "this git is older than 2.38 and cannot compute a merge's clean tree (git merge-tree "
             "--write-tree), so every merge is checked",
}


def git_version(repo: Repo) -> tuple[int, ...]:
    """The version of the git GitPython runs (`git version`), as numbers; () when it cannot be read."""
    try:
        return tuple(repo.git.version_info)
    except Exception:  # an unparsable or failing `git version`
        return ()


def merge_change(repo: Repo, text: CommitText, merge_tree: bool) -> str | None:
    """Why a merge commit carries change (a WHY_CHECKED key), or None for a clean merge of two parents:
    its tree is exactly what `git merge-tree --write-tree P1 P2` writes (exit 0, the tree id on its
    first line; git writes that tree's objects to the object database, nothing else). `merge_tree` is
    False for a git older than MERGE_TREE_SINCE: every merge then carries change (the conservative
    answer)."""
    if text.parents > 2:
        return OCTOPUS
    if not merge_tree:
        return OLD_GIT
    if not all(OBJECT_ID.fullmatch(p) for p in text.parent_ids):
        return UNCOMPUTED
    status, out, _ = repo.git.merge_tree("--write-tree", *text.parent_ids, with_extended_output=True,
                                         with_exceptions=False)
    if status == 1:
        return CONFLICTED
    if status != 0:
        return UNCOMPUTED
    clean = out.split("\n", 1)[0].strip()
    return CLEAN if clean == text.tree else CHANGED


class RepositoryUnreadable(Exception):
    """The directory is not a git repository, or its objects cannot be read (exit 4)."""


class HeadUnborn(Exception):
    """HEAD names no commit (a bad invocation: there is nothing to check)."""


class HeadUnresolved(Exception):
    """--head names no commit in the repository (a bad invocation)."""


def _commit_id(repo: Repo, rev: str) -> str:
    """The id of the commit `rev` names (a tag peeled), held by the object database; raises when it
    names none (GitPython resolves a 40-hex id without reading it, so its object is looked up)."""
    commit = repo.commit(rev)
    if repo.odb.info(commit.binsha).type != b"commit":
        raise ValueError("not a commit")
    return commit.hexsha


@dataclass
class SignoffReport:
    """`exchange signoff`'s result: the base and head commits, how many commits were checked (every
    commit that carries change, merges among them) and how many clean merges were not, the refusals
    (each with the commit it names, or None)."""

    base: str | None = None
    head: str | None = None
    commits: int = 0
    merges: int = 0
    refusals: list[tuple[Refusal, str | None]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.refusals

    def as_json(self) -> dict[str, Any]:
        return {
            "result": "pass" if self.passed else "fail",
            "base": self.base,
            "head": self.head,
            "commits": self.commits,
            "merges": self.merges,
            "refusals": [r.as_json() | {"commit": c} for r, c in self.refusals],
        } | ({"notes": self.notes} if self.notes else {})


def check_signoff(repository: str, base: str, head: str | None = None) -> SignoffReport:
    """Every commit that carries change in BASE..HEAD of the repository at `repository` (its root),
    checked for the author's sign-off; each commit's object read whole through GitPython's object
    database. `base` is a revision, or "auto" (pullrequest.resolve_auto); `head` a revision naming the
    pull request's head commit (None: HEAD). Raises RepositoryUnreadable, HeadUnborn, HeadUnresolved,
    or pullrequest.BaseUnresolved for `auto`."""
    import git

    from .pullrequest import AUTO, resolve_auto

    report = SignoffReport()
    try:
        repo = git.Repo(repository)
    except Exception as exc:  # InvalidGitRepositoryError, NoSuchPathError, …
        raise RepositoryUnreadable(f"{repository} is not the root of a git repository "
                                   f"({reason(exc)})") from exc
    try:
        if head is None:
            try:
                report.head = _commit_id(repo, "HEAD")
            except Exception as exc:
                raise HeadUnborn("HEAD names no commit yet; nothing to check") from exc
        else:
            try:
                report.head = _commit_id(repo, head)
            except Exception as exc:
                raise HeadUnresolved(f"--head names no commit in this repository ({reason(exc)}); fetch "
                                     "the pull request's head first (git fetch origin REF)") from exc
        if base == AUTO:
            if head is not None:
                raise HeadUnresolved("--head with --base auto: auto is the merge base with HEAD; name the "
                                     "pull request's base commit with --base REV")
            auto = resolve_auto(repository)
            report.notes.append(auto.describe())
            report.base = auto.commit
        else:
            try:
                report.base = _commit_id(repo, base)
            except Exception as exc:  # BadName, ValueError, … for a revision that names no commit
                report.refusals.append((Refusal(BASE_UNREADABLE, None,
                                                f"--base names no commit here ({reason(exc)}); fetch "
                                                "the base branch (git fetch) or name another revision"), None))
                return report
        merge_tree = None
        try:
            for commit in repo.iter_commits(f"{report.base}..{report.head}"):
                text = read_commit(repo.odb.stream(commit.binsha).read())
                why = None
                if text.parents > 1:
                    if merge_tree is None:
                        merge_tree = git_version(repo) >= MERGE_TREE_SINCE
                        if not merge_tree:
                            report.notes.append(f"git is older than {'.'.join(map(str, MERGE_TREE_SINCE))}: "
                                                "every merge needs a sign-off (CONTRIBUTING.md)")
                    why = merge_change(repo, text, merge_tree)
                    if why is CLEAN:
                        report.merges += 1
                        continue
                report.commits += 1
                finding = signoff_finding(text.message, text.author_email)
                if finding is not None:
                    detail = f"commit {commit.hexsha}: {WHY_CHECKED[why] + '; ' if why else ''}{REASONS[finding]}"
                    report.refusals.append((Refusal(CODE, None, detail), commit.hexsha))
        except Exception as exc:  # the object database failing mid-walk
            if exc.__class__.__module__.startswith(("git", "gitdb")):
                raise RepositoryUnreadable(f"the commits cannot be read ({reason(exc)})") from exc
            raise
    finally:
        repo.close()
    return report
