"""`exchange release TAG`: the one release command (docs/releasing.md; issue #10 item 1, issue #16 item 6).

On a clean, up-to-date `main`: run the whole gate with history for TAG on HEAD's committed tree (the
commit the release commit's first parent is, RFC 0019 §7: a release is the commit its tag names), append
TAG's ledger row, computed from HEAD's blobs, to releases.json, commit "Release TAG" (the row is the
commit's only change; signed off by the committer, `git commit -s`: RFC 0019 §6, issue #25 item 2) and
create the annotated tag on that commit. A working tree that git reports clean while it holds other
bytes than HEAD (skip-worktree, assume-unchanged, ignored files where the gate reads) is refused: what
the maintainer sees is what is released. A release that publishes nothing new (RELEASED
the same objects as at the last release's commit) is refused, except the empty manifest of a catalog
without entries (RFC 0019 §7). Nothing is pushed: `git push origin main TAG` does that, and the release
workflow then checks the pushed tag.
"""

from __future__ import annotations

import datetime
import json
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..catalog import documents as docs
from ..catalog.grammar import release_key
from ..codes.history import RELEASE_LEDGER_INVALID, UPGRADE_NOTE_MISSING
from ..gate.pipeline import CatalogUnreadable, GateOptions, check_catalog
from ..gitfail import reason
from ..history.ledger import LEDGER, LEDGER_MAX_BYTES, LedgerFormError, LedgerRow, read_ledger, render
from ..history.mainline import first_parent_chain, manifest_digest
from ..history.tags import TagListingError, list_releases
from ..refusal import Report
from ..tree import FILE, MISSING, GitTree, ReleaseTree, TooLarge, TreeError, id_order, kind_text
from . import signed

if TYPE_CHECKING:
    from git import Repo

ENTRIES = b"entries/"
ROOT_FILES = ("manifest.json", LEDGER, "skips.json", "verifier-pin.json")
"""The catalog's files at the repository root the gate reads (docs/entry-format.md, docs/skips.md,
docs/verifier-pin.md): with entries/, where an ignored file would change what a working tree holds."""

RELEASED = ("manifest.json", "entries", "skips.json", "verifier-pin.json")
"""What a release publishes (RFC 0019 §7: the manifest and the entries it pins, with the catalog's
acknowledged skips and the pinned verifier that checked it): a release changes at least one of them."""

BAD_INVOCATION = 3


@dataclass
class Outcome:
    """The command's exit status, the lines it says (refusals carry their fix), and on a release the
    gate's report with the name it was checked under (the command prints its summary)."""

    status: int
    lines: list[str] = field(default_factory=list)
    report: Report | None = None
    checked: str | None = None


def _refuse(*lines: str, status: int = 1) -> Outcome:
    return Outcome(status, list(lines))


def _preconditions(repo: Repo, tag: str) -> str | None:
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


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _where(paths: list[bytes]) -> str:
    """How many of `paths` lie under entries/ and how many elsewhere, in words (never a name: a name under
    entries/ is an author's and has passed no grammar here; issue #11 item 3)."""
    inside = sum(1 for p in paths if p.startswith(ENTRIES))
    parts = [_count(inside, "file") + " under entries/"] if inside else []
    if len(paths) - inside:
        parts.append(_count(len(paths) - inside, "file") + " outside entries/")
    return " and ".join(parts)


