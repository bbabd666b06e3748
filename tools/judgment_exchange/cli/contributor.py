"""The contributor's commands (CONTRIBUTING.md): the gate (`check`, which CI runs too), the sign-off,
scaffolding an entry, fixtures from recordings, the derived pins, digests, the form check alone.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from typing import TYPE_CHECKING, cast

from .common import (
    IO,
    PASS,
    REFUSED,
    USAGE,
    Exit,
    Parser,
    catalog_dir,
    emit_json,
    find_catalog,
    require_a_catalog,
    resolve_base,
    safe,
    safe_failure,
    workers,
    write_file,
)
from .report import REPORTERS

if TYPE_CHECKING:
    from ..authoring.fix import Plan
    from ..authoring.fixture_add import Stop
    from ..tree import GitTree
    from .common import Subcommands


def cmd_check(args: argparse.Namespace) -> int:
    from ..catalog.grammar import release_key
    from ..gate.pipeline import CatalogUnreadable, GateOptions, check_catalog
    from ..tree import WorkingTree

    if args.release_tag is not None and release_key(args.release_tag) is None:
        raise Exit(USAGE, f"exchange check: --release-tag {args.release_tag}: not a release tag vMAJOR.MINOR.PATCH")
    catalog = catalog_dir(args, "check")
    if args.pin is not None and args.base is None:
        raise Exit(USAGE, "exchange check: --pin chooses whose pin replays a pull request: give --base too")
    if args.several_entries and args.base is None:
        raise Exit(USAGE, "exchange check: --several-entries drops a pull request's one-entry rule: give --base too")
    base, auto_note, main = resolve_base("exchange check", args.base, catalog)
    if args.commit is None:  # after --base: a bad base is the invocation's fault
        require_a_catalog("check", catalog)
    committed = None if args.commit is None else committed_tree(catalog, args.commit)
    tree = WorkingTree(catalog) if committed is None else committed
    options = GateOptions(entries=args.entry or [], history=not args.no_history, base=base,
                          release_tag=args.release_tag, repository=catalog, workers=args.workers,
                          pin=args.pin or "base", main=main, several_entries=args.several_entries)
    try:
        report = check_catalog(tree, options)
    except CatalogUnreadable as exc:
        raise Exit(IO, f"exchange check: the catalog could not be read: {safe_failure(exc)}")
    if auto_note:
        report.notes.insert(0, auto_note)
    label = catalog if committed is None else f"{catalog} at commit {committed.commit}"
    return REPORTERS[args.format](report, catalog, tree, label, base)


def committed_tree(repository: str, rev: str) -> GitTree:
    """`--commit REV`: the catalog as the commit REV of the repository at `repository` holds it (its blobs
    through the object database, never a checkout; issue #25 item 1); Exit 3, saying why, for no such commit. The
    commit's own verifier-pin.json never runs: it is not the catalog's own (a pull request's head)."""
    from ..tree import GitTree, TreeError

    try:
        return GitTree(repository, rev)
    except TreeError:
        raise Exit(USAGE, f"exchange check: --commit {safe(rev)}: names no commit of the repository at "
                          f"{safe(repository)} (fetch it first: git fetch origin REF; the catalog's repository is its "
                          "root, --catalog)") from None


def cmd_signoff(args: argparse.Namespace) -> int:
    """exchange signoff: a DCO sign-off on every commit that carries change in BASE..HEAD, or BASE..REV
    with --head REV (repository/signoff.py)."""
    from ..codes import fix_text
    from ..repository.pullrequest import BaseUnresolved
    from ..repository.signoff import HeadUnborn, HeadUnresolved, RepositoryUnreadable, check_signoff

    catalog = catalog_dir(args, "signoff")
    try:
        report = check_signoff(catalog, args.base, args.head)
    except RepositoryUnreadable as exc:
        raise Exit(IO, f"exchange signoff: {safe(exc)}")
    except (BaseUnresolved, HeadUnborn, HeadUnresolved) as exc:
        raise Exit(USAGE, f"exchange signoff: {'--base auto: ' if isinstance(exc, BaseUnresolved) else ''}{safe(exc)}")
    if args.format == "json":
        emit_json(report.as_json())
        return PASS if report.passed else REFUSED
    here = (f"git reset --soft $(git merge-base {report.base} HEAD) && git commit -s && git push --force-with-lease"
            if report.base and any(commit for _, commit in report.refusals) else None)
    verdict = "pass" if report.passed else f"fail ({len(report.refusals)} refusal(s))"
    if args.format == "github":  # workflow commands only, as check --format github (docs/reports.md)
        from ..annotations import escape_data, escape_property

        for refusal, _ in report.refusals:
            fix = here or cast(str, fix_text(refusal.code))  # a sign-off refusal's code is the registry's
            print("::error "
                  f"title={escape_property(refusal.code)}::{escape_data(refusal.detail + chr(10) + 'fix: ' + fix)}")
        counted = f"{report.commits} checked, {report.merges} merge(s) not checked"
        where = f"{report.base}..{report.head}: " if report.base else ""
        print(f"::notice title=exchange signoff::{escape_data(f'{where}{counted}; result: {verdict}')}")
        return PASS if report.passed else REFUSED
    print(f"exchange signoff: {safe(catalog)}")
    for note in report.notes:
        print(f"note: {safe(note)}")
    if report.base:
        print(f"range: {report.base}..{report.head}")
    print(f"commits: {report.commits} checked, {report.merges} merge(s) not checked")
    for refusal, _ in report.refusals:
        print(f"refused {refusal.code}: {safe(refusal.detail)}")
    for code in dict.fromkeys(refusal.code for refusal, _ in report.refusals):
        print(f"  fix ({code}): {fix_text(code)}")
    if here:
        print(f"  here: {here}")
    print(f"result: {verdict}")
    return PASS if report.passed else REFUSED


def cmd_manifest(args: argparse.Namespace) -> int:
    from ..authoring.fix import entries_blocker, entry_checks, pinnable, unpinnable_lines
    from ..catalog.manifest import compute_row, write_manifest
    from ..tree import TreeError, WorkingTree

    catalog = catalog_dir(args, "manifest", require_catalog=True)
    tree = WorkingTree(catalog)
    try:
        blocker = entries_blocker(tree)
        if blocker is not None:  # no rows are computed from entries that cannot be read (issue #25 item 5)
            print(f"exchange manifest: {blocker.line()}; nothing written", file=sys.stderr)
            return REFUSED
        checks = entry_checks(tree)
    except TreeError as exc:
        raise Exit(IO, f"exchange manifest: {safe_failure(exc)}")
    unreadable = [c for c in checks if not pinnable(c)]
    for line in unpinnable_lines(unreadable):
        print(f"exchange manifest: {safe(line)}", file=sys.stderr)
    if unreadable:
        return REFUSED
    data = write_manifest([compute_row(c) for c in checks])
    path = os.path.join(catalog, "manifest.json")
    try:
        from ..tree import read_regular

        current = read_regular(path)  # a FIFO or symlink there is refused, never waited on (issue #11)
    except FileNotFoundError:
        current = b""
    except OSError as exc:
        raise Exit(IO, f"exchange manifest: {path}: {exc.strerror}")
    if args.write:
        if current != data:
            try:
                write_file(path, data)
            except OSError as exc:
                raise Exit(IO, f"exchange manifest: {path}: {exc.strerror}")
        print(f"manifest.json: {len(checks)} row(s) written")
        return PASS
    if current == data:
        print(f"manifest.json: up to date ({len(checks)} row(s))")
        return PASS
    import difflib

    sys.stdout.writelines(difflib.unified_diff(current.decode("utf-8", "replace").splitlines(True),
                                               data.decode("utf-8").splitlines(True),
                                               "manifest.json", "manifest.json (computed)"))
    print("manifest.json differs from the entries; run exchange manifest --write", file=sys.stderr)
    return REFUSED


def cmd_fix(args: argparse.Namespace) -> int:
    """exchange fix: every derived pin recomputed from the files (authoring/fix.py, docs/fix.md)."""
    from ..authoring.fix import MANIFEST, plan_fix
    from ..tree import TreeError, WorkingTree

    catalog = catalog_dir(args, "fix", require_catalog=True)
    path = os.path.join(catalog, MANIFEST)
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            raise Exit(IO, f"exchange fix: {path}: not a regular file; nothing written")
        with open(path, "rb") as fh:
            current: bytes | None = fh.read()
    except FileNotFoundError:
        current = None
    except OSError as exc:
        raise Exit(IO, f"exchange fix: {path}: {exc.strerror}")
    try:
        plan = plan_fix(WorkingTree(catalog), current)
    except TreeError as exc:
        raise Exit(IO, f"exchange fix: {safe_failure(exc)}")
    if plan.blockers:
        for blocker in plan.blockers:
            print(f"exchange fix: {safe(blocker.line())}", file=sys.stderr)
        print(f"exchange fix: nothing written: {len(plan.blockers)} problem(s) a pin cannot fix; correct the files "
              "named above (re-record a fixture that does not replay), then run exchange fix again", file=sys.stderr)
        return REFUSED
    for change in plan.changes:
        print(safe(change.line()))
    if not plan.changes:
        print(f"exchange fix: every pin is up to date ({plan.entries} entries)")
        return stale_fixtures(plan)
    if args.check:
        print(f"exchange fix --check: {len(plan.changes)} pin(s) would change; run exchange fix", file=sys.stderr)
        return REFUSED
    for rel, data in plan.writes.items():
        try:
            write_file(os.path.join(catalog, *rel.split("/")), data)
        except OSError as exc:
            raise Exit(IO, f"exchange fix: {safe(rel)}: {exc.strerror}")
    print(f"exchange fix: {len(plan.changes)} pin(s) written to {len(plan.writes)} file(s)")
    return stale_fixtures(plan)


def stale_fixtures(plan: Plan) -> int:
    """A fixture whose pins are current but which no longer replays (authoring/fix.stale_fixtures; issue #26 item
    2): named on standard error after the pins' verdict. Exit 0 still: every pin is right, and fix's status is
    the pins' (docs/fix.md); `exchange check` refuses the fixture."""
    for blocker in plan.stale:
        print(f"exchange fix: {safe(blocker.line())}", file=sys.stderr)
    if plan.stale:
        print(f"exchange fix: but {len(plan.stale)} fixture(s) no longer replay though their pins are current, which "
              "no "
              "pin fixes and exchange check refuses: restore or re-record each one named above (docs/fix.md)",
              file=sys.stderr)
    return PASS


def cmd_digest(args: argparse.Namespace) -> int:
    from ..canon import CanonError, canonical_digest, digest
    from ..jsonstrict import Bounds, JsonRefusal, loads
    from ..tree import read_regular

    try:
        data = read_regular(args.file, follow=True)  # decided on the opened descriptor; a FIFO never blocks
    except OSError as exc:
        raise Exit(IO, f"exchange digest: {args.file}: {exc.strerror}")
    if not args.canonical:
        print(digest(data))
        return PASS
    try:
        print(canonical_digest(loads(data, Bounds(max_bytes=8 * 1024 * 1024))))
    except (JsonRefusal, CanonError) as exc:
        print(f"exchange digest: {args.file}: no canonical form: {exc}", file=sys.stderr)
        return REFUSED
    return PASS


def cmd_form(args: argparse.Namespace) -> int:
    from ..dialect import form_report
    from ..tree import read_regular

    try:
        data = read_regular(args.dialect, 131_072, follow=True)  # a FIFO is refused, never waited on
        binding = None
        if args.binding:
            binding = read_regular(args.binding, 65_536, follow=True)
    except OSError as exc:
        raise Exit(IO, f"exchange form: {exc.filename}: {exc.strerror}")
    report = form_report(data, binding)
    emit_json(report)
    return PASS if report["result"] == "valid" else REFUSED


def stopped(command: str, stop: Stop) -> Exit:
    """A fixture_add.Stop as the command's message and exit status (docs/recording.md)."""
    refused = f"refused {stop.code}: " if stop.code else ""
    return Exit(stop.status, f"exchange {command}: {refused}{safe(stop.detail)}")


def cmd_new(args: argparse.Namespace) -> int:
    from ..authoring.fixture_add import Stop
    from ..authoring.scaffold import scaffold, scaffold_from_run

    catalog = os.path.abspath(args.catalog) if args.catalog else find_catalog()
    if args.from_run is None and (args.kind is None or args.profiles is not None or args.name is not None):
        raise Exit(USAGE, "exchange new: --kind dialect|preset is required (or --from-run RUN_EXPORT; --profiles and "
                          "--name go with it)")
    if args.from_run is not None and (args.kind not in (None, "dialect") or args.direction not in (None, "input")):
        raise Exit(USAGE, "exchange new: --from-run writes a kind-dialect input entry")
    try:
        if args.from_run is not None:
            lines = scaffold_from_run(catalog, args.id, args.from_run, args.profiles, args.name)
        else:
            lines = [f"wrote {p}" for p in scaffold(catalog, args.id, args.kind, args.direction or "input")]
    except Stop as stop:
        raise stopped("new", stop) from None
    except ValueError as exc:
        raise Exit(USAGE, f"exchange new: {safe(exc)}")
    except OSError as exc:
        raise Exit(IO, f"exchange new: {safe(exc)}")
    for line in lines:
        print(safe(line))
    if args.from_run is not None:
        print("next: write the title, author and README.md, then exchange fix && exchange check --base auto")
    else:
        print("next: write dialect.json, then exchange fixture add ENTRY_DIR RUN_EXPORT for each recording, "
              "then exchange fix && exchange check --base auto")
    return PASS


def cmd_upgrade_note(args: argparse.Namespace) -> int:
    """exchange upgrade-note: a note keyed by the entry's released entryDigest (authoring/upgrade_note.py)."""
    from ..authoring.upgrade_note import PASS as WRITTEN
    from ..authoring.upgrade_note import add_note

    catalog = catalog_dir(args, "upgrade-note")
    outcome = add_note(catalog, args.id, args.text, args.release)
    for line in outcome.lines:
        print(f"{'' if outcome.status == WRITTEN else 'exchange upgrade-note: '}{safe(line)}",
              file=sys.stdout if outcome.status == WRITTEN else sys.stderr)
    return outcome.status


def cmd_fixture_add(args: argparse.Namespace) -> int:
    from ..authoring.fixture_add import Stop, add_fixture

    try:
        outcome = add_fixture(args.entry_dir, args.run_export, args.name, args.profiles, args.replace)
    except Stop as stop:
        raise stopped("fixture add", stop) from None
    except OSError as exc:
        raise Exit(IO, f"exchange fixture add: {safe(exc)}")
    for line in outcome.lines:
        print(safe(line))
    return PASS


def register(sub: Subcommands) -> None:
    """The contributor's subcommands, in the order `exchange --help` lists them."""
    check = sub.add_parser("check", help="the gate: every check of RFC 0019 §4 on a catalog")
    check.add_argument("--catalog", help="the catalog's directory (default: the repository holding manifest.json)")
    check.add_argument("--format", choices=("text", "json", "github", "markdown"), default="text",
                       help="github: workflow-command annotations, and a summary to $GITHUB_STEP_SUMMARY; "
                       "markdown: a review for a pull request's job summary (the verdict, what was checked, each "
                       "refusal and its fix, each touched entry's card)")
    check.add_argument("--entry", action="append", metavar="ID", help="check only this entry (repeatable)")
    check.add_argument("--no-history", action="store_true", help="skip the git history checks (reported)")
    check.add_argument("--base", metavar="REV", help="a pull request's base: every existing release is previous; "
                       "'auto' is the merge base with the upstream default branch (CONTRIBUTING.md)")
    check.add_argument("--release-tag", metavar="TAG", help="the release being made: lower tags are previous")
    check.add_argument("--commit", metavar="REV", help="check the catalog as the commit REV holds it (its committed "
                       "tree, read as objects; a pull request's head fetched into the base's clone), not the "
                       "working tree (docs/trust.md)")
    check.add_argument("--pin", choices=("base", "change"), default=None,
                       help="with --base: replay through the reader the base's verifier-pin.json names (base, the "
                       "default: a change never chooses its own judge) or the change's own (change: reviewing a "
                       "pin move; docs/trust.md)")
    check.add_argument(
        "--several-entries",
        action="store_true",
        help="with --base: a pull request may touch several entries (drops RFC 0019 §6's "
        "one-entry-per-pull-request, a default a catalog may drop; every other rule stays; docs/init.md)",
    )
    check.add_argument("--workers", type=workers, metavar="N",
                       help="processes checking entries (default: one per core on a large catalog; 1: this process)")
    check.set_defaults(run=cmd_check)

    signoff = sub.add_parser("signoff", help="a DCO Signed-off-by on every commit of BASE..HEAD (RFC 0019 §6)")
    signoff.add_argument("--base", metavar="REV", required=True,
                         help="the pull request's base; 'auto' is the merge base with the upstream default branch")
    signoff.add_argument("--head", metavar="REV", help="the pull request's head commit, read as objects "
                         "(default: HEAD; with a named --base only)")
    signoff.add_argument("--catalog", help="the catalog's repository (default: the one holding manifest.json)")
    signoff.add_argument("--format", choices=("text", "json", "github"), default="text")
    signoff.set_defaults(run=cmd_signoff)

    manifest = sub.add_parser("manifest", help="compute manifest.json from the entries")
    group = manifest.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="write manifest.json")
    group.add_argument("--check", action="store_true", help="show the difference (the default)")
    manifest.add_argument("--catalog")
    manifest.set_defaults(run=cmd_manifest)

    fix = sub.add_parser("fix", help="recompute every derived pin (digests, artifact pairs, manifest rows)")
    fix.add_argument("--catalog")
    fix.add_argument("--check", action="store_true", help="print what would change and exit 1 if anything would")
    fix.set_defaults(run=cmd_fix)

    dig = sub.add_parser("digest", help="sha256: over a file's stored bytes, or over its canonical bytes")
    dig.add_argument("file")
    dig.add_argument("--canonical", action="store_true")
    dig.set_defaults(run=cmd_digest)

    form = sub.add_parser("form", help="the dialect document form check alone (RFC 0019 §4)")
    form.add_argument("dialect")
    form.add_argument("--binding")
    form.set_defaults(run=cmd_form)

    new = sub.add_parser("new", help="scaffold an entry directory")
    new.add_argument("id", metavar="PUBLISHER.NAME")
    new.add_argument("--kind", choices=("dialect", "preset"), help="required unless --from-run")
    new.add_argument("--direction", choices=("input", "output", "both"), help="default input")
    new.add_argument("--from-run", metavar="RUN_EXPORT", help="a whole dialect entry from a Runner run export")
    new.add_argument("--profiles", metavar="FILE", help="with --from-run: the trusted input profiles")
    new.add_argument("--name", metavar="NAME", help="with --from-run: the fixture's name (default: from the run's id)")
    new.add_argument("--catalog")
    new.set_defaults(run=cmd_new)

    fixture = sub.add_parser("fixture", help="fixtures from Runner recordings (docs/recording.md)")
    fixture_sub = fixture.add_subparsers(dest="action", parser_class=Parser, required=True)
    fadd = fixture_sub.add_parser("add", help="a Runner run export made a fixture of an entry, replayed first")
    fadd.add_argument("entry_dir", metavar="ENTRY_DIR")
    fadd.add_argument("run_export", metavar="RUN_EXPORT", help="run.json, or a directory holding it")
    fadd.add_argument("--name", help="the fixture's name (default: from the run's id)")
    fadd.add_argument("--profiles", metavar="FILE", help="the trusted input profiles (default: profiles.json beside "
                                                         "the export, else the export's release.inputProfiles)")
    fadd.add_argument("--replace", action="store_true", help="re-record the fixture of the same name")
    fadd.set_defaults(run=cmd_fixture_add)

    note = sub.add_parser("upgrade-note", help="a note for consumers upgrading from a released entry (RFC 0019 §3)")
    note.add_argument("id", metavar="ENTRY_ID")
    note.add_argument("text", metavar="TEXT", help="what changed since that release, 1 to 2,048 characters")
    note.add_argument("--release", metavar="TAG", help="key the note by the entry's entryDigest at TAG (default: the "
                      "latest release holding the entry)")
    note.add_argument("--catalog", help="the catalog's repository (default: the one holding manifest.json)")
    note.set_defaults(run=cmd_upgrade_note)


def register_verify(sub: Subcommands) -> None:
    """`exchange verify`: dispatched to the verifier's own program (dialect §11) before parsing."""
    verify = sub.add_parser("verify", help="the preparation verifier (dialect §11)", add_help=False)
    verify.add_argument("rest", nargs=argparse.REMAINDER)
    verify.set_defaults(run=None)
