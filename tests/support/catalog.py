"""A builder of throwaway catalogs for the gate's tests, from independent data.

Digests here are computed with hashlib and the standard library's json module (sorted keys, no
whitespace, raw UTF-8 — what receipts-and-canon.md §1 found equal to canon on in-domain values),
never with the package under test; the Runner's own recorded mappingDigest is used where it exists.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from .paths import VECTORS

ASSERTION = (
    "The author asserts that these rules derive these facts and this evidence-availability from records of "
    "that shape, or these arguments from that disposition, and asserts nothing about any record's truth."
)
EXPORTS = VECTORS / "runner-exports"


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def stdlib_canon(value: Any) -> bytes:
    """A second computation of canon for in-domain values (integers only, no lone surrogates)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def pretty(value: Any) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def runner_export(name: str = "mapping-v2-unsigned-parameters") -> dict:
    """The parts of a real Runner export a fixture is made of."""
    run = json.loads((EXPORTS / name / "run.json").read_text(encoding="utf-8"))
    sample = run["release"]["sample"]
    return {
        "mapping": sample["source"]["mapping"],
        "mappingDigest": sample["source"]["mappingDigest"],
        "case": sample["source"]["case"],
        "sources": sample["source"]["sources"],
        "profiles": (EXPORTS / name / "profiles.json").read_bytes(),
        "preparation": sample["preparation"],
    }


def unbound_v3(mapping: dict) -> dict:
    """The Runner mapping re-authored as version 3 with every operation unbound (§4.4)."""
    doc = copy.deepcopy(mapping)
    for legacy in ("provider", "facts", "evidence"):
        doc.pop(legacy, None)
    doc["version"] = 3
    for source in doc["sources"]:
        source.pop("profile")
        source.pop("profileDigest")
        source.update({"platform": "postgres", "operation": f"read-{source['name']}", "shape": "mcp",
                       "record": "dbhub"})
    return doc


def named(mapping: dict, selector: str = "3.0.0", artifact_id: str = "urn:judgmentpack:dialect:vendors",
          version: str = "0.1.0") -> dict:
    """The Runner mapping in a named format (RFC 0021 §2.1): identity members, no legacy members."""
    doc = copy.deepcopy(mapping)
    for legacy in ("provider", "facts", "evidence", "version"):
        doc.pop(legacy, None)
    doc.update({"formatVersion": selector, "id": artifact_id, "version": version})
    return doc


