"""Where the independent test data lies: tests/vectors, a verbatim copy of shared/vectors."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "tests" / "vectors"
SHARED = (REPO / ".." / "shared").resolve()


def shared_missing(path: Path) -> str:
    """Why a cross-check against the organisation's shared documents is skipped, in words a newcomer can act on:
    the seeds and references lie in a folder `shared/` beside this repository's clone (the organisation's
    workspace), which a clone elsewhere does not have; the copy in tests/ stands in for it."""
    return (f"{path} is not here: this cross-check reads the organisation's shared documents from a folder "
            f"`shared/` next to this clone ({SHARED}), which only the organisation's workspace has; the copy "
            "kept in tests/ is checked instead, so nothing is lost")
