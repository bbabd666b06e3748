"""The `exchange` command (shared/design/interfaces.md): text for people, one JSON object for machines.

Exit statuses follow the organisation's runtime: 0 pass, 1 refusal, 3 bad invocation, 4 I/O failure
(`exchange verify` keeps dialect §11's 0/1/2/3).
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import stat
import sys
import tempfile
import unicodedata
from typing import Sequence

from .refusal import Report

PASS, REFUSED, USAGE, IO = 0, 1, 3, 4


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # bad invocation is exit 3, never argparse's 2
        self.print_usage(sys.stderr)
        print(f"{self.prog}: {message}", file=sys.stderr)
        raise SystemExit(USAGE)


def find_catalog(start: str | None = None) -> str:
    """The nearest directory at or above `start` (the working directory) holding manifest.json."""
    here = os.path.abspath(start or os.getcwd())
    probe = here
    while True:
        if os.path.isfile(os.path.join(probe, "manifest.json")):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            return here
        probe = parent


def catalog_dir(args: argparse.Namespace, command: str) -> str | None:
    """The catalog a command works on (--catalog, else the nearest directory holding manifest.json);
    None, having said so on standard error, when it is not a directory (exit 4)."""
    catalog = os.path.abspath(args.catalog) if args.catalog else find_catalog()
    if not os.path.isdir(catalog):
        print(f"exchange {command}: {_safe(catalog)}: no such directory", file=sys.stderr)
        return None
    return catalog


def _safe(text: object) -> str:
    """Text for a terminal: control, format (bidi) and line-separator characters written escaped, so
    no file name can forge a line of the report."""
    out = []
    for c in str(text):
        category = unicodedata.category(c)
        if category == "Cs":
            out.append(f"\\u{ord(c):04x}")
        elif category in ("Cc", "Cf", "Zl", "Zp"):
            out.append(c.encode("unicode_escape").decode("ascii"))
        else:
            out.append(c)
    return "".join(out)


def _emit_json(value: dict) -> None:
    """One JSON object and a newline on standard output (ASCII, so any file name survives)."""
    sys.stdout.write(json.dumps(value, ensure_ascii=True) + "\n")


def _print_text(report: Report, catalog: str) -> None:
    from .codes import fix_text

    out = sys.stdout
    print(f"exchange check: {catalog}", file=out)
    print(f"entries: {report.entries} checked", file=out)
    print(f"checks: {', '.join(report.checks)}", file=out)
    for r in report.refusals:
        where = " ".join(x for x in (r.entry or "", r.path or "") if x)
        print(f"refused {r.code}: {_safe(where) + ': ' if where else ''}{_safe(r.detail)}", file=out)
        fix = fix_text(r.code)
        if fix:
            print(f"  fix: {fix}", file=out)
    for s in report.skipped:
        print(f"skipped {_safe(s.entry)} fixture {_safe(s.fixture)}: {_safe(s.text())}", file=out)
    for note in report.notes:
        print(f"note: {_safe(note)}", file=out)
    print(f"replayed: {report.replayed} fixture(s) recomputed with agreement", file=out)
    if report.reader is not None:  # the reader every fixture was replayed through (docs/verifier-pin.md)
        print(f"reader: {_safe(report.reader.text())}", file=out)
    if report.touched is not None:
        print(f"touched: {_safe(', '.join(report.touched)) or 'no entry'}", file=out)
    print(f"history: {report.history}", file=out)
    verdict = "pass" if report.passed else f"fail ({len(report.refusals)} refusal(s))"
    print(f"result: {verdict}", file=out)


def _resolve_base(command: str, base: str | None, catalog: str) -> tuple[str | None, str | None]:
    """`--base auto` as the merge base with the upstream default branch (repository/pullrequest.py), with a
    note saying how it was found; any other value as given. (None, None) after printing why auto failed."""
    from .repository.pullrequest import AUTO, BaseUnresolved, resolve_auto

    if base != AUTO:
        return base, None
    try:
        auto = resolve_auto(catalog)
    except BaseUnresolved as exc:
        print(f"{command}: --base auto: {_safe(exc)}", file=sys.stderr)
        return None, None
    return auto.commit, auto.describe()


def _work_tree_root(path: str) -> str | None:
    """The root of the git work tree holding `path` (the repository a pull request's files are named in),
    or None outside one."""
    try:
        import git

        repo = git.Repo(path, search_parent_directories=True)
    except Exception:  # not in a repository (InvalidGitRepositoryError, NoSuchPathError, …)
        return None
    try:
        return os.path.realpath(repo.working_tree_dir) if repo.working_tree_dir else None
    finally:
        repo.close()


def _emit_github(report: Report, catalog: str) -> int:
    """`--format github`: workflow commands on stdout, the summary to $GITHUB_STEP_SUMMARY (annotations.py);
    paths are joined to the catalog's place in its git work tree (the pull request's checkout, wherever the
    workflow put it), else under $GITHUB_WORKSPACE (or the working directory)."""
    from .annotations import emit
    from .tree import TooLarge, TreeError, WorkingTree

    tree = WorkingTree(catalog)

    def read(path: str) -> bytes | None:
        try:
            return tree.read(path, 16 * 1024 * 1024)
        except (TreeError, TooLarge, OSError):
            return None

    place = os.path.realpath(catalog)
    root = _work_tree_root(catalog) or os.path.realpath(os.environ.get("GITHUB_WORKSPACE") or os.getcwd())
    inside = os.path.commonpath([root, place]) == root and place != root
    prefix = os.path.relpath(place, root).replace(os.sep, "/") + "/" if inside else ""
    failure = emit(report, read, sys.stdout.write, prefix)
    if failure:
        print(f"exchange check: GITHUB_STEP_SUMMARY {failure}", file=sys.stderr)
        return IO
    return PASS if report.passed else REFUSED


def _workers(text: str) -> int:
    """`--workers N`: a whole number from 1 to 64."""
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError("a whole number of processes from 1 to 64")
    return int(text)


def cmd_check(args: argparse.Namespace) -> int:
    from .catalog.gate import CatalogUnreadable, GateOptions, check_catalog
    from .tree import WorkingTree

    from .catalog.grammar import release_key

    if args.release_tag is not None and release_key(args.release_tag) is None:
        print(f"exchange check: --release-tag {args.release_tag}: not a release tag vMAJOR.MINOR.PATCH", file=sys.stderr)
        return USAGE
    catalog = catalog_dir(args, "check")
    if catalog is None:
        return IO
    if args.pin is not None and args.base is None:
        print("exchange check: --pin chooses whose pin replays a pull request: give --base too", file=sys.stderr)
        return USAGE
    base, auto_note = _resolve_base("exchange check", args.base, catalog)
    if base is None and args.base is not None:
        return USAGE
    options = GateOptions(entries=args.entry or [], history=not args.no_history, base=base,
                          release_tag=args.release_tag, repository=catalog, workers=args.workers,
                          pin=args.pin or "base")
    try:
        report = check_catalog(WorkingTree(catalog), options)
    except CatalogUnreadable as exc:
        print(f"exchange check: the catalog could not be read: {exc}", file=sys.stderr)
        return IO
    if auto_note:
        report.notes.insert(0, auto_note)
    if args.format == "json":
        _emit_json(report.as_json())
    elif args.format == "github":
        return _emit_github(report, catalog)
    else:
        _print_text(report, catalog)
    return PASS if report.passed else REFUSED


def cmd_verifier_fetch(args: argparse.Namespace) -> int:
    """`exchange verifier fetch`: the pinned reader checked out at its commit (repository/pin.py)."""
    from pathlib import Path

    from .repository.pin import FetchFailed, FetchRefused, fetch
    from .codes import fix_text
    from .tree import WorkingTree

    catalog = catalog_dir(args, "verifier fetch")
    if catalog is None:
        return IO
    try:
        pin, checkout, now = fetch(WorkingTree(catalog), args.source, Path(args.cache) if args.cache else None)
    except FetchRefused as exc:
        print(f"exchange verifier fetch: refused {exc.refusal.code}: {exc.refusal.path}: {_safe(exc.refusal.detail)}")
        print(f"  fix: {fix_text(exc.refusal.code)}")
        return REFUSED
    except (FetchFailed, OSError) as exc:
        print(f"exchange verifier fetch: {_safe(exc)}", file=sys.stderr)
        return IO
    print(f"exchange verifier fetch: {pin.reader} {'fetched into' if now else 'already at'} {_safe(checkout)}")
    return PASS


def _write_file(path: str, data: bytes) -> None:
    """Replace a regular file (or create it) without following a symlink: a temporary file beside it,
    then an atomic rename; anything but a regular file there is refused (OSError)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise IsADirectoryError(errno.EISDIR if stat.S_ISDIR(st.st_mode) else errno.EPERM,
                                "not a regular file; nothing written", path)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}-", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def cmd_manifest(args: argparse.Namespace) -> int:
    from .authoring.fix import entry_checks, pinnable
    from .catalog.manifest import compute_row, write_manifest
    from .tree import TreeError, WorkingTree

    catalog = catalog_dir(args, "manifest")
    if catalog is None:
        return IO
    tree = WorkingTree(catalog)
    try:
        checks = entry_checks(tree)
    except TreeError as exc:
        print(f"exchange manifest: {exc}", file=sys.stderr)
        return IO
    from .quoting import path_text  # a directory name outside its grammar is not repeated

    unreadable = [c for c in checks if not pinnable(c)]
    for c in unreadable:
        print(f"exchange manifest: {_safe(path_text(c.path))}: not an entry a row can pin (a readable entry.json with its "
              "kind, under a directory named by an id); fix the entry first", file=sys.stderr)
    if unreadable:
        return REFUSED
    data = write_manifest([compute_row(c) for c in checks])
    path = os.path.join(catalog, "manifest.json")
    try:
        from .tree import read_regular

        current = read_regular(path)  # a FIFO or symlink there is refused, never waited on (issue #11)
    except FileNotFoundError:
        current = b""
    except OSError as exc:
        print(f"exchange manifest: {path}: {exc.strerror}", file=sys.stderr)
        return IO
    if args.write:
        if current != data:
            try:
                _write_file(path, data)
            except OSError as exc:
                print(f"exchange manifest: {path}: {exc.strerror}", file=sys.stderr)
                return IO
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
    from .authoring.fix import MANIFEST, plan_fix
    from .tree import TreeError, WorkingTree

    catalog = catalog_dir(args, "fix")
    if catalog is None:
        return IO
    path = os.path.join(catalog, MANIFEST)
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            print(f"exchange fix: {path}: not a regular file; nothing written", file=sys.stderr)
            return IO
        with open(path, "rb") as fh:
            current: bytes | None = fh.read()
    except FileNotFoundError:
        current = None
    except OSError as exc:
        print(f"exchange fix: {path}: {exc.strerror}", file=sys.stderr)
        return IO
    try:
        plan = plan_fix(WorkingTree(catalog), current)
    except TreeError as exc:
        print(f"exchange fix: {_safe(exc)}", file=sys.stderr)
        return IO
    if plan.blockers:
        for blocker in plan.blockers:
            print(f"exchange fix: {_safe(blocker.line())}", file=sys.stderr)
        print(f"exchange fix: nothing written: {len(plan.blockers)} problem(s) a pin cannot fix; correct the files "
              "named above, then run exchange fix again", file=sys.stderr)
        return REFUSED
    for change in plan.changes:
        print(_safe(change.line()))
    if not plan.changes:
        print(f"exchange fix: every pin is up to date ({plan.entries} entries)")
        return PASS
    if args.check:
        print(f"exchange fix --check: {len(plan.changes)} pin(s) would change; run exchange fix", file=sys.stderr)
        return REFUSED
    for rel, data in plan.writes.items():
        try:
            _write_file(os.path.join(catalog, *rel.split("/")), data)
        except OSError as exc:
            print(f"exchange fix: {_safe(rel)}: {exc.strerror}", file=sys.stderr)
            return IO
    print(f"exchange fix: {len(plan.changes)} pin(s) written to {len(plan.writes)} file(s)")
    return PASS


