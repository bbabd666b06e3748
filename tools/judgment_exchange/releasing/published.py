"""The release workflow's own checks of a pushed release tag, and its release notes (RFC 0019 §7, the
producer's rule; docs/releasing.md, "What the release workflow checks"; issue #24 item 2).

They were inline Python in `.github/workflows/release.yml`, started at the tag's root, where a merged root
`json/` or `subprocess.py` would have been imported first. As parts of the installed package, they run
from the gate's own environment (`exchange release-verify`, `exchange release-notes`) and read the
repository as objects.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..catalog.grammar import release_key
from ..gitfail import reason
from ..history.ledger import LEDGER, LEDGER_MAX_BYTES, LedgerFormError, LedgerRow, read_ledger
from ..quoting import digest, entry_id
from ..tree import GitTree, TooLarge, TreeError

if TYPE_CHECKING:
    from git import Repo

MAIN = "refs/remotes/origin/main"
"""Main as the release workflow's checkout fetched it (fetch-depth 0: every branch as origin's)."""

REPORT_BOUND = 64 << 20
"""The gate's JSON report read by `release-notes`: far above any catalog's (one line per refusal and fixture)."""


class RepositoryUnreadable(Exception):
    """The repository, its main or the tag cannot be read at all (exit 4)."""


@dataclass
class Verdict:
    """What `exchange release-verify` found: the tag's commit, and each problem (none: the tag may publish)."""

    commit: str | None = None
    problems: list[str] = field(default_factory=list)


def _ledger(repo: Repo, rev: str) -> list[LedgerRow] | None:
    """The ledger at `rev`, read as a blob; None when it is absent or unreadable."""
    try:
        return read_ledger(GitTree(repo, rev).read(LEDGER, LEDGER_MAX_BYTES))
    except (TreeError, TooLarge, LedgerFormError, OSError):
        return None


def verify_pushed_tag(repository: str, tag: str, main: str = MAIN) -> Verdict:
    """The pushed tag TAG against the repository (issue #10 item 1's rule, moved out of release.yml): in the
    release-tag grammar; naming a commit on `main`'s first-parent history; new (the ledger at the commit's
    first parent does not record it); its commit adds exactly TAG's ledger row, whose `commit` is that first
    parent, and changes no other file; above every release the ledger records and every release tag on main.
    Raises RepositoryUnreadable when the repository or `main` cannot be read."""
    import git

    verdict = Verdict()
    key = release_key(tag)
    if key is None:
        verdict.problems.append("the tag is not a release tag (vMAJOR.MINOR.PATCH, no leading zero, no suffix)")
        return verdict
    try:
        repo = git.Repo(repository)
    except Exception as exc:  # InvalidGitRepositoryError, NoSuchPathError, …
        raise RepositoryUnreadable(f"{repository}: not a git repository ({reason(exc)})") from exc
    try:
        try:
            chain = repo.git.rev_list("--first-parent", main).split()
        except Exception as exc:  # GitCommandError: main names no commit
            raise RepositoryUnreadable(f"{main} names no commit ({reason(exc)}); fetch main first (git fetch origin "
                                       "main), or name the branch the release was cut from with --main REF (a clone "
                                       "with no origin: --main main)") from exc
        try:
            commit = repo.git.rev_parse("--verify", "--quiet", f"refs/tags/{tag}^{{commit}}")
        except Exception:  # GitCommandError: no such tag, or it names no commit
            verdict.problems.append(f"{tag} does not resolve to a commit")
            return verdict
        verdict.commit = commit
        if commit not in set(chain):
            verdict.problems.append(f"{tag} names {commit}, which is not on main's first-parent history")
            return verdict
        verdict.problems += _ledger_problems(repo, tag, key, commit, set(chain))
        if not verdict.problems:  # a signing catalog's tag keeps issue #36's rule (releasing/signed.py)
            from .signed import pushed_tag_problems

            rows = _ledger(repo, commit)
            row = rows[-1] if rows else None
            verdict.problems += pushed_tag_problems(repo, tag, commit, row.previous if row is not None else None)
    finally:
        repo.close()
    return verdict


