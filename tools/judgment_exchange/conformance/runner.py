"""`exchange conformance run` and `list`: every case of a kit, through one consumer command, at the consumer's
reader tier (docs/conformance.md).

The kit ships inside this package (`kit/`, found through importlib.resources, so it is there after any install
and from any directory); `--kit DIR` names another copy. It is read and held to its schema first, and every
stream to its pinned sha256, each file read as a regular file without following a link and without waiting
(a FIFO is refused, never opened for a writer); then each case's repository is rebuilt (rebuild.py) in a
temporary directory, or under `--keep DIR`, and held to its pinned references, the retained state is written
beside it, and the command is called with the contract's arguments, the same at every tier:

    COMMAND --location DIR --tag TAG --history N [--retained FILE] [--held TAG]...

Its standard output is one verdict (verdict.py), compared with the verdict the case states at the declared
tier. The runner prints a row per case, each disagreement whole (its differences, the expected and received
verdicts as JSON, the command that reruns it), the tier's counts, what a tier below the specification's does
not hold, and `N passed, N failed`. Exit 0 when every case agrees, 1 on any disagreement, 3 for a bad
invocation, 4 when the kit cannot be read or a case cannot be rebuilt as pinned (a kit error: one line, or a
row for a case).
"""

from __future__ import annotations

import errno
import json
import os
import shlex
import stat
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any, TextIO

from ..jsonstrict import Bounds, JsonRefusal, loads
from ..textsafe import escape
from ..tree import read_regular
from .rebuild import KitError, git, rebuild, sha256
from .verdict import (
    AGREE,
    DISAGREE,
    NO_VERDICT,
    NONE,
    NOT_APPLICABLE,
    NOT_AT_TIER,
    SPECIFICATION,
    TIERS,
    Outcome,
    compare,
    expected_at,
    expected_verdict,
    parse,
)

KIT_DIRECTORY = "kit"
DEFAULT_KIT = Path(str(files(__package__) / KIT_DIRECTORY))
"""The kit this package ships (judgment_exchange/conformance/kit/), wherever the package is installed."""
SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "conformance-cases.schema.json"
CASES = "cases.json"
CASES_BOUND = 8 * 1024 * 1024
STREAM_BOUND = 16 * 1024 * 1024
CONSUMER_TIMEOUT = 300
PASS, FAILED, USAGE, KIT = 0, 1, 3, 4
DIRECTORY = "a directory"
KIT_SHAPE = ("a kit is a directory holding cases.json and its streams as regular files (give --kit DIR, or no --kit "
             "for the kit this package ships)")
NOT_HELD = "§7 import replay: not held (tier {tier})"
NOT_DECLARED = "not applicable (signing not declared)"
SIGNING_WHY = ("a signing case (issue #36): run with --signing when the consumer checks release signatures "
               "(docs/conformance.md, \"Signing\")")
NOT_HELD_WHY = ("a pass at a tier below the specification's is not a conformant consumer (docs/conformance.md, "
                "\"Reader tiers\")")


def own_consumer(tier: str = SPECIFICATION) -> list[str]:
    """This project's consumer through the same contract: `exchange conformance consume`, run as any other
    command is (a subprocess of this interpreter); at tier none with its reader switched off (adapter.py)."""
    return [sys.executable, "-m", "judgment_exchange", "conformance", "consume"] + (
        ["--tier", tier] if tier != SPECIFICATION else [])


@dataclass
class Kit:
    """A kit read and checked: its directory, its cases.json, the RFC-named codes it compares."""

    path: Path
    document: dict[str, Any]

    @property
    def cases(self) -> list[dict[str, Any]]:
        cases: list[dict[str, Any]] = self.document["cases"]
        return cases

    @property
    def rfc(self) -> frozenset[str]:
        return frozenset(self.document["codes"]["rfc"])


