"""The maintainer's commands (docs/releasing.md, docs/verifier-pin.md): the one release command, and the
pinned verifier fetched into the reader cache.
"""

from __future__ import annotations

import argparse
import os
import sys

from .common import IO, PASS, REFUSED, Parser, catalog_dir, safe


def cmd_release(args: argparse.Namespace) -> int:
    """exchange release: cut TAG (repository/release.py); a passing release prints the gate's summary first,
    as `exchange check` prints it (report.print_text)."""
    from ..repository.release import make_release
    from .report import print_text

    outcome = make_release(os.path.abspath(args.catalog), args.tag)
    if outcome.report is not None:
        print_text(outcome.report, safe(outcome.checked or args.catalog))
    for line in outcome.lines:
        print(safe(line), file=sys.stdout if outcome.status == 0 else sys.stderr)
    return outcome.status


def cmd_verifier_fetch(args: argparse.Namespace) -> int:
    """`exchange verifier fetch`: the pinned reader checked out at its commit (repository/pin.py)."""
    from pathlib import Path

    from ..repository.pin import FetchFailed, FetchRefused, fetch
    from ..codes import fix_text
    from ..tree import WorkingTree

    catalog = catalog_dir(args, "verifier fetch")
    if catalog is None:
        return IO
    try:
        pin, checkout, now = fetch(WorkingTree(catalog), args.source, Path(args.cache) if args.cache else None)
    except FetchRefused as exc:
        print(f"exchange verifier fetch: refused {exc.refusal.code}: {exc.refusal.path}: {safe(exc.refusal.detail)}")
        print(f"  fix: {fix_text(exc.refusal.code)}")
        return REFUSED
    except (FetchFailed, OSError) as exc:
        print(f"exchange verifier fetch: {safe(exc)}", file=sys.stderr)
        return IO
    print(f"exchange verifier fetch: {pin.reader} {'fetched into' if now else 'already at'} {safe(checkout)}")
    return PASS


def register(sub) -> None:
    """`exchange release`."""
    rel = sub.add_parser("release", help="cut release TAG on a clean, up-to-date main: gate, ledger row, commit, tag")
    rel.add_argument("tag", metavar="TAG")
    rel.add_argument("--catalog", default=".", help="the repository's root (default: the current directory)")
    rel.set_defaults(run=cmd_release)


def register_verifier(sub) -> None:
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
