"""The valid documents the property tests mutate: tests/cases, tests/examples and the Runner's exports.

Loaded once per session. Every document here is read by the standard library, never by the code
under test; a catalog is built by tests/support/catalog.py (digests by hashlib and json).
"""

from __future__ import annotations

import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

from ..support.catalog import CatalogBuilder
from ..support.paths import REPO
from . import mutate
from .memtree import MemoryTree, load

TESTS = REPO / "tests"
CASES = TESTS / "cases"
EXAMPLES = TESTS / "examples"
EXPORTS = TESTS / "vectors" / "runner-exports"


MAX_DEPTH = 64


def _tree(path: Path):
    """A document the standard library reads, within §12's nesting (deeper ones are the hostile cases'
    own inputs, not documents to mutate: mutations make their own nesting)."""
    try:
        tree = mutate.read(path.read_bytes())
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return tree if mutate.depth(tree) <= MAX_DEPTH else None


def _trees(paths) -> list:
    return [t for t in (_tree(p) for p in sorted(paths)) if t is not None]


@lru_cache(maxsize=1)
def json_documents() -> list:
    """Every JSON document of the cases, the examples and the exports that the standard library reads."""
    found = [*CASES.rglob("*.json"), *EXAMPLES.rglob("*.json"), *EXPORTS.rglob("*.json")]
    return _trees(found)


@lru_cache(maxsize=1)
def catalog() -> MemoryTree:
    """A catalog of every kind of entry the test builder makes, and the four examples, with its manifest."""
    with tempfile.TemporaryDirectory(prefix="property-catalog-") as tmp:
        root = Path(tmp)
        builder = CatalogBuilder(root)
        builder.add_runner_entry()
        builder.add_unbound_entry()
        builder.add_http_entry()
        builder.add_preset()
        builder.add_named_entry()
        builder.add_output_entry()
        for example in sorted(p for p in EXAMPLES.iterdir() if p.is_dir()):
            target = root / "entries" / "examples" / example.name
            shutil.copytree(example, target)
            builder.entries[f"examples.{example.name}"] = target
        builder.write_manifest()
        return load(root)


def entry_roots(tree: MemoryTree) -> list[str]:
    """entries/<publisher>/<name> of every entry of a catalog tree."""
    return sorted({"/".join(p.split("/")[:3]) for p in tree.files if p.startswith("entries/") and p.count("/") >= 3})


@lru_cache(maxsize=1)
def entries() -> list:
    tree = catalog()
    return [mutate.read(data) for path, (data, _) in sorted(tree.files.items()) if path.endswith("/entry.json")]


@lru_cache(maxsize=1)
def manifests() -> list:
    return [mutate.read(catalog().files["manifest.json"][0]), mutate.read(b"[]")]


@lru_cache(maxsize=1)
def dialects() -> list:
    found = [*CASES.rglob("dialect.json"), *EXAMPLES.rglob("dialect.json")]
    tree = catalog()
    return _trees(found) + [mutate.read(d) for p, (d, _) in sorted(tree.files.items()) if p.endswith("/dialect.json")]


@lru_cache(maxsize=1)
def binding_pairs() -> list[tuple[bytes, bytes]]:
    """(dialect bytes, binding bytes) of every case and fixture that holds a binding document."""
    pairs = []
    for binding in sorted([*CASES.rglob("binding.json"), *EXAMPLES.rglob("binding.json")]):
        folder = binding.parent
        for dialect in (folder / "dialect.json", folder.parent.parent / "dialect.json"):
            if dialect.is_file():
                pairs.append((dialect.read_bytes(), binding.read_bytes()))
                break
    tree = catalog()
    for path, (data, _) in sorted(tree.files.items()):
        if path.endswith("/binding.json"):
            entry = "/".join(path.split("/")[:3])
            pairs.append((tree.files[f"{entry}/dialect.json"][0], data))
    return [(d, b) for d, b in pairs if _readable(d) and _readable(b)]  # the cases' broken ones are not mutated


def _readable(data: bytes) -> bool:
    try:
        return mutate.depth(mutate.read(data)) <= MAX_DEPTH
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False


VERIFIER_FILES = ("dialect", "case", "sources", "profiles", "preparation", "binding", "record")


@lru_cache(maxsize=1)
def verifier_inputs() -> list[dict[str, bytes]]:
    """The verifier's input files of every verifier case and every example fixture, by document name."""
    out = []
    for folder in sorted(p for p in (CASES / "verifier").iterdir() if p.is_dir()):
        files = {name: (folder / f"{name}.json").read_bytes()
                 for name in VERIFIER_FILES if (folder / f"{name}.json").is_file()}
        if (folder / "record.jsonl").is_file():
            files["record"] = (folder / "record.jsonl").read_bytes().rstrip(b"\n")
        out.append(files)
    tree = catalog()  # the examples' fixtures and the builder's, made of the Runner's exports
    for case in sorted(p for p in tree.files if p.endswith("/case.json")):
        fixture, entry = case.rsplit("/", 1)[0], "/".join(case.split("/")[:3])
        files = {name: tree.files[f"{fixture}/{name}.json"][0] for name in VERIFIER_FILES
                 if f"{fixture}/{name}.json" in tree.files}
        files["dialect"] = tree.files[f"{entry}/dialect.json"][0]
        out.append(files)
    return out


@lru_cache(maxsize=1)
def scan_trees() -> list[tuple[MemoryTree, str]]:
    """Entry directories to scan: each scan case's entry/ and every entry of the catalog, with their roots."""
    out = []
    for folder in sorted(p for p in (CASES / "scan").iterdir() if (p / "entry").is_dir()):
        out.append((load(folder / "entry", "entries/acme/scanned"), "entries/acme/scanned"))
    tree = catalog()
    for root in entry_roots(tree):
        out.append((MemoryTree({p: f for p, f in tree.files.items() if p.startswith(root + "/")}), root))
    return out
