"""A previous release's manifest and pinned entries, read in their own forms (RFC 0019 §§3, 7).

Pure functions from bytes to values; a document that does not fit raises `HistoricalFormError`,
which the walk turns into artifact-history-invalid. Only what history needs is held: the rows' own
form (version 1 rows without kind included), and for an entry its entryVersion and, for a
version-3 entry with a formatVersion reference, the dialect and artifact member forms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import jsonstrict
from ..catalog.documents import ENTRY_BOUND as ENTRY_MAX_BYTES
from ..catalog.documents import MANIFEST_BOUND as MANIFEST_MAX_BYTES
from ..canon import is_digest
from ..catalog.grammar import ENTRY_ID
from ..catalog.manifest import MAX_ROWS as MANIFEST_MAX_ROWS
from ..catalog.manifest import ROW_MEMBERS
from ..catalog.reference import NAMED, artifact_problem
from ..quoting import member as member_name
from .model import Pair

_ROW_REQUIRED = ("id", "path", "entryDigest", "fixtures")
_ROW_KINDS = ("dialect", "preset")


class HistoricalFormError(Exception):
    """A previous release's manifest or pinned entry that does not fit its own form or bounds."""


@dataclass(frozen=True)
class Row:
    """What history reads of a manifest row: the entry's id, its directory and its entryDigest."""

    id: str
    path: str
    entry_digest: str


@dataclass(frozen=True)
class HistoricalEntry:
    """A pinned entry's entryVersion and, for a version-3 named reference, its pair and dialect.digest."""

    entry_version: int
    pair: Pair | None = None
    dialect_digest: str | None = None


def _load(data: bytes, limit: int) -> Any:
    try:
        return jsonstrict.loads(data, jsonstrict.Bounds(max_bytes=limit))
    except jsonstrict.JsonRefusal as exc:
        prefix = "over its bound: " if exc.kind == jsonstrict.OVER_BOUND else ""
        raise HistoricalFormError(prefix + exc.detail) from None


def read_manifest(data: bytes) -> list[Row]:
    """A previous manifest's rows (§3's manifest form; a version-1 manifest's rows lack kind)."""
    value = _load(data, MANIFEST_MAX_BYTES)
    if not isinstance(value, list):
        raise HistoricalFormError("the manifest is not a JSON array")
    if len(value) > MANIFEST_MAX_ROWS:
        raise HistoricalFormError(f"{len(value)} rows, over the bound of {MANIFEST_MAX_ROWS}")
    rows = [_row(index, item) for index, item in enumerate(value)]
    kinds = {"kind" in item for item in value}
    if len(kinds) > 1:
        raise HistoricalFormError("rows with kind and rows without it in one manifest (two row forms)")
    for before, after in zip(rows, rows[1:]):
        if before.id.encode("utf-8") >= after.id.encode("utf-8"):
            raise HistoricalFormError(f"row id {after.id!r} is not after {before.id!r} in byte order")
    return rows


def _row(index: int, item: Any) -> Row:
    where = f"row {index}"
    if not isinstance(item, dict):
        raise HistoricalFormError(f"{where} is not an object")
    stray = sorted(set(item) - set(ROW_MEMBERS))
    if stray:
        # the names are the author's: shown only when they are our schema's (issue #11 item 3)
        raise HistoricalFormError(f"{where} has members outside the row form: {', '.join(map(member_name, stray))}")
    missing = [m for m in _ROW_REQUIRED if m not in item]
    if missing:
        raise HistoricalFormError(f"{where} lacks {', '.join(missing)}")
    entry_id = item["id"]
    if not isinstance(entry_id, str) or not 3 <= len(entry_id) <= 128 or not ENTRY_ID.fullmatch(entry_id):
        raise HistoricalFormError(f"{where}: id is not an entry id")
    publisher, name = entry_id.split(".", 1)
    path = f"entries/{publisher}/{name}"
    if item["path"] != path:
        raise HistoricalFormError(f"{where} ({entry_id}): path is not {path!r}")
    if "kind" in item and item["kind"] not in _ROW_KINDS:
        raise HistoricalFormError(f"{where} ({entry_id}): kind is not dialect or preset")
    for member in ("entryDigest", "dialectDigest", "outputDigest"):
        if member in item and not is_digest(item[member]):
            raise HistoricalFormError(f"{where} ({entry_id}): {member} is not a sha256: digest")
    if not _fixtures(item["fixtures"]):
        raise HistoricalFormError(f"{where} ({entry_id}): fixtures is not an array of {{name, files}} objects")
    return Row(entry_id, path, item["entryDigest"])


def _fixtures(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(f, dict)
        and set(f) == {"name", "files"}
        and isinstance(f["name"], str)
        and isinstance(f["files"], list)
        and all(isinstance(name, str) for name in f["files"])
        for f in value
    )


def read_entry(data: bytes) -> HistoricalEntry:
    """A pinned entry: its entryVersion, and the pair only of a version-3 formatVersion reference (§7)."""
    value = _load(data, ENTRY_MAX_BYTES)
    if not isinstance(value, dict):
        raise HistoricalFormError("entry.json is not a JSON object")
    version = jsonstrict.integer(value.get("entryVersion"))
    if version is None:
        raise HistoricalFormError("entry.json has no integer entryVersion")
    dialect = value.get("dialect")
    if version != 3 or not isinstance(dialect, dict) or "formatVersion" not in dialect:
        return HistoricalEntry(version)
    if value.get("kind") != "dialect":
        raise HistoricalFormError("a formatVersion reference on an entry whose kind is not dialect")
    if set(dialect) != {"path", "formatVersion", "digest"}:
        raise HistoricalFormError("dialect is not exactly {path, formatVersion, digest}")
    if dialect["path"] != "dialect.json":
        raise HistoricalFormError("dialect.path is not dialect.json")
    if dialect["formatVersion"] not in NAMED:
        raise HistoricalFormError('dialect.formatVersion is not "2.0.0" or "3.0.0"')
    if not is_digest(dialect["digest"]):
        raise HistoricalFormError("dialect.digest is not a sha256: digest")
    if "artifact" not in value:
        raise HistoricalFormError("a formatVersion reference without artifact")
    artifact = value["artifact"]
    problem = artifact_problem(artifact)
    if problem is not None:
        raise HistoricalFormError(problem)
    pair: Pair = (artifact["id"], artifact["version"])
    return HistoricalEntry(version, pair, dialect["digest"])
