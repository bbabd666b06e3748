"""Runner run exports for the recording tests: the real ones (tests/vectors/runner-exports/) and
changed copies, with expectations computed by the standard library, never by the code under test."""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from ..support.catalog import EXPORTS, CatalogBuilder, pretty, sha, stdlib_canon

NAMES = ["mapping-v2-unsigned-parameters", "mapping-v2-before-calculators"]


def run_json(name: str) -> dict:
    return json.loads((EXPORTS / name / "run.json").read_text(encoding="utf-8"))


def run_bytes(name: str) -> bytes:
    return (EXPORTS / name / "run.json").read_bytes()


def profiles_bytes(name: str) -> bytes:
    return (EXPORTS / name / "profiles.json").read_bytes()


def http_run(name: str) -> tuple[dict, dict]:
    """The export `name` as if recorded under a version-3 dialect whose one source is of kind http (a kind the
    bundled verifier does not read: kind-unread), its mappingDigest recomputed by the standard library:
    (the run's value, the dialect document)."""
    value = run_json(name)
    mapping = value["run"]["input"]["source"]["mapping"]
    doc = {"version": 3, "case": mapping["case"], "sources": [{
        "name": "vendor", "kind": "http", "profile": "vendors", "profileDigest": mapping["sources"][0]["profileDigest"],
        "maxAge": 300, "method": "GET", "path": {"$text": "/vendors/{{vendorId}}"},
        "read": mapping["sources"][0]["read"]}]}
    value["run"]["input"]["source"].update(mapping=doc, mappingDigest=sha(stdlib_canon(doc)))
    return value, doc


def write_export(folder: Path, run: dict | bytes, profiles: bytes | None = None) -> Path:
    """A directory holding run.json (the value compact, as the Runner writes one line) and profiles.json."""
    folder.mkdir(parents=True, exist_ok=True)
    data = run if isinstance(run, bytes) else json.dumps(run, ensure_ascii=False, separators=(",", ":")).encode()
    (folder / "run.json").write_bytes(data)
    if profiles is not None:
        (folder / "profiles.json").write_bytes(profiles)
    return folder


def copy_export(name: str, folder: Path) -> Path:
    shutil.copytree(EXPORTS / name, folder)
    return folder


def preparation_form_stdlib(value: Any) -> bytes:
    """A second computation of dialect §9.5's form for in-domain values (integers only): sorted
    members, no whitespace, raw UTF-8, then &, <, >, U+2028 and U+2029 escaped (only strings hold them)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text.encode("utf-8")


def legacy_free_v3(mapping: dict) -> dict:
    doc = copy.deepcopy(mapping)
    for legacy in ("provider", "facts", "evidence"):
        doc.pop(legacy, None)
    doc["version"] = 3
    return doc


def unbind(bound: dict) -> dict:
    """The bound version-3 mapping's unbound form (§4.4): profile pair out, catalog names in."""
    doc = copy.deepcopy(bound)
    for source in doc["sources"]:
        source.pop("profile")
        source.pop("profileDigest")
        source.update({"platform": "postgres", "operation": f"read-{source['name']}", "shape": "mcp",
                       "record": "dbhub"})
    return doc


def version3_run(name: str = "mapping-v2-unsigned-parameters") -> tuple[dict, dict]:
    """The export re-authored as a version-3 Runner would record it after binding at import: the bound
    mapping under run.input.source, the preparation re-pinned to its digest. (run, bound mapping)"""
    run = run_json(name)
    source = run["run"]["input"]["source"]
    bound = legacy_free_v3(source["mapping"])
    digest = sha(stdlib_canon(bound))
    source["mapping"], source["mappingDigest"] = bound, digest
    preparation = run["run"]["input"]["preparation"]
    preparation["version"], preparation["mappingDigest"] = 3, digest
    return run, bound


def blank_entry(builder: CatalogBuilder, entry_id: str, document: dict, version: int,
                stored: bytes | None = None) -> Path:
    """A kind-dialect input entry with `document` and no fixture yet (fixtures [] until one is added)."""
    path = builder._dir(entry_id)
    (path / "dialect.json").write_bytes(stored if stored is not None else pretty(document))
    entry = builder._base(entry_id, "dialect", "input", ["operation"])
    entry["dialect"] = {"path": "dialect.json", "dialectVersion": version, "digest": sha(stdlib_canon(document))}
    builder._finish(path, entry, ["operation"], [])
    builder.write_manifest()
    return path


def file_sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()