def _what(path: Path, want: str = "a regular file") -> str:
    """Why the kit's `path` is not `want` (a regular file, or the kit's directory), in words; nothing is read."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return "no such directory" if want == DIRECTORY else "no such file"
    except OSError as exc:
        return exc.strerror or str(exc)
    if stat.S_ISLNK(mode):
        return "a symbolic link, which the kit's files may not be (they are read without following links)"
    kind = ("a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else
            "a regular file" if stat.S_ISREG(mode) else "a device or socket")
    if kind == want:
        return "unreadable"
    fifo = " (nothing is read from it, so nothing waits for a writer)" if kind == "a FIFO" else ""
    return f"{kind}, not {want}{fifo}"


def _read(path: Path, bound: int) -> bytes:
    """A kit file's bytes: a regular file, opened without following a link and without blocking."""
    try:
        data = read_regular(str(path), bound)
    except OSError as exc:
        why = _what(path) if exc.errno in (errno.ENOENT, errno.ELOOP, errno.EINVAL, errno.EISDIR) else (
            exc.strerror or str(exc))
        raise KitError(f"{path}: {why}; {KIT_SHAPE}") from exc
    if len(data) > bound:
        raise KitError(f"{path}: over the bound of {bound} bytes")
    return data


def load_kit(path: Path) -> Kit:
    """cases.json read strictly and held to the kit's schema (this package's copy, not the kit's own),
    the case names distinct and every stream's sha256 the pinned one; KitError otherwise."""
    from jsonschema import Draft202012Validator

    if not path.is_dir():
        raise KitError(f"{path}: {_what(path, DIRECTORY)}; {KIT_SHAPE}")
    try:
        document = loads(_read(path / CASES, CASES_BOUND), Bounds(max_bytes=CASES_BOUND, max_depth=32))
    except JsonRefusal as exc:
        raise KitError(f"{path / CASES}: not one strict JSON value ({exc.detail})") from exc
    document = json.loads(json.dumps(document, default=_plain))
    validator = Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "the document"
        rule = json.dumps(errors[0].validator_value, ensure_ascii=True)
        raise KitError(f"{path / CASES}: not in the kit's form at {where} ({errors[0].validator}: {rule[:120]}); "
                       "this runner reads kitVersion 2")
    names = [case["name"] for case in document["cases"]]
    if len(set(names)) != len(names):
        raise KitError(f"{path / CASES}: a case name is given twice")
    for case in document["cases"]:
        data = _read(path / case["stream"]["path"], STREAM_BOUND)
        if sha256(data) != case["stream"]["sha256"]:
            raise KitError(f"{case['stream']['path']}: its sha256 is {sha256(data)}, not the pinned "
                           f"{case['stream']['sha256']} (case {case['name']}): the kit was changed by hand")
    return Kit(path, document)


def _plain(value: Any) -> Any:
    """jsonstrict's numbers as Python's, read from their literal."""
    return json.loads(value.literal)


def _retained(case: dict[str, Any], location: Path) -> bytes:
    """The case's retained state in the contract's form: version 1, or version 2 when it keeps withdrawn entries
    (issue #34 item 4; docs/conformance.md, "The command contract")."""
    retained = case["retained"]
    kept = {"retainedVersion": 2, "withdrawn": retained["withdrawn"]} if "withdrawn" in retained else \
        {"retainedVersion": 1}
    return (json.dumps(kept | {"location": str(location), "tag": retained["tag"], "commit": retained["commit"],
                               "manifestDigest": retained["manifestDigest"], "entries": retained["entries"]},
                       indent=2, sort_keys=True) + "\n").encode("ascii")


def _signed_retained(case: dict[str, Any], data: bytes) -> bytes:
    """A signing case's retained state: version 3, with the retained release's `signers` and `tagObject` (issue #36
    item 6; docs/conformance.md, "The command contract"); any other case's as it is."""
    retained = case["retained"]
    if "signers" not in retained:
        return data
    value = json.loads(data) | {
        "retainedVersion": 3,
        "signers": retained["signers"],
        "tagObject": retained["tagObject"],
    }
    return (json.dumps(value, indent=2, sort_keys=True) + "\n").encode("ascii")


