"""A consumer's checks of a tagged release before import (RFC 0019 §7; docs/release-contract.md).

The release is the tag resolved to its commit (annotated tags peeled); every file is read as a blob
of that commit. The same gate as the catalog's CI runs on those bytes: the consumer relies on no
catalog CI result. History is read when asked (up to maxHistoryReleases earlier releases); without
it the report says `artifact-history-unchecked`, which is neither a refusal nor proof. Against a lock
(lock.py) it refuses a moved tag, a lower tag and an entry changed without an upgrade note, and holds
the release to the locked release as a previous manifest, whatever its ancestry (`retained_of`; issue
#25 item 3). Each entry's record is `pass` only when its checks ran (`entry_results`; item 4).
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..catalog.grammar import release_key
from ..codes.catalog import (
    ENTRY_CHANGED_WITHOUT_UPGRADE,
    FILE_UNREADABLE,
    LOCK_LOCATION_MISMATCH,
    MANIFEST_MALFORMED,
    MANIFEST_OVER_BOUND,
    RELEASE_TAG_INVALID,
    RELEASE_TAG_LOWER,
    RELEASE_TAG_MOVED,
)
from ..codes.history import (
    ARTIFACT_CONTENT_CHANGED,
    ARTIFACT_HISTORY_INVALID,
    ARTIFACT_HISTORY_UNCHECKED,
    RELEASE_LEDGER_INVALID,
)
from ..codes.repository import SKIPS_MALFORMED
from ..gate.pipeline import CatalogUnreadable, GateOptions, check_catalog
from ..gitfail import command_reason
from ..history.upgrade import changed_without_note
from ..quoting import cleared
from ..refusal import Refusal, Report
from ..tree import GitTree, TooLarge, TreeError, id_order
from .lock import FULL_COMMIT, Lock, Withdrawn, normal_location, without_credentials

if TYPE_CHECKING:
    from git import Repo  # GitPython, imported at run time where a location is opened (open_location)

    from ..history.model import Retained
    from .signed import Signing

UNCHECKED = ARTIFACT_HISTORY_UNCHECKED
MAX_HISTORY = 128
MOVED, LOWER, CHANGED = RELEASE_TAG_MOVED, RELEASE_TAG_LOWER, ENTRY_CHANGED_WITHOUT_UPGRADE
LOCATION_MISMATCH = LOCK_LOCATION_MISMATCH


class LocationError(Exception):
    """The catalog location, or an object of the release, cannot be read (exit 4)."""


@dataclass
class ReleaseCheck:
    """What a consumer retains and reviews: location, tag, resolved commit, the gate's report, and the
    lock state this release would record (`state`, when the check passed)."""

    location: str
    tag: str
    commit: str | None = None
    report: Report = field(default_factory=Report)
    state: Lock | None = None

    def as_json(self) -> dict[str, Any]:
        out = {"location": self.location, "tag": self.tag}
        if self.commit:
            out["commit"] = self.commit
        return out | self.report.as_json() | {"results": self.results()}

    def results(self) -> list[dict[str, Any]]:
        """Each checked entry's record for the import (docs/release-contract.md, "Each entry's record"):
        `refused` when a refusal of its own names it; else `not-checked`, with the refusals that stopped its
        checks (`stoppedBy`) and why (`reason`), when one of STOPPING refused the import; else `pass`."""
        return entry_results(self.report)


STOPPING: dict[str, str] = {
    MANIFEST_MALFORMED: "manifest.json could not be read: none of this entry's manifest pins (entryDigest, "
                          "dialectDigest, outputDigest, its fixture list) was checked",
    MANIFEST_OVER_BOUND: "manifest.json is over its bound and was not read: none of this entry's manifest pins "
                           "(entryDigest, dialectDigest, outputDigest, its fixture list) was checked",
    FILE_UNREADABLE: "manifest.json is not a file that could be read (a directory, a symlink or a submodule): none "
                       "of this entry's manifest pins (entryDigest, dialectDigest, outputDigest, its fixture list) "
                       "was checked",
    ARTIFACT_HISTORY_INVALID: "the release history could not be read whole: this entry's artifact pair and "
                                "upgrade keys were not held to the previous releases",
    RELEASE_LEDGER_INVALID: "the release ledger could not be read: no previous release was read to hold this "
                              "entry's artifact pair and upgrade keys to",
    SKIPS_MALFORMED: "skips.json could not be read: the acknowledgement of this entry's skipped fixture was not "
                       "read",
}
"""The refusals that stop the entry checks (issue #25 item 4, issue #34 item 5): after one of them no entry it
stops is `pass`, since what it stopped was part of that entry's check. `file-unreadable` stops them only when it
is manifest.json's (STOPPING_PATH: of an entry's own file it names that entry); `skips-malformed` stops only an
entry with a skipped fixture (SOME_ENTRIES: an entry whose every fixture replayed needs no acknowledgement).
Every other refusal either names its entry or leaves each entry's own checks whole (a manifest row out of
order, a stray file): those entries keep `pass` beside the import's `fail`."""
STOPPING_PATH = {FILE_UNREADABLE: "manifest.json"}
SOME_ENTRIES = {SKIPS_MALFORMED: "skipped"}


