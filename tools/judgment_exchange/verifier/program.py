"""`exchange verify`: the verifier as a program (dialect §11; shared/design/interfaces.md).

One report line on standard output in the preparation's canonical form; exit 0 for a reading, 1
for a refusal, 2 for a finding, and 3, writing no report, when it cannot run (an argument it does
not take, a file it cannot open). `--help` prints the usage and exits 0, writing no report.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import NoReturn

from ..tree import read_regular
from .results import Found, Refused
from .verify import Documents, report_bytes, verify

EXIT_READING, EXIT_REFUSAL, EXIT_FINDING, EXIT_CANNOT_RUN = 0, 1, 2, 3
USAGE = ("exchange verify --dialect D --case C --profiles P --preparation X [--acquisitions A] "
         "[--binding B] [--record R] [--require-binding]\n"
         "exchange verify --fixture ENTRY_DIR/fixtures/NAME [--record R] [--require-binding]")


class CannotRun(Exception):
    """The verifier could not run: nothing is reported (exit 3)."""


class Helped(Exception):
    """`--help` was answered: the usage is on standard output, no report is written (exit 0)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CannotRun(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:  # only --help exits the parser
        raise Helped()


HELP = {
    "dialect": "the dialect document (dialect.json)",
    "case": "the case (case.json)",
    "acquisitions": "the acquisitions (sources.json), where the case read any source",
    "profiles": "the trusted input profiles (profiles.json)",
    "preparation": "the preparation to recompute (preparation.json)",
    "binding": "the binding document of an unbound version-3 dialect (binding.json)",
    "record": "a run's record, one line: its inputs and binding held to the preparation (findings 6-9)",
    "fixture": "an entry's fixture directory: every input read from it and its entry",
}


def _parser() -> _Parser:
    parser = _Parser(prog="exchange verify", usage=USAGE, description="The preparation verifier (dialect §11): "
                     "one report line on standard output; exit 0 a reading, 1 a refusal, 2 a finding, 3 it could "
                     "not run.")
    for name, text in HELP.items():
        parser.add_argument(f"--{name}", metavar=name.upper(), help=text)
    parser.add_argument("--require-binding", action="store_true",
                        help="a finding unless the record carries the preparation's binding")
    return parser


def _read(path: str | Path, follow: bool = True) -> bytes:
    """A named file's bytes, decided on the opened descriptor: a FIFO or device is refused, never waited on.

    A file named on the command line may be a symlink (follow); a fixture's own files may not, as the
    gate reads them (tree.WorkingTree)."""
    try:
        return read_regular(str(path), follow=follow)
    except OSError as exc:
        raise CannotRun(f"cannot open {path}: {exc.strerror}") from None


def _optional(path: Path) -> bytes | None:
    """A fixture's optional file, None when nothing is at the path (a FIFO there is refused, not absent)."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CannotRun(f"cannot open {path}: {exc.strerror}") from None
    return _read(path, follow=False)


def _record(path: str | None) -> bytes | None:
    if path is None:
        return None
    data = _read(path)
    return data[:-1] if data.endswith(b"\n") else data


def fixture_documents(fixture: str | Path, record: bytes | None = None, require_binding: bool = False) -> Documents:
    """The inputs of ENTRY_DIR/fixtures/NAME: the entry's dialect.json and the fixture's files."""
    directory = Path(fixture)
    if not directory.is_dir():
        raise CannotRun(f"{fixture} is not a fixture directory")
    return Documents(
        dialect=_read(directory.parent.parent / "dialect.json", follow=False),
        case=_read(directory / "case.json", follow=False),
        acquisitions=_optional(directory / "sources.json"),
        profiles=_read(directory / "profiles.json", follow=False),
        preparation=_read(directory / "preparation.json", follow=False),
        binding=_optional(directory / "binding.json"),
        record=record,
        require_binding=require_binding,
    )


def documents(argv: list[str]) -> Documents:
    """The verifier's inputs named by the arguments; CannotRun when they are not a valid invocation."""
    args = _parser().parse_args(argv)
    record = _record(args.record)
    if args.fixture is not None:
        if any(
            getattr(args, n) is not None
            for n in ("dialect", "case", "acquisitions", "profiles", "preparation", "binding")
        ):
            raise CannotRun("--fixture takes its inputs from the fixture; name no other document")
        return fixture_documents(args.fixture, record, args.require_binding)
    missing = [n for n in ("dialect", "case", "profiles", "preparation") if getattr(args, n) is None]
    if missing:
        raise CannotRun("missing " + ", ".join(f"--{n}" for n in missing))
    return Documents(
        dialect=_read(args.dialect),
        case=_read(args.case),
        acquisitions=_read(args.acquisitions) if args.acquisitions is not None else None,
        profiles=_read(args.profiles),
        preparation=_read(args.preparation),
        binding=_read(args.binding) if args.binding is not None else None,
        record=record,
        require_binding=args.require_binding,
    )


def main(argv: list[str]) -> int:
    """Run `exchange verify` with these arguments; the exit status of §11."""
    try:
        docs = documents(argv)
    except Helped:
        return EXIT_READING  # the usage was asked for and given: 0, no report
    except CannotRun as exc:
        print(f"exchange verify: {exc}\nusage: {USAGE}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    answer = verify(docs)
    sys.stdout.buffer.write(report_bytes(answer) + b"\n")
    sys.stdout.flush()
    if isinstance(answer, Refused):
        print(f"exchange verify: {answer.code}: {answer.detail}", file=sys.stderr)
        return EXIT_REFUSAL
    if isinstance(answer, Found):
        print(f"exchange verify: {answer.code}: {answer.detail}", file=sys.stderr)
        return EXIT_FINDING
    return EXIT_READING


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
