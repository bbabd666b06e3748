"""`exchange conformance run`: every case of a kit, through one consumer command (docs/conformance.md).

The kit is read and held to its schema first, and every stream to its pinned sha256; then each case's
repository is rebuilt in a temporary directory (rebuild.py) and held to its pinned references, the
retained state is written beside it, and the command is called with the contract's arguments:

    COMMAND --location DIR --tag TAG --history N [--retained FILE] [--held TAG]...

Its standard output is one verdict (verdict.py), compared with the case's expectation. The runner
prints a table, each disagreement's differences and `N passed, N failed` (`, N skipped` for cases the
consumer reported not applicable). Exit 0 when every case agrees, 1 on any disagreement, 4 when the
kit cannot be read or a case cannot be rebuilt as pinned (a kit integrity error).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from ..jsonstrict import Bounds, JsonRefusal, loads
from .rebuild import KitError, git, rebuild, sha256
from .verdict import AGREE, DISAGREE, NO_VERDICT, NOT_APPLICABLE, Outcome, compare, parse

REPOSITORY = Path(__file__).resolve().parents[3]
DEFAULT_KIT = REPOSITORY / "conformance" / "consumer"
SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "conformance-cases.schema.json"
CASES = "cases.json"
CASES_BOUND = 8 * 1024 * 1024
STREAM_BOUND = 16 * 1024 * 1024
CONSUMER_TIMEOUT = 300
PASS, FAILED, USAGE, KIT = 0, 1, 3, 4


def own_consumer() -> list[str]:
    """This project's consumer through the same contract: `exchange conformance consume`, run as any
    other command is (a subprocess of this interpreter)."""
    return [sys.executable, "-m", "judgment_exchange", "conformance", "consume"]


@dataclass
class Kit:
    """A kit read and checked: its directory, its cases.json, the RFC-named codes it compares."""

    path: Path
    document: dict

    @property
    def cases(self) -> list[dict]:
        return self.document["cases"]

    @property
    def rfc(self) -> frozenset[str]:
        return frozenset(self.document["codes"]["rfc"])


def _read(path: Path, bound: int) -> bytes:
    try:
        with open(path, "rb") as fh:
            data = fh.read(bound + 1)
    except OSError as exc:
        raise KitError(f"{path}: {exc.strerror or exc}") from exc
    if len(data) > bound:
        raise KitError(f"{path}: over the bound of {bound} bytes")
    return data


def load_kit(path: Path) -> Kit:
    """cases.json read strictly and held to the kit's schema (this package's copy, not the kit's own),
    the case names distinct and every stream's sha256 the pinned one; KitError otherwise."""
    from jsonschema import Draft202012Validator

    if not path.is_dir():
        raise KitError(f"{path}: no kit directory here (give --kit DIR, a directory holding cases.json)")
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
        raise KitError(f"{path / CASES}: not in the kit's form at {where} ({errors[0].validator}: {rule[:120]})")
    names = [case["name"] for case in document["cases"]]
    if len(set(names)) != len(names):
        raise KitError(f"{path / CASES}: a case name is given twice")
    for case in document["cases"]:
        data = _read(path / case["stream"]["path"], STREAM_BOUND)
        if sha256(data) != case["stream"]["sha256"]:
            raise KitError(f"{case['stream']['path']}: its sha256 is {sha256(data)}, not the pinned "
                           f"{case['stream']['sha256']} (case {case['name']}): the kit was changed by hand")
    return Kit(path, document)


def _plain(value):
    """jsonstrict's numbers as Python's, read from their literal."""
    return json.loads(value.literal)


def _retained(case: dict, location: Path) -> bytes:
    retained = case["retained"]
    return (json.dumps({"retainedVersion": 1, "location": str(location), "tag": retained["tag"],
                        "commit": retained["commit"], "manifestDigest": retained["manifestDigest"],
                        "entries": retained["entries"]}, indent=2, sort_keys=True) + "\n").encode("ascii")


def arguments(case: dict, location: Path, retained: Path | None) -> list[str]:
    """The contract's arguments for one case."""
    out = ["--location", str(location), "--tag", case["tag"], "--history", str(case["historyLimit"])]
    if retained is not None:
        out += ["--retained", str(retained)]
    for tag in case["held"]:
        out += ["--held", tag]
    return out


