"""benchmarks/run.py runs and prints every figure of issue #12's table (a smoke check; nothing is timed)."""

from __future__ import annotations

import subprocess
import sys

from .support.paths import REPO

FIGURES = ("full gate, whole process, no history", "full gate with history", "pull request (--base main)",
           "--entry ID, no history", "history walk", "peak memory", "read + SHA-256 of every file",
           "git cat-file --batch of", "per-phase split", "replay", "scan")


def test_benchmark_runs_on_a_small_catalog_and_prints_every_figure():
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "run.py"), "--entries", "8", "--releases", "2",
                           "--runs", "1", "--skip-serial", "--skip-pytest"],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    missing = [f for f in FIGURES if f not in done.stdout]
    assert not missing, (missing, done.stdout)
