"""The consumer's commands (RFC 0019 §7; docs/release-contract.md): a release checked before import and
held to the consumer's lock, and what changed between two releases, for review.
"""

from __future__ import annotations

import argparse
import sys

from .common import IO, PASS, REFUSED, USAGE, emit_json, safe
from .report import print_text


def load_lock(command: str, path: str):
    """The consumer's lock file read (consumer/lock.py `load`: the lock and its refusal, each or neither),
    or None when it cannot be read, said on stderr."""
    from ..consumer import lock as locks

    try:
        return locks.load(path)
    except OSError as exc:
        print(f"{command}: --lock {safe(path)}: {exc.strerror or exc}; nothing read", file=sys.stderr)
        return None


def cmd_release_check(args: argparse.Namespace) -> int:
    """exchange release-check: a release verified before import, held to the consumer's lock (consumer/)."""
    from ..catalog.grammar import ENTRY_ID
    from ..consumer import LocationError, ReleaseCheck, full_commit, release_check
    from ..consumer import lock as locks

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
        if (loaded := load_lock(command, args.lock)) is None:
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
            print(f"{command}: {safe(exc)}", file=sys.stderr)
            return IO
    action = None
    if args.lock and result.state is not None:
        if lock is None or (args.update and result.state != lock):
            try:
                locks.write(args.lock, result.state, replace=lock is not None)
            except OSError as exc:
                print(f"{command}: --lock {safe(args.lock)}: {exc.strerror or exc}", file=sys.stderr)
                return IO
            action = "created" if lock is None else "updated"
        elif result.state != lock:
            action = "kept"
            result.report.notes.append(f"the lock still records {lock.tag} at {lock.commit}; after review, run "
                                       f"again with --update to record {result.tag}")
        else:
            action = "unchanged"
    if args.format == "json":
        emit_json(result.as_json() | ({"lock": {"file": args.lock, "action": action}} if action else {}))
    else:
        at = f"at commit {result.commit}" if result.commit else "(not resolved to a commit)"
        print(f"release {safe(result.tag)} of {safe(result.location)} {at}")
        print_text(result.report, f"{result.location}@{result.tag}")
        for item in result.report.results():
            print(f"entry {safe(item['id'])}: {item['result']}")
        if action:
            print(f"lock {safe(args.lock)}: {action}")
    return PASS if result.report.passed else REFUSED


def cmd_upgrade_diff(args: argparse.Namespace) -> int:
    """exchange upgrade-diff: LOCATION FROM_TAG TO_TAG, or LOCATION --lock FILE TO_TAG (consumer/diff.py)."""
    from ..consumer import LocationError, upgrade_diff
    from ..consumer.render import diff_lines

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
        if (loaded := load_lock(command, args.lock)) is None:
            return IO
        lock, refusal = loaded
        if lock is None and refusal is None:
            print(f"{command}: --lock {safe(args.lock)}: no such lock; write it with exchange release-check "
                  "LOCATION TAG --lock FILE", file=sys.stderr)
            return IO
        if refusal is not None:
            print(f"refused {refusal.code}: {safe(refusal.path)}: {safe(refusal.detail)}")
            return REFUSED
    from_tag, to_tag = (tags[0], tags[1]) if len(tags) == 2 else (None, tags[0])
    try:
        diff = upgrade_diff(args.location, from_tag, to_tag, lock=lock, history=history)
    except ValueError as exc:
        print(f"{command}: {safe(exc)}", file=sys.stderr)
        return USAGE
    except LocationError as exc:
        print(f"{command}: {safe(exc)}", file=sys.stderr)
        return IO
    if args.format == "json":
        emit_json(diff)
    else:
        for line in diff_lines(diff, safe):
            print(line)
    return REFUSED if diff["result"] == "refused" else PASS


def register(sub) -> None:
    """`exchange release-check` and `exchange upgrade-diff`."""
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

