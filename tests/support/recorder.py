"""A recorder of fixture directories (RFC 0019 §3: case, sources, profiles, preparation, binding).

The preparation is computed by this package's own verifier (`verify.prepare`), so a test that
replays a recorded fixture shows only self-consistency; the independent evidence is the Runner's
exports (tests/verifier/test_runner_exports.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from judgment_exchange.canon import canon, digest, preparation_form
from judgment_exchange.verifier.recompute import Recomputation
from judgment_exchange.verifier.verify import Documents, prepare


def record(dialect: Any, case: Any, acquisitions: dict, profiles: list, verified_at: str,
           binding: Any = None) -> dict[str, bytes]:
    """The fixture's files by basename; raises when the inputs give no preparation."""
    docs = Documents(
        dialect=canon(dialect), case=canon(case), acquisitions=canon(acquisitions), profiles=canon(profiles),
        preparation=canon({"verifiedAt": verified_at}), binding=canon(binding) if binding is not None else None,
    )
    result, _ = prepare(docs)
    if not isinstance(result, Recomputation):
        raise ValueError(f"no preparation: {result}")
    files = {"case.json": canon(case), "profiles.json": canon(profiles),
             "preparation.json": preparation_form(result.preparation)}
    if acquisitions:
        files["sources.json"] = canon(acquisitions)
    if binding is not None:
        files["binding.json"] = canon(binding)
    return files


def write_fixture(directory: Path, files: dict[str, bytes]) -> str:
    """Write a fixture directory; its preparationDigest."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (directory / name).write_bytes(data)
    return digest(files["preparation.json"])
