"""The gate on a synthetic catalog of 1,024 entries: each phase's time within one run, the scan's share.

Run from the repository root: `python benchmarks/gate_bench.py [--entries N]`. Every entry is the
Runner's real export (mapping v2 with one fixture), under its own id. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.catalog import CatalogBuilder, pretty  # noqa: E402

from judgment_exchange.gate.pipeline import GateOptions, check_catalog  # noqa: E402
from judgment_exchange.tree import WorkingTree  # noqa: E402


def build(root: Path, count: int) -> None:
    builder = CatalogBuilder(root)
    template = builder.add_runner_entry("bench.template")
    for i in range(count):
        entry_id = f"bench.entry-{i:04d}"
        target = root / "entries" / "bench" / f"entry-{i:04d}"
        shutil.copytree(template, target)
        entry = json.loads((target / "entry.json").read_bytes())
        entry["id"] = entry_id
        (target / "entry.json").write_bytes(pretty(entry))
        builder.entries[entry_id] = target
    shutil.rmtree(template)
    del builder.entries["bench.template"]
    builder.write_manifest()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=3, help="whole-gate runs; the fastest is printed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "catalog"
        start = time.perf_counter()
        build(root, args.entries)
        print(f"built {args.entries} entries in {time.perf_counter() - start:.1f} s")
        tree = WorkingTree(str(root))
        best = None
        for _ in range(args.runs):
            start = time.perf_counter()
            report = check_catalog(tree, GateOptions(history=False))
            took = time.perf_counter() - start
            assert report.passed, report.as_json()["refusals"][:3]
            if best is None or took < best[0]:
                best = (took, report)
        took, report = best
        phases = report.timings
        for phase, seconds in phases.items():
            print(f"{phase:28s} {seconds:8.2f} s  ({seconds / args.entries * 1000:6.2f} ms/entry)")
        print(f"{'whole gate (no history)':28s} {took:8.2f} s  ({report.replayed} fixtures replayed)")
        scan = phases.get("scan", 0.0)
        rest = took - scan
        print(f"the scan adds {scan:.2f} s against {rest:.2f} s for the rest of the gate "
              f"({'less' if scan < rest else 'MORE'}); history would add to the rest "
              "(benchmarks/history_bench.py)")


if __name__ == "__main__":
    main()
