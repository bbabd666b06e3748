"""A realistic entry built at test time from a real Runner export (shared/vectors/runner-exports).

The fixture's sources.json, profiles.json and preparation.json are the export's own acquisitions,
profiles and preparation, so real receipts, signatures, key ids, salts and keys sit at the members
their forms give them. Documents are written indented, so each member has its own line.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "tests"
EXPORT = SHARED / "vectors" / "runner-exports" / "mapping-v2-unsigned-parameters"
ENTRY = "entries/acme/vendor-intake"


def export() -> dict:
    return json.loads((EXPORT / "run.json").read_text(encoding="utf-8"))


def documents() -> dict[str, object]:
    """Relative path inside the entry → JSON value (or str for README.md)."""
    run = export()
    sample = run["release"]["sample"]
    source = sample["source"]
    mapping = source["mapping"]
    from judgment_exchange.canon import canonical_digest  # the lead's canon; digests here are data, not expectations

    entry = {
        "entryVersion": 3,
        "kind": "dialect",
        "id": "acme.vendor-intake",
        "title": "Vendor records into data request intake triage",
        "description": "Reads a vendor's row and its registry entry.",
        "direction": "input",
        "pack": {"id": run["release"]["packId"], "versions": ">=0.1.0"},
        "dialect": {"path": "dialect.json", "dialectVersion": 2, "digest": canonical_digest(mapping)},
        "requires": {"inputProfile": mapping["sources"][0]["profileDigest"]},
        "sourceKinds": ["operation"],
        "licence": "Apache-2.0",
        "author": "acme",
        "assertion": "The author asserts these rules derive these facts and this evidence-availability.",
        "fixtures": [{"name": "basic", "path": "fixtures/basic", "preparationDigest": "sha256:" + "5654d028" * 8}],
        "verification": [],
    }
    return {
        "entry.json": entry,
        "dialect.json": mapping,
        "fixtures/basic/case.json": source["case"],
        "fixtures/basic/sources.json": source["sources"],
        "fixtures/basic/profiles.json": json.loads((EXPORT / "profiles.json").read_text(encoding="utf-8")),
        "fixtures/basic/preparation.json": sample["preparation"],
        "README.md": "# Vendor intake\n\nReads a vendor's row ([the dialect](dialect.json), "
        "[its fixture](fixtures/basic/case.json)).\nSee https://example.com/docs for the pack.\n",
    }


def write(root: Path, docs: dict[str, object]) -> Path:
    """Write the documents under root/ENTRY; JSON indented by two spaces."""
    base = root / ENTRY
    for rel, value in docs.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        text = value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False) + "\n"
        path.write_text(text, encoding="utf-8")
    return base


def line_of(root: Path, rel: str, needle: str) -> int:
    """The 1-based line of the first occurrence of `needle` (as JSON writes it) in the written file."""
    text = (root / ENTRY / rel).read_text(encoding="utf-8")
    for number, line in enumerate(text.split("\n"), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {rel}")


def place(docs: dict[str, object], position: str, sample: str) -> tuple[str, str]:
    """Put a sample at a position, as the whole string value; return (relative path, a needle of its line)."""
    needle = json.dumps(sample, ensure_ascii=False)[1:25]
    if position == "entry.json description":
        docs["entry.json"]["description"] = sample
        return "entry.json", needle
    if position == "dialect.json recipe literal":
        docs["dialect.json"]["sources"][1]["arguments"]["arguments"] = {"filter": sample}
        return "dialect.json", needle
    if position == "sources.json result":
        docs["fixtures/basic/sources.json"]["registry"]["response"]["result"]["note"] = sample
        return "fixtures/basic/sources.json", needle
    if position == "sources.json receipt metadata":
        docs["fixtures/basic/sources.json"]["vendor"]["response"]["receipt"]["acquisition"]["snapshot"] = sample
        return "fixtures/basic/sources.json", needle
    if position == "README.md":
        docs["README.md"] = docs["README.md"] + f"\nReproduce with {sample}\n"
        return "README.md", "Reproduce with " + sample.split("\n")[0][:20]
    raise KeyError(position)


POSITIONS = (
    "entry.json description",
    "dialect.json recipe literal",
    "sources.json result",
    "sources.json receipt metadata",
    "README.md",
)


def fresh() -> dict[str, object]:
    return copy.deepcopy(documents())