def stops(refusal: Refusal) -> bool:
    """Whether `refusal` is one that stops the entry checks (STOPPING, on STOPPING_PATH's file where it names one)."""
    if refusal.code not in STOPPING:
        return False
    path = STOPPING_PATH.get(refusal.code)
    return path is None or refusal.path == path


def entry_results(report: Report) -> list[dict[str, Any]]:
    """`ReleaseCheck.results` for a gate's report."""
    stopped = list(dict.fromkeys(r.code for r in report.refusals if stops(r)))
    refused = {r.entry for r in report.refusals if not stops(r)}
    skipped = {s.entry for s in report.skipped}
    out: list[dict[str, Any]] = []
    for entry_id in report.checked:
        mine = [code for code in stopped if code not in SOME_ENTRIES or entry_id in skipped]
        if entry_id in refused:
            out.append({"id": entry_id, "result": "refused"})
        elif mine:
            out.append({"id": entry_id, "result": NOT_CHECKED, "stoppedBy": mine,
                        "reason": "; ".join(STOPPING[code] for code in mine)})
        else:
            out.append({"id": entry_id, "result": "pass"})
    return out


NOT_CHECKED = "not-checked"


_CLASS_NAME = re.compile(r" \([A-Z][A-Za-z]*(?:Error|Exception|Object|Name)\)")


def unreadable(exc: Exception) -> str:
    """An object-database failure for a consumer: what could not be read and what to do, without the
    exception class the tree's message carries (issue #10 item 8)."""
    return (_CLASS_NAME.sub("", str(exc)) + "; the repository is incomplete or damaged: fetch the release again "
            "(git fetch --tags), or see git fsck")


def full_commit(value: str) -> str:
    """A full 40-hex commit id, lowercased; ValueError (a bad invocation) for anything else."""
    if FULL_COMMIT.fullmatch(value.lower()) is None:
        raise ValueError("--expect-commit takes a full commit id: 40 hexadecimal digits")
    return value.lower()


def open_location(location: str, workdir: str) -> Repo:
    """A local directory holding the catalog's repository, or a git URL cloned bare into `workdir`."""
    import git

    try:
        if os.path.isdir(location):
            return git.Repo(location)
    except Exception as exc:  # GitPython raises several types for a directory that is no repository
        raise LocationError(f"{location}: not a git repository (give the directory holding the catalog's "
                            "repository, or its git URL)") from exc
    if os.path.exists(location):
        raise LocationError(f"{location}: not a directory (give the directory holding the catalog's repository, "
                            "or its git URL)")
    try:  # never a prompt for credentials: a location that asks for them is one git cannot read here
        return git.Repo.clone_from(location, os.path.join(workdir, "catalog.git"), bare=True, no_checkout=True,
                                   env={"GIT_TERMINAL_PROMPT": "0"})
    except Exception as exc:  # GitPython raises GitCommandError and others for a location it cannot clone
        raise LocationError(f"{without_credentials(location)}: no such directory, and git cannot clone it as a "
                            f"repository ({command_reason(exc)})") from exc


TAG_INVALID = RELEASE_TAG_INVALID
NOT_A_TAG_FIX = ("Give a release tag in §3's grammar, vMAJOR.MINOR.PATCH: git ls-remote --tags LOCATION lists the "
                 "catalog's tags.")
NO_TAG_FIX = ("Give a tag the catalog offers (git ls-remote --tags LOCATION lists them); import nothing from a tag "
              "that is not there.")
NOT_A_COMMIT_FIX = ("Do not import it: a release tag resolves to a commit. Ask the catalog's maintainers to restore "
                    "the tag on its release commit, or check another release.")
"""The consumer's fixes for `release-tag-invalid` (registered with the maintainer's: delete and re-tag), set
on each refusal resolve_tag makes: release-check and upgrade-diff are a consumer's, who cannot re-tag."""


