"""tests/examples/ is what tests/support/examples.py builds (signatures are deterministic), and each entry's
fixture rows name their preparation's digest. Self-consistency only: the preparations are this package's."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..support import examples

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_examples_are_current(tmp_path):
    examples.build(tmp_path)
    assert _tree(tmp_path) == _tree(EXAMPLES)


def test_rows_name_the_preparation_digest():
    for entry in (p for p in EXAMPLES.iterdir() if p.is_dir()):
        rows = json.loads((entry / "entry.json").read_text())["fixtures"]
        for row in rows:
            data = (entry / row["path"] / "preparation.json").read_bytes()
            assert row["preparationDigest"] == "sha256:" + hashlib.sha256(data).hexdigest()