class CatalogBuilder:
    """Writes a catalog directory: entries, their files and a manifest computed from the bytes."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "manifest.json").write_bytes(b"[]\n")
        self.entries: dict[str, Path] = {}

    def _dir(self, entry_id: str) -> Path:
        publisher, _, name = entry_id.partition(".")
        path = self.root / "entries" / publisher / name
        path.mkdir(parents=True, exist_ok=True)
        self.entries[entry_id] = path
        return path

    def _base(self, entry_id: str, kind: str, direction: str, kinds: list[str]) -> dict:
        entry: dict[str, Any] = {"entryVersion": 3, "kind": kind, "id": entry_id, "title": f"Example {entry_id}",
                                 "direction": direction}
        if kind == "dialect":
            entry["pack"] = {"id": "https://packs.example.org/vendor-screening", "versions": "0.1.0"}
        return entry

    def _finish(self, path: Path, entry: dict, kinds: list[str], fixtures: list[dict] | None) -> None:
        entry["requires"] = {}
        entry["sourceKinds"] = kinds
        entry["licence"] = "Apache-2.0"
        entry["author"] = "example-publisher"
        entry["assertion"] = ASSERTION
        if fixtures is not None:
            entry["fixtures"] = fixtures
        entry["verification"] = []
        (path / "entry.json").write_bytes(pretty(entry))
        (path / "README.md").write_text("# Example\n\nA synthetic entry for the gate's tests.\n", encoding="utf-8")

    def _fixture(self, path: Path, name: str, export: dict, binding: bytes | None = None) -> dict:
        fixture = path / "fixtures" / name
        fixture.mkdir(parents=True)
        (fixture / "case.json").write_bytes(pretty(export["case"]))
        (fixture / "sources.json").write_bytes(pretty(export["sources"]))
        (fixture / "profiles.json").write_bytes(export["profiles"])
        prep = stdlib_canon(export["preparation"])
        (fixture / "preparation.json").write_bytes(prep)
        if binding is not None:
            (fixture / "binding.json").write_bytes(binding)
        return {"name": name, "path": f"fixtures/{name}", "preparationDigest": sha(prep)}

    def add_runner_entry(self, entry_id: str = "acme.vendors",
                         export_name: str = "mapping-v2-unsigned-parameters") -> Path:
        """Kind dialect, integer version 2, the Runner's own mapping and its recorded mappingDigest."""
        export = runner_export(export_name)
        path = self._dir(entry_id)
        (path / "dialect.json").write_bytes(stdlib_canon(export["mapping"]))
        entry = self._base(entry_id, "dialect", "input", ["operation"])
        entry["dialect"] = {"path": "dialect.json", "dialectVersion": 2, "digest": export["mappingDigest"]}
        fixtures = [self._fixture(path, "vendor-7", export)]
        self._finish(path, entry, ["operation"], fixtures)
        return path

    def add_unbound_entry(self, entry_id: str = "acme.vendors-unbound") -> Path:
        """Kind dialect, integer version 3, unbound operations; each fixture holds binding.json."""
        export = runner_export()
        doc = unbound_v3(export["mapping"])
        path = self._dir(entry_id)
        data = pretty(doc)
        (path / "dialect.json").write_bytes(data)
        digest = sha(stdlib_canon(doc))
        profile_digest = export["mapping"]["sources"][0]["profileDigest"]
        binding = stdlib_canon({"dialect": digest, "sources": {
            s["name"]: {"profile": "vendors", "profileDigest": profile_digest} for s in doc["sources"]}})
        entry = self._base(entry_id, "dialect", "input", ["operation"])
        entry["dialect"] = {"path": "dialect.json", "dialectVersion": 3, "digest": digest}
        self._finish(path, entry, ["operation"], [self._fixture(path, "vendor-7", export, binding)])
        return path

    def add_http_entry(self, entry_id: str = "acme.vendors-http") -> Path:
        """Kind dialect, version 3, one http source (§4.3): a kind no reader recomputes (kind-unread)."""
        export = runner_export()
        mapping = export["mapping"]
        doc = {"version": 3, "case": mapping["case"], "sources": [{
            "name": "vendor", "kind": "http", "profile": "vendors",
            "profileDigest": mapping["sources"][0]["profileDigest"],
            "maxAge": 300, "method": "GET", "path": {"$text": "/vendors/{{vendorId}}"},
            "read": mapping["sources"][0]["read"]}]}
        path = self._dir(entry_id)
        (path / "dialect.json").write_bytes(pretty(doc))
        entry = self._base(entry_id, "dialect", "input", ["http"])
        entry["dialect"] = {"path": "dialect.json", "dialectVersion": 3, "digest": sha(stdlib_canon(doc))}
        # the acquisitions name only the dialect's one source: a member naming no source is acquisition-unexpected,
        # which a skipped fixture is still held to (docs/skips.md)
        export["sources"] = {"vendor": export["sources"]["vendor"]}
        self._finish(path, entry, ["http"], [self._fixture(path, "vendor-7", export)])
        return path

    def add_preset(self, entry_id: str = "acme.vendors-preset") -> Path:
        """Kind preset: integer version 3, every operation unbound, exactly three files."""
        doc = unbound_v3(runner_export()["mapping"])
        path = self._dir(entry_id)
        (path / "dialect.json").write_bytes(pretty(doc))
        entry = self._base(entry_id, "preset", "input", ["operation"])
        entry["dialect"] = {"path": "dialect.json", "dialectVersion": 3, "digest": sha(stdlib_canon(doc))}
        self._finish(path, entry, ["operation"], None)
        return path

    def add_named_entry(self, entry_id: str = "acme.vendors-named", selector: str = "3.0.0",
                        version: str = "0.1.0") -> Path:
        """Kind dialect in a named format with its artifact pair (fixtures not replayable here)."""
        export = runner_export()
        doc = named(export["mapping"], selector, version=version)
        path = self._dir(entry_id)
        (path / "dialect.json").write_bytes(pretty(doc))
        entry = self._base(entry_id, "dialect", "input", ["operation"])
        entry["dialect"] = {"path": "dialect.json", "formatVersion": selector, "digest": sha(stdlib_canon(doc))}
        entry["artifact"] = {"id": doc["id"], "version": doc["version"]}
        self._finish(path, entry, ["operation"], [self._fixture(path, "vendor-7", export)])
        return path

    def add_output_entry(self, entry_id: str = "acme.writeback") -> Path:
        """Direction output: output.json pinned by its digests only, fixtures and sourceKinds []."""
        doc = {"outputVersion": "1", "platform": "azure-devops", "policies": {"wit_work_item_write": {
            "outcomes": ["approve"], "bind": [], "fix": [], "closed": True}}}
        path = self._dir(entry_id)
        (path / "output.json").write_bytes(pretty(doc))
        entry = self._base(entry_id, "dialect", "output", [])
        entry["output"] = {"path": "output.json", "outputVersion": 1, "digest": sha(stdlib_canon(doc))}
        self._finish(path, entry, [], [])
        return path

    def write_manifest(self) -> None:
        """Rows computed from the files' bytes, in id byte order."""
        rows = []
        for entry_id in sorted(self.entries, key=lambda i: i.encode("utf-8")):
            path = self.entries[entry_id]
            if not (path / "entry.json").is_file():
                continue
            try:
                entry = json.loads((path / "entry.json").read_bytes())
            except ValueError:
                entry = {}
            entry = entry if isinstance(entry, dict) else {}
            rel = path.relative_to(self.root).as_posix()
            kind = entry.get("kind") if entry.get("kind") in ("dialect", "preset") else "dialect"
            row: dict[str, Any] = {"id": entry_id, "kind": kind, "path": rel,
                                   "entryDigest": sha((path / "entry.json").read_bytes())}
            direction = entry.get("direction") if entry.get("kind") != "preset" else "input"
            gives = {"dialect.json": direction in ("input", "both", None) or direction not in ("output",),
                     "output.json": direction in ("output", "both") or direction not in ("input", "both", "output")}
            for name, member in (("dialect.json", "dialectDigest"), ("output.json", "outputDigest")):
                if (path / name).is_file() and gives[name]:
                    row[member] = sha((path / name).read_bytes())
            fixtures = []
            for item in entry.get("fixtures", []) if isinstance(entry.get("fixtures"), list) else []:
                fdir = path / "fixtures" / str(item.get("name"))
                if fdir.is_dir():
                    fixtures.append({"name": item["name"], "files": sorted(os.listdir(fdir))})
            row["fixtures"] = fixtures
            rows.append(row)
        (self.root / "manifest.json").write_bytes(pretty(rows))