def cmd_digest(args: argparse.Namespace) -> int:
    from .canon import CanonError, canonical_digest, digest
    from .jsonstrict import Bounds, JsonRefusal, loads

    from .tree import read_regular

    try:
        data = read_regular(args.file, follow=True)  # decided on the opened descriptor; a FIFO never blocks
    except OSError as exc:
        print(f"exchange digest: {args.file}: {exc.strerror}", file=sys.stderr)
        return IO
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
    from .dialect import form_report

    from .tree import read_regular

    try:
        data = read_regular(args.dialect, 131_072, follow=True)  # a FIFO is refused, never waited on
        binding = None
        if args.binding:
            binding = read_regular(args.binding, 65_536, follow=True)
    except OSError as exc:
        print(f"exchange form: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return IO
    report = form_report(data, binding)
    _emit_json(report)
    return PASS if report["result"] == "valid" else REFUSED


def _stopped(command: str, stop) -> int:
    """A fixture_add.Stop as the command's message and exit status (docs/recording.md)."""
    refused = f"refused {stop.code}: " if stop.code else ""
    print(f"exchange {command}: {refused}{_safe(stop.detail)}", file=sys.stderr)
    return stop.status


def cmd_new(args: argparse.Namespace) -> int:
    from .authoring.fixture_add import Stop
    from .authoring.scaffold import scaffold, scaffold_from_run

    catalog = os.path.abspath(args.catalog) if args.catalog else find_catalog()
    if args.from_run is None and (args.kind is None or args.profiles is not None or args.name is not None):
        print("exchange new: --kind dialect|preset is required (or --from-run RUN_EXPORT; --profiles and --name go "
              "with it)",
              file=sys.stderr)
        return USAGE
    if args.from_run is not None and (args.kind not in (None, "dialect") or args.direction not in (None, "input")):
        print("exchange new: --from-run writes a kind-dialect input entry", file=sys.stderr)
        return USAGE
    try:
        if args.from_run is not None:
            lines = scaffold_from_run(catalog, args.id, args.from_run, args.profiles, args.name)
        else:
            lines = [f"wrote {p}" for p in scaffold(catalog, args.id, args.kind, args.direction or "input")]
    except Stop as stop:
        return _stopped("new", stop)
    except ValueError as exc:
        print(f"exchange new: {_safe(exc)}", file=sys.stderr)
        return USAGE
    except OSError as exc:
        print(f"exchange new: {_safe(exc)}", file=sys.stderr)
        return IO
    for line in lines:
        print(_safe(line))
    if args.from_run is not None:
        print("next: write the title, author and README.md, then exchange fix && exchange check --base auto")
    else:
        print("next: write dialect.json, then exchange fixture add ENTRY_DIR RUN_EXPORT for each recording, "
              "then exchange fix && exchange check --base auto")
    return PASS


def cmd_fixture_add(args: argparse.Namespace) -> int:
    from .authoring.fixture_add import Stop, add_fixture

    try:
        outcome = add_fixture(args.entry_dir, args.run_export, args.name, args.profiles, args.replace)
    except Stop as stop:
        return _stopped("fixture add", stop)
    except OSError as exc:
        print(f"exchange fixture add: {_safe(exc)}", file=sys.stderr)
        return IO
    for line in outcome.lines:
        print(_safe(line))
    return PASS


def cmd_release(args: argparse.Namespace) -> int:
    from .repository.release import make_release

    outcome = make_release(os.path.abspath(args.catalog), args.tag)
    for line in outcome.lines:
        print(_safe(line), file=sys.stdout if outcome.status == 0 else sys.stderr)
    return outcome.status


def _load_lock(command: str, path: str):
    """The consumer's lock file read (consumer/lock.py `load`: the lock and its refusal, each or neither),
    or None when it cannot be read, said on stderr."""
    from .consumer import lock as locks

    try:
        return locks.load(path)
    except OSError as exc:
        print(f"{command}: --lock {_safe(path)}: {exc.strerror or exc}; nothing read", file=sys.stderr)
        return None


def cmd_release_check(args: argparse.Namespace) -> int:
    """exchange release-check: a release verified before import, held to the consumer's lock (consumer/)."""
    from .catalog.grammar import ENTRY_ID
    from .consumer import LocationError, ReleaseCheck, full_commit, release_check
    from .consumer import lock as locks

    command = "exchange release-check"
    history = None if args.no_history else args.history
    if history is not None and not 1 <= history <= 128:
        print(f"{command}: --history is maxHistoryReleases, 1 to 128", file=sys.stderr)
        return USAGE
    if (args.update or args.approve_change) and not args.lock:
        print(f"{command}: --update and --approve-change go with --lock FILE", file=sys.stderr)
        return USAGE
    if args.approve_change and not args.update:
        print(f"{command}: --approve-change ID records a reviewed change: give it with --update", file=sys.stderr)
        return USAGE
    if any(ENTRY_ID.fullmatch(i) is None for i in args.approve_change or ()):
        print(f"{command}: --approve-change takes an entry id PUBLISHER.NAME", file=sys.stderr)
        return USAGE
    try:
        expected = full_commit(args.expect_commit) if args.expect_commit is not None else None
    except ValueError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return USAGE
    lock, result = None, None
    if args.lock:
        if (loaded := _load_lock(command, args.lock)) is None:
            return IO
        lock, refusal = loaded
        if refusal is not None:
            result = ReleaseCheck(args.location, args.tag)
            result.report.checks = ["the lock"]
            result.report.refusals.append(refusal)
    if result is None:
        try:
            result = release_check(args.location, args.tag, entries=args.entry, history=history,
                                   expect_commit=expected, lock=lock, approved=frozenset(args.approve_change or ()))
        except LocationError as exc:
            print(f"{command}: {_safe(exc)}", file=sys.stderr)
            return IO
    action = None
    if args.lock and result.state is not None:
        if lock is None or (args.update and result.state != lock):
            try:
                locks.write(args.lock, result.state, replace=lock is not None)
            except OSError as exc:
                print(f"{command}: --lock {_safe(args.lock)}: {exc.strerror or exc}", file=sys.stderr)
                return IO
            action = "created" if lock is None else "updated"
        elif result.state != lock:
            action = "kept"
            result.report.notes.append(f"the lock still records {lock.tag} at {lock.commit}; after review, run "
                                       f"again with --update to record {result.tag}")
        else:
            action = "unchanged"
    if args.format == "json":
        _emit_json(result.as_json() | ({"lock": {"file": args.lock, "action": action}} if action else {}))
    else:
        at = f"at commit {result.commit}" if result.commit else "(not resolved to a commit)"
        print(f"release {_safe(result.tag)} of {_safe(result.location)} {at}")
        _print_text(result.report, f"{result.location}@{result.tag}")
        for item in result.report.results():
            print(f"entry {_safe(item['id'])}: {item['result']}")
        if action:
            print(f"lock {_safe(args.lock)}: {action}")
    return PASS if result.report.passed else REFUSED


def cmd_upgrade_diff(args: argparse.Namespace) -> int:
    """exchange upgrade-diff: LOCATION FROM_TAG TO_TAG, or LOCATION --lock FILE TO_TAG (consumer/diff.py)."""
    from .consumer import LocationError, upgrade_diff
    from .consumer.render import diff_lines

    command = "exchange upgrade-diff"
    history = None if args.no_history else args.history
    if history is not None and not 1 <= history <= 128:
        print(f"{command}: --history is maxHistoryReleases, 1 to 128", file=sys.stderr)
        return USAGE
    tags = args.tags
    if len(tags) > 2 or (len(tags) == 1 and not args.lock):
        print(f"{command}: give FROM_TAG TO_TAG, or --lock FILE TO_TAG", file=sys.stderr)
        return USAGE
    lock = None
    if args.lock:
        if (loaded := _load_lock(command, args.lock)) is None:
            return IO
        lock, refusal = loaded
        if lock is None and refusal is None:
            print(f"{command}: --lock {_safe(args.lock)}: no such lock; write it with exchange release-check "
                  "LOCATION TAG --lock FILE", file=sys.stderr)
            return IO
        if refusal is not None:
            print(f"refused {refusal.code}: {_safe(refusal.path)}: {_safe(refusal.detail)}")
            return REFUSED
    from_tag, to_tag = (tags[0], tags[1]) if len(tags) == 2 else (None, tags[0])
    try:
        diff = upgrade_diff(args.location, from_tag, to_tag, lock=lock, history=history)
    except ValueError as exc:
        print(f"{command}: {_safe(exc)}", file=sys.stderr)
        return USAGE
    except LocationError as exc:
        print(f"{command}: {_safe(exc)}", file=sys.stderr)
        return IO
    if args.format == "json":
        _emit_json(diff)
    else:
        for line in diff_lines(diff, _safe):
            print(line)
    return REFUSED if diff["result"] == "refused" else PASS


def cmd_signoff(args: argparse.Namespace) -> int:
    """exchange signoff: a DCO sign-off on every non-merge commit in BASE..HEAD (repository/signoff.py)."""
    from .repository.pullrequest import BaseUnresolved
    from .repository.signoff import HeadUnborn, RepositoryUnreadable, check_signoff
    from .codes import fix_text

    catalog = catalog_dir(args, "signoff")
    if catalog is None:
        return IO
    try:
        report = check_signoff(catalog, args.base)
    except RepositoryUnreadable as exc:
        print(f"exchange signoff: {_safe(exc)}", file=sys.stderr)
        return IO
    except (BaseUnresolved, HeadUnborn) as exc:
        print(f"exchange signoff: {'--base auto: ' if isinstance(exc, BaseUnresolved) else ''}{_safe(exc)}",
              file=sys.stderr)
        return USAGE
    if args.format == "json":
        _emit_json(report.as_json())
        return PASS if report.passed else REFUSED
    if args.format == "github":
        from .annotations import escape_data, escape_property

        for refusal, _ in report.refusals:
            print(f"::error title={escape_property(refusal.code)}::{escape_data(refusal.detail)}")
    print(f"exchange signoff: {_safe(catalog)}")
    for note in report.notes:
        print(f"note: {_safe(note)}")
    if report.base:
        print(f"range: {report.base}..{report.head}")
    print(f"commits: {report.commits} checked, {report.merges} merge(s) not checked")
    for refusal, _ in report.refusals:
        print(f"refused {refusal.code}: {_safe(refusal.detail)}")
    for code in dict.fromkeys(refusal.code for refusal, _ in report.refusals):
        print(f"  fix ({code}): {fix_text(code)}")
    if report.base and any(commit for _, commit in report.refusals):
        print(f"  here: git rebase --signoff {report.base} && git push --force-with-lease")
    print(f"result: {'pass' if report.passed else f'fail ({len(report.refusals)} refusal(s))'}")
    return PASS if report.passed else REFUSED


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="exchange", description="The Judgment Exchange catalog's gate and tools (RFC 0019).")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, required=True)

    check = sub.add_parser("check", help="the gate: every check of RFC 0019 §4 on a catalog")
    check.add_argument("--catalog", help="the catalog's directory (default: the repository holding manifest.json)")
    check.add_argument("--format", choices=("text", "json", "github"), default="text",
                       help="github: workflow-command annotations, and a summary to $GITHUB_STEP_SUMMARY")
    check.add_argument("--entry", action="append", metavar="ID", help="check only this entry (repeatable)")
    check.add_argument("--no-history", action="store_true", help="skip the git history checks (reported)")
    check.add_argument("--base", metavar="REV", help="a pull request's base: every existing release is previous; "
                       "'auto' is the merge base with the upstream default branch (CONTRIBUTING.md)")
    check.add_argument("--release-tag", metavar="TAG", help="the release being made: lower tags are previous")
    check.add_argument("--pin", choices=("base", "change"), default=None,
                       help="with --base: replay through the reader the base's verifier-pin.json names (base, the "
                       "default: a change never chooses its own judge) or the change's own (change: reviewing a "
                       "pin move; docs/trust.md)")
    check.add_argument("--workers", type=_workers, metavar="N",
                       help="processes checking entries (default: one per core on a large catalog; 1: this process)")
    check.set_defaults(run=cmd_check)

    signoff = sub.add_parser("signoff", help="a DCO Signed-off-by on every commit of BASE..HEAD (RFC 0019 §6)")
    signoff.add_argument("--base", metavar="REV", required=True,
                         help="the pull request's base; 'auto' is the merge base with the upstream default branch")
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
    fixture_sub = fixture.add_subparsers(dest="action", parser_class=_Parser, required=True)
    fadd = fixture_sub.add_parser("add", help="a Runner run export made a fixture of an entry, replayed first")
    fadd.add_argument("entry_dir", metavar="ENTRY_DIR")
    fadd.add_argument("run_export", metavar="RUN_EXPORT", help="run.json, or a directory holding it")
    fadd.add_argument("--name", help="the fixture's name (default: from the run's id)")
    fadd.add_argument("--profiles", metavar="FILE", help="the trusted input profiles (default: profiles.json beside "
                                                         "the export, else the export's release.inputProfiles)")
    fadd.add_argument("--replace", action="store_true", help="re-record the fixture of the same name")
    fadd.set_defaults(run=cmd_fixture_add)

    rel = sub.add_parser("release", help="cut release TAG on a clean, up-to-date main: gate, ledger row, commit, tag")
    rel.add_argument("tag", metavar="TAG")
    rel.add_argument("--catalog", default=".", help="the repository's root (default: the current directory)")
    rel.set_defaults(run=cmd_release)

    rc = sub.add_parser("release-check", help="a consumer's check of a tagged release before import (§7)")
    rc.add_argument("location", help="a local directory holding the catalog's repository, or a git URL")
    rc.add_argument("tag")
    rc.add_argument("--entry", action="append", metavar="ID")
    hist = rc.add_mutually_exclusive_group()
    hist.add_argument("--history", type=int, default=128, metavar="N", help="maxHistoryReleases, 1 to 128")
    hist.add_argument("--no-history", action="store_true", help="check form only: artifact-history-unchecked")
    rc.add_argument("--expect-commit", metavar="SHA", help="the full 40-hex commit retained for this tag at import")
    rc.add_argument("--lock", metavar="FILE", help="the consumer's lock: written after a passing check when absent; "
                    "a later check refuses a moved tag, a lower tag, an entry changed without an upgrade note")
    rc.add_argument("--update", action="store_true", help="with --lock: record this release when the check passes")
    rc.add_argument("--approve-change", action="append", metavar="ID",
                    help="with --update: the reviewer accepts this entry's change without an upgrade note")
    rc.add_argument("--format", choices=("text", "json"), default="text")
    rc.set_defaults(run=cmd_release_check)

    ud = sub.add_parser("upgrade-diff", help="what changed between two releases, for review (§7)",
                        usage="exchange upgrade-diff LOCATION FROM_TAG TO_TAG | LOCATION --lock FILE TO_TAG "
                              "[--history N | --no-history] [--format text|json]")
    ud.add_argument("location")
    ud.add_argument("tags", nargs="+", metavar="TAG", help="FROM_TAG TO_TAG, or TO_TAG alone with --lock")
    ud.add_argument("--lock", metavar="FILE", help="the consumer's lock: FROM is the locked release")
    ud_hist = ud.add_mutually_exclusive_group()
    ud_hist.add_argument("--history", type=int, default=128, metavar="N", help="the target's check: maxHistoryReleases")
    ud_hist.add_argument("--no-history", action="store_true", help="the target's check reads no history")
    ud.add_argument("--format", choices=("text", "json"), default="text")
    ud.set_defaults(run=cmd_upgrade_diff)

    vpin = sub.add_parser("verifier", help="the pinned verifier (verifier-pin.json; docs/verifier-pin.md)")
    vpin_sub = vpin.add_subparsers(dest="action", parser_class=_Parser, required=True)
    vfetch = vpin_sub.add_parser("fetch", help="check out the pinned reader at its commit into the reader cache")
    vfetch.add_argument("--catalog", help="the catalog's directory (default: the repository holding manifest.json)")
    vfetch.add_argument("--from", dest="source", metavar="URL", help="the repository to clone (default: "
                        "https://github.com/OWNER/NAME.git from the locator; the pinned commit is what is trusted)")
    vfetch.add_argument("--cache", metavar="DIR", help="the reader cache (default: $EXCHANGE_READER_CACHE, else "
                        "$XDG_CACHE_HOME/judgment-exchange/readers)")
    vfetch.set_defaults(run=cmd_verifier_fetch)

    verify = sub.add_parser("verify", help="the preparation verifier (dialect §11)", add_help=False)
    verify.add_argument("rest", nargs=argparse.REMAINDER)
    verify.set_defaults(run=None)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        status = _dispatch(argv)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, never at interpreter exit
    except BrokenPipeError:
        return _closed_pipe(3 if argv[:1] == ["verify"] else IO)
    return status


def _dispatch(argv: list[str]) -> int:
    if argv[:1] == ["verify"]:
        from .verifier.program import main as verify_main

        return verify_main(argv[1:])
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return args.run(args)


def _closed_pipe(status: int) -> int:
    """The reader closed standard output (`exchange ... | head -1`): end quietly, no traceback, with the
    I/O status (the output could not be written whole; `verify` keeps §11's 3). Standard output is
    pointed at /dev/null so the interpreter's last flush cannot raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # a replaced sys.stdout (a test's capture) has no descriptor
        pass
    return status


if __name__ == "__main__":
    raise SystemExit(main())
