"""The history check the gate calls (RFC 0019 §§3, 4, 7): releases, upgrade keys, artifact identity."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, cast

from ..codes.history import ARTIFACT_HISTORY_INVALID, RELEASE_LEDGER_MISSING, RELEASE_TAG_INVALID
from ..gitfail import reason
from ..refusal import Refusal
from ..tree import ObjectStore, ReleaseTree, TooLarge, TreeError
from .identity import history_artifact_refusals_of
from .ledger import LEDGER, LEDGER_MAX_BYTES
from .mainline import above_note, first_parent_chain, hold_ledger, off_main_note, plain_base, resolve_main, side_note
from .model import CHECKED, NO_RELEASES, CurrentEntry, Facts, HistoryResult, Release, Retained
from .tags import TagListingError, Tags, list_releases, previous_releases, release_key
from .upgrade import latest_released, unknown_key_refusals_of
from .walk import MANIFEST, Walk, read_history

if TYPE_CHECKING:
    from git import Repo


def _open(repo_path: str) -> Repo:
    import git

    try:
        return git.Repo(repo_path)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, OSError) as exc:
        raise TagListingError(f"{repo_path} is not a git repository ({reason(exc)})") from exc


class _Tip(enum.Enum):
    """The type of TIP alone (a sentinel a type checker tells apart from the ledger's bytes)."""

    TIP = enum.auto()  # no string: a string constant of history/ would be a schema word


TIP: Final = _Tip.TIP
"""`ledger=TIP`: the checked tree's releases.json is main's own (a direct call on a repository)."""


def check_history(
    repo_path: str,
    current: Sequence[CurrentEntry],
    *,
    release_tag: str | None = None,
    base: str | None = None,
    max_releases: int | None = None,
    ledger: bytes | None | _Tip = TIP,
    anchor: str | None = None,
    base_ledger: tuple[bytes | None] | None = None,
    manifest: bytes | None = None,
    main: tuple[str, str] | None = None,
    entries_read: dict[str, object] | None = None,
    retained: Retained | None = None,
    side_releases: bool = True,
    plain: bool = False,
) -> HistoryResult:
    """Hold the candidate release's upgrade keys and artifact pairs to every previous release (§§3, 7).

    The previous releases are the release ledger's rows (releases.json, `ledger`: the checked tree's
    bytes, None when it has none), each at the commit on main's first-parent history that added it,
    corroborated by the tags (mainline.hold_ledger); a catalog with no ledger anywhere reads main's
    tags alone. With `release_tag`, only releases lower in tag order are previous (O11 otherwise).
    `anchor` is the commit a check of one commit reads (its own first-parent history is "main");
    `base_ledger` is a pull request's base ledger, which the change may not alter, and `main` its main:
    (the commit, its name), the upstream default branch as fetched (issue #17 item 2). `max_releases`
    is a consumer's maxHistoryReleases (§7). The within-release identity check is `artifact_refusals`.
    `entries_read` maps the sha256 digest of an entry.json's bytes to their strict reading, where the
    caller has read them already (the checked tree's entries): a release pinning those bytes is not
    read again (issue #20). `retained` is a previous release the caller holds apart from the tags (a
    consumer's lock, §7): held to its manifestDigest and read as one more previous release, whatever the
    checked commit's ancestry (`_retained_release`; issue #25 item 3).

    `side_releases` (the gate, `exchange release`): a tag in the grammar below the release being made whose
    commit is off main's first-parent history is a previous release too, for artifact identity and upgrade
    keys (RFC 0019 §7: "wherever its commit is"; issue #34 item 3); a consumer's check of one tag passes
    False and reads the tag's own first-parent history alone. Upgrade notes (`released`) key by main's
    ledger only. `plain`: a plain `exchange check` of a working tree (no --base, --commit or --release-tag):
    a HEAD that is not main's tip and does not descend from it has its ledger judged against the merge base
    of HEAD and main, as `--base auto` judges it (mainline.plain_base; issue #34 items 1, 2).

    The cyclic garbage collector is paused while the history is read (issue #20): the walk makes many
    long-lived objects and no cycles, so the collections their number sets off would find nothing and
    cost a sixth of the walk's time. It is left as the caller had it.
    """
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        return _check_history(repo_path, current, release_tag=release_tag, max_releases=max_releases, ledger=ledger,
                              anchor=anchor, base_ledger=base_ledger, manifest=manifest, main=main,
                              entries_read=entries_read, retained=retained, side_releases=side_releases,
                              plain=plain)
    finally:
        if collecting:
            gc.enable()


def _check_history(repo_path: str, current: Sequence[CurrentEntry], *, release_tag: str | None,
                   max_releases: int | None, ledger: bytes | None | _Tip, anchor: str | None,
                   base_ledger: tuple[bytes | None] | None, manifest: bytes | None,
                   main: tuple[str, str] | None, entries_read: dict[str, object] | None,
                   retained: Retained | None = None, side_releases: bool = True,
                   plain: bool = False) -> HistoryResult:
    if release_tag is not None and release_key(release_tag) is None:
        return HistoryResult(
            CHECKED, [Refusal(RELEASE_TAG_INVALID, None, f"{release_tag!r} is not a tag in §3's release-tag grammar")]
        )
    repo = None
    refusals: list[Refusal] = []
    try:
        repo = _open(repo_path)
        store = ObjectStore(repo)
        tags = list_releases(repo, store)
        notes = tags.notes
        if release_tag in tags.not_commits:
            detail = f"{release_tag} resolves to a {tags.not_commits[release_tag]}, not a commit"
            return HistoryResult(CHECKED, [Refusal(RELEASE_TAG_INVALID, None, detail)], notes=notes)
        tip: str | None
        if main is not None:
            tip, tip_name = main
        elif anchor is not None:
            tip, tip_name = anchor, f"the checked commit {anchor[:12]}"
        else:  # one idea of main (issue #26 item 1), said once when there was a choice
            chosen = resolve_main(repo, store)
            tip, tip_name = chosen.tip, chosen.name
            started = plain_base(repo, store, chosen, ledger) if plain and release_tag is None else None
            if started is not None:  # a stale clone, or a branch not on main's tip (issue #34 items 1, 2)
                base_ledger = (started.ledger,)
                notes = notes + [started.note]  # in place of the note on which main was read
            else:
                notes = notes + ([chosen.note] if chosen.note else [])
        if ledger is TIP:
            blob = ReleaseTree(store, tip, tip_name).blob_id(LEDGER) if tip is not None else None
            ledger = None if blob is None else store.blob(blob, LEDGER_MAX_BYTES, LEDGER)
        walk = Walk(store, entries_read)  # one reading of each manifest serves the ledger's check and the walk
        held = hold_ledger(store, tags, ledger, tip=tip, tip_name=tip_name, release_tag=release_tag,
                           base_ledger=base_ledger, manifest=manifest, manifest_digest_of=walk.manifest_digest,
                           side_releases=side_releases)
        if held is None:
            releases, refusals, more, side = _tags_on_main(store, tags, tip, tip_name, release_tag, side_releases)
            notes = notes + more
            previous = previous_releases(releases, release_tag)
        else:
            refusals, notes, previous, side = held.refusals, notes + held.notes, held.previous, held.side
        on_main = {release.tag for release in previous}
        if side:  # previous releases off main (RFC 0019 §7; issue #34 item 3), in tag order with main's
            previous = sorted([*previous, *side], key=lambda release: release.version)
            notes = notes + [side_note(len(previous), side)]
        if retained is not None:  # one more previous release, held to what was retained (issue #25 item 3)
            extra, unread = _retained_release(store, walk, retained, previous)
            refusals, previous = list(refusals) + unread, list(previous) + extra
        if max_releases is not None and len(previous) > max_releases:
            return HistoryResult(
                CHECKED,
                refusals + [_invalid(f"{len(previous)} previous releases, over the stated limit of {max_releases}")],
                [r.tag for r in previous],
                notes,
            )
        history = read_history(store, previous, walk)
    except TagListingError as exc:
        return HistoryResult(CHECKED, refusals + [_invalid(str(exc))])
    except TooLarge as exc:
        return HistoryResult(CHECKED, refusals + [_invalid(f"the object database cannot be read: {exc}")])
    except TreeError as exc:
        return HistoryResult(
            CHECKED,
            refusals
            + [
                _invalid(
                    f"the object database cannot be read (a clone missing "
                    f"objects or history: git fetch --unshallow --tags): {exc}"
                )
            ],
        )
    finally:
        if repo is not None:
            repo.close()
    refusals = list(refusals) + list(history.refusals)
    facts = history.facts  # each distinct fact once, with its releases (not a row per release)
    refusals += history_artifact_refusals_of(current, facts)
    if history.manifests_read:
        refusals += unknown_key_refusals_of(current, facts, len(previous))
    status = CHECKED if previous else NO_RELEASES
    if side:  # an upgrade note is keyed by main's releases only (issue #34 item 3)
        facts = Facts({key: [tag for tag in tags if tag in on_main] for key, tags in facts.entries.items()})
    return HistoryResult(status, refusals, [r.tag for r in previous], notes, latest_released(facts))


def check_retained(repo_path: str, current: Sequence[CurrentEntry], retained: Retained, *,
                   entries_read: dict[str, object] | None = None) -> HistoryResult:
    """Hold the candidate release to one retained release alone (RFC 0019 §7: "Checks against the current
    release and held previous manifests still apply"): a consumer who reads none of the tag's own history
    (`--no-history`) but holds its lock. The retained release is read as `check_history` reads a previous
    one and artifact pairs are held to it, withdrawn entries included; upgrade keys keep their form-only
    check, since a key may name an earlier release that is not held. artifact-history-invalid when it
    cannot be read or its manifest is not the one retained (issue #25 item 3)."""
    repo = None
    try:
        repo = _open(repo_path)
        store = ObjectStore(repo)
        walk = Walk(store, entries_read)
        releases, refusals = _retained_release(store, walk, retained, [])
        history = read_history(store, releases, walk)
    except TagListingError as exc:
        return HistoryResult(CHECKED, [_invalid(str(exc))])
    except (TooLarge, TreeError) as exc:
        return HistoryResult(CHECKED, [_invalid(f"the object database cannot be read: {exc}")])
    finally:
        if repo is not None:
            repo.close()
    facts = history.facts
    refusals = refusals + list(history.refusals) + history_artifact_refusals_of(current, facts)
    return HistoryResult(CHECKED, refusals, [r.tag for r in releases], [], latest_released(facts))


def _retained_release(store: ObjectStore, walk: Walk, retained: Retained,
                      previous: Sequence[Release]) -> tuple[list[Release], list[Refusal]]:
    """The retained release as a previous release for the walk: ([it], []) once its manifest at its commit
    is the retained manifestDigest; ([], []) when `previous` already holds its commit (read there, once);
    ([], [artifact-history-invalid]) when it cannot be read or its manifest is another, never a fall-back
    to form only (§7: "A malformed previous manifest ... refuses the release")."""
    where = f"{retained.name} ({retained.commit})"
    try:
        blob = ReleaseTree(store, retained.commit, retained.name).blob_id(MANIFEST)
        found = None if blob is None else walk.manifest_digest(blob)
    except TooLarge as exc:
        return [], [Refusal(ARTIFACT_HISTORY_INVALID, MANIFEST, f"{where}: manifest.json is over its bound: {exc}")]
    except TreeError as exc:
        return [], [_invalid(f"{where} cannot be read from the location ({exc}); fetch the release you imported "
                             "again (git fetch --tags), or see git fsck")]
    if found != retained.manifest_digest:
        return [], [Refusal(ARTIFACT_HISTORY_INVALID, MANIFEST, f"{where}: manifest.json digests to "
                            f"{found or '(no manifest.json)'}, not the retained manifestDigest "
                            f"{retained.manifest_digest}: this is not the manifest that was imported")]
    if any(release.commit == retained.commit for release in previous):
        return [], []
    version = cast("tuple[int, int, int]", release_key(retained.tag))  # a lock's tag is in the grammar (consumer.lock)
    return [Release(retained.name, version, retained.commit)], []


def _tags_on_main(store: ObjectStore, tags: Tags, tip: str | None, tip_name: str, release_tag: str | None,
                  side_releases: bool = False) -> tuple[list[Release], list[Refusal], list[str], list[Release]]:
    """A catalog without a ledger: its releases are the tags on main's first-parent history (item 2);
    a release commit holding releases.json means the ledger was removed (release-ledger-missing). With
    `release_tag`, tags above it are out of scope: noted, never read (docs/releasing.md, "Main"). With
    `side_releases`, a tag below the release off main's first-parent history is a previous release for
    artifact identity and upgrade keys (the fourth value; issue #34 item 3), else noted and ignored."""
    on_main = set(first_parent_chain(store, tip))
    made = release_key(release_tag) if release_tag else None
    releases: list[Release] = []
    refusals: list[Refusal] = []
    notes: list[str] = []
    side: list[Release] = []
    for release in tags.releases:
        if made is not None and release_tag is not None and release.version > made:  # made: release_tag's key
            if release.commit in on_main:  # out of scope, as with a ledger (issue #16 item 5)
                notes.append(above_note(release, release_tag, tip_name))
        elif release.commit in on_main:
            releases.append(release)
            if ReleaseTree(store, release.commit, release.tag).blob_id(LEDGER) is not None:
                refusals.append(Refusal(RELEASE_LEDGER_MISSING, LEDGER, f"releases.json is missing, but release "
                                        f"{release.tag}'s commit holds one: the ledger was removed"))
        elif side_releases and (made is None or release.version < made):
            side.append(release)
        elif made is None or release.version <= made:
            notes.append(off_main_note(store, release, tip, tip_name))
    return releases, refusals[:1], notes, side


def _invalid(detail: str) -> Refusal:
    return Refusal(ARTIFACT_HISTORY_INVALID, None, detail)