def run_case(kit: Kit, case: dict, command: list[str]) -> Outcome:
    """Rebuild one case, call the command on it and compare its verdict; KitError when the case's
    repository cannot be rebuilt as pinned."""
    stream = _read(kit.path / case["stream"]["path"], STREAM_BOUND)
    with tempfile.TemporaryDirectory(prefix=f"exchange-kit-{case['name']}-") as tmp:
        location = Path(tmp) / "catalog"
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
            retained = Path(tmp) / "retained.json"
            retained.write_bytes(_retained(case, location))
        try:
            done = subprocess.run(command + arguments(case, location, retained), stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=CONSUMER_TIMEOUT, check=False, cwd=tmp)
        except subprocess.TimeoutExpired:
            return Outcome(NO_VERDICT, "timeout", [f"the command gave no verdict in {CONSUMER_TIMEOUT} s"])
        except OSError as exc:
            return Outcome(NO_VERDICT, "not run", [f"the command cannot be run: {exc.strerror or exc}"])
    verdict, why = parse(done.stdout)
    if verdict is None:
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        return Outcome(NO_VERDICT, f"exit {done.returncode}",
                       [f"no verdict: {why} (exit {done.returncode}{'; ' + tail[0][:300] if tail[0] else ''})"])
    return compare(case, verdict, kit.rfc)


def _refs_difference(want: dict[str, str], got: dict[str, str]) -> str:
    names = sorted(set(want) ^ set(got)) or sorted(n for n in want if want[n] != got.get(n))
    return ", ".join(names[:5])


def _expected(case: dict) -> str:
    codes = sorted(case["expected"]["codes"])
    return case["expected"]["result"] + (f" [{', '.join(codes)}]" if codes else "")


def run(kit_path: Path, command: list[str] | None = None, *, names: list[str] | None = None, jobs: int = 2,
        out: TextIO = sys.stdout) -> int:
    """Every case (or those `names` gives) through `command` (default: this project's consumer); the exit
    status: 0 every case agrees, 1 a disagreement, 3 a case `names` gives that the kit lacks, 4 a kit
    integrity error."""
    try:
        kit = load_kit(kit_path)
    except KitError as exc:
        print(f"exchange conformance run: {exc}", file=sys.stderr)
        return KIT
    chosen = kit.cases
    if names:
        unknown = sorted(set(names) - {c["name"] for c in kit.cases})
        if unknown:
            print(f"exchange conformance run: no case {', '.join(unknown)} in {kit_path / CASES}", file=sys.stderr)
            return USAGE
        chosen = [c for c in kit.cases if c["name"] in names]
    command = command or own_consumer()

    def one(case: dict) -> Outcome | KitError:
        try:
            return run_case(kit, case, command)
        except KitError as exc:
            return exc

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, chosen))
    rows = [(case["name"], "kit error" if isinstance(result, KitError) else result.status, _expected(case),
             "-" if isinstance(result, KitError) else result.got) for case, result in zip(chosen, results)]
    widths = [max(len(r[i]) for r in rows + [("case", "status", "expected", "")]) for i in range(3)]
    for line in [("case", "status", "expected", "got")] + rows:
        out.write("  ".join(cell.ljust(width) for cell, width in zip(line[:3], widths)) + f"  {line[3]}\n")
    broken = [result for result in results if isinstance(result, KitError)]
    for case, result in zip(chosen, results):
        if isinstance(result, Outcome) and result.failed:
            out.write(f"\n{case['name']} ({case['rfc']['section']}: \"{case['rfc']['words']}\"):\n")
            for difference in result.differences:
                out.write(f"  - {difference}\n")
    for error in broken:
        out.write(f"\nkit integrity error: {error}\n")
    passed = sum(1 for r in results if isinstance(r, Outcome) and r.status == AGREE)
    failed = sum(1 for r in results if isinstance(r, KitError) or r.status in (DISAGREE, NO_VERDICT))
    skipped = sum(1 for r in results if isinstance(r, Outcome) and r.status == NOT_APPLICABLE)
    out.write("\n" + f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else "") + "\n")
    out.flush()
    return KIT if broken else FAILED if failed else PASS

