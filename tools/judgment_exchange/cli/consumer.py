"""The consumer's commands (RFC 0019 §7; docs/release-contract.md): a release checked before import and
held to the consumer's lock, and what changed between two releases, for review.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from .common import IO, PASS, REFUSED, USAGE, Exit, emit_json, safe
from .report import print_text

if TYPE_CHECKING:
    from ..consumer.lock import Lock, Withdrawn
    from ..consumer.signed import Signing
    from ..refusal import Refusal
    from .common import Subcommands


def history_limit(command: str, args: argparse.Namespace) -> int | None:
    """`--history N | --no-history` as the consumer's maxHistoryReleases (None: read no history); Exit 3, saying
    why, when N is not 1 to 128."""
    if args.no_history:
        return None
    limit: int = args.history
    if not 1 <= limit <= 128:
        raise Exit(USAGE, f"{command}: --history is maxHistoryReleases, 1 to 128")
    return limit


def held_lock(command: str, path: str | None) -> Lock | None:
    """The lock a command holds a release to without writing it (upgrade-diff, show, index), or None when no
    --lock was given (or an empty one); Exit, saying why it cannot be used — absent or unreadable (4) or
    refused (1)."""
    if not path:
        return None
    lock, refusal = load_lock(command, path)
    if lock is None and refusal is None:
        raise Exit(IO, f"{command}: --lock {safe(path)}: no such lock; write it with exchange release-check LOCATION "
                       "TAG --lock FILE")
    if refusal is not None:
        raise Exit(REFUSED, f"refused {refusal.code}: {safe(refusal.path)}: {safe(refusal.detail)}", out=True)
    return lock


def load_lock(command: str, path: str) -> tuple[Lock | None, Refusal | None]:
    """The consumer's lock file read (consumer/lock.py `load`: the lock and its refusal, each or neither);
    Exit 4 when it cannot be read, said once on stderr (load's reason already says nothing was read)."""
    from ..consumer import lock as locks

    try:
        return locks.load(path)
    except OSError as exc:
        raise Exit(IO, f"{command}: --lock {safe(path)}: {safe(exc.strerror or exc)}") from None


def signing_of(command: str, args: argparse.Namespace) -> Signing:
    """`--signers FILE` and `--require-signed` as consumer/signed.Signing (issue #36); Exit, saying why FILE cannot
    be used — unreadable (4) or out of its form (1)."""
    from ..consumer.signed import Signing
    from ..refusal import Refusal
    from ..signing.signers import MAX_BYTES, Signers, read_signers
    from ..tree import TooLarge, read_regular

    pinned: Signers | None = None
    if args.signers:
        try:
            data = read_regular(args.signers, MAX_BYTES)
        except TooLarge as exc:  # refused unread (signing/signers.py's bound)
            raise Exit(REFUSED, f"refused release-signers-malformed: --signers {safe(args.signers)}: {exc.size} bytes, "
                                f"over the bound of {MAX_BYTES} bytes", out=True) from None
        except OSError as exc:
            raise Exit(IO, f"{command}: --signers {safe(args.signers)}: {safe(exc.strerror or exc)}") from None
        read = read_signers(data, "--signers FILE")
        if isinstance(read, Refusal):  # else the set (read_signers: Signers or Refusal)
            raise Exit(REFUSED, f"refused {read.code}: --signers {safe(args.signers)}: {safe(read.detail)}"
                                + (f" (line {read.line})" if read.line else ""), out=True)
        pinned = read
    return Signing(pinned, bool(args.require_signed))


def add_signing_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--signers", metavar="FILE", help="the catalog's signers file from its maintainers' own "
                        "channel: the release must be signed by a key in it, or reached from one by the chain of "
                        "signed releases (docs/signing.md)")
    parser.add_argument("--require-signed", action="store_true", help="refuse an unsigned release, and one whose "
                        "signers nothing pins (neither --signers nor a lock holding signers)")


