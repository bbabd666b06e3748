"""`exchange conformance`: the consumer conformance kit (issues #19, #28; docs/conformance.md).

`conformance run [--tier T] [--kit DIR] [--keep DIR] [--case NAME ...] [--jobs N] [-- COMMAND ...]` holds any
consumer to every case of the kit at its declared reader tier; `conformance list [--kit DIR]` prints each case
with its title, its verdict at each tier and the RFC sentence it holds; `conformance consume --location DIR
--tag TAG --history N [--retained FILE] [--held TAG ...] [--tier T]` is this project's consumer behind the
kit's command contract (what `run` calls when no command follows `--`). Exit statuses: run 0 every case
agrees, 1 a disagreement, 3 a bad invocation, 4 a kit error; list 0 or 4; consume 0 pass, 1 refuse (its
verdict on standard output), 3, 4.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from .common import IO, PASS, REFUSED, USAGE, Exit, Parser, safe

if TYPE_CHECKING:
    from ..signing.signers import Signers
    from .common import Subcommands


def _history(text: str) -> int:
    """maxHistoryReleases: a whole number from 1 to 128 (RFC 0019 §7)."""
    if not text.isdigit() or not 1 <= int(text) <= 128:
        raise argparse.ArgumentTypeError("maxHistoryReleases is a whole number from 1 to 128")
    return int(text)


def _jobs(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 16:
        raise argparse.ArgumentTypeError("a whole number of cases run side by side, 1 to 16")
    return int(text)


TIERS = ("specification", "none")
"""The reader tiers (conformance/verdict.py), repeated here so --help needs no import of the runner."""


def cmd_run(args: argparse.Namespace) -> int:
    """exchange conformance run: every case of the kit through COMMAND (default: this project's consumer)."""
    from ..conformance.runner import DEFAULT_KIT, run

    command = list(args.command or [])
    if command[:1] == ["--"]:
        command = command[1:]
    kit = Path(args.kit) if args.kit else DEFAULT_KIT
    return run(kit, command or None, names=args.case, jobs=args.jobs, tier=args.tier,
               keep=Path(args.keep) if args.keep else None, signing=args.signing)


def cmd_list(args: argparse.Namespace) -> int:
    """exchange conformance list: each case, its title, its verdict at each tier and its RFC sentence."""
    from ..conformance.runner import DEFAULT_KIT, list_cases

    return list_cases(Path(args.kit) if args.kit else DEFAULT_KIT)


def cmd_consume(args: argparse.Namespace) -> int:
    """exchange conformance consume: release-check's verdict on one case, in the kit's neutral form."""
    from ..conformance.adapter import RETAINED_BOUND, RetainedError, consume, encode, read_retained_state
    from ..consumer import LocationError
    from ..tree import read_regular

    command = "exchange conformance consume"
    retained = None
    if args.retained:
        try:
            retained = read_retained_state(read_regular(args.retained, RETAINED_BOUND))
        except OSError as exc:
            raise Exit(IO, f"{command}: --retained {safe(args.retained)}: {exc.strerror or exc}")
        except RetainedError as exc:
            raise Exit(USAGE, f"{command}: --retained {safe(args.retained)}: not the kit's retained state: {exc}")
    signers: Signers | None = None
    if args.signers:  # a signing case's pinned set (issue #36 item 6)
        from ..refusal import Refusal
        from ..signing.signers import MAX_BYTES, read_signers

        try:
            read = read_signers(read_regular(args.signers, MAX_BYTES))
        except OSError as exc:
            raise Exit(IO, f"{command}: --signers {safe(args.signers)}: {exc.strerror or exc}")
        if isinstance(read, Refusal):  # else the set (read_signers: Signers or Refusal)
            raise Exit(USAGE, f"{command}: --signers {safe(args.signers)}: {read.code}: {safe(read.detail)}")
        signers = read
    try:
        verdict = consume(args.location, args.tag, history_limit=args.history, held=args.held or [],
                          retained=retained, tier=args.tier, signers=signers)
    except LocationError as exc:
        raise Exit(IO, f"{command}: {safe(exc)}")
    print(encode(verdict))
    return PASS if verdict.get("result", "pass") == "pass" else REFUSED


def register(sub: Subcommands) -> None:
    """`exchange conformance run`, `list` and `consume`."""
    top = sub.add_parser("conformance", help="the consumer conformance kit: hold any consumer to RFC 0019 §7's cases",
                         description="The consumer conformance kit (docs/conformance.md).")
    inner = top.add_subparsers(dest="conformance", parser_class=Parser, required=True)
    run = inner.add_parser("run", help="rebuild every case and hold COMMAND's verdicts to the kit at its tier",
                           usage="exchange conformance run [--tier T] [--signing] [--kit DIR] [--keep DIR] "
                                 "[--case NAME ...] [--jobs N] [-- COMMAND ...]",
                           description="Each case's repository is rebuilt in a temporary directory and COMMAND is "
                                       "called with --location DIR --tag TAG --history N [--retained FILE] "
                                       "[--signers FILE] [--held TAG ...], the same arguments at every tier; it prints "
                                       "one JSON "
                                       "verdict, compared with the case's verdict at the tier COMMAND's reader has "
                                       "(docs/conformance.md). With no COMMAND, this project's own consumer runs "
                                       "through the same contract, at the tier given.")
    run.add_argument("--tier", choices=TIERS, default="specification",
                     help="COMMAND's reader: specification (the default: the specification's preparation reader) "
                          "or none (no reader: every fixture reported skipped as version-unread; not a conformant "
                          "consumer)")
    run.add_argument("--signing", action="store_true",
                     help="COMMAND checks release signatures (docs/signing.md): the signing cases run, given --signers "
                          "FILE where a case pins a set; without it each is counted not applicable")
    run.add_argument("--kit", metavar="DIR", help="a copy of the kit (default: the kit this package ships)")
    run.add_argument("--keep", metavar="DIR", help="rebuild each case's repository under DIR/CASE/ and keep it "
                                                   "(DIR new or empty)")
    run.add_argument("--case", action="append", metavar="NAME", help="run only this case (repeatable)")
    run.add_argument("--jobs", type=_jobs, default=max(1, min(4, os.cpu_count() or 1)), metavar="N",
                     help="cases run side by side (default: one per core, at most 4)")
    run.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND ...: the consumer to hold to the kit")
    run.set_defaults(run=cmd_run)

    listing = inner.add_parser("list", help="each case, its title, its verdict at each tier and its RFC sentence",
                               description="Print every case of the kit: its name and title, its expected verdict "
                                           "at each reader tier, and the RFC 0019 sentence it holds.")
    listing.add_argument("--kit", metavar="DIR", help="a copy of the kit (default: the kit this package ships)")
    listing.set_defaults(run=cmd_list)

    consume = inner.add_parser("consume", help="this project's consumer (release-check) behind the kit's contract",
                               description="Check one case's release with release-check and print the kit's neutral "
                                           "verdict (docs/conformance.md, \"The verdict\").")
    consume.add_argument("--location", required=True, metavar="DIR", help="the rebuilt catalog repository")
    consume.add_argument("--tag", required=True)
    consume.add_argument("--history", required=True, type=_history, metavar="N", help="maxHistoryReleases, 1 to 128")
    consume.add_argument("--retained", metavar="FILE", help="the kit's retained state for this case")
    consume.add_argument("--held", action="append", metavar="TAG", help="a previous release whose manifest is held")
    consume.add_argument("--signers", metavar="FILE", help="a signing case's pinned signers set (release-check "
                                                           "--signers)")
    consume.add_argument("--tier", choices=TIERS, default="specification",
                         help="this consumer's reader tier: specification (release-check as it is) or none (its "
                              "reader switched off in the adapter, for the kit's tier-none verdicts)")
    consume.set_defaults(run=cmd_consume)
