"""The Exchange's test over a whole catalog (RFC 0019 §4): one report from every check.

Each entry in id order: its directory (entry.json members, the reference chain, the document
form, fixture file sets and binding documents, digests), its fixtures replayed through the
preparation verifier, its files scanned — each file read once. Then the manifest against every
entry, artifact identity within the release, the pull request's touched entries, and history.
With --base, an entry the pull request leaves untouched is held by its manifest pins instead
(pinned.py; docs/performance.md, "The pull-request path").
"""

from __future__ import annotations

from ..gitfail import reason
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..quoting import clear_report
from ..refusal import Refusal, Report
from ..tree import ReadOnce, Tree, TreeError
from ..scan import scan_entry, scan_manifest
from ..catalog.directory import EntryCheck, check_entry_directory, entry_id
from ..catalog.layout import entry_directories
from .identity import history_check, identity_check
from ..catalog.manifest import check_rows, read_manifest
from ..catalog.pinned import held, pinned_entry
from .pool import check_entries, workers_for
from .replay import name_edited, reader_for, replay_entry, rerecord_changed, unreplayed_notes
from ..repository.skips import acknowledge
from ..signing.signers import check_signers_file

if TYPE_CHECKING:
    from ..history.model import Retained
    from ..repository.pullrequest import Change

PIN_BASE, PIN_CHANGE = "base", "change"


class CatalogUnreadable(Exception):
    """The catalog's tree itself could not be read (exit 4)."""


@dataclass
class GateOptions:
    """What `exchange check` was asked for (shared/design/interfaces.md)."""

    entries: list[str] = field(default_factory=list)
    replay: bool = True
    scan: bool = True
    history: bool = True
    base: str | None = None
    release_tag: str | None = None
    repository: str | None = None
    max_history: int | None = None
    workers: int | None = None
    """Processes checking entries: None chooses (pool.py), 1 is this process only."""
    main: tuple[str, str] | None = None
    """With `base`: main's tip commit and its name (the upstream default branch as fetched, which `--base
    auto` resolved against); None: the commit `base` names (issue #17 item 2)."""
    spdx: bool = True
    """Hold each licence to the SPDX licence list (catalog/spdx.py): this catalog's own gate; False keeps RFC
    0019 §3's grammar alone and notes an unlisted identifier (a consumer's release-check; docs/decisions.md)."""
    retained: Retained | None = None
    """A previous release the consumer holds apart from the tags: its lock's (history/model.py `Retained`;
    consumer/check.py; issue #25 item 3). Read as a previous release with `history`, and alone without it."""
    side_releases: bool = True
    """Count a release tag whose commit is off main's first-parent history, below the release being made, as a
    previous release for artifact identity and upgrade keys (RFC 0019 §7; issue #34 item 3): the catalog's
    own gate and `exchange release`. False for a consumer's check of one tag (`release-check`, `upgrade-diff`,
    `show`, `index`, `conformance consume`), which reads the tag's own first-parent history and its lock."""
    pin: str = "base"
    """With `base`: whose verifier-pin.json names the reader: `base` (the base's; the default) or `change`
    (the checked tree's own, for a maintainer reviewing a pin move; docs/trust.md)."""
    several_entries: bool = False
    """With `base`: drop RFC 0019 §6's `one-entry-per-pull-request`, a default a catalog may drop (`exchange check
    --several-entries`; docs/init.md). The trust boundary's rules stay: they are the gate, never a default."""


@dataclass
class Comparison:
    """The pull request against its base (repository/pullrequest.Change), or why the base could not be
    compared (then every entry gets every check)."""

    change: Change | None = None
    unreadable: str | None = None

    @property
    def touched(self) -> list[str] | None:
        return None if self.change is None else self.change.touched


def _compare(tree: Tree, options: GateOptions) -> Comparison:
    from ..repository.pullrequest import BaseUnreadable, compare

    try:
        repository = options.repository or getattr(tree, "repository", None)
        return Comparison(compare(repository, options.base, tree, getattr(tree, "commit", None)))
    except BaseUnreadable as exc:
        return Comparison(unreadable=str(exc))


def _pull_request(compared: Comparison, options: GateOptions, report: Report) -> None:
    """The repository's rules for a pull request (RFC 0019 §6, Compatibility; issue #16 items 2, 3):
    one entry (unless `several_entries`: §6's default dropped), the pin alone, gate changes alone, an entry's
    change alone, skips.json kept."""
    from ..repository import pullrequest as rules

    change = compared.change
    if change is None:
        report.refusals.append(Refusal("base-unreadable", None, compared.unreadable))
        return
    report.touched = change.touched
    if change.pin_moved and options.pin == PIN_BASE and report.reader is not None:
        report.notes.append(f"this change moves the verifier pin; the reader is the base's ({report.reader.name}), "
                            "never the change's own: a maintainer reviews the move with exchange check --base BASE "
                            "--pin change once the moved pin is fetched (docs/trust.md, \"Moving the pin\")")
    review = rules.gate_review_note(change, options.base)
    if review:
        report.notes.append(review)
        report.gate_review = review
    counted = change.counted()
    for refusal in (None if options.several_entries else rules.one_entry_refusal(counted, options.base),
                    rules.pin_refusal(change.pin_moved, counted, options.base),
                    rules.gate_refusal(change, options.base), rules.other_files_refusal(change, options.base),
                    rules.skips_removed_refusal(change, options.base),
                    *rules.document_refusals(change, options.base)):
        if refusal:
            report.refusals.append(refusal)