def resolve_tag(repo: Repo, tag: str) -> tuple[str | None, Refusal | None]:
    """The commit a release tag names (§7): the grammar, a tag that exists, a commit once peeled; each
    refusal carries the consumer's fix."""
    if release_key(tag) is None:
        return None, Refusal(TAG_INVALID, None, f"{tag!r} is not a release tag vMAJOR.MINOR.PATCH",
                             fix=NOT_A_TAG_FIX)
    try:
        ref = repo.tags[tag]
    except (IndexError, KeyError):
        return None, Refusal(TAG_INVALID, None, f"no tag {tag} in the catalog", fix=NO_TAG_FIX)
    try:
        obj = ref.object
        while obj.type == "tag":
            obj = obj.object
    except Exception:  # GitPython raises ValueError, BadName or others for a damaged reference
        return None, Refusal(TAG_INVALID, None, f"{tag} cannot be resolved: its reference or tag object is damaged",
                             fix=NOT_A_COMMIT_FIX)
    if obj.type != "commit":
        return None, Refusal(TAG_INVALID, None, f"{tag} resolves to a {obj.type}, not a commit", fix=NOT_A_COMMIT_FIX)
    return obj.hexsha, None


def lock_refusals(repo: Repo, location: str, tag: str, lock: Lock) -> list[Refusal]:
    """The lock's rules before any gate runs: the same catalog, no lower tag, the locked tag unmoved."""
    out: list[Refusal] = []
    given = normal_location(location)
    if given != normal_location(lock.location):  # one form for both: path or file:// URL, no trailing slash
        shown = without_credentials(location)  # neither side's credentials are printed (an older lock may hold them)
        named = given if given == shown else f"{shown} ({given})"
        out.append(Refusal(LOCATION_MISMATCH, None, f"the lock records the catalog location "
                                                    f"{without_credentials(lock.location)}, not "
                                                    f"{named}; check the catalog the lock records, or use this "
                                                    "catalog's own lock"))
        return out
    key, locked = release_key(tag), release_key(lock.tag)
    if key is not None and locked is not None and key < locked:  # a tag outside the grammar is no lower release
        out.append(Refusal(LOWER, None, f"{tag} is lower than the locked {lock.tag}: a consumer never moves to a "
                                        "lower release"))
    commit, refusal = resolve_tag(repo, lock.tag)
    if refusal is not None:
        out.append(Refusal(MOVED, None, f"the locked {lock.tag} no longer resolves to the locked commit "
                                        f"{lock.commit}: {refusal.detail}"))
    elif commit != lock.commit:
        out.append(Refusal(MOVED, None, f"the locked {lock.tag} now resolves to {commit}, not the locked "
                                        f"{lock.commit}"))
    return out


def retained_of(lock: Lock | None, commit: str | None) -> Retained | None:
    """The locked release as a held previous manifest (§7 "The consumer retains the catalog location, tag,
    resolved commit and manifest for the import"; issue #25 item 3), or None: no lock, or the lock's own
    commit being checked (the release itself, not a previous one)."""
    if lock is None or commit is None or commit == lock.commit:
        return None
    from ..history.model import Retained

    return Retained(lock.tag, lock.commit, lock.manifest_digest, f"the locked {lock.tag}")


def gate(repo: Repo, tag: str, commit: str, *, entries: list[str] | None, history: int | None,
         lock: Lock | None = None) -> Report:
    """The catalog's own gate on the release's blobs (§§4, 7); LocationError when an object is unreadable.
    With `lock`, the locked release is a held previous manifest whatever the tag's ancestry (`retained_of`):
    with history, one more previous release; without, the only one, and history says `checked` with a
    note saying so."""
    path = repo.git_dir if repo.bare else repo.working_tree_dir
    retained = retained_of(lock, commit)
    options = GateOptions(entries=entries or [], history=history is not None, repository=str(path),
                          release_tag=tag, max_history=history, spdx=False,  # §3's grammar; the list only notes
                          retained=retained, side_releases=False)  # the tag's own history (issue #34 item 3)
    try:
        report = check_catalog(GitTree(repo, commit), options)
    except (TreeError, CatalogUnreadable) as exc:
        raise LocationError(f"{tag} at {commit}: {unreadable(exc)}") from exc
    if history is None and retained is None:
        report.history = UNCHECKED
    elif history is None and report.history == "checked" and retained is not None:  # retained: the branch above
        report.notes.append(f"history: only {retained.name} was read (--no-history): the release's artifact pairs "
                            "were held to it, withdrawn entries included, and its upgrade keys by their form only")
    if retained is not None and lock is not None:  # retained_of holds a release only from a lock
        note = ancestry_note(repo, tag, commit, lock)
        if note:
            report.notes.append(note)
    return report


