"""The maintainer's commands (docs/releasing.md, docs/verifier-pin.md, docs/init.md): a new catalog (`exchange
init`), the one release command, and the pinned verifier fetched into the reader cache.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from .common import IO, PASS, REFUSED, USAGE, Exit, Parser, catalog_dir, safe, safe_failure

if TYPE_CHECKING:
    from .common import Subcommands


def cmd_init(args: argparse.Namespace) -> int:
    """`exchange init DIR --owners TEAM`: a new catalog's files (founding/); exit 3 for a value outside its
    grammar or no gate commit known, 1 refused (nothing written), 4 when writing fails."""
    from ..founding import BadInvocation, Refused, init
    from ..founding.gateref import release_tag
    from ..quoting import cleared_text

    def shown(text: object) -> str:  # a path the user chose: a credential's shape in it is described, not shown
        return safe(cleared_text(str(text)))

    try:
        done = init(args.directory, args.owners, args.gate_ref, git=not args.no_git)
    except BadInvocation as exc:
        raise Exit(USAGE, f"exchange init: {safe(exc)}")
    except Refused as exc:
        for reason in exc.reasons:
            print(f"exchange init: refused: {shown(reason)}", file=sys.stderr)
        print("exchange init: nothing written", file=sys.stderr)
        return REFUSED
    except OSError as exc:
        raise Exit(IO, f"exchange init: {safe_failure(exc)} (any file init wrote is a new one: remove those it "
                       "wrote before trying again)")
    print(f"exchange init: a new catalog in {shown(done.root)}: {len(done.paths)} files"
          + (", and git init -b main" if done.git_initialised else ""))
    for path in done.paths:
        print(f"  {path}")
    how = f"{release_tag()}, this package's own commit (Dependabot moves it)" if done.released \
        else "a commit given by --gate-ref (moved by hand: docs/init.md)"
    print(f"the workflows pin the gate's action at {done.ref}, {how}")
    print(f"exchange check --catalog {shown(done.root)} passes on it now" if not args.no_git else
          f"exchange check --catalog {shown(done.root)} --no-history passes on it now (the history check reads a "
          "repository: git init -b main)")
    print("next, in the new catalog:")
    for step in done.next_steps:
        print(f"  {shown(step)}")
    return PASS


def cmd_release(args: argparse.Namespace) -> int:
    """exchange release: cut TAG (releasing/release.py); a passing release prints the gate's summary first,
    as `exchange check` prints it (report.print_text)."""
    from ..releasing.release import make_release
    from .report import print_text

    root = release_root(args.catalog)
    outcome = make_release(root, args.tag, approved=frozenset(args.approve_change or ()), sign=args.sign)
    if outcome.report is not None:
        print_text(outcome.report, safe(outcome.checked or root))
    for line in outcome.lines:
        print(safe(line), file=sys.stdout if outcome.status == 0 else sys.stderr)
    return outcome.status


def release_root(catalog: str | None) -> str:
    """The repository `exchange release` works on: --catalog as given, else the root of the git work tree
    holding the working directory (a maintainer may run it from a subdirectory; issue #26 item 6)."""
    if catalog is not None:
        return os.path.abspath(catalog)
    from .report import work_tree_root

    return work_tree_root(os.getcwd()) or os.path.abspath(".")


def cmd_verifier_fetch(args: argparse.Namespace) -> int:
    """`exchange verifier fetch`: the pinned reader checked out at its commit (repository/pin.py)."""
    from pathlib import Path

    from ..codes import fix_text
    from ..repository.pin import FetchFailed, FetchRefused, fetch
    from ..tree import WorkingTree

    catalog = catalog_dir(args, "verifier fetch")
    try:
        pin, checkout, now = fetch(WorkingTree(catalog), args.source, Path(args.cache) if args.cache else None)
    except FetchRefused as exc:
        print(f"exchange verifier fetch: refused {exc.refusal.code}: {exc.refusal.path}: {safe(exc.refusal.detail)}")
        print(f"  fix: {fix_text(exc.refusal.code)}")
        return REFUSED
    except (FetchFailed, OSError) as exc:
        raise Exit(IO, f"exchange verifier fetch: {safe(exc)}")
    print(f"exchange verifier fetch: {pin.reader} {'fetched into' if now else 'already at'} {safe(checkout)}")
    return PASS


def _problem(fmt: str, text: str) -> None:
    """One problem of the release workflow's checks: a workflow error annotation, or a line of text."""
    from ..annotations import escape_data

    print(f"::error::{escape_data(text)}" if fmt == "github" else f"refused: {safe(text)}")


def cmd_release_verify(args: argparse.Namespace) -> int:
    """`exchange release-verify TAG`: the release workflow's check of a pushed tag (releasing/published.py)."""
    from ..releasing.published import RepositoryUnreadable, verify_pushed_tag

    try:
        verdict = verify_pushed_tag(os.path.abspath(args.catalog), args.tag, args.main)
    except RepositoryUnreadable as exc:
        raise Exit(IO, f"exchange release-verify: {safe(exc)}")
    for problem in verdict.problems:
        _problem(args.format, problem)
    if verdict.problems:
        return REFUSED
    print(f"exchange release-verify: {safe(args.tag)} names {verdict.commit}, on main, new, above every release; "
          "its commit adds exactly its ledger row")
    return PASS


def cmd_release_notes(args: argparse.Namespace) -> int:
    """`exchange release-notes TAG --report FILE`: the release's verdict from the gate's JSON report, and its
    notes on standard output (releasing/published.py)."""
    from ..releasing.published import (
        REPORT_BOUND,
        ReportUnreadable,
        manifest_rows,
        read_report,
        refusal_lines,
        release_notes,
        report_passed,
    )
    from ..tree import TreeError, read_regular

    try:
        report = read_report(read_regular(args.report, REPORT_BOUND, follow=True))
    except (OSError, ReportUnreadable) as exc:
        raise Exit(IO, f"exchange release-notes: {safe(args.report)}: {safe(exc)}")
    if not report_passed(report):
        for line in refusal_lines(report):
            _problem("github", f"the gate refused the release: {line}")
        return REFUSED
    try:
        rows = manifest_rows(os.path.abspath(args.catalog), args.commit)
    except TreeError as exc:
        raise Exit(IO, f"exchange release-notes: {safe_failure(exc)}")
    sys.stdout.write(release_notes(args.tag, args.commit, report, rows))
    return PASS


def register(sub: Subcommands) -> None:
    """`exchange init`, `exchange release`, and the release workflow's `release-verify` and `release-notes`."""
    new = sub.add_parser("init", help="write a new catalog into DIR: its files, owners and the gate's workflows "
                         "(docs/init.md)")
    new.add_argument("directory", metavar="DIR", help="a new or empty directory (an empty repository's root is "
                     "fine), outside every other git work tree; its name is the catalog's repository name")
    new.add_argument("--owners", required=True, metavar="TEAM", help="who reviews the gate's files: @org/team or "
                     "@user (.github/CODEOWNERS)")
    new.add_argument("--gate-ref", metavar="COMMIT", help="the 40-hex commit of Judgment-Pack/judgment-pack-exchange "
                     "the workflows pin the gate's action to (default: the commit this package was built from, "
                     "when it knows it)")
    new.add_argument("--no-git", action="store_true", help="do not run git init -b main in DIR")
    new.set_defaults(run=cmd_init)

    rel = sub.add_parser("release", help="cut release TAG on a clean, up-to-date main: gate, ledger row, commit, tag")
    rel.add_argument("tag", metavar="TAG")
    rel.add_argument("--catalog", help="the repository's root (default: the git work tree holding the current "
                     "directory)")
    rel.add_argument("--approve-change", action="append", metavar="ID",
                     help="release although this released entry changed without an upgrade note, so a consumer "
                     "locked to the last release is refused it until they approve it by hand (repeatable)")
    rel.add_argument("--sign", action="store_true",
                     help="sign the release tag with git's SSH signing (gpg.format=ssh, user.signingKey) and verify it "
                     "against release-signers before returning (docs/signing.md)")
    rel.set_defaults(run=cmd_release)

    verify = sub.add_parser("release-verify", help="the release workflow's check of a pushed tag: on main, new, "
                            "above every release, its commit adding exactly its ledger row (docs/releasing.md)")
    verify.add_argument("tag", metavar="TAG")
    verify.add_argument("--catalog", default=".", help="the repository's root (default: the current directory)")
    verify.add_argument("--main", default="refs/remotes/origin/main", metavar="REF",
                        help="main as fetched (default: refs/remotes/origin/main)")
    verify.add_argument("--format", choices=("text", "github"), default="text")
    verify.set_defaults(run=cmd_release_verify)

    notes = sub.add_parser("release-notes", help="the release's verdict from the gate's JSON report, and its notes "
                           "(Markdown) on standard output (docs/releasing.md)")
    notes.add_argument("tag", metavar="TAG")
    notes.add_argument("--report", required=True, metavar="FILE", help="exchange check --format json's report")
    notes.add_argument("--commit", required=True, metavar="REV", help="the released commit (manifest.json is read "
                                                                      "there)")
    notes.add_argument("--catalog", default=".", help="the repository's root (default: the current directory)")
    notes.set_defaults(run=cmd_release_notes)


def register_verifier(sub: Subcommands) -> None:
    """`exchange verifier fetch`."""
    vpin = sub.add_parser("verifier", help="the pinned verifier (verifier-pin.json; docs/verifier-pin.md)")
    vpin_sub = vpin.add_subparsers(dest="action", parser_class=Parser, required=True)
    vfetch = vpin_sub.add_parser("fetch", help="check out the pinned reader at its commit into the reader cache")
    vfetch.add_argument("--catalog", help="the catalog's directory (default: the repository holding manifest.json)")
    vfetch.add_argument("--from", dest="source", metavar="URL", help="the repository to clone (default: "
                        "https://github.com/OWNER/NAME.git from the locator; the pinned commit is what is trusted)")
    vfetch.add_argument("--cache", metavar="DIR", help="the reader cache (default: $EXCHANGE_READER_CACHE, else "
                        "$XDG_CACHE_HOME/judgment-exchange/readers)")
    vfetch.set_defaults(run=cmd_verifier_fetch)