def arguments(case: dict[str, Any], location: Path, retained: Path | None, signers: Path | None = None) -> list[str]:
    """The contract's arguments for one case (the same at every tier); `--signers FILE` where a signing case pins a
    set (issue #36)."""
    out = ["--location", str(location), "--tag", case["tag"], "--history", str(case["historyLimit"])]
    if retained is not None:
        out += ["--retained", str(retained)]
    if signers is not None:
        out += ["--signers", str(signers)]
    for tag in case["held"]:
        out += ["--held", tag]
    return out


@dataclass
class Options:
    """How the run was asked for: the consumer's command (None: this project's), its tier, where to keep
    each rebuilt repository (None: a temporary directory, removed)."""

    command: list[str] | None = None
    tier: str = SPECIFICATION
    keep: Path | None = None
    signing: bool = False
    """The consumer declared the signing capability (--signing): the signing cases run; otherwise each is counted
    not applicable, said per case (issue #36 item 6)."""

    @property
    def argv(self) -> list[str]:
        return self.command or own_consumer(self.tier)


def run_case(kit: Kit, case: dict[str, Any], options: Options) -> Outcome:
    """Rebuild one case, call the command on it and compare its verdict at the tier; KitError when the case's
    repository cannot be rebuilt as pinned. A case with no verdict at the tier is not rebuilt."""
    if expected_at(case, options.tier) is None:
        return Outcome(NOT_AT_TIER, "-")
    if case.get("signing") is not None and not options.signing:
        return Outcome(NOT_APPLICABLE, NOT_DECLARED, [f"{NOT_DECLARED}: {SIGNING_WHY}"])
    stream = _read(kit.path / case["stream"]["path"], STREAM_BOUND)
    with tempfile.TemporaryDirectory(prefix=f"exchange-kit-{case['name']}-") as tmp:
        home = options.keep / case["name"] if options.keep is not None else Path(tmp)
        location = home / "catalog"
        refs = rebuild(stream, case["steps"], location)
        if refs != case["refs"]:
            raise KitError(f"case {case['name']}: the rebuilt repository's references are not the pinned ones "
                           f"({_refs_difference(case['refs'], refs)})")
        if case["tagCommit"] is not None:
            peeled = git(location, "rev-parse", "--verify", "--quiet", f"refs/tags/{case['tag']}^{{commit}}")
            if peeled != case["tagCommit"]:
                raise KitError(f"case {case['name']}: {case['tag']} resolves to {peeled}, not the pinned "
                               f"{case['tagCommit']}")
        retained = None
        if case["retained"] is not None:
            retained = home / "retained.json"
            retained.write_bytes(_signed_retained(case, _retained(case, location)))
        signers = None
        if (case.get("signing") or {}).get("signers") is not None:  # the set the case pins (issue #36)
            signers = home / "signers"
            signers.write_bytes("".join(line + "\n" for line in case["signing"]["signers"]).encode("ascii"))
        work = Path(tmp) / "work"
        work.mkdir()
        try:
            done = subprocess.run(options.argv + arguments(case, location, retained, signers), stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=CONSUMER_TIMEOUT, check=False, cwd=work)
        except subprocess.TimeoutExpired:
            return Outcome(NO_VERDICT, "timeout", [f"the command gave no verdict in {CONSUMER_TIMEOUT} s"])
        except OSError as exc:
            return Outcome(NO_VERDICT, "not run", [f"the command cannot be run: {exc.strerror or exc}"])
    verdict, why = parse(done.stdout)
    if verdict is None:
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        return Outcome(NO_VERDICT, f"exit {done.returncode}",
                       [f"no verdict: {why} (exit {done.returncode}{'; ' + tail[0][:300] if tail[0] else ''})"])
    return compare(case, verdict, kit.rfc, options.tier)


def _refs_difference(want: dict[str, str], got: dict[str, str]) -> str:
    names = sorted(set(want) ^ set(got)) or sorted(n for n in want if want[n] != got.get(n))
    return ", ".join(names[:5])


def _short(verdict: dict[str, Any] | None) -> str:
    if verdict is None:
        return "no verdict"
    codes = sorted(verdict["codes"])
    result: str = verdict["result"]
    return result + (f" [{', '.join(codes)}]" if codes else "")


