"""Reading a catalog file within its bound: bytes first, then strict JSON (RFC 0019 §3, dialect §§1, 12).

Every read returns either the value or a refusal naming the file; nothing raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..codes.catalog import FILE_OVER_BOUND, FILE_UNREADABLE, JSON_MALFORMED, JSON_OVER_BOUND
from ..jsonstrict import OVER_BOUND, Bounds, JsonRefusal, loads
from ..refusal import Refusal
from ..tree import TooLarge, Tree, TreeError

KIB = 1024
MIB = 1024 * 1024
ENTRY_BOUND = 64 * KIB
README_BOUND = 64 * KIB
DIALECT_BOUND = 131_072
OUTPUT_BOUND = 131_072
BINDING_BOUND = 65_536
PREPARATION_BOUND = 8 * MIB
FIXTURE_DIRECTORY_BOUND = 16 * MIB
MANIFEST_BOUND = MIB
NESTING = 64


@dataclass(frozen=True)
class Read:
    """A file's stored bytes and, when it was read as JSON, its value; or the refusal."""

    data: bytes | None = None
    value: Any = None
    refusal: Refusal | None = None


def read_bytes(tree: Tree, path: str, limit: int, over_code: str = FILE_OVER_BOUND) -> Read:
    """The stored bytes of a file, refused unread when its size is over `limit`."""
    try:
        return Read(data=tree.read(path, limit))
    except TooLarge as exc:
        return Read(refusal=Refusal(over_code, path, f"{exc.size} bytes, over the bound of {limit} bytes"))
    except TreeError as exc:
        return Read(refusal=Refusal(FILE_UNREADABLE, path, str(exc)))


def json_bounds(limit: int) -> Bounds:
    """The bounds a document of this byte bound is read strictly within (its bytes, §12's nesting)."""
    return Bounds(max_bytes=limit, max_depth=NESTING)


def parse(raw: Read, path: str, limit: int, malformed_code: str = JSON_MALFORMED,
          nested_code: str = JSON_OVER_BOUND) -> Read:
    """Bytes already read, read strictly as one JSON value (dialect §1) under §12's nesting bound."""
    if raw.refusal or raw.data is None:
        return raw
    try:
        value = loads(raw.data, json_bounds(limit))
    except JsonRefusal as exc:
        code = nested_code if exc.kind == OVER_BOUND else malformed_code
        return Read(data=raw.data, refusal=Refusal(code, path, exc.detail))
    return Read(data=raw.data, value=value)


def read_json(tree: Tree, path: str, limit: int, over_code: str = FILE_OVER_BOUND,
              malformed_code: str = JSON_MALFORMED, nested_code: str = JSON_OVER_BOUND) -> Read:
    """A file read strictly as one JSON value (dialect §1) under its byte bound and §12's nesting."""
    return parse(read_bytes(tree, path, limit, over_code), path, limit, malformed_code, nested_code)