def cmd_release_check(args: argparse.Namespace) -> int:
    """exchange release-check: a release verified before import, held to the consumer's lock (consumer/)."""
    from ..catalog.grammar import ENTRY_ID
    from ..consumer import LocationError, ReleaseCheck, full_commit, release_check
    from ..consumer import lock as locks
    from ..consumer.render import entry_lines

    command = "exchange release-check"
    history = history_limit(command, args)
    if (args.update or args.approve_change or args.forget) and not args.lock:
        raise Exit(USAGE, f"{command}: --update, --approve-change and --forget go with --lock FILE")
    if args.approve_change and not args.update:
        raise Exit(USAGE, f"{command}: --approve-change ID records a reviewed change: give it with --update")
    if args.forget and not args.update:
        raise Exit(USAGE, f"{command}: --forget ID records a reviewed removal of a withdrawn entry: give it with "
                          "--update")
    if any(ENTRY_ID.fullmatch(i) is None for i in args.approve_change or ()):
        raise Exit(USAGE, f"{command}: --approve-change takes an entry id PUBLISHER.NAME")
    if any(ENTRY_ID.fullmatch(i) is None for i in args.forget or ()):
        raise Exit(USAGE, f"{command}: --forget takes an entry id PUBLISHER.NAME")
    try:
        expected = full_commit(args.expect_commit) if args.expect_commit is not None else None
    except ValueError as exc:
        raise Exit(USAGE, f"{command}: {exc}")
    signing = signing_of(command, args)
    lock, result = None, None
    if args.lock:
        lock, refusal = load_lock(command, args.lock)
        if refusal is not None:
            result = ReleaseCheck(locks.without_credentials(args.location), args.tag)  # printed: no token
            result.report.checks = ["the lock"]
            result.report.refusals.append(refusal)
        unknown = [i for i in args.forget or () if lock is None or i not in lock.withdrawn]
        if refusal is None and unknown:  # the id matched the grammar above, so it is printed
            raise Exit(USAGE, f"{command}: --forget {unknown[0]}: the lock keeps no withdrawn entry of that id (only "
                              "an "
                              "entry a release withdrew, recorded by an earlier --update, is forgotten)")
    if result is None:
        try:
            result = release_check(args.location, args.tag, entries=args.entry, history=history,
                                   expect_commit=expected, lock=lock, approved=frozenset(args.approve_change or ()),
                                   forget=frozenset(args.forget or ()), signing=signing)
        except LocationError as exc:
            raise Exit(IO, f"{command}: {safe(exc)}")
    action = None
    if args.lock and result.state is not None:
        # a version-1 lock is read as it is and written, as version 2, only by --update (issue #34 item 4)
        written = locks.SIGNED_LOCK_VERSION if result.state.signers else locks.LOCK_VERSION  # issue #36 item 5
        if lock is None or (args.update and (result.state != lock or lock.version != written)):
            try:
                locks.write(args.lock, result.state, replace=lock is not None)
            except OSError as exc:
                raise Exit(IO, f"{command}: --lock {safe(args.lock)}: {exc.strerror or exc}")
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
        print_text(result.report, safe(f"{result.location}@{result.tag}"))  # print_text prints it as given
        for line in entry_lines(result.results(), safe):
            print(line)
        if action:
            print(f"lock {safe(args.lock)}: {action}")
    return PASS if result.report.passed else REFUSED


def cmd_upgrade_diff(args: argparse.Namespace) -> int:
    """exchange upgrade-diff: LOCATION FROM_TAG TO_TAG, or LOCATION --lock FILE TO_TAG (consumer/diff.py)."""
    from ..consumer import LocationError, upgrade_diff
    from ..consumer.render import diff_lines

    command = "exchange upgrade-diff"
    history = history_limit(command, args)
    tags = args.tags
    if len(tags) > 2 or (len(tags) == 1 and not args.lock):
        raise Exit(USAGE, f"{command}: give FROM_TAG TO_TAG, or --lock FILE TO_TAG")
    lock = held_lock(command, args.lock)
    signing = signing_of(command, args)
    from_tag, to_tag = (tags[0], tags[1]) if len(tags) == 2 else (None, tags[0])
    try:
        diff = upgrade_diff(args.location, from_tag, to_tag, lock=lock, history=history, signing=signing)
    except ValueError as exc:
        raise Exit(USAGE, f"{command}: {safe(exc)}")
    except LocationError as exc:
        raise Exit(IO, f"{command}: {safe(exc)}")
    if args.format == "json":
        emit_json(diff)
    elif args.format == "markdown":
        from ..review.upgrade import render_upgrade

        sys.stdout.write(render_upgrade(diff))
    else:
        for line in diff_lines(diff, safe):
            print(line)
    return REFUSED if diff["result"] == "refused" else PASS