def _got(result: Outcome | KitError) -> str:
    if isinstance(result, KitError):
        return "-"
    if result.status == DISAGREE and result.differing:
        return f"{result.got} (differs: {', '.join(result.differing)})"
    return result.got


def rerun_command(kit: Kit, case: dict[str, Any], options: Options) -> str:
    """The exact command that runs this one case again, as given (the kit's directory in full)."""
    words = ["exchange", "conformance", "run", "--tier", options.tier, "--kit", str(kit.path.resolve()),
             "--case", case["name"]] + ["--signing"] * options.signing
    if options.command:
        words += ["--", *options.command]
    return shlex.join(words)


def _failure(kit: Kit, case: dict[str, Any], result: Outcome, options: Options, out: TextIO) -> None:
    """A disagreement whole: the differences, the expected and received verdicts as JSON, how to rerun it."""
    out.write(escape(f"\n{case['name']} at tier {options.tier} ({case['rfc']['section']}: "
                     f"\"{case['rfc']['words']}\"):", newlines=True) + "\n")
    for difference in result.differences:
        out.write(f"  - {escape(difference)}\n")
    out.write(f"  expected: {json.dumps(expected_verdict(case, options.tier), ensure_ascii=True, sort_keys=True)}\n")
    received = json.dumps(result.verdict, ensure_ascii=True, sort_keys=True) if result.verdict is not None else \
        "no verdict"
    out.write(f"  received: {received}\n")
    out.write(f"  rerun: {escape(rerun_command(kit, case, options))}\n")
    if options.keep is not None:
        home = options.keep / case["name"]
        retained = home / "retained.json" if case["retained"] is not None else None
        direct = shlex.join(options.argv + arguments(case, home / "catalog", retained))
        out.write(f"  kept: {escape(str(home))}; the consumer on it: {escape(direct)}\n")


def _prepare_keep(keep: Path) -> str | None:
    """--keep DIR made ready (created when absent); why it cannot be used otherwise."""
    if os.path.lexists(keep) and (not keep.is_dir() or keep.is_symlink()):
        return f"--keep {keep}: not a directory"
    if keep.is_dir() and any(keep.iterdir()):
        return f"--keep {keep}: not empty; give a new or empty directory, so no earlier repository is mixed in"
    try:
        keep.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"--keep {keep}: {exc.strerror or exc}"
    return None


def run(kit_path: Path, command: list[str] | None = None, *, names: list[str] | None = None, jobs: int = 2,
        tier: str = SPECIFICATION, keep: Path | None = None, out: TextIO = sys.stdout, signing: bool = False) -> int:
    """Every case (or those `names` gives) through `command` (default: this project's consumer) at `tier`; the
    exit status: 0 every case agrees, 1 a disagreement, 3 a bad invocation (a case the kit lacks, an unusable
    --keep), 4 a kit error."""
    try:
        kit = load_kit(kit_path)
    except KitError as exc:
        print(escape(f"exchange conformance run: kit error: {exc}"), file=sys.stderr)
        return KIT
    chosen = kit.cases
    if names:
        unknown = sorted(set(names) - {c["name"] for c in kit.cases})
        if unknown:
            print(escape(f"exchange conformance run: no case {', '.join(unknown)} in {kit_path / CASES}"),
                  file=sys.stderr)
            return USAGE
        chosen = [c for c in kit.cases if c["name"] in names]
    if keep is not None and (problem := _prepare_keep(keep)) is not None:
        print(escape(f"exchange conformance run: {problem}"), file=sys.stderr)
        return USAGE
    options = Options(command or None, tier, keep.resolve() if keep is not None else None, signing)

    def one(case: dict[str, Any]) -> Outcome | KitError:
        try:
            return run_case(kit, case, options)
        except KitError as exc:
            return exc

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, chosen))
    rows = [(case["name"], "kit error" if isinstance(result, KitError) else result.status,
             _short(expected_verdict(case, tier)) if expected_at(case, tier) else "-", _got(result))
            for case, result in zip(chosen, results, strict=False)]
    widths = [max(len(r[i]) for r in rows + [("case", "status", f"expected at {tier}", "")]) for i in range(3)]
    for line in [("case", "status", f"expected at {tier}", "got")] + rows:
        out.write(
            escape("  ".join(cell.ljust(width) for cell, width in zip(line[:3], widths, strict=False)) + f"  {line[3]}")
            + "\n"
        )
    for case, result in zip(chosen, results, strict=False):
        if isinstance(result, Outcome) and result.failed:
            _failure(kit, case, result, options, out)
    broken = [result for result in results if isinstance(result, KitError)]
    for error in broken:
        out.write(f"\nkit error: {escape(str(error))}\n")
    out.write("\n" + summary(kit, chosen, results, tier, signing))
    out.flush()
    failed = any(isinstance(r, KitError) or r.status in (DISAGREE, NO_VERDICT) for r in results)
    return KIT if broken else FAILED if failed else PASS


