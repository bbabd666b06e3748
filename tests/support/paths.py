"""Where the organisation's shared data lies: ../shared beside the repository (read-only)."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = (REPO / ".." / "shared").resolve()
VECTORS = SHARED / "vectors"