def register(sub: Subcommands) -> None:
    """`exchange release-check`, `exchange upgrade-diff`, `exchange show` and `exchange index`."""
    rc = sub.add_parser("release-check", help="a consumer's check of a tagged release before import (§7)",
                        usage="exchange release-check LOCATION TAG [--entry ID ...] [--history N | --no-history] "
                        "[--expect-commit SHA] [--lock FILE [--update [--approve-change ID ...] [--forget ID ...]]] "
                        "[--signers FILE] [--require-signed] [--format text|json]")
    rc.add_argument("location", metavar="LOCATION",
                    help="a local directory holding the catalog's repository, or a git URL")
    rc.add_argument("tag", metavar="TAG", help="the release tag to check, vMAJOR.MINOR.PATCH")
    rc.add_argument("--entry", action="append", metavar="ID", help="import only this entry (repeatable)")
    hist = rc.add_mutually_exclusive_group()
    hist.add_argument("--history", type=int, default=128, metavar="N", help="maxHistoryReleases, 1 to 128")
    hist.add_argument("--no-history", action="store_true", help="read no earlier release of the tag's own "
                      "history: artifact-history-unchecked, or with --lock the locked release alone")
    rc.add_argument("--expect-commit", metavar="SHA", help="the full 40-hex commit retained for this tag at import")
    rc.add_argument("--lock", metavar="FILE", help="the consumer's lock: written after a passing check when absent; "
                    "a later check holds the locked release as a previous manifest and refuses a moved tag, a "
                    "lower tag, an entry changed without an upgrade note")
    rc.add_argument("--update", action="store_true", help="with --lock: record this release when the check passes")
    rc.add_argument("--approve-change", action="append", metavar="ID",
                    help="with --update: the reviewer accepts this entry's change without an upgrade note")
    rc.add_argument("--forget", action="append", metavar="ID",
                    help="with --update: the reviewer removes this withdrawn entry from the lock; its artifact pair "
                         "is no longer held")
    add_signing_options(rc)
    rc.add_argument("--format", choices=("text", "json"), default="text")
    rc.set_defaults(run=cmd_release_check)

    ud = sub.add_parser("upgrade-diff", help="what changed between two releases, for review (§7)",
                        usage="exchange upgrade-diff LOCATION FROM_TAG TO_TAG | LOCATION --lock FILE TO_TAG "
                              "[--history N | --no-history] [--signers FILE] [--require-signed] [--format "
                              "text|json|markdown]")
    ud.add_argument("location")
    ud.add_argument("tags", nargs="+", metavar="TAG", help="FROM_TAG TO_TAG, or TO_TAG alone with --lock")
    ud.add_argument("--lock", metavar="FILE", help="the consumer's lock: FROM is the locked release")
    ud_hist = ud.add_mutually_exclusive_group()
    ud_hist.add_argument("--history", type=int, default=128, metavar="N", help="the target's check: maxHistoryReleases")
    ud_hist.add_argument("--no-history", action="store_true", help="the target's check reads no history")
    add_signing_options(ud)
    ud.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    ud.set_defaults(run=cmd_upgrade_diff)

    show = sub.add_parser("show", help="what a release holds: its tags, or each entry's card once checked (§§2, 7)",
                          usage="exchange show LOCATION [TAG [ENTRY_ID]] [--history N | --no-history] "
                                "[--lock FILE] [--format text|json]")
    show.add_argument("location", help="a local directory holding the catalog's repository, or a git URL")
    show.add_argument("tag", nargs="?", help="the release to check and show (none: list the release tags)")
    show.add_argument("entry", nargs="?", metavar="ENTRY_ID", help="one entry's whole card and README")
    show_hist = show.add_mutually_exclusive_group()
    show_hist.add_argument("--history", type=int, default=128, metavar="N", help="maxHistoryReleases, 1 to 128")
    show_hist.add_argument("--no-history", action="store_true", help="check form only: artifact-history-unchecked")
    show.add_argument("--lock", metavar="FILE", help="the consumer's lock: the release is held to it as by "
                      "release-check (never written here)")
    show.add_argument("--format", choices=("text", "json"), default="text")
    show.set_defaults(run=cmd_show)

    index = sub.add_parser("index", help="a static index of one checked release: index.json and its pages (§7)",
                           usage="exchange index LOCATION TAG --out DIR [--address URL | --local] [--history N | "
                                 "--no-history] [--lock FILE]")
    index.add_argument("location", help="a local directory holding the catalog's repository, or a git URL")
    index.add_argument("tag", help="the release to check and index")
    index.add_argument("--out", required=True, metavar="DIR", help="a new or empty directory, or a previous index's "
                       "directory (replaced whole): index.json, index.schema.json, index.html, entries/, assets/")
    index.add_argument("--address", metavar="URL", help="the catalog's public https address, shown wherever the "
                       "site names the catalog (the release-check command it gives); a GitHub repository's also "
                       "links each file at the release commit")
    index.add_argument("--local", action="store_true", help="a preview from a local directory with no --address: "
                       "the site names LOCATION, this machine's path, so it is not for publishing")
    index_hist = index.add_mutually_exclusive_group()
    index_hist.add_argument("--history", type=int, default=128, metavar="N", help="maxHistoryReleases, 1 to 128")
    index_hist.add_argument("--no-history", action="store_true", help="check form only: artifact-history-unchecked")
    index.add_argument("--lock", metavar="FILE", help="the consumer's lock: the release is held to it as by "
                       "release-check (never written here)")
    index.set_defaults(run=cmd_index)



