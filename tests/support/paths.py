"""Where the independent test data lies: tests/vectors, a verbatim copy of shared/vectors."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "tests" / "vectors"
SHARED = (REPO / ".." / "shared").resolve()