def hidden_states(repo: Repo) -> list[str]:
    """Why the working tree may hold other bytes than HEAD while `git status` is clean, one line each;
    [] when it cannot (issue #16 item 6). Read from the index's flags (`git ls-files -v`: an S tag is
    skip-worktree, a lowercase tag assume-unchanged) and from the ignored files under entries/ and at the
    catalog's root files (`git ls-files --others --ignored --exclude-standard`), NUL-separated bytes."""
    lines: list[str] = []
    flagged = repo.git.ls_files("-z", "-v", stdout_as_string=False).split(b"\0")
    skip = [item[2:] for item in flagged if item[:2] in (b"S ", b"s ")]
    assume = [item[2:] for item in flagged if item[:1].islower() and item[1:2] == b" "]
    for paths, flag, listing, clear, compares in (
            (skip, "skip-worktree", "'^[Ss] '", "--no-skip-worktree -- PATH (a sparse checkout marks files so "
             "too: git sparse-checkout disable)", "compare"),
            (assume, "assume-unchanged", "'^[a-z] '", "--no-assume-unchanged -- PATH", "look at")):
        if paths:
            verb, them = ("is", "it") if len(paths) == 1 else ("are", "them")
            lines.append(f"{_where(paths)} {verb} marked {flag}: git status does not {compares} {them}, so the "
                         "working tree may not hold the bytes that are committed and released. List them with "
                         f"git ls-files -v | grep {listing}; clear each with git update-index {clear}, then git "
                         "status")
    ignored = [p for p in repo.git.ls_files("-z", "--others", "--ignored", "--exclude-standard", "--",
                                            "entries", *ROOT_FILES, stdout_as_string=False).split(b"\0") if p]
    inside = [p for p in ignored if p.startswith(ENTRIES)]
    if inside:
        verb = "is" if len(inside) == 1 else "are"
        lines.append(f"{_count(len(inside), 'file')} under entries/ {verb} ignored (.gitignore, .git/info/exclude "
                     "or core.excludesFile): git status does not show them, and an entry directory holds no "
                     "file its commit does not. List them with git ls-files --others --ignored --exclude-standard "
                     "-- entries; remove them, or commit them by their own pull request")
    # the first component is one of ROOT_FILES (a name of ours, safe to print), whatever lies under it
    root = sorted({p.split(b"/", 1)[0].decode("ascii", "replace") for p in ignored if not p.startswith(ENTRIES)})
    if root:
        lines.append(f"{', '.join(root)} at the root {'is' if len(root) == 1 else 'are'} ignored and not committed: "
                     "the gate reads the committed catalog, without it. Remove it, or commit it by its own "
                     "pull request")
    return lines


def _above_on_main(tree: GitTree, tag: str) -> str | None:
    """Why TAG is not above every release tag on HEAD's first-parent history (the release workflow's rule,
    docs/releasing.md): a tag the ledger does not record is out of the gate's scope above TAG (issue #16
    item 5), so the command names it here rather than make a release the workflow refuses."""
    made = cast("tuple[int, int, int]", release_key(tag))  # make_release held TAG to the grammar
    try:
        on_main = set(first_parent_chain(tree.store, tree.commit))
        above = [r.tag for r in list_releases(tree.repo, tree.store).releases
                 if r.commit in on_main and r.version > made]
    except (TagListingError, TreeError) as exc:
        return f"the release tags cannot be read ({exc}): git fetch --tags origin, or see git fsck"
    if not above:
        return None
    names, one = ", ".join(above), len(above) == 1
    return (f"{names} on main's first-parent history {'is' if one else 'are'} above {tag}, and the ledger "
            f"does not record {'it' if one else 'them'} (a tag made by hand): a release is above every release "
            f"tag on main, or the release workflow refuses it. Delete {'it' if one else 'each'} "
            f"(git tag -d {above[0]}; git push --delete origin {above[0]}), then release again")


def _committed_ledger(tree: GitTree) -> tuple[list[LedgerRow] | None, str | None]:
    """HEAD's releases.json rows, or why they cannot be read (the ledger row is computed from HEAD's blobs):
    a ledger that is there but not a regular file, over its bound or out of its form is named by its code,
    release-ledger-invalid, whose fix restores it (issue #25 item 5)."""
    node = tree.stat(LEDGER)
    if node.kind == MISSING:
        return None, f"there is no {LEDGER} at HEAD; a catalog's ledger starts as [] (commit it)"
    invalid = f"{RELEASE_LEDGER_INVALID}: {LEDGER} at HEAD"
    if node.kind != FILE:
        return None, f"{invalid} is {kind_text(node.kind)}, not a regular file"
    try:
        return read_ledger(tree.read(LEDGER, LEDGER_MAX_BYTES)), None
    except TooLarge as exc:
        return None, f"{invalid} is over 1 MiB ({exc.size} bytes)"
    except LedgerFormError as exc:
        return None, f"{invalid} cannot be read ({exc})"


def unchanged_since(tree: GitTree, last: LedgerRow) -> bool | None:
    """Whether HEAD publishes what the last release did: each of RELEASED the same object (blob or tree id)
    at HEAD as at the commit the ledger's last row was checked at, or absent at both. None when that
    commit cannot be read (the gate's history check then says why)."""
    try:
        then = ReleaseTree(tree.store, last.commit, f"{last.tag}@{last.commit[:12]}")
        return all(tree.object_id(path) == then.object_id(path) for path in RELEASED)
    except TreeError:
        return None