def cmd_show(args: argparse.Namespace) -> int:
    """exchange show: the tags a location offers, or a release's cards once the consumer's check passed it
    (browse/; issue #18 item 1)."""
    from ..browse import text as shown_text
    from ..browse.card import CardUnreadable, cards
    from ..browse.release import checked_release, offered
    from ..catalog.grammar import ENTRY_ID, release_key
    from ..consumer import LocationError
    from ..consumer.lock import without_credentials

    command = "exchange show"
    history = history_limit(command, args)
    if args.tag is not None and release_key(args.tag) is None:
        raise Exit(USAGE, f"{command}: {safe(args.tag)}: not a release tag vMAJOR.MINOR.PATCH")
    if args.entry is not None and ENTRY_ID.fullmatch(args.entry) is None:
        raise Exit(USAGE, f"{command}: {safe(args.entry)}: not an entry id PUBLISHER.NAME")
    if args.tag is None:
        if args.lock:
            raise Exit(USAGE, f"{command}: --lock holds a release to what was imported: give the TAG to check")
        try:
            releases, branch = offered(args.location)
        except LocationError as exc:
            raise Exit(IO, f"{command}: {safe(exc)}")
        shown = without_credentials(args.location)  # a URL's user name and password are never printed
        if args.format == "json":
            emit_json({"location": shown, "ledgerBranch": branch,
                       "releases": [r.as_json() for r in releases]})
        else:
            for line in shown_text.listing_lines(shown, releases, branch, safe):
                print(line)
        return PASS
    lock = held_lock(command, args.lock)
    try:
        with checked_release(args.location, args.tag, history=history, lock=lock) as checked:
            result, tree = checked.check, checked.tree
            if tree is None:  # not passed (Checked.passed): a release failing its check is shown only as its refusals
                if args.format == "json":
                    emit_json(result.as_json() | {"entries": None})
                else:
                    print(f"release {safe(result.tag)} of {safe(result.location)} is refused by the consumer's "
                          "check; nothing of it is shown")
                    print_text(result.report, safe(f"{result.location}@{result.tag}"))
                return REFUSED
            shown_cards = cards(tree, checked.rows, result.report, only=args.entry)
    except LocationError as exc:
        raise Exit(IO, f"{command}: {safe(exc)}")
    except CardUnreadable as exc:
        raise Exit(IO, f"{command}: {safe(exc)}")
    if args.entry is not None and not shown_cards:
        print(f"refused entry-unknown: {safe(args.entry)} is not an entry of {safe(args.tag)} (exchange show "
              f"{safe(args.location)} {safe(args.tag)} lists them)")
        return REFUSED
    kept = withdrawn_of(lock, checked.rows) if args.entry is None else []
    if args.format == "json":
        report = result.report
        emit_json({"location": result.location, "tag": result.tag, "commit": result.commit,
                   "check": {"result": "pass", "history": report.history, "replayed": report.replayed,
                             "skipped": len(report.skipped), "notes": report.notes}
                   | ({"reader": report.reader.as_json()} if report.reader is not None else {}),
                   "entries": shown_cards}
                  | ({"withdrawn": [{"id": i, "importedAt": w.as_json()} for i, w in kept]} if lock else {}))
    elif args.entry is not None:
        import textwrap

        for line in textwrap.wrap(f"{safe(args.entry)} in release {safe(result.tag)} of {safe(result.location)} "
                                  "(checked: pass)", shown_text.WIDTH, subsequent_indent="  ",
                                  break_on_hyphens=False, break_long_words=True):
            print(line)
        print(f"commit {result.commit}")
        for line in shown_text.card_lines(shown_cards[0], safe, whole=True):
            print(line)
    else:
        for line in shown_text.release_lines(result, shown_cards, safe):
            print(line)
        if kept:
            print("")
            print(f"{len(kept)} withdrawn entr{'y' if len(kept) == 1 else 'ies'} the lock keeps imported:")
        for entry_id, was in kept:  # an id of the lock's grammar, a commit, a tag: nothing an author wrote
            print(f"{entry_id}: {was.shown()}")
    return PASS


