"""The gate on a synthetic catalog of 1,024 entries: each phase's time, the scan's share among them.

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

from judgment_exchange.catalog.gate import GateOptions, check_catalog  # noqa: E402
from judgment_exchange.tree import WorkingTree  # noqa: E402
from tests.support.catalog import CatalogBuilder, pretty  # noqa: E402


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


def timed(tree: WorkingTree, options: GateOptions) -> tuple[float, object]:
    start = time.perf_counter()
    report = check_catalog(tree, options)
    return time.perf_counter() - start, report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=1024)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "catalog"
        start = time.perf_counter()
        build(root, args.entries)
        print(f"built {args.entries} entries in {time.perf_counter() - start:.1f} s")
        tree = WorkingTree(str(root))
        base, report = timed(tree, GateOptions(replay=False, scan=False, history=False))
        assert report.passed, report.as_json()["refusals"][:3]
        with_replay, report = timed(tree, GateOptions(replay=True, scan=False, history=False))
        with_scan, report = timed(tree, GateOptions(replay=False, scan=True, history=False))
        whole, report = timed(tree, GateOptions(history=False))
        print(f"entries, documents, manifest: {base:8.2f} s  ({base / args.entries * 1000:.2f} ms/entry)")
        print(f"replay of {report.replayed} fixtures:    {with_replay - base:8.2f} s")
        print(f"scan:                         {with_scan - base:8.2f} s")
        print(f"whole gate (no history):      {whole:8.2f} s  result {report.as_json()['result']}")
        rest = whole - (with_scan - base)
        print(f"the scan adds {with_scan - base:.2f} s against {rest:.2f} s for the rest of the gate "
              f"({'less' if with_scan - base < rest else 'MORE'})")


if __name__ == "__main__":
    main()