def without_entries(tree: GitTree) -> bool:
    """HEAD is a catalog with no entries: the empty manifest, [], and no entry directory (no entries/, or one
    holding nothing but its README.md, as this repository ships it; issue #26 item 6). RFC 0019 §7: it may
    be released."""
    try:
        if json.loads(tree.read("manifest.json", 16)) != []:
            return False
        listed = tree.list("entries") if tree.stat("entries").kind == "directory" else []
        return all(node.kind == FILE and node.name == "README.md" for node in listed)
    except (TreeError, TooLarge, ValueError):
        return False


def _rows_at(tree: ReleaseTree) -> dict[str, dict[str, Any]]:
    """manifest.json's rows by id at a commit ({} when it cannot be read as rows)."""
    read = docs.read_json(tree, "manifest.json", docs.MANIFEST_BOUND)
    rows = read.value if read.refusal is None and isinstance(read.value, list) else []
    return {row["id"]: row for row in rows if isinstance(row, dict) and isinstance(row.get("id"), str)}


def consumers_see(tree: GitTree, last: LedgerRow | None, unnoted: set[str]) -> list[str]:
    """What a consumer locked to the last release is told of this one (issue #26 item 4), one line each, from
    the manifests' rows and each entry's directory object: added, withdrawn, changed with its upgrade note,
    changed without one (refused: `entry-changed-without-upgrade`), and changed elsewhere than entry.json (a
    README: listed, never refused). Ids are rows the gate has just held to §3's grammar and the scan."""
    if last is None:
        return []
    then = ReleaseTree(tree.store, last.commit, f"{last.tag}@{last.commit[:12]}")
    before, now = _rows_at(then), _rows_at(tree)
    lines = []
    for entry_id in sorted(before.keys() | now.keys(), key=id_order):
        old, new = before.get(entry_id), now.get(entry_id)
        if old is None:
            lines.append(f"  {entry_id}: added")
        elif new is None:
            lines.append(f"  {entry_id}: withdrawn (a locked consumer keeps it, at {last.tag}'s commit)")
        elif old.get("entryDigest") != new.get("entryDigest"):
            lines.append(f"  {entry_id}: changed without an upgrade note keyed by its {last.tag} entryDigest: a "
                         "consumer locked to it is refused (entry-changed-without-upgrade) until its reviewer "
                         "approves it by hand" if entry_id in unnoted else
                         f"  {entry_id}: changed, with an upgrade note keyed by its {last.tag} entryDigest")
        elif then.object_id(str(old.get("path"))) != tree.object_id(str(new.get("path"))):
            lines.append(f"  {entry_id}: files changed outside entry.json (a README, say): shown, not refused")
    return lines