def _ledger_problems(repo: Repo, tag: str, key: tuple[int, int, int], commit: str, main: set[str]) -> list[str]:
    """The ledger rules of a release commit (its first parent is the released commit; docs/releasing.md)."""
    try:
        parent = repo.git.rev_parse("--verify", "--quiet", f"{commit}^1")
    except Exception:  # a root commit has no first parent
        return [f"{commit} has no parent: a release commit adds a ledger row on top of the released commit"]
    before, after = _ledger(repo, parent), _ledger(repo, commit)
    if before is None:
        return [f"{parent} has no readable {LEDGER}"]
    if after is None:
        return [f"{commit} has no readable {LEDGER}"]
    if tag in [row.tag for row in before]:
        return [f"{tag} existed before (the ledger at {parent} records it): a re-pushed or moved tag is refused"]
    problems = []
    if not after or after[:-1] != before or after[-1].tag != tag or after[-1].commit != parent:
        problems.append(f"{commit} does not add exactly the ledger row of {tag}: release with `exchange release {tag}`")
    changed = [name for name in repo.git.diff("--name-only", "-z", "--no-renames", parent, commit).split("\0") if name]
    if changed != [LEDGER]:
        problems.append(f"{commit} changes more than {LEDGER}")
    if any(row.version >= key for row in before):
        problems.append(f"{tag} is not above every release the ledger records")
    higher = []
    for name in repo.git.tag("--list").split():
        version = release_key(name)
        if name == tag or version is None or version < key:
            continue
        if repo.git.rev_parse(f"refs/tags/{name}^{{commit}}") in main:
            higher.append(name)
    if higher:
        problems.append(f"{tag} is not above the existing release tags on main {', '.join(sorted(higher))}")
    return problems


# --- the release notes ----------------------------------------------------------------------------------


class ReportUnreadable(Exception):
    """The gate's JSON report is not one JSON object of the gate's form (exit 4)."""


def read_report(data: bytes) -> dict[str, Any]:
    """The gate's `--format json` report (one object); ReportUnreadable otherwise."""
    try:
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ReportUnreadable(f"not one JSON object ({exc})") from exc
    if not isinstance(value, dict) or not isinstance(value.get("result"), str):
        raise ReportUnreadable("not the gate's report (no result)")
    return value


def report_passed(report: dict[str, Any]) -> bool:
    """The release's verdict (docs/releasing.md): the gate passed, with history checked (or no release yet)."""
    return report.get("result") == "pass" and report.get("history") in ("checked", "no-releases")


def refusal_lines(report: dict[str, Any]) -> list[str]:
    """The report's refusals as `code: detail` lines (the gate cleared every detail before writing it)."""
    lines = []
    for item in report.get("refusals") or []:
        if isinstance(item, dict):
            lines.append(f"{item.get('code')}: {item.get('detail')}")
    if report.get("result") == "pass" and not report_passed(report):
        lines.append(f"history: {report.get('history')} (a release's history must be checked)")
    return lines or [f"result: {report.get('result')}"]


def manifest_rows(repository: str, commit: str) -> list[tuple[str, str, str]]:
    """(id, kind, entryDigest) of each row of manifest.json at `commit`, each shown only within its grammar."""
    from ..catalog import documents as docs

    read = docs.read_json(GitTree(repository, commit), "manifest.json", docs.MANIFEST_BOUND)
    rows = read.value if read.refusal is None and isinstance(read.value, list) else []
    out = []
    for row in rows:
        if isinstance(row, dict):
            kind: str = row["kind"] if row.get("kind") in ("dialect", "preset") else "<a kind not shown>"
            out.append((entry_id(row.get("id")) or "<an id not shown>", kind, digest(row.get("entryDigest"))))
    return out


def release_notes(tag: str, commit: str, report: dict[str, Any], rows: list[tuple[str, str, str]]) -> str:
    """The release's notes (Markdown): every entry, every skipped fixture with its reason, the reader used."""
    out = [f"Catalog release {tag} at commit {commit}. Verify it yourself before import "
           "(docs/release-contract.md); this workflow's result is the producer's, not yours.\n",
           "## Entries\n"]
    out += [f"- {entry} ({kind}): {pinned}" for entry, kind, pinned in rows] or ["- none (the empty manifest)"]
    out.append("\n## Skipped fixtures (held by their digests only; RFC 0019 §4)\n")
    skipped = [s for s in report.get("skipped") or [] if isinstance(s, dict)]
    out += [f"- {s.get('entry')} / {s.get('fixture')}: {s.get('reason')} (reader: {s.get('reader', '?')})"
            for s in skipped] or ["- none"]
    reader = found if isinstance(found := report.get("reader"), dict) else {}
    used = reader.get("name") or "the bundled preparation verifier"
    fallback = f" ({reader['fallback']})" if reader.get("fallback") else ""
    out.append(f"\n## Reader\n\nFixtures were replayed by {used}{fallback}.")
    readers = sorted({r["reader"] for r in report.get("replays") or [] if isinstance(r, dict) and r.get("reader")})
    out.append(f"Readers per fixture: {', '.join(readers) or 'no fixture replayed'}; "
               f"{report.get('replayed', 0)} fixture(s) recomputed with agreement.")
    return "\n".join(out) + "\n"
