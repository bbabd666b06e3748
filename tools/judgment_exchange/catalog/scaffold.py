"""`exchange new`: an entry directory with every required member and the fixed assertion (RFC 0019 §3)."""

from __future__ import annotations

import json
import os

from ..canon import canonical_digest
from . import grammar
from .directory import entry_path
from .entry import ASSERTION

PLACEHOLDER = "sha256:" + "0" * 64


def _dump(value: object) -> bytes:
    def default(o: object) -> object:
        raise TypeError(o)

    text = json.dumps(value, indent=2, ensure_ascii=False, default=default)
    return (text + "\n").encode("utf-8")


def scaffold(catalog: str, entry_id: str, kind: str, direction: str) -> list[str]:
    """Write entries/<publisher>/<name>/ for a new entry; refuse an id outside §3's grammar."""
    if not grammar.ENTRY_ID.fullmatch(entry_id) or not 3 <= len(entry_id) <= 128:
        raise ValueError(f"{entry_id!r} is not an entry id (<publisher>.<name>, lower-case letters, digits, - and .)")
    if kind == "preset" and direction != "input":
        raise ValueError("a preset is direction input")
    rel = entry_path(entry_id)
    root = os.path.join(catalog, *rel.split("/"))
    if os.path.lexists(root):
        raise ValueError(f"{rel} exists already")
    probe = catalog
    for part in rel.split("/")[:-1]:
        probe = os.path.join(probe, part)
        if os.path.islink(probe) or (os.path.lexists(probe) and not os.path.isdir(probe)):
            raise ValueError(f"{os.path.relpath(probe, catalog)} is not a directory of the catalog (a symlink or a "
                             "file); nothing written")
    dialect_doc = {"version": 3, "sources": [{"name": "example", "kind": "operation", "platform": "example-platform",
                                              "operation": "example-read", "shape": "mcp", "record": "adapter-mcp",
                                              "maxAge": 300, "arguments": {"tool": "example_tool", "arguments": {}},
                                              "read": {"copy": {"facts": [], "evidence": []}}}]}
    entry: dict = {"entryVersion": 3, "kind": kind, "id": entry_id, "title": f"{entry_id} (describe it)",
                   "direction": direction}
    if kind == "dialect":
        entry["pack"] = {"id": "https://example.org/packs/replace-me", "versions": ">=0.1.0"}
    files: dict[str, bytes] = {}
    if direction in ("input", "both"):
        entry["dialect"] = {"path": "dialect.json", "dialectVersion": 3, "digest": canonical_digest(dialect_doc)}
        files["dialect.json"] = _dump(dialect_doc)
    if direction in ("output", "both"):
        output_doc = {"outputVersion": "1", "platform": "example-platform", "policies": {}}
        entry["output"] = {"path": "output.json", "outputVersion": 1, "digest": canonical_digest(output_doc)}
        files["output.json"] = _dump(output_doc)
    entry["requires"] = {}
    entry["sourceKinds"] = ["operation"] if direction != "output" else []
    entry["licence"] = "Apache-2.0"
    entry["author"] = "replace-me"
    entry["assertion"] = ASSERTION
    if kind == "dialect":
        entry["fixtures"] = [] if direction == "output" else [
            {"name": "first", "path": "fixtures/first", "preparationDigest": PLACEHOLDER}]
    entry["verification"] = []
    files["entry.json"] = _dump(entry)
    files["README.md"] = (f"# {entry_id}\n\nWhat this dialect is for, in the publisher's words. No credentials, "
                          "no personal data.\n").encode("utf-8")
    os.makedirs(root)
    written = []
    for name, data in files.items():
        with open(os.path.join(root, name), "wb") as fh:
            fh.write(data)
        written.append(f"{rel}/{name}")
    return written
