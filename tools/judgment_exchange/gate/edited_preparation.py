"""A preparation.json edited by hand, told without `--base` (issue #34 item 7; docs/fix.md).

A `preparation-digest-mismatch` says "Run `exchange fix`", which is right for a stale pin over an unedited
recording (a digest member mistyped). Over a preparation.json edited by hand that fix refuses: `exchange fix`
replays before it pins, and never re-pins an edited recording. With `--base`, a preparation.json the pull request
changed is told to re-record (`replay.rerecord_changed`). Without it, the repository's history still tells: when
the commit that recorded the fixture holds the preparation.json entry.json's preparationDigest pins, and every
other file of the fixture is that recording's, preparation.json alone was edited
(`repository.recorded.History.pinned_preparation`). The refusal's fix then says so, with the `git checkout` that
restores it from that commit, or the re-recording. Anything else (no repository, no such commit, another file
changed too, a refusal that already has its own fix) keeps the registry's fix.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..catalog import documents as docs
from ..coderecord import FIXTURE_REPLACE
from ..codes.catalog import PREPARATION_DIGEST_MISMATCH
from ..quoting import FIXTURE_FILES, split_path
from ..refusal import Refusal
from ..tree import Tree, TreeError

if TYPE_CHECKING:
    from ..catalog.directory import EntryCheck
    from ..repository.recorded import History

MISMATCH = PREPARATION_DIGEST_MISMATCH


def restore_fix(commit: str, fixture_path: str, entry_path: str, name: str, prefix: str) -> str:
    """The fix of an edited preparation.json: restore it from the commit that recorded it, or re-record (the
    commands printed whole only when the fixture's path is within its grammar)."""
    why = ("preparation.json itself was edited after it was recorded, and a recorded preparation is never edited: "
           "exchange fix does not re-pin an edited recording. ")
    if split_path(fixture_path)[1] is not None:
        return (f"{why}Restore preparation.json from the commit that recorded it (git checkout {commit} -- FILE), "
                f"or re-record the fixture from a Runner run (`{FIXTURE_REPLACE}`).")
    where = " (from the catalog's directory)" if prefix else ""
    return (f"{why}Restore it with `git checkout {commit} -- {fixture_path}/preparation.json`{where}, or re-record "
            f"the fixture from a Runner run (`exchange fixture add {entry_path} RUN_EXPORT --name {name} --replace`).")


def name_edited_preparations(tree: Tree, refusals: list[Refusal], checks: list[EntryCheck],
                             history: History) -> list[Refusal]:
    """`refusals`, each `preparation-digest-mismatch` with no fix of its own whose preparation.json alone was edited
    since the commit that recorded the fixture given its fix `restore_fix`, its detail naming that commit."""
    wanted = {r.path for r in refusals if r.code == MISMATCH and r.fix is None}
    if not wanted:
        return refusals
    for check in checks:
        for fixture in check.fixtures:
            path = f"{fixture.path}/preparation.json"
            if path not in wanted or fixture.preparation_digest is None:
                continue
            try:
                files: dict[str, bytes | None] = {
                    n: tree.read(f"{fixture.path}/{n}", docs.FIXTURE_DIRECTORY_BOUND)
                    for n in FIXTURE_FILES if n in fixture.files}
            except (TreeError, OSError):
                continue
            commit = history.pinned_preparation(fixture.path, fixture.preparation_digest, files)
            if commit is None:
                continue
            fix = restore_fix(commit, fixture.path, check.path, fixture.name, history.prefix)
            detail = (f"; the commit that recorded the fixture ({commit[:12]}) holds the preparation.json "
                      "preparationDigest pins, and every other file of the fixture as it is now")
            refusals = [replace(r, fix=fix, detail=r.detail + detail)
                        if r.code == MISMATCH and r.path == path and r.fix is None else r
                        for r in refusals]
    return refusals
