"""The Exchange's test over a whole catalog (RFC 0019 §4): one report from every check.

Each entry in id order: its directory (entry.json members, the reference chain, the document
form, fixture file sets and binding documents, digests), its fixtures replayed through the
preparation verifier, its files scanned — each file read once. Then the manifest against every
entry, artifact identity within the release, the pull request's touched entries, and history.
With --base, an entry the pull request leaves untouched is held by its manifest pins instead
(pinned.py; docs/performance.md, "The pull-request path").

The gate is the declared sequence PHASES (docs/architecture.md, "The gate's phases"): each phase returns what it
found (`Found`), and `check_catalog` alone records it into the report.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Callable

from ..catalog.directory import EntryCheck, check_entry_directory, entry_id
from ..catalog.layout import entry_directories
from ..catalog.manifest import check_rows, read_manifest
from ..catalog.pinned import held, pinned_entry
from ..codes.catalog import ENTRY_UNKNOWN
from ..codes.repository import BASE_UNREADABLE
from ..gitfail import reason
from ..quoting import CLEARED, cleared
from ..refusal import Findings, Refusal, Replay, Report, add_findings
from ..repository.skips import acknowledge
from ..scan import scan_entry, scan_manifest
from ..signing.signers import check_signers_file
from ..tree import ReadOnce, Tree, TreeError
from .identity import history_check, identity_check
from .pool import check_entries, workers_for
from .replay import name_edited, reader_for, replay_entry, rerecord_changed, unreplayed_notes

if TYPE_CHECKING:
    from ..history.model import Retained
    from ..repository.pin import ReaderChoice
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


def _base(options: GateOptions) -> str:
    """--base's revision, read where the run has one: the compare phase applies with --base alone (PHASES), and a
    comparison is read only once it ran."""
    assert options.base is not None
    return options.base


def _compare(tree: Tree, options: GateOptions) -> Comparison:
    from ..repository.pullrequest import BaseUnreadable, compare

    try:
        repository = options.repository or getattr(tree, "repository", None)
        # --base is exchange check's, which names the repository (cli/contributor.py), of a WorkingTree or GitTree
        assert repository is not None
        return Comparison(compare(repository, _base(options), tree, getattr(tree, "commit", None)))
    except BaseUnreadable as exc:
        return Comparison(unreadable=str(exc))


def _pull_request(compared: Comparison, options: GateOptions, reader: ReaderChoice | None) -> Found:
    """The repository's rules for a pull request (RFC 0019 §6, Compatibility; issue #16 items 2, 3):
    one entry (unless `several_entries`: §6's default dropped), the pin alone, gate changes alone, an entry's
    change alone, skips.json kept. Its facts: the entries touched, and the gate's files to review."""
    from ..repository import pullrequest as rules

    change, base = compared.change, _base(options)
    if change is None:
        assert compared.unreadable is not None  # a comparison without its change says why (_compare)
        return Found([Refusal(BASE_UNREADABLE, None, compared.unreadable)])
    found = Found(facts={"touched": change.touched})
    if change.pin_moved and options.pin == PIN_BASE and reader is not None:
        found.notes.append(f"this change moves the verifier pin; the reader is the base's ({reader.name}), "
                           "never the change's own: a maintainer reviews the move with exchange check --base BASE "
                           "--pin change once the moved pin is fetched (docs/trust.md, \"Moving the pin\")")
    review = rules.gate_review_note(change, base)
    if review:
        found.notes.append(review)
        found.facts["gate_review"] = review
    counted = change.counted()
    found.refusals += [refusal for refusal in (
        None if options.several_entries else rules.one_entry_refusal(counted, base),
        rules.pin_refusal(change.pin_moved, counted, base), rules.gate_refusal(change, base),
        rules.other_files_refusal(change, base), rules.skips_removed_refusal(change, base),
        *rules.document_refusals(change, base)) if refusal]
    return found


def _base_pin_tree(tree: Tree, options: GateOptions, compared: Comparison | None) -> Tree | None:
    """The tree whose verifier-pin.json names this run's reader: a pull request's base (`--pin base`, the
    default with --base), so a change never chooses the reader that judges it (issue #16 item 1;
    docs/trust.md); None for the checked tree's own pin."""
    if compared is None or compared.change is None or options.pin != PIN_BASE:
        return None
    from ..tree import GitTree

    repository = options.repository or getattr(tree, "repository", None)
    return GitTree(repository, _base(options), own=True)  # the base is the catalog's own, its pin may run


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


def _check_entry(tree: Tree, path: str, options: GateOptions, reader: Any) -> tuple[EntryCheck, Findings]:
    """One selected entry's directory checks, then its replay and its scan, reading each of its files once."""
    view, found = ReadOnce(tree), Findings()
    started = time.perf_counter()
    check = check_entry_directory(view, path)
    found.timed("entries", started)
    found.refusals += check.refusals
    if options.replay:
        started = time.perf_counter()
        found.add(replay_entry(view, check, reader))
        found.timed("replay", started)
    if options.scan:
        started = time.perf_counter()
        found.refusals += scan_entry(view, check.path, check.id)
        found.timed("scan", started)
    return check, found


def _read_row(tree: Tree, path: str, options: GateOptions, reader: Any) -> tuple[EntryCheck, Findings]:
    """A row outside the selection: its directory read for the release-wide phases alone, nothing of it reported."""
    found, started = Findings(), time.perf_counter()
    check = check_entry_directory(ReadOnce(tree), path)
    found.timed("entries", started)
    return check, found


def _name_edited(tree: Tree, refusals: list[Refusal], replays: list[Replay], checks: list[EntryCheck],
                 options: GateOptions, compared: Comparison | None) -> list[Refusal]:
    """`refusals` with an edited recording named as one (replay.name_edited): the recording read from the base the
    pull request is compared with, else from the checked history (the `--commit` checked, or HEAD of a working
    tree's repository); docs/recording.md, "An edited recording"."""
    from ..repository.recorded import History
    from .edited_preparation import name_edited_preparations

    change = compared.change if compared is not None else None
    with History(options.repository or getattr(tree, "repository", None), getattr(tree, "commit", None),
                 change.point if change is not None else None) as history:
        refusals = name_edited(tree, refusals, replays, checks, history)
        return name_edited_preparations(tree, refusals, checks, history)  # preparation.json alone edited (#34 item 7)


@dataclass
class Found(Findings):
    """What a phase returns (`refusal.Findings`: what it adds to the report's lists and counts), recorded by the
    pipeline alone. `checks` names a check the phase learns only as it runs that it holds (the rest of the report's
    list is the phases' own `checks`); `facts` are the report's fields the phase sets, by name (the reader, the
    touched entries, the history's status, …, or a list it revises as a whole), set before its additions."""

    checks: list[str] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass
class Run:
    """One run of the gate: what each phase reads from the phases before it. `report` is what the pipeline has
    recorded so far: phases read it, only the pipeline writes it."""

    tree: Tree
    options: GateOptions
    report: Report
    compared: Comparison | None = None
    paths: list[str] = field(default_factory=list)
    manifest: Any = None
    checks: list[Any] = field(default_factory=list)
    """One EntryCheck per row read, in path order (None until the phase that reads it has run)."""
    pinned: set[str] = field(default_factory=set)
    given: list[tuple[int, str]] = field(default_factory=list)
    """The selected rows checked in full: (their place in `checks`, their path)."""
    rows: list[tuple[int, str]] = field(default_factory=list)
    """The rows outside the selection, read for the release-wide phases alone."""
    started: float = 0.0

    @property
    def change(self) -> Change | None:
        return self.compared.change if self.compared is not None else None

    @property
    def selected(self) -> list[EntryCheck]:
        """The entries the per-entry phases judge: --entry's (every entry without it), none held by its pins."""
        return [self.checks[at] for at, _ in self.given]


@dataclass(frozen=True)
class Phase:
    """One step of the gate: its name, when it applies (the options), the function that returns what it
    found, the checks the report lists when it runs (by the options), whether a failure to read the tree
    in it is the catalog's own (CatalogUnreadable, exit 4), and whether it judges the selected entries alone
    (`per_entry`) or reads the whole release, its findings of an entry outside --entry then not recorded."""

    name: str
    applies: Callable[[GateOptions], bool]
    run: Callable[[Run], Found | None]
    checks: Callable[[GateOptions], tuple[str, ...]] = lambda options: ()
    guarded: bool = True
    per_entry: bool = False


def _always(options: GateOptions) -> bool:
    return True


def _phase_compare(run: Run) -> None:
    run.compared = _compare(run.tree, run.options)


def _phase_reader(run: Run) -> Found:
    """The reader every fixture is replayed through, named in the report (docs/verifier-pin.md)."""
    reader, refusals = reader_for(run.tree, _base_pin_tree(run.tree, run.options, run.compared))
    return Found(refusals, facts={"reader": reader})


def _phase_directories(run: Run) -> Found:
    """The entry directories and the manifest, read once for the whole release."""
    run.paths, stray = entry_directories(run.tree)
    found, started = Found(stray), time.perf_counter()
    run.manifest = read_manifest(run.tree)
    found.timed("manifest", started)
    return found


def _phase_select(run: Run) -> Found:
    """Which entries get every check. --entry without history reads only the entries it names plus the
    manifest (issue #12 item 5); with history every entry's directory is read, since the walk holds the whole
    release. --base: an entry the pull request leaves untouched is held by its manifest pins, not checked again
    (issue #12 item 5; pinned.py; docs/performance.md, "The pull-request path")."""
    options, found = run.options, Found()
    narrow = bool(options.entries) and not options.history
    full = _given_every_check(run.compared, options)
    for path in run.paths:
        if narrow and entry_id(path) not in options.entries:
            continue
        if full is not None and entry_id(path) not in full:
            started = time.perf_counter()
            check, clean = pinned_entry(run.tree, path)
            found.timed("pins", started)
            if held(check, clean, run.manifest):
                run.checks.append(check)
                run.pinned.add(check.id)
                continue
        chosen = not options.entries or entry_id(path) in options.entries
        (run.given if chosen else run.rows).append((len(run.checks), path))
        run.checks.append(None)
    found.checks = [HELD] if full is not None else []
    return found


def _pooled(run: Run, check_one: Any, rows: list[tuple[int, str]]) -> list[Findings]:
    """`check_one` over `rows`, in a pool where it pays (pool.py), each check put in its place in `run.checks`;
    each row's findings, in order."""
    done = check_entries(check_one, run.tree, [path for _, path in rows], run.options, run.report.reader,
                         workers_for(run.tree, len(rows), run.options.workers))
    out = []
    for (at, _), (check, part) in zip(rows, done, strict=True):
        run.checks[at] = check
        out.append(part)
    return out


def _phase_rows(run: Run) -> Found:
    """Every row outside --entry's selection, its directory read (RFC 0019 §7: the release-wide phases read every
    row's entry.json); nothing of it is reported but the time it took."""
    found = Found()
    for part in _pooled(run, _read_row, run.rows):
        found.add(part)
    return found


def _phase_entries(run: Run) -> Found:
    """Each selected entry's directory, replay and scan (_check_entry); entries are independent: checked in a pool
    where it pays, merged in entry order (pool.py), each with its licence held to the SPDX list (spdx.py)."""
    found = Found()
    parts = _pooled(run, _check_entry, run.given)
    if run.given:
        from ..catalog.spdx import check_licence  # the SPDX list, loaded when an entry gets every check
    for check, part in zip(run.selected, parts, strict=True):
        found.add(part)
        found.add(check_licence(check, run.options))
    run.started = time.perf_counter()
    return found


def _phase_skips(run: Run) -> Found:
    """skips.json: each skip acknowledged, each acknowledgement current (docs/skips.md). A held entry was not
    replayed, so it has no skips to be current with: its acknowledgements were held to its skips by the gate on
    the base (docs/performance.md)."""
    acked = acknowledge(run.tree, run.checks, run.report.skipped, run.options.entries, frozenset(run.pinned),
                        _left_to_moved_reader(run.compared, run.options))
    return Found(acked.found.refusals, acked.found.notes, facts={"skipped": acked.skipped})


def _phase_release(run: Run) -> Found:
    """The release as a whole: every --entry named, the manifest's own refusals, its scan (issue #11 item 2),
    release-signers in its form (issue #36), and the manifest's rows against every entry."""
    options, checks = run.options, run.checks
    checked = [c.id for c in checks if not options.entries or c.id in options.entries]
    found = Found([Refusal(ENTRY_UNKNOWN, None, f"--entry {unknown}: no entry directory of the catalog reads as "
                           f"that id (entries/<publisher>/<name>)", unknown)
                   for unknown in sorted(set(options.entries) - {c.id for c in checks})],
                  facts={"checked": checked, "entries": len(checked)})
    found.refusals += run.manifest.refusals
    if options.scan:
        found.refusals += scan_manifest(run.tree)
    found.refusals += check_signers_file(run.tree)
    if run.manifest.readable:
        found.refusals += check_rows(run.manifest, checks)
    found.timed("manifest", run.started)
    run.started = time.perf_counter()
    return found


def _phase_identity(run: Run) -> Found:
    """Publication and artifact identity across the release: every row's entry read (RFC 0019 §7)."""
    return Found(identity_check(run.checks))


def _phase_pull_request(run: Run) -> Found | None:
    return _pull_request(run.compared, run.options, run.report.reader) if run.compared is not None else None


def _phase_history(run: Run) -> Found:
    """The release history (history/), or the retained release alone. A base that cannot be compared is reported
    once (base-unreadable); the history it keys is not read as if there were no base, which would report
    refusals of another check (issue #26 item 1)."""
    options = run.options
    if options.history and run.compared is not None and run.compared.change is None:
        found = Found(notes=["history not read: the base could not be compared (see base-unreadable)"],
                      facts={"history": "skipped"})
    elif options.history or options.retained is not None:
        read = history_check(run.tree, run.checks, options, run.change)
        found = Found(read.found.refusals, read.found.notes, read.found.warnings, facts={"history": read.status})
        if not read.listed:  # the catalog has no releases of its own: history is not among its checks
            found.facts["checks"] = [c for c in run.report.checks if c != "history"]
    else:
        found = Found(facts={"history": "skipped"})
    found.timed("identity and history", run.started)
    return found


def _phase_rerecord(run: Run) -> Found | None:
    """An edited recording named for re-recording, with --base (docs/fix.md)."""
    if run.change is None:
        return None
    return Found(facts={"refusals": rerecord_changed(run.report.refusals, run.change)})


def _phase_edited(run: Run) -> Found:
    """A fixture's edited files named, a fixture not replayed said so (issue #26 item 2)."""
    given, report = run.selected, run.report
    refusals = _name_edited(run.tree, report.refusals, report.replays, given, run.options, run.compared)
    return Found(notes=unreplayed_notes(given, report.replays), facts={"refusals": refusals})


def _phase_clear(run: Run) -> Found:
    """Nothing an author chose is shown unless its grammar and the scan cleared it: no path, entry, id, fixture
    or detail quotes a name outside its grammar or one the scan flags (issue #11 item 3, issue #16 item 4;
    docs/reports.md). `quoting.cleared` is a pure function of the report: its cleared fields are the facts."""
    shown = cleared(run.report)
    return Found(facts={name: getattr(shown, name) for name in CLEARED})


HELD = "untouched entries held by their manifest pins"

_ENTRY_CHECKS = ("entry.json members and the reference chain", "dialect form and binding documents",
                 "stored and canonical digests", "fixture file sets")

PHASES: tuple[Phase, ...] = (
    Phase("compare", lambda o: bool(o.base), _phase_compare),
    Phase("reader", lambda o: o.replay, _phase_reader),
    Phase("directories", _always, _phase_directories, lambda o: ("manifest and entry directories",)),
    Phase("select", _always, _phase_select),
    Phase("rows", lambda o: bool(o.entries), _phase_rows),
    Phase("entries", _always, _phase_entries, lambda o: _ENTRY_CHECKS + ("fixture replay",) * o.replay
          + ("scans",) * o.scan + ("SPDX licence list",) * o.spdx, per_entry=True),
    Phase("skips", lambda o: o.replay, _phase_skips, per_entry=True),
    Phase("release", _always, _phase_release, guarded=False),
    Phase("identity", _always, _phase_identity, lambda o: ("artifact identity",), guarded=False),
    Phase("pull request", lambda o: bool(o.base), _phase_pull_request, guarded=False),
    Phase("history", _always, _phase_history, lambda o: ("history",) * o.history
          + ("the retained release",) * (o.retained is not None), guarded=False),
    Phase("rerecord", _always, _phase_rerecord, guarded=False),
    Phase("edited", lambda o: o.replay, _phase_edited, guarded=False, per_entry=True),
    Phase("clear", _always, _phase_clear, guarded=False),
)
"""The gate, in order (docs/architecture.md, "The gate's phases"; a test holds the two equal)."""


def check_catalog(tree: Tree, options: GateOptions | None = None) -> Report:
    """Every check of RFC 0019 §4 on the catalog `tree`, as the declared PHASES: each that applies runs in order
    and the pipeline alone records what it returns (`_record`), a release-wide phase's findings of an entry outside
    --entry left out (`_selected`); raises CatalogUnreadable on I/O failure."""
    run = Run(tree, options or GateOptions(), Report())
    phases = [phase for phase in PHASES if phase.applies(run.options)]
    run.report.checks = [check for phase in phases for check in phase.checks(run.options)]  # derived, in order
    for phase in phases:
        found = _guard(phase, run) if phase.guarded else phase.run(run)
        if found is not None:
            _record(run.report, found if phase.per_entry else _selected(found, run.options.entries))
    return run.report


def _selected(found: Found, entries: list[str]) -> Found:
    """A release-wide phase's findings as reported with --entry: only what names the entries asked for (a refusal
    naming no entry too); without --entry, all of them."""
    if not entries:
        return found
    wanted = set(entries)
    return replace(found, refusals=[r for r in found.refusals if r.entry is None or r.entry in wanted],
                   warnings=[w for w in found.warnings if w.entry in wanted])


_FIELDS = frozenset(f.name for f in fields(Report))


def _record(report: Report, found: Found) -> None:
    """What a phase found, into the report: its facts set, then its additions after what the report holds."""
    for name, value in found.facts.items():
        if name not in _FIELDS:
            raise AttributeError(f"a phase set {name}, which is no field of the report")
        setattr(report, name, value)
    add_findings(report, found)
    report.checks += found.checks


def _guard(phase: Phase, run: Run) -> Found | None:
    """A phase that reads the catalog's tree: a failure to read it is the catalog's (exit 4)."""
    try:
        return phase.run(run)
    except TreeError as exc:
        raise CatalogUnreadable(str(exc)) from exc
    except Exception as exc:  # the object database of a GitTree can fail in several ways
        if exc.__class__.__module__.startswith(("git", "gitdb")):
            raise CatalogUnreadable(f"the repository cannot be read ({reason(exc)})") from exc
        raise
