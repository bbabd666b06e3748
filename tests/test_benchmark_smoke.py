"""benchmarks/run.py runs and prints every figure of issues #12 and #20 (a smoke check; nothing is timed)."""

from __future__ import annotations

import subprocess
import sys

from .support.paths import REPO

FIGURES = ("full gate, whole process, no history, pool (default)", "full gate with history",
           "pull request (--base main)", "--entry ID, no history", "history walk", "peak memory",
           "read + SHA-256 of every file", "git cat-file --batch of", "per-phase split", "replay", "scan",
           "history walk, freshly packed copy", "git cat-file --batch of the", "empty catalog: exchange check",
           "python -c pass:", "pytest tests/test_entries.py", "the full gate with history, same rounds:",
           "bytecode: python -m compileall", "NOTE: 1 round(s): a smoke run")
TARGETED = ("pool (default)", "pull request", "history walk, 2 releases", "freshly packed copy", "empty catalog",
            "pytest tests/test_entries.py")


def test_benchmark_runs_on_a_small_catalog_and_prints_every_figure():
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "run.py"), "--entries", "8", "--releases", "2",
                           "--runs", "1", "--skip-serial"],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    missing = [f for f in FIGURES if f not in done.stdout]
    assert not missing, (missing, done.stdout)
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ") and not line.startswith("| figure")]
    for name in TARGETED:  # each targeted figure: its baseline, a ratio, the load, a verdict against its target
        row = next((r for r in rows if name in r), None)
        assert row is not None, (name, done.stdout)
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 9 and cells[1] == "1", row
        assert cells[5].endswith("x") and "x (" in cells[5], row
        assert cells[7].startswith("<= ") and ("met" in cells[8] or "missed" in cells[8]), row