def ancestry_note(repo: Repo, tag: str, commit: str, lock: Lock) -> str | None:
    """A note when the release does not descend from the locked commit (§7: "No branch ancestry is checked by
    the consumer", so it is never refused for that); None when it does or git cannot tell."""
    try:
        if repo.is_ancestor(repo.commit(lock.commit), repo.commit(commit)):  # Commits, as GitPython's types ask
            return None
    except Exception:  # GitPython raises GitCommandError and others when git cannot tell
        return None
    return (f"{tag} ({commit}) does not descend from the locked {lock.tag} ({lock.commit}): no branch ancestry is "
            "checked by the consumer (RFC 0019 §7), so this is not refused; the locked release was held as a previous "
            "release all the same")


def state_of(repo: Repo, location: str, tag: str, commit: str, checked: list[str], lock: Lock | None = None,
             forget: frozenset[str] = frozenset()) -> Lock:
    """The lock a passing check records: the manifest's digest and each checked entry's entryDigest; and, held
    from `lock` (issue #34 item 4), every entry withdrawn: the lock's own withdrawn ones and each entry of the
    lock's release absent from this one, at the release, commit and entryDigest it was imported at — less those
    the reviewer forgot (`forget`) and those this release imports again."""
    from ..catalog import documents as docs
    from ..catalog.manifest import read_manifest

    tree = GitTree(repo, commit)
    try:
        data = tree.read("manifest.json", docs.MANIFEST_BOUND)
    except (TreeError, TooLarge) as exc:
        raise LocationError(f"{tag} at {commit}: manifest.json: {unreadable(exc)}") from exc
    rows = read_manifest(tree).rows
    entries = {i: rows[i]["entryDigest"] for i in checked if i in rows}
    withdrawn = dict(lock.withdrawn) if lock is not None else {}
    if lock is not None and lock.commit != commit:
        withdrawn |= {i: Withdrawn(lock.tag, lock.commit, digest) for i, digest in lock.entries.items()
                      if i not in rows}
    withdrawn = {i: w for i, w in withdrawn.items() if i not in forget and i not in entries}
    return Lock(normal_location(location), tag, commit, "sha256:" + hashlib.sha256(data).hexdigest(), entries,
                withdrawn)


def withdrawn_name(entry_id: str, held: Withdrawn) -> str:
    """How a refusal names a withdrawn entry's import, as the release it was published in."""
    return f"the lock (withdrawn, imported at {held.tag} {held.commit})"


