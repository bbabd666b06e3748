"""Runner run exports of versions 3 to 5, built from the real version-2 exports by the rules of
shared/reference/runner-export-versions.md, with the standard library only (never the code under test).

A version is the one below it with its member added: 3 `run.auditBytes` (the audit record's exact line,
standard base64), 4 the top-level `chain` (`{"entry": <the entry's line, base64>, "checkpoint": {...}}`),
5 `run.auditSignatures` (the sidecar's bytes, base64). `textual` inserts the members into the export's own
bytes, as the Runner adds them, so everything a fixture is cut from stays byte for byte what version 2
was; `valued` builds from a parsed value (for the broken exports the tests change before building).
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from .exports import run_bytes, run_json

TRAIL = "1a17a652b9917cb2b346a4ff0019642c"
SEQUENCE = 7
PREVIOUS = "sha256:" + "e8" * 32
KEY_ID = "0f" * 16
SIGNATURE = "ab" * 64


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def compact(value: Any) -> bytes:
    """One line of compact JSON, UTF-8 as it is (the Runtime writes &, <, > unescaped)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _no_floats(value: Any) -> None:
    """The audit records hold integers only, so the standard library re-encodes every number literal as written."""
    stack = [value]
    while stack:
        item = stack.pop()
        assert not isinstance(item, float), "a non-integer number: json.dumps would not keep its literal"
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def audit_line(audit: Any) -> bytes:
    """The audit record's exact line, as the Runtime writes it: its value in compact JSON."""
    _no_floats(audit)
    return compact(audit)


def entry_line(run_id: str, audit_digest: str, sequence: int = SEQUENCE, trail: str = TRAIL) -> bytes:
    """The run's chain entry, compact JSON in the Runner's member order."""
    return compact({"entryVersion": "1", "trail": trail, "sequence": sequence, "previous": PREVIOUS,
                    "kind": "run", "run": run_id, "auditDigest": audit_digest})


def checkpoint(line: bytes, sequence: int = SEQUENCE, trail: str = TRAIL) -> dict:
    """The entry's checkpoint: the SHA-256 of the entry line's bytes, its sequence and trail."""
    return {"checkpointVersion": "1", "recordDigest": sha(line), "sequence": sequence, "trail": trail}


def chain(line: bytes, sequence: int = SEQUENCE, trail: str = TRAIL) -> dict:
    return {"entry": b64(line), "checkpoint": checkpoint(line, sequence, trail)}


def sidecar(record_digest: str, sequence: int = SEQUENCE, trail: str = TRAIL) -> bytes:
    """One signature line, newline-ended, as the reference's example (the signature is not checked)."""
    return compact({"keyId": KEY_ID, "kind": "record-signature", "record": record_digest, "sequence": sequence,
                    "sidecarVersion": "1", "signature": SIGNATURE, "trail": trail}) + b"\n"


def members(value: dict, version: int) -> tuple[list[tuple[str, Any]], dict | None]:
    """The run members and the chain `version` adds to the export `value`, made by the rules."""
    run = value["run"]
    line = audit_line(run["audit"])
    added: list[tuple[str, Any]] = []
    if version >= 3:
        added.append(("auditBytes", b64(line)))
    if version >= 5:
        added.append(("auditSignatures", b64(sidecar(sha(line)))))
    made = chain(entry_line(run["id"], sha(line))) if version >= 4 else None
    return added, made


def textual(name: str, version: int) -> bytes:
    """The real export `name` as version `version`: its own bytes with /version set and the members
    inserted before run's and the root's closing braces (run is the last member, audit run's last)."""
    data = run_bytes(name)
    head = b'{"version":2,'
    assert data.startswith(head) and data.endswith(b"}}"), "the export is not laid out as the Runner writes it"
    added, made = members(run_json(name), version)
    run_tail = b"".join(b"," + compact(k) + b":" + compact(v) for k, v in added)
    root_tail = b',"chain":' + compact(made) if made is not None else b""
    return b'{"version":%d,' % version + data[len(head):-2] + run_tail + b"}" + root_tail + b"}"


def valued(value: dict, version: int, *, run_members: dict | None = None, chain_value: Any = ...,
           drop: tuple[str, ...] = ()) -> bytes:
    """The export `value` as version `version`, members made by the rules unless given: `run_members`
    replaces (or adds) run members, `chain_value` the chain; `drop` removes "auditBytes", "chain" or
    "auditSignatures"."""
    value = json.loads(json.dumps(value))
    added, made = members(value, version)
    value["version"] = version
    for key, member in added:
        value["run"][key] = member
    if made is not None:
        value["chain"] = made
    if chain_value is not ...:
        value["chain"] = chain_value
    value["run"].update(run_members or {})
    for key in drop:
        (value if key == "chain" else value["run"]).pop(key, None)
    return compact(value)


def built(version: int, name: str = "mapping-v2-unsigned-parameters", **changes: Any) -> bytes:
    """`valued` over the real export `name`."""
    return valued(run_json(name), version, **changes)