def _base_pin_tree(tree: Tree, options: GateOptions, compared: Comparison | None) -> Tree | None:
    """The tree whose verifier-pin.json names this run's reader: a pull request's base (`--pin base`, the
    default with --base), so a change never chooses the reader that judges it (issue #16 item 1;
    docs/trust.md); None for the checked tree's own pin."""
    if compared is None or compared.change is None or options.pin != PIN_BASE:
        return None
    from ..tree import GitTree

    repository = options.repository or getattr(tree, "repository", None)
    return GitTree(repository, options.base, own=True)  # the base is the catalog's own, its pin may run


def _given_every_check(compared: Comparison | None, options: GateOptions) -> set[str] | None:
    """The entries a pull request checks in full (None: every entry): the touched ones and those --entry
    names; every entry when the change moves the pin and its own reader replays (`--pin change`: "an
    entry the moved verifier answers otherwise is decided" on the pin's pull request, RFC 0019
    Compatibility). The rest are held by their manifest pins (pinned.py)."""
    change = compared.change if compared is not None else None
    if change is None or change.pin_moved and options.pin == PIN_CHANGE:
        return None
    return set(change.touched) | set(options.entries)


def _left_to_moved_reader(compared: Comparison | None, options: GateOptions) -> frozenset[tuple[str, str]]:
    """Acknowledgements a change that moves the verifier pin removes, judged under the base's reader: the
    moved reader decides whether each one is stale, where it may run (`--pin change`; docs/trust.md)."""
    change = compared.change if compared is not None else None
    if change is None or not change.pin_moved or options.pin != PIN_BASE:
        return frozenset()
    spared = set(change.removal_only)
    return frozenset(pair for pair in change.removed if pair[0] in spared)


def _check_entry(tree: Tree, path: str, selected: bool, options: GateOptions, report: Report) -> EntryCheck:
    """One entry's directory checks, then its replay and its scan, reading each of its files once."""
    view = ReadOnce(tree)
    started = time.perf_counter()
    check = check_entry_directory(view, path)
    report.timed("entries", started)
    if not selected:
        return check
    report.refusals += check.refusals
    if options.replay:
        started = time.perf_counter()
        replay_entry(view, check, report)
        report.timed("replay", started)
    if options.scan:
        started = time.perf_counter()
        report.refusals += scan_entry(view, check.path, check.id)
        report.timed("scan", started)
    return check


def _name_edited(tree: Tree, report: Report, checks: list[EntryCheck], options: GateOptions,
                 compared: Comparison | None) -> None:
    """An edited recording named as one (replay.name_edited): the recording read from the base the pull request is
    compared with, else from the checked history (the `--commit` checked, or HEAD of a working tree's
    repository); docs/recording.md, "An edited recording"."""
    from ..repository.recorded import History
    from .edited_preparation import name_edited_preparations

    change = compared.change if compared is not None else None
    with History(options.repository or getattr(tree, "repository", None), getattr(tree, "commit", None),
                 change.point if change is not None else None) as history:
        name_edited(tree, report, checks, history)
        name_edited_preparations(tree, report, checks, history)  # preparation.json alone edited (issue #34 item 7)


