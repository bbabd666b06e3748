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
    out = sys.stdout
    print(f"exchange check: {catalog}", file=out)
    print(f"entries: {report.entries} checked", file=out)
    print(f"checks: {', '.join(report.checks)}", file=out)
    for r in report.refusals:
        where = " ".join(x for x in (r.entry or "", r.path or "") if x)
        print(f"refused {r.code}: {_safe(where)}: {_safe(r.detail)}", file=out)
    for s in report.skipped:
        print(f"skipped {_safe(s.entry)} fixture {_safe(s.fixture)}: {s.reason} (held by its digests only)", file=out)
    for note in report.notes:
        print(f"note: {_safe(note)}", file=out)
    print(f"replayed: {report.replayed} fixture(s) recomputed with agreement", file=out)
    if report.touched is not None:
        print(f"touched: {', '.join(report.touched) or 'no entry'}", file=out)
    print(f"history: {report.history}", file=out)
    verdict = "pass" if report.passed else f"fail ({len(report.refusals)} refusal(s))"
    print(f"result: {verdict}", file=out)


def cmd_check(args: argparse.Namespace) -> int:
    from .catalog.gate import CatalogUnreadable, GateOptions, check_catalog
    from .tree import WorkingTree

    from .catalog.grammar import release_key

    if args.release_tag is not None and release_key(args.release_tag) is None:
        print(f"exchange check: --release-tag {args.release_tag}: not a release tag vMAJOR.MINOR.PATCH", file=sys.stderr)
        return USAGE
    catalog = os.path.abspath(args.catalog) if args.catalog else find_catalog()
    if not os.path.isdir(catalog):
        print(f"exchange check: {catalog}: no such directory", file=sys.stderr)
        return IO
    options = GateOptions(entries=args.entry or [], history=not args.no_history, base=args.base,
                          release_tag=args.release_tag, repository=catalog)
    try:
        report = check_catalog(WorkingTree(catalog), options)
    except CatalogUnreadable as exc:
        print(f"exchange check: the catalog could not be read: {exc}", file=sys.stderr)
        return IO
    if args.format == "json":
        _emit_json(report.as_json())
    else:
        _print_text(report, catalog)
    return PASS if report.passed else REFUSED


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
    fd, tmp = tempfile.mkstemp(prefix=".manifest-", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def cmd_manifest(args: argparse.Namespace) -> int:
    from .catalog.directory import check_entry_directory
    from .catalog.gate import entry_directories
    from .catalog.manifest import compute_row, write_manifest
    from .jsonstrict import well_formed
    from .tree import TreeError, WorkingTree

    catalog = os.path.abspath(args.catalog) if args.catalog else find_catalog()
    if not os.path.isdir(catalog):
        print(f"exchange manifest: {catalog}: no such directory", file=sys.stderr)
        return IO
    tree = WorkingTree(catalog)
    try:
        paths, _ = entry_directories(tree)
        checks = [check_entry_directory(tree, p) for p in paths]
    except TreeError as exc:
        print(f"exchange manifest: {exc}", file=sys.stderr)
        return IO
    unreadable = [c for c in checks if c.kind is None or "entry.json" not in c.stored or not well_formed(c.path)]
    for c in unreadable:
        print(f"exchange manifest: {_safe(c.path)}: not an entry a row can pin (a readable entry.json with its "
              "kind, under a directory named by an id); fix the entry first", file=sys.stderr)
    if unreadable:
        return REFUSED
    data = write_manifest([compute_row(c) for c in checks])
    path = os.path.join(catalog, "manifest.json")
    try:
        with open(path, "rb") as fh:
            current = fh.read()
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


def cmd_digest(args: argparse.Namespace) -> int:
    from .canon import CanonError, canonical_digest, digest
    from .jsonstrict import Bounds, JsonRefusal, loads

    try:
        if not stat.S_ISREG(os.stat(args.file).st_mode):
            print(f"exchange digest: {args.file}: not a regular file", file=sys.stderr)
            return IO
        with open(args.file, "rb") as fh:
            data = fh.read()
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

    try:
        with open(args.dialect, "rb") as fh:
            data = fh.read(131_072 + 1)
        binding = None
        if args.binding:
            with open(args.binding, "rb") as fh:
                binding = fh.read(65_536 + 1)
    except OSError as exc:
        print(f"exchange form: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return IO
    report = form_report(data, binding)
    _emit_json(report)
    return PASS if report["result"] == "valid" else REFUSED


def cmd_new(args: argparse.Namespace) -> int:
    from .catalog.scaffold import scaffold

    catalog = os.path.abspath(args.catalog) if args.catalog else find_catalog()
    try:
        written = scaffold(catalog, args.id, args.kind, args.direction)
    except ValueError as exc:
        print(f"exchange new: {exc}", file=sys.stderr)
        return USAGE
    except OSError as exc:
        print(f"exchange new: {exc}", file=sys.stderr)
        return IO
    for path in written:
        print(f"wrote {path}")
    print("next: write dialect.json, record fixtures, then exchange manifest --write && exchange check")
    return PASS


def cmd_release_check(args: argparse.Namespace) -> int:
    from .consumer import LocationError, release_check

    history = None if args.no_history else args.history
    if history is not None and not 1 <= history <= 128:
        print("exchange release-check: --history is maxHistoryReleases, 1 to 128", file=sys.stderr)
        return USAGE
    try:
        result = release_check(args.location, args.tag, entries=args.entry, history=history,
                               expect_commit=args.expect_commit)
    except LocationError as exc:
        print(f"exchange release-check: {exc}", file=sys.stderr)
        return IO
    if args.format == "json":
        _emit_json(result.as_json())
    else:
        print(f"release {result.tag} of {_safe(result.location)} at commit {result.commit}")
        _print_text(result.report, f"{result.location}@{result.tag}")
        for item in result.report.results():
            print(f"entry {_safe(item['id'])}: {item['result']}")
    return PASS if result.report.passed else REFUSED


def _summary(entry: dict) -> str:
    """One entry side of an upgrade review: kind, direction, compatibility, artifact pair and digest."""
    parts = [f"kind {entry.get('kind')}", f"direction {entry.get('direction')}",
             f"entryDigest {entry.get('entryDigest')}"]
    compatibility = entry.get("compatibility")
    if isinstance(compatibility, dict):
        parts.append("compatibility " + ", ".join(f"{k} {v}" for k, v in compatibility.items()))
    elif compatibility is not None:
        parts.append(f"compatibility {compatibility} (not of §3's form)")
    artifact = entry.get("artifact")
    if isinstance(artifact, dict):
        parts.append(f"artifact {artifact.get('id')} {artifact.get('version')} (dialect.digest "
                     f"{entry.get('dialectDigest')})")
    return _safe("; ".join(parts))


def cmd_upgrade_diff(args: argparse.Namespace) -> int:
    from .consumer import LocationError, upgrade_diff

    try:
        diff = upgrade_diff(args.location, args.from_tag, args.to_tag)
    except LocationError as exc:
        print(f"exchange upgrade-diff: {exc}", file=sys.stderr)
        return IO
    if args.format == "json":
        _emit_json(diff)
    else:
        print(f"upgrade {diff['from']['tag']} -> {diff['to']['tag']} of {diff['location']}")
        for refusal in diff.get("refusals", []):
            print(f"refused {refusal['code']}: {refusal['detail']}")
        for change in diff.get("changes", []):
            print(f"{change['change']} {_safe(change['id'])}")
            for side in ("from", "to"):
                if side in change:
                    print(f"  {side}: {_summary(change[side])}")
            if change.get("upgradeNote"):
                print(f"  upgrade note: {_safe(change['upgradeNote'])}")
    return REFUSED if diff["result"] == "refused" else PASS


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="exchange", description="The Judgment Exchange catalog's gate and tools (RFC 0019).")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, required=True)

    check = sub.add_parser("check", help="the gate: every check of RFC 0019 §4 on a catalog")
    check.add_argument("--catalog", help="the catalog's directory (default: the repository holding manifest.json)")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("--entry", action="append", metavar="ID", help="check only this entry (repeatable)")
    check.add_argument("--no-history", action="store_true", help="skip the git history checks (reported)")
    check.add_argument("--base", metavar="REV", help="a pull request's base: every existing release is previous")
    check.add_argument("--release-tag", metavar="TAG", help="the release being made: lower tags are previous")
    check.set_defaults(run=cmd_check)

    manifest = sub.add_parser("manifest", help="compute manifest.json from the entries")
    group = manifest.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="write manifest.json")
    group.add_argument("--check", action="store_true", help="show the difference (the default)")
    manifest.add_argument("--catalog")
    manifest.set_defaults(run=cmd_manifest)

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
    new.add_argument("--kind", choices=("dialect", "preset"), required=True)
    new.add_argument("--direction", choices=("input", "output", "both"), default="input")
    new.add_argument("--catalog")
    new.set_defaults(run=cmd_new)

    rc = sub.add_parser("release-check", help="a consumer's check of a tagged release before import (§7)")
    rc.add_argument("location", help="a local directory holding the catalog's repository, or a git URL")
    rc.add_argument("tag")
    rc.add_argument("--entry", action="append", metavar="ID")
    hist = rc.add_mutually_exclusive_group()
    hist.add_argument("--history", type=int, default=128, metavar="N", help="maxHistoryReleases, 1 to 128")
    hist.add_argument("--no-history", action="store_true", help="check form only: artifact-history-unchecked")
    rc.add_argument("--expect-commit", metavar="SHA", help="the commit retained for this tag at import")
    rc.add_argument("--format", choices=("text", "json"), default="text")
    rc.set_defaults(run=cmd_release_check)

    ud = sub.add_parser("upgrade-diff", help="what changed between two releases, for review (§7)")
    ud.add_argument("location")
    ud.add_argument("from_tag", metavar="FROM_TAG")
    ud.add_argument("to_tag", metavar="TO_TAG")
    ud.add_argument("--format", choices=("text", "json"), default="text")
    ud.set_defaults(run=cmd_upgrade_diff)

    verify = sub.add_parser("verify", help="the preparation verifier (dialect §11)", add_help=False)
    verify.add_argument("rest", nargs=argparse.REMAINDER)
    verify.set_defaults(run=None)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if argv[:1] == ["verify"]:
        from .verifier.program import main as verify_main

        return verify_main(argv[1:])
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