def withdrawn_refusals(repo: Repo, commit: str, held: dict[str, Withdrawn], report: Report) -> tuple[list[Refusal],
                                                                                               list[str]]:
    """Hold the release's artifact pairs to every withdrawn entry the lock keeps (issue #34 item 4; §7:
    "Withdrawal does not permit changed content under the pair"), whatever the release's ancestry: each withdrawn
    entry.json is read at the commit it was imported at and held to the entryDigest imported
    (`artifact-history-invalid` otherwise, never a fall-back to form only); a pair of this release published
    there with another canonical digest is `artifact-content-changed` naming the withdrawn entry; the same
    content is admitted, noted. A pair the gate already refused for that entry is not said twice."""
    from ..catalog import documents as docs
    from ..catalog.directory import entry_path
    from ..catalog.manifest import read_manifest
    from ..history.forms import HistoricalFormError, read_entry
    from ..history.identity import history_artifact_refusals_of
    from ..history.model import CurrentEntry, Facts, HistoricalRow

    refusals: list[Refusal] = []
    rows: list[HistoricalRow] = []
    for entry_id, was in sorted(held.items(), key=lambda item: id_order(item[0])):
        path = f"{entry_path(entry_id)}/entry.json"
        where = f"withdrawn {entry_id}, imported at {was.tag} ({was.commit})"
        try:
            data = GitTree(repo, was.commit).read(path, docs.ENTRY_BOUND)
        except (TreeError, TooLarge) as exc:
            refusals.append(Refusal(ARTIFACT_HISTORY_INVALID, path, f"{where}: its entry.json cannot be read from "
                                    f"the location ({unreadable(exc)}); the lock holds its artifact pair"))
            continue
        found = "sha256:" + hashlib.sha256(data).hexdigest()
        if found != was.entry_digest:
            refusals.append(
                Refusal(
                    ARTIFACT_HISTORY_INVALID,
                    path,
                    f"{where}: its entry.json digests to {found}, "
                    f"not the imported entryDigest {was.entry_digest}: not the entry that was imported",
                )
            )
            continue
        try:
            pinned = read_entry(data)
        except HistoricalFormError as exc:
            refusals.append(Refusal(ARTIFACT_HISTORY_INVALID, path, f"{where}: its entry.json is malformed ({exc})"))
            continue
        rows.append(HistoricalRow(withdrawn_name(entry_id, was), entry_id, was.entry_digest, pinned.pair,
                                  pinned.dialect_digest))
    tree = GitTree(repo, commit)
    manifest = read_manifest(tree)
    current: list[CurrentEntry] = []
    for _entry_id, row in manifest.rows.items():
        read = docs.read_json(tree, f"{row['path']}/entry.json", docs.ENTRY_BOUND)
        if read.refusal is None and isinstance(read.value, dict):
            current.append(CurrentEntry.from_entry(row["path"], read.value))
    facts = Facts.of(rows)
    said = {(r.code, r.entry) for r in report.refusals}
    changed = [r for r in history_artifact_refusals_of(current, facts)
               if (ARTIFACT_CONTENT_CHANGED, r.entry) not in said]
    refusals += changed
    refused = {r.entry for r in changed}
    notes: list[str] = []
    for entry in current:
        for digest, places in facts.pairs.get(entry.artifact, {}).items() if entry.artifact else ():
            if digest == entry.dialect_digest and entry.id not in refused:
                for withdrawn_id, _ in places:
                    if withdrawn_id != entry.id:
                        was = held[withdrawn_id]
                        notes.append(f"{entry.id} publishes the artifact pair of {withdrawn_id} ({was.shown()}) with "
                                     "the same content: admitted (identical content under a pair is not a change)")
    return refusals, notes


def unnoted_change_refusals(repo: Repo, commit: str, lock: Lock,
                            approved: frozenset[str]) -> tuple[list[Refusal], list[str]]:
    """Each locked entry whose entryDigest changed in this release must carry an `upgrade` note keyed by
    the locked entryDigest (§3 upgrade; §7 reviewed upgrade: history/upgrade.changed_without_note, the one rule),
    or be named by the reviewer (`approved`);
    a locked entry absent from this release is withdrawn (noted, never refused: §7)."""
    from ..catalog import documents as docs
    from ..catalog.manifest import read_manifest

    tree = GitTree(repo, commit)
    rows = read_manifest(tree).rows
    refusals: list[Refusal] = []
    notes: list[str] = []
    for entry_id, locked in sorted(lock.entries.items(), key=lambda item: id_order(item[0])):
        row = rows.get(entry_id)
        if row is None:
            notes.append(f"{entry_id} is withdrawn from this release; it stays imported at {lock.commit}")
            continue
        if row["entryDigest"] == locked:  # unchanged: its entry.json is not read
            continue
        read = docs.read_json(tree, f"{row['path']}/entry.json", docs.ENTRY_BOUND)
        notes_of = read.value.get("upgrade") if isinstance(read.value, dict) else None
        if not changed_without_note(locked, row["entryDigest"], notes_of):
            continue
        if entry_id in approved:
            notes.append(f"{entry_id} changed without an upgrade note keyed by {locked}; approved by the reviewer "
                         "(--approve-change)")
            continue
        refusals.append(Refusal(CHANGED, f"{row['path']}/entry.json", f"entryDigest changed from the locked {locked} "
                                f"to {row['entryDigest']}, and entry.json has no upgrade note keyed by {locked}; "
                                "review it with exchange upgrade-diff LOCATION --lock FILE TAG",
                                entry=entry_id))
    return refusals, notes