def check_catalog(tree: Tree, options: GateOptions | None = None) -> Report:
    """Every check of RFC 0019 §4 on the catalog `tree`; raises CatalogUnreadable on I/O failure."""
    options = options or GateOptions()
    report = Report()
    report.checks = ["manifest and entry directories", "entry.json members and the reference chain",
                     "dialect form and binding documents", "stored and canonical digests", "fixture file sets"]
    report.checks += ["fixture replay"] * options.replay + ["scans"] * options.scan
    report.checks += ["SPDX licence list"] * options.spdx + ["artifact identity"] + ["history"] * options.history
    report.checks += ["the retained release"] * (options.retained is not None)
    try:
        compared = _compare(tree, options) if options.base else None
        if options.replay:  # the reader every fixture is replayed through, named in the report (docs/verifier-pin.md)
            reader_for(tree, report, _base_pin_tree(tree, options, compared))
        paths, stray = entry_directories(tree)
        report.refusals += stray
        # --entry without history reads only the entries it names plus the manifest (issue #12 item 5);
        # with history every entry's directory is read, since the walk holds the whole release
        narrow = bool(options.entries) and not options.history
        started = time.perf_counter()
        manifest = read_manifest(tree)
        report.timed("manifest", started)
        # --base: an entry the pull request leaves untouched is held by its manifest pins, not checked
        # again (issue #12 item 5; pinned.py; docs/performance.md, "The pull-request path")
        full = _given_every_check(compared, options)
        if full is not None:
            report.checks.append("untouched entries held by their manifest pins")
        checks: list[EntryCheck | None] = []
        pinned: set[str] = set()
        every: list[tuple[str, bool]] = []  # the entries that get every check, and where each goes in `checks`
        for path in paths:
            if narrow and entry_id(path) not in options.entries:
                continue
            if full is not None and entry_id(path) not in full:
                started = time.perf_counter()
                check, clean = pinned_entry(tree, path)
                report.timed("pins", started)
                if held(check, clean, manifest):
                    checks.append(check)
                    pinned.add(check.id)
                    continue
            every.append((path, not options.entries or entry_id(path) in options.entries))
            checks.append(None)
        # entries are independent: checked in a pool where it pays, merged in this order (pool.py)
        done = iter(check_entries(_check_entry, tree, every, options, report.reader,
                                  workers_for(tree, len(every), options.workers)))
        if every:
            from ..catalog.spdx import check_licence  # the SPDX list, loaded when an entry gets every check

        for at, check in enumerate(checks):
            if check is None:
                checks[at], part = next(done)
                part.merge_into(report)
                check_licence(checks[at], options, report)  # the SPDX licence list (spdx.py), in entry order
        started = time.perf_counter()
        if options.replay:  # skips.json: each skip acknowledged, each acknowledgement current (docs/skips.md)
            before = len(report.refusals)
            acknowledge(tree, checks, report, options.entries, _left_to_moved_reader(compared, options))
            # a held entry was not replayed, so it has no skips to be current with: its acknowledgements
            # were held to its skips by the gate on the base (docs/performance.md)
            report.refusals[before:] = [r for r in report.refusals[before:]
                                        if not (r.code == "skip-acknowledgement-stale" and r.entry in pinned)]
    except TreeError as exc:
        raise CatalogUnreadable(str(exc)) from exc
    except Exception as exc:  # the object database of a GitTree can fail in several ways
        if exc.__class__.__module__.startswith(("git", "gitdb")):
            raise CatalogUnreadable(f"the repository cannot be read ({reason(exc)})") from exc
        raise
    report.checked = [c.id for c in checks if not options.entries or c.id in options.entries]
    report.entries = len(report.checked)
    for unknown in sorted(set(options.entries) - {c.id for c in checks}):
        report.refusals.append(Refusal("entry-unknown", None, f"--entry {unknown}: no entry directory of the catalog "
                                       f"reads as that id (entries/<publisher>/<name>)", unknown))
    report.refusals += manifest.refusals
    if options.scan:  # manifest.json to the same scan as every entry's files (issue #11 item 2)
        report.refusals += scan_manifest(tree)
    report.refusals += check_signers_file(tree)  # release-signers in its form, when the catalog has one (issue #36)
    if manifest.readable:
        report.refusals += check_rows(manifest, checks)
    report.timed("manifest", started)
    started = time.perf_counter()
    report.refusals += identity_check(checks)
    if compared is not None:
        _pull_request(compared, options, report)
    if options.history and compared is not None and compared.change is None:
        # a base that cannot be compared is reported once (base-unreadable); the history it keys is not read
        # as if there were no base, which would report refusals of another check (issue #26 item 1)
        report.history = "skipped"
        report.notes.append("history not read: the base could not be compared (see base-unreadable)")
    elif options.history or options.retained is not None:
        history_check(tree, checks, options, report, compared.change if compared is not None else None)
    else:
        report.history = "skipped"
    report.timed("identity and history", started)
    if options.entries:
        wanted = set(options.entries)
        report.refusals = [r for r in report.refusals if r.entry is None or r.entry in wanted]
        report.warnings = [w for w in report.warnings if w.entry in wanted]
    rerecord_changed(report, compared.change if compared is not None else None)  # an edited recording (docs/fix.md)
    if options.replay:  # a fixture's edited files named, a fixture not replayed said so (issue #26 item 2)
        given = [c for c in checks if c.id not in pinned and (not options.entries or c.id in options.entries)]
        _name_edited(tree, report, given, options, compared)
        unreplayed_notes(given, report)
    # nothing an author chose is shown unless its grammar and the scan cleared it: no path, entry, id,
    # fixture or detail quotes a name outside its grammar or one the scan flags (issue #11 item 3,
    # issue #16 item 4; docs/reports.md)
    clear_report(report)
    return report