def withdrawn_of(lock: Lock | None, rows: dict[str, Any]) -> list[tuple[str, Withdrawn]]:
    """The entries `lock` keeps withdrawn from the release whose manifest `rows` are (issue #34 item 4): the
    lock's own withdrawn entries, and the lock's imported entries this release withdraws, each (id, where it was
    imported), by id."""
    from ..consumer.lock import Withdrawn
    from ..tree import id_order

    if lock is None:
        return []
    kept = {i: w for i, w in lock.withdrawn.items() if i not in rows}
    kept |= {i: Withdrawn(lock.tag, lock.commit, d) for i, d in lock.entries.items() if i not in rows}
    return sorted(kept.items(), key=lambda item: id_order(item[0]))


def cmd_index(args: argparse.Namespace) -> int:
    """exchange index: a static index of one release once the consumer's check passed it, written to --out
    (browse/index.py, browse/site.py; issue #18 item 2). A refused release writes nothing."""
    from pathlib import Path

    from ..browse import site
    from ..browse.address import AddressRefused, checked_address, is_local
    from ..browse.card import CardUnreadable
    from ..browse.documents import DocumentUnreadable
    from ..browse.index import build
    from ..catalog.grammar import release_key
    from ..consumer import LocationError

    command = "exchange index"
    history = history_limit(command, args)
    if release_key(args.tag) is None:
        raise Exit(USAGE, f"{command}: {safe(args.tag)}: not a release tag vMAJOR.MINOR.PATCH")
    try:
        address = checked_address(args.address) if args.address is not None else None
    except AddressRefused as exc:  # the address itself is never repeated: it may hold what it should not
        raise Exit(USAGE, f"{command}: --address: {exc}")
    if address is None and not args.local and is_local(args.location):  # issue #34 item 8
        raise Exit(USAGE, f"{command}: LOCATION is a local directory, and without --address the site would publish it "
                          "(this machine's path, in index.json's release.location and on every page): give --address "
                          "URL, the catalog's public https address, which the site names instead, or --local for a "
                          "preview that is not for publishing; nothing was written")
    out = Path(args.out)
    try:
        site.check_out(out)
    except site.OutRefused as exc:
        raise Exit(USAGE, f"{command}: --out {safe(exc)}")
    except OSError as exc:
        raise Exit(IO, f"{command}: --out {safe(args.out)}: {safe(exc.strerror or exc)}")
    lock = held_lock(command, args.lock)
    try:
        built = build(args.location, args.tag, history=history, lock=lock, address=address)
    except (LocationError, CardUnreadable, DocumentUnreadable) as exc:
        raise Exit(IO, f"{command}: {safe(exc)}")
    result = built.check
    if not built.passed:  # a release that fails its check is shown only as its refusals, and nothing is written
        print(f"release {safe(result.tag)} of {safe(result.location)} is refused by the consumer's check; no index "
              "is written")
        print_text(result.report, safe(f"{result.location}@{result.tag}"))
        return REFUSED
    files = site.render(built)
    try:
        site.write(files, out)
    except site.OutRefused as exc:
        raise Exit(USAGE, f"{command}: --out {safe(exc)}")
    except OSError as exc:
        raise Exit(IO, f"{command}: --out {safe(args.out)}: {safe(exc.strerror or exc)}")
    pages = sum(1 for name in files if name.startswith("entries/") and name.endswith(".html"))
    copies = sum(len(found) for found in built.files.values())
    print(f"index of release {safe(result.tag)} of {safe(address or result.location)} at commit {result.commit} "
          f"(checked: pass) written to {safe(args.out)}: index.json, index.html, {pages} entry page(s) and "
          f"{copies} entry file(s)" + ("; a local preview (--local): it names this machine's directory, not for "
                                       "publishing" if address is None and args.local else ""))
    return PASS
