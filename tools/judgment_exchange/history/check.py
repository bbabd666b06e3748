"""The history check the gate calls (RFC 0019 §§3, 4, 7): releases, upgrade keys, artifact identity."""

from __future__ import annotations

from collections.abc import Sequence

from ..refusal import Refusal
from ..tree import TreeError
from .codes import ARTIFACT_HISTORY_INVALID, RELEASE_TAG_INVALID
from .identity import history_artifact_refusals
from .model import CHECKED, NO_RELEASES, CurrentEntry, HistoryResult
from ..tree import ObjectStore
from .tags import TagListingError, list_releases, previous_releases, release_key
from .upgrade import upgrade_refusals
from .walk import read_history


def _open(repo_path: str):
    import git

    try:
        return git.Repo(repo_path)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, OSError) as exc:
        raise TagListingError(f"{repo_path} is not a git repository ({exc.__class__.__name__})") from exc


def check_history(
    repo_path: str,
    current: Sequence[CurrentEntry],
    *,
    release_tag: str | None = None,
    base: str | None = None,
    max_releases: int | None = None,
) -> HistoryResult:
    """Hold the candidate release's upgrade keys and artifact pairs to every previous release (§§3, 7).

    With `release_tag`, the previous releases are the releases lower in tag order; otherwise (a pull
    request with `base`, or a plain push) every existing release is (O11). `base` selects nothing
    here: it only marks a pull request. `max_releases` is a consumer's maxHistoryReleases (§7): more
    previous releases than that is artifact-history-invalid. The within-release identity check is
    `artifact_refusals`, which the gate calls separately.
    """
    del base
    if release_tag is not None and release_key(release_tag) is None:
        return HistoryResult(
            CHECKED, [Refusal(RELEASE_TAG_INVALID, None, f"{release_tag!r} is not a tag in §3's release-tag grammar")]
        )
    repo = None
    try:
        repo = _open(repo_path)
        store = ObjectStore(repo)
        tags = list_releases(repo, store)
        notes = tags.notes
        if release_tag in tags.not_commits:
            detail = f"{release_tag} resolves to a {tags.not_commits[release_tag]}, not a commit"
            return HistoryResult(CHECKED, [Refusal(RELEASE_TAG_INVALID, None, detail)], notes=notes)
        previous = previous_releases(tags.releases, release_tag)
        if max_releases is not None and len(previous) > max_releases:
            return HistoryResult(
                CHECKED,
                [_invalid(f"{len(previous)} previous releases, over the stated limit of {max_releases}")],
                [r.tag for r in previous],
                notes,
            )
        history = read_history(store, previous)
    except TagListingError as exc:
        return HistoryResult(CHECKED, [_invalid(str(exc))])
    except TreeError as exc:
        return HistoryResult(CHECKED, [_invalid(f"the object database cannot be read: {exc}")])
    finally:
        if repo is not None:
            repo.close()
    refusals = list(history.refusals)
    refusals += history_artifact_refusals(current, history.rows)
    if history.manifests_read:
        refusals += upgrade_refusals(current, history.rows, len(previous))
    status = CHECKED if previous else NO_RELEASES
    return HistoryResult(status, refusals, [r.tag for r in previous], notes)


def _invalid(detail: str) -> Refusal:
    return Refusal(ARTIFACT_HISTORY_INVALID, None, detail)