def check_open(repo: Repo, location: str, tag: str, *, entries: list[str] | None, history: int | None,
               expect_commit: str | None, lock: Lock | None, approved: frozenset[str],
               forget: frozenset[str] = frozenset(), signing: Signing | None = None) -> ReleaseCheck:
    """release_check on a repository already open; `signing` (consumer/signed.Signing: --signers, --require-signed)
    and the lock's signers hold the release's signature (issue #36)."""
    result = ReleaseCheck(without_credentials(location), tag)  # printed: a URL's credentials removed
    result.report.checks = ["release tag"]  # what was checked, when a refusal comes before the gate
    commit, refusal = resolve_tag(repo, tag)
    result.commit = commit
    if refusal and lock is not None and tag == lock.tag:
        # the locked release itself is gone or damaged: the lock's rule names it (release-tag-moved, or
        # another catalog's lock), not release-tag-invalid (docs/release-contract.md, "The lock")
        result.report.checks.append("the lock")
        result.report.refusals.extend(lock_refusals(repo, location, tag, lock) or [refusal])
        return result
    if refusal and expect_commit and release_key(tag) is not None:
        result.report.checks.append("the retained commit")
        result.report.refusals.append(Refusal(
            MOVED, None, f"{tag} no longer resolves to the retained {expect_commit}: {refusal.detail}"))
        return result
    if refusal:
        result.report.refusals.append(refusal)
        return result
    assert commit is not None  # resolve_tag gives a commit whenever it gives no refusal
    if expect_commit:
        result.report.checks.append("the retained commit")
        if commit != expect_commit:
            result.report.refusals.append(Refusal(
                MOVED, None, f"{tag} now resolves to {commit}, not the retained {expect_commit}"))
            return result
    if lock is not None:
        result.report.checks.append("the lock")
        refusals = lock_refusals(repo, location, tag, lock)
        if refusals:
            result.report.refusals.extend(refusals)
            return result
    from .signed import Signing, check_signatures

    signed = check_signatures(repo, tag, commit, signing=signing or Signing(), lock=lock, history=history)
    if signed.checked:
        result.report.checks.append("the release's signature")
    if signed.refusals:  # a release whose signature the consumer's trust refuses is not gated (docs/signing.md)
        result.report.refusals.extend(signed.refusals)
        return result
    checks = result.report.checks
    result.report = gate(repo, tag, commit, entries=entries, history=history, lock=lock)
    result.report.checks = checks + result.report.checks
    result.report.notes.extend(signed.notes)
    if lock is not None:
        hold_withdrawn(repo, commit, lock, forget, result.report)
    if lock is not None and result.report.passed and commit != lock.commit:
        _add_cleared(result.report, *unnoted_change_refusals(repo, commit, lock, approved))
    if result.report.passed:
        result.state = state_of(repo, location, tag, commit, result.report.checked, lock, forget)
        if signed.signers:  # a lock holding signers: version 3 (consumer/lock.py)
            from dataclasses import replace

            result.state = replace(result.state, signers=signed.signers, tag_object=signed.tag_object)
    return result


def hold_withdrawn(repo: Repo, commit: str, lock: Lock, forget: frozenset[str], report: Report) -> None:
    """The lock's withdrawn entries held to the release after the gate (`withdrawn_refusals`), their refusals and
    notes cleared as the gate's are; an entry the reviewer forgets (`--forget`) is noted, and no longer held."""
    held = {i: w for i, w in lock.withdrawn.items() if i not in forget}
    refusals, notes = withdrawn_refusals(repo, commit, held, report) if held else ([], [])
    notes += [f"{i} ({lock.withdrawn[i].shown()}) forgotten by the reviewer (--forget): the lock no longer keeps it, "
              "nor holds its artifact pair" for i in sorted(forget) if i in lock.withdrawn]
    if refusals or notes:
        report.checks.append("the lock's withdrawn entries")
        _add_cleared(report, refusals, notes)


def _add_cleared(report: Report, refusals: list[Refusal], notes: list[str]) -> None:
    """What the consumer found after the gate's own last step, added to its report as the gate shows its own:
    a name only where its grammar and the scan clear it (`quoting.cleared`)."""
    added = cleared(Report(refusals=refusals, notes=notes))
    report.refusals.extend(added.refusals)
    report.notes.extend(added.notes)


def release_check(location: str, tag: str, *, entries: list[str] | None = None, history: int | None = MAX_HISTORY,
                  expect_commit: str | None = None, lock: Lock | None = None,
                  approved: frozenset[str] = frozenset(), forget: frozenset[str] = frozenset(),
                  signing: Signing | None = None) -> ReleaseCheck:
    """Verify a tagged release before import (§7); `history` None reads no history. `expect_commit` is a
    full 40-hex commit id (ValueError otherwise); `lock` holds the release to what was imported."""
    expected = full_commit(expect_commit) if expect_commit is not None else None
    with tempfile.TemporaryDirectory(prefix="exchange-release-") as workdir:
        repo = open_location(location, workdir)
        try:
            return check_open(repo, location, tag, entries=entries, history=history, expect_commit=expected,
                              lock=lock, approved=approved, forget=forget, signing=signing)
        finally:
            repo.close()