def summary(kit: Kit, chosen: list[dict[str, Any]], results: list[Any], tier: str, signing: bool = False) -> str:
    """The closing lines: the tier and each tier's count of cases that state a verdict, what a tier below the
    specification's does not hold, and `N passed, N failed` (with those skipped and those not at this tier)."""
    per_tier = ", ".join(f"{t} {sum(1 for c in kit.cases if t in c['tiers'])}" for t in TIERS)
    lines = [f"tier {tier}: {sum(1 for c in chosen if tier in c['tiers'])} of the {len(chosen)} cases run state a "
             f"verdict at this tier; cases with a verdict per tier: {per_tier}"]
    if tier != SPECIFICATION:
        lines.append(f"{NOT_HELD.format(tier=tier)}: {NOT_HELD_WHY}")
    signed = sum(1 for c in chosen if c.get("signing") is not None)
    if signed and not signing:
        lines.append(f"signing: not declared: {signed} signing case{'s' if signed != 1 else ''} counted not applicable "
                     "(run with --signing when the consumer checks release signatures)")
    passed = sum(1 for r in results if isinstance(r, Outcome) and r.status == AGREE)
    failed = sum(1 for r in results if isinstance(r, KitError) or r.status in (DISAGREE, NO_VERDICT))
    skipped = sum(1 for r in results if isinstance(r, Outcome) and r.status == NOT_APPLICABLE)
    absent = sum(1 for r in results if isinstance(r, Outcome) and r.status == NOT_AT_TIER)
    lines.append(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else "")
                 + (f", {absent} with no verdict at tier {tier}" if absent else ""))
    return "\n".join(lines) + "\n"


def list_cases(kit_path: Path, out: TextIO = sys.stdout) -> int:
    """`exchange conformance list`: each case with its title, its verdict at each tier and the RFC sentence it
    holds; 0, or 4 when the kit cannot be read."""
    try:
        kit = load_kit(kit_path)
    except KitError as exc:
        print(escape(f"exchange conformance list: kit error: {exc}"), file=sys.stderr)
        return KIT
    for case in kit.cases:
        marks = " (strictness: project)" if case["strictness"] == "project" else ""
        out.write(escape(f"{case['name']}: {case['title']}{marks}") + "\n")
        tiers = "; ".join(f"{t}: {_short(expected_verdict(case, t)) if t in case['tiers'] else 'no verdict'}"
                          + (" (a broader reader may answer not applicable)"
                             if case["tiers"].get(t, {}).get("broaderReader") == "not-applicable" else "")
                          for t in TIERS)
        out.write(escape(f"  {tiers}") + "\n")
        out.write(escape(f"  {case['rfc']['section']}: \"{case['rfc']['words']}\"") + "\n")
    out.write(escape(f"\n{len(kit.cases)} cases in {kit.path}", newlines=True) + "\n")
    out.flush()
    return PASS


__all__ = ["CASES", "DEFAULT_KIT", "KIT_SHAPE", "Kit", "NONE", "NOT_HELD", "Options", "SPECIFICATION", "TIERS",
           "arguments", "list_cases", "load_kit", "own_consumer", "rerun_command", "run", "run_case", "summary"]
