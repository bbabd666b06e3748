"""Case directories: tests/cases/<area>/<case>/case.json describes a catalog and one change to it.

case.json: {"description", "bases": [...], "mutations": [...], "manifest": "rewrite"|"keep",
"expect": [{"code", "entry"}]} — an empty expect is a near-miss that must pass. Mutations are data
(`set`, `remove`, `write`, `delete`, `mkdir`, `symlink`, `chmod`, `grow`, `pad-to`, `pretty`,
`reverse`, `copy`,
`set-dialect`, `redigest-preparation`, `rename`), so
adding a case needs no code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .catalog import CatalogBuilder, pretty, sha, stdlib_canon

BASES = {
    "runner": ("add_runner_entry", "acme.vendors"),
    "unbound": ("add_unbound_entry", "acme.vendors-unbound"),
    "preset": ("add_preset", "acme.vendors-preset"),
    "named": ("add_named_entry", "acme.vendors-named"),
    "named2": ("add_named_entry", "acme.vendors-named2"),
    "output": ("add_output_entry", "acme.writeback"),
}


def _pointer_parts(pointer: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]


def _set(doc: Any, pointer: str, value: Any, remove: bool = False) -> Any:
    parts = _pointer_parts(pointer)
    if not parts:
        return value
    target = doc
    for part in parts[:-1]:
        target = target[int(part)] if isinstance(target, list) else target[part]
    last = parts[-1]
    if isinstance(target, list):
        if remove:
            del target[int(last)]
        elif last == "-":
            target.append(value)
        else:
            target[int(last)] = value
    elif remove:
        del target[last]
    else:
        target[last] = value
    return doc


def apply(root: Path, mutation: dict) -> None:
    op = mutation["op"]
    path = root / mutation.get("file", "")
    if op in ("set", "remove"):
        doc = json.loads(path.read_bytes())
        doc = _set(doc, mutation["pointer"], mutation.get("value"), remove=op == "remove")
        path.write_bytes(pretty(doc))
    elif op == "set-dialect":
        entry_dir = root / mutation["entry"]
        doc = json.loads((entry_dir / "dialect.json").read_bytes())
        doc = _set(doc, mutation["pointer"], mutation.get("value"), remove=mutation.get("remove", False))
        (entry_dir / "dialect.json").write_bytes(pretty(doc))
        entry = json.loads((entry_dir / "entry.json").read_bytes())
        entry["dialect"]["digest"] = sha(stdlib_canon(doc))
        (entry_dir / "entry.json").write_bytes(pretty(entry))
    elif op == "write":
        path.parent.mkdir(parents=True, exist_ok=True)
        data = bytes.fromhex(mutation["hex"]) if "hex" in mutation else mutation["text"].encode("utf-8")
        path.write_bytes(data)
    elif op == "grow":
        with open(path, "ab") as fh:
            fh.write(mutation.get("byte", " ").encode("ascii") * mutation["count"])
    elif op == "pad-to":
        size = path.stat().st_size
        with open(path, "ab") as fh:
            fh.write(b" " * (mutation["size"] - size))
    elif op == "reverse":
        path.write_bytes(pretty(list(reversed(json.loads(path.read_bytes())))))
    elif op == "copy":
        doc = json.loads(path.read_bytes())
        value = doc
        for part in _pointer_parts(mutation["from"]):
            value = value[int(part)] if isinstance(value, list) else value[part]
        path.write_bytes(pretty(_set(doc, mutation["to"], json.loads(json.dumps(value)))))
    elif op == "pretty":
        path.write_bytes(pretty(json.loads(path.read_bytes())))
    elif op == "redigest-preparation":
        entry_dir = root / mutation["entry"]
        entry = json.loads((entry_dir / "entry.json").read_bytes())
        for item in entry["fixtures"]:
            item["preparationDigest"] = sha((entry_dir / item["path"] / "preparation.json").read_bytes())
        (entry_dir / "entry.json").write_bytes(pretty(entry))
    elif op == "delete":
        if path.is_dir():
            import shutil
            shutil.rmtree(path)
        else:
            path.unlink()
    elif op == "mkdir":
        path.mkdir(parents=True, exist_ok=True)
    elif op == "symlink":
        os.symlink(mutation["target"], path)
    elif op == "chmod":
        os.chmod(path, int(mutation["mode"], 8))
    elif op == "rename":
        path.rename(root / mutation["to"])
    else:
        raise ValueError(f"unknown mutation {op}")


def build(root: Path, case: dict) -> CatalogBuilder:
    builder = CatalogBuilder(root)
    for base in case.get("bases", ["runner"]):
        method, entry_id = BASES[base]
        kwargs = {"entry_id": entry_id}
        if base == "named2":
            kwargs["version"] = "0.2.0"
        getattr(builder, method)(**kwargs)
    before = case.get("manifest", "rewrite") == "keep"
    if before:
        builder.write_manifest()
    for mutation in case.get("mutations", []):
        apply(root, mutation)
    if not before:
        builder.write_manifest()
    for mutation in case.get("after_manifest", []):
        apply(root, mutation)
    return builder


def load_cases(area: str) -> list[tuple[str, dict]]:
    base = Path(__file__).resolve().parents[1] / "cases" / area
    out = []
    for case_dir in sorted(p for p in base.iterdir() if p.is_dir()):
        out.append((case_dir.name, json.loads((case_dir / "case.json").read_text(encoding="utf-8"))))
    return out
