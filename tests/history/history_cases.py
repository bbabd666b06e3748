"""Build a case directory's releases as a throwaway git repository (tests/history/cases/<case>/).

case.json gives the releases in commit order. Each release is a snapshot of the whole tree:
- "tag" (or "label" for an untagged commit), "annotated", "tagTarget": "commit" | "tree" | "blob";
- "entries": id to entry.json value, written as entries/<publisher>/<name>/entry.json;
- "manifest": "rows" (default), "absent" or {"text": exact bytes}; "rowForm": 1 drops kind from rows;
- "rowDigests" / "rowPaths": id to a row member replacing the computed one;
- "files": path to exact text, written after the entries; "remove": paths left out;
- "padding": id to a count of trailing spaces appended to that entry.json.
Then "packRefs": true (git pack-refs --all), "brokenRefs" (tag name to reference-file text),
"packedRefs" (packed-refs text written as given), "notGit".
"current" lists the candidate release's entries; an upgrade key "@<tag or label>/<id>" names the
digest of the entry.json bytes written for that id in that release (hashlib over the bytes written,
not the code under test).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from judgment_exchange.history import CurrentEntry

from ..support.gitrepo import GitRepo

PLACEHOLDER_DIGEST = "sha256:" + "d" * 64


def entry_dir(entry_id: str) -> str:
    publisher, name = entry_id.split(".", 1)
    return f"entries/{publisher}/{name}"


def _sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _release_files(release: dict) -> tuple[dict[str, bytes], dict[str, str]]:
    files: dict[str, bytes] = {}
    entries = release.get("entries", {})
    for entry_id, value in entries.items():
        text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
        text += " " * release.get("padding", {}).get(entry_id, 0)
        files[f"{entry_dir(entry_id)}/entry.json"] = text.encode("utf-8")
    for path, text in release.get("files", {}).items():
        files[path] = text.encode("utf-8")
    digests = {
        entry_id: _sha256(files[f"{entry_dir(entry_id)}/entry.json"])
        for entry_id in entries
        if f"{entry_dir(entry_id)}/entry.json" in files
    }
    manifest = release.get("manifest", "rows")
    if isinstance(manifest, dict):
        files["manifest.json"] = manifest["text"].encode("utf-8")
    elif manifest == "rows":
        rows = []
        for entry_id in sorted(entries, key=lambda i: i.encode("utf-8")):
            value = entries[entry_id]
            row = {"id": entry_id}
            if release.get("rowForm", 2) != 1:
                row["kind"] = value.get("kind", "dialect")
            row["path"] = release.get("rowPaths", {}).get(entry_id, entry_dir(entry_id))
            row["entryDigest"] = release.get("rowDigests", {}).get(entry_id, digests.get(entry_id))
            row["fixtures"] = []
            if isinstance(value.get("dialect"), dict):
                row["dialectDigest"] = PLACEHOLDER_DIGEST
            rows.append(row)
        files["manifest.json"] = (json.dumps(rows, indent=2) + "\n").encode("utf-8")
    for path in release.get("remove", []):
        files.pop(path, None)
    return files, digests


def build(case: dict, root: Path) -> tuple[Path, dict[str, str]]:
    """Make the case's repository under `root`; return its path and the "@release/id" digests."""
    path = root / "catalog"
    if case.get("notGit"):
        path.mkdir(parents=True)
        (path / "manifest.json").write_text("[]\n")
        return path, {}
    repo = GitRepo(path)
    tokens: dict[str, str] = {}
    for release in case["releases"]:
        label = release.get("tag") or release["label"]
        files, digests = _release_files(release)
        repo.snapshot(files, f"release {label}")
        for entry_id, digest in digests.items():
            tokens[f"@{label}/{entry_id}"] = digest
        if "tag" in release:
            target = {"commit": "HEAD", "tree": "HEAD^{tree}", "blob": "HEAD:manifest.json"}[
                release.get("tagTarget", "commit")
            ]
            repo.tag(release["tag"], repo.rev(target), annotated=release.get("annotated", False))
    if case.get("packRefs"):
        repo.git("pack-refs", "--all")
    for name, text in case.get("brokenRefs", {}).items():
        repo.write_ref(name, text.encode("utf-8"))
    if "packedRefs" in case:
        (repo.git_dir / "packed-refs").write_text(case["packedRefs"])
    return path, tokens


def current_entries(case: dict, tokens: dict[str, str]) -> list[CurrentEntry]:
    """The candidate release's entries, upgrade keys resolved."""
    out = []
    for item in case["current"]:
        artifact = item.get("artifact")
        out.append(
            CurrentEntry(
                id=item["id"],
                path=entry_dir(item["id"]),
                dialect_digest=item.get("dialectDigest"),
                artifact=tuple(artifact) if artifact else None,
                upgrade_keys=tuple(tokens.get(k, k) for k in item.get("upgrade", [])),
            )
        )
    return out
