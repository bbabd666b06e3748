"""`exchange release TAG`: the one release command (docs/releasing.md; issue #10 item 1).

On a clean, up-to-date `main`: run the whole gate with history for TAG, append TAG's ledger row to
releases.json, commit "Release TAG" (the row is the commit's only change) and create the annotated
tag on that commit. Nothing is pushed: `git push origin main TAG` does that, and the release workflow
then checks the pushed tag.
"""

from __future__ import annotations

from ..gitfail import reason
import datetime
import os
from dataclasses import dataclass, field

from ..catalog.gate import CatalogUnreadable, GateOptions, check_catalog
from ..catalog.grammar import release_key
from ..history.ledger import LEDGER, LEDGER_MAX_BYTES, LedgerFormError, LedgerRow, read_ledger, render
from ..history.mainline import manifest_digest
from ..tree import TreeError, WorkingTree, read_regular

BAD_INVOCATION = 3


@dataclass
class Outcome:
    """The command's exit status and the lines it says (refusals carry their fix)."""

    status: int
    lines: list[str] = field(default_factory=list)


def _refuse(*lines: str, status: int = 1) -> Outcome:
    return Outcome(status, list(lines))


def _preconditions(repo, tag: str) -> str | None:
    """Why the repository is not a clean, up-to-date main with TAG free; None when it is."""
    if repo.head.is_detached or repo.active_branch.name != "main":
        return "not on main: a release is made on the main branch (git switch main)"
    if repo.is_dirty(untracked_files=True):
        return "the working tree is not clean: commit or remove every change first (git status)"
    tracking = repo.active_branch.tracking_branch()
    if tracking is not None:
        try:
            behind = int(repo.git.rev_list("--count", f"HEAD..{tracking.path}"))
        except Exception:  # an upstream that names no commit: git raises GitCommandError
            return f"main's upstream {tracking.name} cannot be read: git fetch first"
        if behind:
            return f"main is {behind} commit(s) behind {tracking.name}: git pull --ff-only first"
    if tag in {t.name for t in repo.tags}:
        return f"tag {tag} exists already: a release tag is never re-created; release under the next number"
    return None


def make_release(root: str, tag: str, today: datetime.date | None = None) -> Outcome:
    """Check, write the ledger row, commit and tag (see the module docstring)."""
    import git

    if release_key(tag) is None:
        return _refuse(f"{tag!r} is not a release tag vMAJOR.MINOR.PATCH (no leading zero, no suffix)",
                       status=BAD_INVOCATION)
    try:
        repo = git.Repo(root)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, OSError):
        return _refuse(f"{root} is not a git repository's root", status=BAD_INVOCATION)
    with repo:
        if repo.working_tree_dir is None or os.path.realpath(repo.working_tree_dir) != os.path.realpath(root):
            return _refuse(f"{root} is not a git repository's root", status=BAD_INVOCATION)
        why = _preconditions(repo, tag)
        if why:
            return _refuse(f"release {tag} refused: {why}")
        try:
            rows = read_ledger(read_regular(os.path.join(root, LEDGER), LEDGER_MAX_BYTES))
        except FileNotFoundError:
            return _refuse(f"release {tag} refused: there is no {LEDGER}; a catalog's ledger starts as [] (commit it)")
        except (OSError, LedgerFormError) as exc:
            return _refuse(f"release {tag} refused: {LEDGER} cannot be read ({exc})")
        if rows and rows[-1].version >= release_key(tag):
            return _refuse(f"release {tag} refused: it is not above the last release {rows[-1].tag} in tag order")
        try:
            report = check_catalog(WorkingTree(root), GateOptions(release_tag=tag, repository=root))
        except CatalogUnreadable as exc:
            return _refuse(f"release {tag} refused: the catalog cannot be read ({exc})", status=4)
        if not report.passed or report.history not in ("checked", "no-releases"):
            lines = [f"release {tag} refused: the gate does not pass (exchange check --release-tag {tag}):"]
            lines += [f"  {r.code}: {r.path or '-'}: {r.detail}" for r in report.refusals]
            return Outcome(1, lines)
        try:
            manifest = read_regular(os.path.join(root, "manifest.json"), 1 << 20)
        except OSError as exc:
            return _refuse(f"release {tag} refused: manifest.json cannot be read ({exc.strerror})", status=4)
        previous = repo.tags[rows[-1].tag].commit.hexsha if rows else None
        head = repo.head.commit.hexsha
        date = (today or datetime.datetime.now(datetime.timezone.utc).date()).isoformat()
        rows.append(LedgerRow(tag, manifest_digest(manifest), head, previous, date))
        try:
            with open(os.path.join(root, LEDGER), "wb") as fh:
                fh.write(render(rows))
            repo.git.add("--", LEDGER)
            repo.git.commit("-q", "-m", f"Release {tag}", "--", LEDGER)
            repo.git.tag("-a", tag, "-m", f"Catalog release {tag}")
        except (OSError, git.GitCommandError) as exc:
            return _refuse(f"release {tag}: writing the release failed ({reason(exc)}); "
                           f"restore with git reset --hard {head}", status=4)
        made = repo.head.commit.hexsha
    return Outcome(0, [f"released {tag}: commit {made} (checked at {head}), annotated tag {tag}",
                       f"push it: git push origin main {tag}"])
