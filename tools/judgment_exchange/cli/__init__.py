"""The `exchange` command (shared/design/interfaces.md): text for people, one JSON object for machines.

A thin layer: each user's commands parse their arguments, call the package and print (contributor.py,
maintainer.py, consumer.py); common.py holds what they share, report.py the gate's report.
Exit statuses follow the organisation's runtime: 0 pass, 1 refusal, 3 bad invocation, 4 I/O failure
(`exchange verify` keeps dialect §11's 0/1/2/3).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Iterable, Sequence, TextIO

from . import common, conformance, consumer, contributor, maintainer
from .common import IO, PASS, REFUSED, USAGE, Exit, Parser
from .report import print_text as _print_text  # noqa: F401  (the secret-echo sweep prints a report with it)

__all__ = ["main", "build_parser", "PASS", "REFUSED", "USAGE", "IO"]


def build_parser() -> Parser:
    """`exchange` and its subcommands, each user's from its own module."""
    from .. import __version__

    parser = Parser(prog="exchange", description="The Judgment Exchange catalog's gate and tools (RFC 0019).")
    parser.add_argument("--version", action="version", version=f"exchange (judgment-pack-exchange) {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=Parser, required=True)
    contributor.register(sub)
    maintainer.register(sub)
    consumer.register(sub)
    conformance.register(sub)
    maintainer.register_verifier(sub)
    contributor.register_verify(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse, call, print: the one exit path (issue #37 item 4). A command returns its status, or raises
    `common.Exit` carrying the status and its line, caught once (`_called`) and said; under `--format json` an
    exit 4 that wrote nothing on standard output gets its one JSON object (`common.io_failure_json`)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        args = _parsed(argv)
        status = args if isinstance(args, int) else _called(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, never at interpreter exit
    except BrokenPipeError:
        return _closed_pipe(3 if argv[:1] == ["verify"] else IO)
    return status


def _called(args: argparse.Namespace) -> int:
    """The command run, its `common.Exit` caught (here alone) and said; under `--format json` what it writes is
    kept, so an exit 4 that wrote nothing on standard output gets its one JSON object."""
    out, err = sys.stdout, sys.stderr
    kept = (_Kept(out), _Kept(err)) if getattr(args, "format", None) == "json" else None
    if kept is not None:
        sys.stdout, sys.stderr = kept
    try:
        try:
            status: int = args.run(args)
        except Exit as stop:
            status = stop.say()
        if kept is not None and status == IO and not "".join(kept[0].parts):
            common.emit_json(common.io_failure_json(args.command, "".join(kept[1].parts)))
    finally:
        sys.stdout, sys.stderr = out, err
    return status


def _parsed(argv: list[str]) -> argparse.Namespace | int:
    """The parsed arguments, or an exit status: `exchange verify` runs the verifier's own program (dialect §11's
    statuses), and the parser exits 0 for --help and --version and 3 for a bad invocation."""
    if argv[:1] == ["verify"]:
        from ..verifier.program import main as verify_main

        return verify_main(argv[1:])
    try:
        return build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


class _Kept:
    """A text stream written through, keeping what was written to it (`--format json`, in `main`)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return self.stream.write(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


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

