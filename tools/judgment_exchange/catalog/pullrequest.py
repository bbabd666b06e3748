"""A pull request's touched entries (RFC 0019 §6: one entry per pull request; interfaces.md `--base`)."""

from __future__ import annotations

from ..refusal import Refusal


class BaseUnreadable(Exception):
    """The base revision or the repository could not be read."""


def touched_entries(repository: str, base: str, commit: str | None = None) -> list[str]:
    """Ids of the entries whose files differ between `base` and `commit`, or, with no commit, the
    working tree (untracked files included)."""
    import git

    try:
        repo = git.Repo(repository)
        try:
            repo.commit(base)
            if commit is None:
                names = repo.git.diff("--name-only", "-z", "--no-renames", base).split("\0")
                names += repo.untracked_files
            else:
                names = repo.git.diff("--name-only", "-z", "--no-renames", base, commit).split("\0")
        finally:
            repo.close()
    except Exception as exc:  # GitPython raises several types for a bad revision or repository
        raise BaseUnreadable(f"{base}: cannot be compared ({exc.__class__.__name__})") from exc
    ids = set()
    for name in names:
        parts = name.split("/")
        if len(parts) >= 4 and parts[0] == "entries":
            ids.add(f"{parts[1]}.{parts[2]}")
    return sorted(ids, key=lambda i: i.encode("utf-8"))


def one_entry_refusal(touched: list[str], base: str) -> Refusal | None:
    """More than one entry changed against the base: the repository's rule is one per pull request."""
    if len(touched) <= 1:
        return None
    return Refusal("one-entry-per-pull-request", None,
                   f"this change touches {len(touched)} entries against {base} ({', '.join(touched)}); "
                   "RFC 0019 §6 takes one entry per pull request: split it")
