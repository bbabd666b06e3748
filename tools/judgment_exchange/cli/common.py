"""What every `exchange` command shares (shared/design/interfaces.md): exit statuses, the parser that
makes a bad invocation exit 3, finding the catalog, text safe for a terminal, one JSON object.

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
from typing import TYPE_CHECKING, Any, NoReturn

from ..textsafe import escape

PASS, REFUSED, USAGE, IO = 0, 1, 3, 4


class Exit(Exception):
    """A command ends here, with its exit status and the one line it says (issue #37 item 4): on standard error
    (a bad invocation, an I/O failure), or on standard output with `out` (a refusal's own line). Raised in place of
    printing and returning the status, and caught once, in `cli.main`, which says the line and exits with the
    status; under `--format json` an exit 4 that wrote nothing on standard output still gets its one JSON object
    there (`io_failure_json`)."""

    def __init__(self, status: int, line: str | None = None, *, out: bool = False) -> None:
        super().__init__(line)
        self.status, self.line, self.out = status, line, out

    def say(self) -> int:
        """The line said, and the status to exit with."""
        if self.line is not None:
            print(self.line, file=sys.stdout if self.out else sys.stderr)
        return self.status


if TYPE_CHECKING:
    _SubParsersAction = argparse._SubParsersAction[argparse.ArgumentParser]
else:  # not subscriptable at run time
    _SubParsersAction = argparse._SubParsersAction


class _Subcommands(_SubParsersAction):
    """A subcommand's own parser refuses what it does not know (issue #34 item 7): argparse hands an unknown
    flag after a subcommand up to the top-level parser, whose usage names no option of the subcommand."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        super().__call__(parser, namespace, values, option_string)
        extra = vars(namespace).pop(argparse._UNRECOGNIZED_ARGS_ATTR, None)
        if extra:
            self._name_parser_map[values[0]].error(f"unrecognized arguments: {' '.join(extra)}")


class Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", "parsers", _Subcommands)

    def error(self, message: str) -> NoReturn:  # bad invocation is exit 3, never argparse's 2
        self.print_usage(sys.stderr)
        print(f"{self.prog}: {safe(message)}", file=sys.stderr)
        raise SystemExit(USAGE)


if TYPE_CHECKING:
    Subcommands = argparse._SubParsersAction[Parser]
    """What `add_subparsers` gives: each user's module registers its commands on it."""


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


def is_catalog(path: str) -> bool:
    """A catalog's directory holds manifest.json or entries/ (whatever they are: the gate judges them); a
    new, empty catalog is manifest.json holding []."""
    return any(os.path.lexists(os.path.join(path, name)) for name in ("manifest.json", "entries"))


def catalog_dir(args: argparse.Namespace, command: str, *, require_catalog: bool = False) -> str:
    """The catalog a command works on (--catalog, else the nearest directory holding manifest.json); Exit 4,
    saying so, when it is not a directory, or with `require_catalog` not a catalog (`require_a_catalog`)."""
    catalog = os.path.abspath(args.catalog) if args.catalog else find_catalog()
    if not os.path.isdir(catalog):
        what = "not a directory (give the catalog's directory, the one holding manifest.json)" \
            if os.path.lexists(catalog) else "no such directory"
        raise Exit(IO, f"exchange {command}: {safe(catalog)}: {what}")
    if require_catalog:
        require_a_catalog(command, catalog)
    return catalog


def require_a_catalog(command: str, catalog: str) -> None:
    """Exit 4, saying so, when the directory `catalog` is not a catalog (is_catalog)."""
    if not is_catalog(catalog):
        raise Exit(IO, f"exchange {command}: {safe(catalog)} is not a catalog: it holds neither manifest.json nor "
                       "entries/; give --catalog the catalog's directory (a new catalog starts as manifest.json "
                       "holding [])")


def safe(text: object) -> str:
    """Text for a terminal: control, format (bidi) and line-separator characters written escaped, so
    no file name can forge a line of the report (textsafe.escape)."""
    return escape(str(text))


def safe_failure(exc: BaseException) -> str:
    """Exit 4's reason for a terminal: `safe`, and any value in it the scan's named shapes flag described
    (quoting.cleared_text: the reason may name a file an author chose; docs/reports.md)."""
    from ..quoting import cleared_text  # only on this path: start-up stays lean

    return safe(cleared_text(str(exc)))


def emit_json(value: dict[str, Any]) -> None:
    """One JSON object and a newline on standard output (ASCII, so any file name survives)."""
    sys.stdout.write(json.dumps(value, ensure_ascii=True) + "\n")


def io_failure_json(command: str, said: str) -> dict[str, Any]:
    """The one JSON object of `--format json` when a command exits 4 (an I/O failure: it could not read or
    write what it was pointed at; docs/reports.md, "A file of the wrong kind"): the command and the line it
    said on standard error, which is already safe for a terminal (`safe`)."""
    return {"result": "error", "status": IO, "command": f"exchange {command}", "detail": said.strip()}


def resolve_base(command: str, base: str | None,
                 catalog: str) -> tuple[str | None, str | None, tuple[str, str] | None]:
    """`--base auto` as the merge base with the upstream default branch (repository/pullrequest.py), with a
    note saying how it was found, and that branch as fetched (its tip and reference: the pull request's
    "main", issue #17 item 2); any other value as given, with no main of its own (the gate reads the
    commit it names). Exit 3, saying why, when auto fails."""
    from ..repository.pullrequest import AUTO, BaseUnresolved, resolve_auto

    if base != AUTO:
        return base, None, None
    try:
        auto = resolve_auto(catalog)
    except BaseUnresolved as exc:
        raise Exit(USAGE, f"{command}: --base auto: {safe(exc)}") from None
    return auto.commit, auto.describe(), (auto.tip, auto.target)


def workers(text: str) -> int:
    """`--workers N`: a whole number from 1 to 64."""
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError("a whole number of processes from 1 to 64")
    return int(text)


def file_mode(st: os.stat_result | None) -> int:
    """The permission bits a written file gets: the replaced file's own, else what open() would give a
    new file (0666 less the umask)."""
    if st is not None:
        return stat.S_IMODE(st.st_mode)
    umask = os.umask(0)  # read by setting it; set straight back (the command is one thread)
    os.umask(umask)
    return 0o666 & ~umask


def write_file(path: str, data: bytes) -> None:
    """Replace a regular file (or create it) without following a symlink: a temporary file beside it,
    then an atomic rename; anything but a regular file there is refused (OSError). A replaced file keeps
    its mode; a new one gets the umask's (file_mode)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise IsADirectoryError(errno.EISDIR if stat.S_ISDIR(st.st_mode) else errno.EPERM,
                                "not a regular file; nothing written", path)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}-", dir=os.path.dirname(path))
    try:
        os.fchmod(fd, file_mode(st))  # mkstemp's 0600 is never what a rewritten file had
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise

