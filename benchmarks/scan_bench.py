"""Entry scan benchmark (issue 6): a synthetic catalog of 1,024 entries, every file of each scanned.

Each entry is built in a temporary directory from the Runner export in shared/vectors (its dialect,
case, acquisitions with real receipts, profiles and preparation, written indented), with an
entry.json and a README.md of its own. One entry in 32 carries a credential shape, so the report
path is exercised too. Prints the scan's time per entry and in total, through WorkingTree (and,
with --git, through GitTree over one commit of the same files).

    python benchmarks/scan_bench.py [--entries 1024] [--git]
    python benchmarks/scan_bench.py --hostile     # issue #11 item 4: the scan of hostile files, in time and memory
    python benchmarks/scan_bench.py --catalog DIR # issue #12 item 3: the scan of every entry of a catalog, CPU

--catalog scans every entry of an existing catalog directory (read only; e.g. benchmarks/run.py's cached
/tmp/exchange-bench-1024e-128r-…/catalog) and its manifest, each entry's files read once before its scan
is timed (as the gate's ReadOnce holds them), and prints the scan's CPU seconds (process time) and wall
seconds. To compare with an older scan, run it with that scan package first on PYTHONPATH, interleaved.

--hostile scans, each in a fresh process, one entry holding a 15 MB stray file (refused unread), a
sources.json at its 2 MiB bound on one line with a base64 payload in a result, and a preparation.json at
its 8 MiB bound on one line with a long base64 value, and prints each one's time and peak memory.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXPORT = ROOT / "tests" / "vectors" / "runner-exports" / "mapping-v2-unsigned-parameters"

from judgment_exchange.scan import scan_entry  # noqa: E402
from judgment_exchange.tree import GitTree, WorkingTree  # noqa: E402


def _documents(index: int) -> dict[str, str]:
    run = json.loads((EXPORT / "run.json").read_text(encoding="utf-8"))
    source = run["release"]["sample"]["source"]
    entry_id = f"pub{index % 16:02d}.entry-{index:04d}"
    entry = {
        "entryVersion": 3,
        "kind": "dialect",
        "id": entry_id,
        "title": f"Synthetic entry {index}",
        "description": f"Reads vendor rows for intake triage, variant {index}.",
        "direction": "input",
        "pack": {"id": run["release"]["packId"], "versions": ">=0.1.0"},
        "dialect": {
            "path": "dialect.json",
            "dialectVersion": 2,
            "digest": run["release"]["sample"]["preparation"]["mappingDigest"],
        },
        "sourceKinds": ["operation"],
        "licence": "Apache-2.0",
        "author": f"publisher-{index % 16}",
        "assertion": "The author asserts these rules derive these facts.",
        "fixtures": [{"name": "basic", "path": "fixtures/basic", "preparationDigest": "sha256:" + "0" * 64}],
        "verification": [],
    }
    readme = (f"# Entry {index}\n\nReads a vendor's row; see [the dialect](dialect.json) and "
              "[its fixture](fixtures/basic/case.json).\n")
    if index % 32 == 31:
        readme += "Reproduce with dapi" + "0123456789abcdef" * 2 + " against the workspace.\n"
    indent = lambda v: json.dumps(v, indent=2) + "\n"  # noqa: E731
    return {
        "entry.json": indent(entry),
        "dialect.json": indent(source["mapping"]),
        "README.md": readme,
        "fixtures/basic/case.json": indent(source["case"]),
        "fixtures/basic/sources.json": indent(source["sources"]),
        "fixtures/basic/profiles.json": (EXPORT / "profiles.json").read_text(encoding="utf-8"),
        "fixtures/basic/preparation.json": indent(run["release"]["sample"]["preparation"]),
    }


def _build(root: Path, count: int) -> list[str]:
    paths = []
    for index in range(count):
        path = f"entries/pub{index % 16:02d}/entry-{index:04d}"
        for rel, text in _documents(index).items():
            target = root / path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def _time(tree, paths: list[str]) -> tuple[list[float], int]:
    times, refusals = [], 0
    for path in paths:
        start = time.perf_counter()
        refusals += len(scan_entry(tree, path))
        times.append(time.perf_counter() - start)
    return times, refusals


def _report(label: str, times: list[float], refusals: int, size: int) -> None:
    total = sum(times)
    print(f"{label}: {len(times)} entries, {size / len(times) / 1024:.1f} KiB each, {refusals} refusals")
    print(f"  total {total:.2f} s; per entry mean {1000 * total / len(times):.1f} ms, "
          f"median {1000 * statistics.median(times):.1f} ms, max {1000 * max(times):.1f} ms")


def _catalog(directory: str) -> int:
    """Scan every entry of a catalog directory and its manifest; print CPU and wall seconds of the scan alone."""
    import os

    from judgment_exchange.gate.pipeline import entry_directories
    from judgment_exchange.scan import scan_manifest
    from judgment_exchange.tree import ReadOnce

    tree = WorkingTree(directory)
    paths, _ = entry_directories(tree)
    cpu = wall = 0.0
    refusals = 0
    for path in paths:
        view = ReadOnce(tree)
        for folder, _, names in os.walk(os.path.join(directory, path)):
            for name in names:
                try:
                    view.read(os.path.relpath(os.path.join(folder, name), directory), 1 << 30)
                except Exception:  # the scan reports what it cannot read
                    pass
        started, ticked = time.process_time(), time.perf_counter()
        refusals += len(scan_entry(view, path))
        cpu += time.process_time() - started
        wall += time.perf_counter() - ticked
    started, ticked = time.process_time(), time.perf_counter()
    refusals += len(scan_manifest(tree))
    cpu += time.process_time() - started
    wall += time.perf_counter() - ticked
    print(f"scan of {len(paths)} entries and the manifest: {cpu:.2f} s CPU, {wall:.2f} s wall, {refusals} refusals")
    return 0


HOSTILE = ("stray-15mb", "sources-2mib-payload", "preparation-8mib-line")


def _hostile_one(kind: str) -> None:
    """Build one hostile entry, scan it, print the time and the process's peak memory (run in its own process)."""
    import base64
    import random
    import resource

    rng = random.Random(11)
    with tempfile.TemporaryDirectory(prefix="scan-hostile-") as tmp:
        entry = Path(tmp) / "entries" / "acme" / "hostile"
        (entry / "fixtures" / "basic").mkdir(parents=True)
        if kind == "stray-15mb":
            rel, data = "dump.txt", b"A" * (15 * 1000 * 1000)
        elif kind == "sources-2mib-payload":
            payload = base64.b64encode(rng.randbytes(2_097_152 * 3 // 4 - 200)).decode()
            value = {"vendor": {"response": {"result": {"key": "x", "attachment": payload}}}}
            rel, data = "fixtures/basic/sources.json", json.dumps(value).encode()
        else:
            facts = {
                "facts": [{"value": "token " + base64.b64encode(rng.randbytes(8_388_608 * 3 // 4 - 200)).decode()}]
            }
            rel, data = "fixtures/basic/preparation.json", json.dumps(facts).encode()
        (entry / rel).write_bytes(data)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        refusals = scan_entry(WorkingTree(tmp), "entries/acme/hostile")
        took = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        codes = sorted({r.code for r in refusals})
        print(f"{kind}: {len(data)} bytes in {rel}; {took:.2f} s; peak memory {peak / 1024:.0f} MB "
              f"(before the scan {before / 1024:.0f} MB); refusals {codes}")


def _hostile() -> int:
    import subprocess

    for kind in HOSTILE:
        subprocess.run([sys.executable, __file__, "--hostile-one", kind], check=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1024)
    parser.add_argument("--git", action="store_true", help="also scan one commit of the same files through GitTree")
    parser.add_argument("--hostile", action="store_true", help="the scan of hostile files (issue #11 item 4)")
    parser.add_argument("--hostile-one", choices=HOSTILE, help=argparse.SUPPRESS)
    parser.add_argument("--catalog", metavar="DIR", help="scan every entry of an existing catalog (read only)")
    args = parser.parse_args()
    if args.catalog:
        return _catalog(args.catalog)
    if args.hostile_one:
        _hostile_one(args.hostile_one)
        return 0
    if args.hostile:
        return _hostile()
    with tempfile.TemporaryDirectory(prefix="scan-bench-") as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        paths = _build(root, args.entries)
        size = sum(p.stat().st_size for p in (root / "entries").rglob("*") if p.is_file())
        print(f"built {args.entries} entries in {time.perf_counter() - start:.2f} s")
        scan_entry(WorkingTree(str(root)), paths[0])
        _report("WorkingTree", *_time(WorkingTree(str(root)), paths), size)
        if args.git:
            import git

            repo = git.Repo.init(root)
            repo.git.add("entries")
            actor = git.Actor("bench", "bench@example.invalid")
            repo.index.commit("catalog", author=actor, committer=actor)
            _report("GitTree", *_time(GitTree(str(root), "HEAD"), paths), size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