def make_release(root: str, tag: str, today: datetime.date | None = None,
                 approved: frozenset[str] = frozenset(), sign: bool = False) -> Outcome:
    """Check HEAD's committed tree, write the ledger row from HEAD's blobs, commit and tag (the module
    docstring; docs/releasing.md, "Cutting a release"); with `sign`, the tag signed by git's SSH signing and
    verified by the project's verifier against the set that governs it (releasing/signed.py; docs/signing.md)."""
    import git

    tag_key = release_key(tag)
    if tag_key is None:
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
            hidden = hidden_states(repo)
        except git.GitCommandError as exc:
            return _refuse(f"release {tag} refused: the index cannot be read ({reason(exc)})", status=4)
        if hidden:
            return Outcome(1, [f"release {tag} refused: the working tree may differ from HEAD, which is what "
                               "is released, in a way git status does not show:"] + [f"  {line}" for line in hidden])
        try:
            tree = GitTree(repo, "HEAD", own=True)  # the maintainer's own committed tree: its pin may run
        except TreeError as exc:
            return _refuse(f"release {tag} refused: HEAD cannot be read ({exc})", status=4)
        head = tree.commit
        if sign:  # a signed release needs release-signers at HEAD, in its form (issue #36 item 2)
            why = signed.own_signers_refusal(tree)
            if why:
                return _refuse(f"release {tag} --sign refused: {why}")
        try:
            rows, why = _committed_ledger(tree)
        except TreeError as exc:
            return _refuse(f"release {tag} refused: {LEDGER} at HEAD cannot be read ({exc})", status=4)
        if rows is None:
            return _refuse(f"release {tag} refused: {why}")
        if rows and rows[-1].version >= tag_key:
            return _refuse(f"release {tag} refused: it is not above the last release {rows[-1].tag} in tag order")
        why = _above_on_main(tree, tag)
        if why:
            return _refuse(f"release {tag} refused: {why}")
        notes = []
        same = bool(rows) and unchanged_since(tree, rows[-1])
        if same and not without_entries(tree):
            return _refuse(f"release {tag} refused: nothing changed since the last release {rows[-1].tag}: HEAD's "
                           "manifest.json, entries/, skips.json and verifier-pin.json are the objects of the commit "
                           f"{rows[-1].tag} was checked at ({rows[-1].commit}), so {tag} would publish the same "
                           "catalog again. Merge the change to release first (an entry added, changed or withdrawn, a "
                           f"skips.json acknowledgement, a move of the verifier pin), then run exchange release {tag}")
        if same:
            notes.append(f"note: nothing changed since the last release {rows[-1].tag}; a catalog without entries "
                         "may release the empty manifest, [] (RFC 0019 §7)")
        try:
            report = check_catalog(tree, GateOptions(release_tag=tag, repository=root))
        except CatalogUnreadable as exc:
            return _refuse(f"release {tag} refused: the catalog cannot be read ({exc})", status=4)
        if not report.passed or report.history not in ("checked", "no-releases"):
            lines = [f"release {tag} refused: the gate does not pass on HEAD's committed tree {head} "
                     f"(exchange check --release-tag {tag}):"]
            lines += [f"  {r.code}: {r.path or '-'}: {r.detail}" for r in report.refusals]
            return Outcome(1, lines)
        # what a consumer locked to the last release will be told; a change it would refuse needs the
        # maintainer's explicit --approve-change ID (issue #26 item 4)
        unnoted = {w.entry for w in report.warnings if w.code == UPGRADE_NOTE_MISSING and w.entry}
        seen = consumers_see(tree, rows[-1] if rows else None, unnoted)
        if seen:
            notes += [f"note: what a consumer locked to {rows[-1].tag} is told of {tag}:", *seen]
        held = sorted(unnoted - approved, key=id_order)
        if held:
            first = held[0]
            return Outcome(1, [f"release {tag} refused: {len(held)} released entr{'y' if len(held) == 1 else 'ies'} "
                               f"changed without an upgrade note: {', '.join(held)}; a consumer locked to "
                               f"{rows[-1].tag} is refused the change (entry-changed-without-upgrade) until its "
                               "reviewer approves it by hand",
                               f"  fix: tell them what changed (exchange upgrade-note {first} TEXT, then commit "
                               f"entry.json and manifest.json), or release anyway, naming each entry: exchange "
                               f"release {tag} " + " ".join(f"--approve-change {e}" for e in held), *seen])
        try:
            manifest = tree.read("manifest.json", docs.MANIFEST_BOUND)  # the blob the gate checked
        except (TreeError, TooLarge) as exc:
            return _refuse(f"release {tag} refused: manifest.json at HEAD cannot be read ({exc})", status=4)
        if repo.head.commit.hexsha != head:
            return _refuse(f"release {tag} refused: HEAD moved from {head} while the gate ran; run it again")
        previous = repo.tags[rows[-1].tag].commit.hexsha if rows else None
        plan = signed.plan(repo, tree, tag, previous) if sign else None
        if isinstance(plan, str):
            return _refuse(f"release {tag} --sign refused: {plan}")
        date = (today or datetime.datetime.now(datetime.timezone.utc).date()).isoformat()
        rows.append(LedgerRow(tag, manifest_digest(manifest), head, previous, date))
        try:
            with open(os.path.join(root, LEDGER), "wb") as fh:
                fh.write(render(rows))
            repo.git.add("--", LEDGER)
            repo.git.commit("-q", "-s", "-m", f"Release {tag}", "--", LEDGER)  # signed off (RFC 0019 §6)
            if plan is None:
                repo.git.tag("-a", tag, "-m", f"Catalog release {tag}")
        except (OSError, git.GitCommandError) as exc:
            return _refuse(f"release {tag}: writing the release failed ({reason(exc)}); "
                           f"restore with git reset --hard {head}", status=4)
        made = repo.head.commit.hexsha
        if plan is not None:  # git signs; the project's verifier checks what it made before anything is said
            problem = signed.sign_and_verify(repo, plan, made, manifest_digest(manifest))
            if problem:
                return _refuse(f"release {tag} --sign refused: {problem}; nothing was pushed, and the release commit "
                               f"{made} remains: undo it with git reset --hard {head}, then release again")
            notes += plan.warnings
    return Outcome(0, notes + [f"released {tag}: commit {made} (checked at {head}), "
                               f"{'signed' if sign else 'annotated'} tag {tag}",
                               f"push it: git push origin main {tag}"],
                   report=report, checked=f"{root} at HEAD {head} (--release-tag {tag})")
