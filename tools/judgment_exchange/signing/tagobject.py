"""An annotated tag object's bytes: headers, message and the trailing SSH signature (issue #36 item 3).

git writes a signed tag's signature at the end of its message: the signature starts at the last line that begins
with a signature armor (git's parse_signed_buffer, over the whole object), and the signed payload is every byte
before it. Headers are read strictly: `object` (40 or 64 lowercase hex), `type`, `tag`, `tagger`, in that order,
each once, then a blank line; no other header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_TAG_OBJECT = 64 * 1024
"""A tag object read for its signature is at most this many bytes (its message, a manifestDigest line and an
8 KiB signature fit many times over)."""

_ARMORS = (b"-----BEGIN PGP SIGNATURE-----", b"-----BEGIN PGP MESSAGE-----", b"-----BEGIN SIGNED MESSAGE-----",
           b"-----BEGIN SSH SIGNATURE-----")
SSH_ARMOR = _ARMORS[-1]
_HEADERS = (b"object", b"type", b"tag", b"tagger")
_OBJECT = re.compile(rb"[0-9a-f]{40}|[0-9a-f]{64}")


class TagObjectError(ValueError):
    """The bytes are not an annotated tag object this project reads; the message says why (our words only)."""


@dataclass(frozen=True)
class TagObject:
    """An annotated tag: `object`, `type`, `tag`, `tagger` (bytes as stored), the `message` (signature excluded),
    the `payload` (every byte before the signature) and the `signature` block (None when unsigned)."""

    object: str
    type: str
    tag: bytes
    tagger: bytes
    message: bytes
    payload: bytes
    signature: bytes | None

    @property
    def ssh_signed(self) -> bool:
        return self.signature is not None and self.signature.startswith(SSH_ARMOR)


def _signature_start(data: bytes) -> int:
    """Where the signature starts (git's parse_signed_buffer: the last line beginning with an armor), else len."""
    match, at = len(data), 0
    while at < len(data):
        if data.startswith(_ARMORS, at):
            match = at
        end = data.find(b"\n", at)
        at = len(data) if end < 0 else end + 1
    return match


def parse(data: bytes) -> TagObject:
    """A tag object's bytes → its parts; raises TagObjectError when they are not an annotated tag's form."""
    if len(data) > MAX_TAG_OBJECT:
        raise TagObjectError(f"the tag object is {len(data)} bytes, over the bound of {MAX_TAG_OBJECT} bytes")
    head, blank, _ = data.partition(b"\n\n")
    if not blank:
        raise TagObjectError("the tag object has no blank line after its headers")
    lines = head.split(b"\n")
    if len(lines) != len(_HEADERS):
        raise TagObjectError("the tag object's headers are not exactly object, type, tag and tagger")
    values = []
    for line, name in zip(lines, _HEADERS, strict=False):
        key, space, value = line.partition(b" ")
        if key != name or not space or not value:
            raise TagObjectError("the tag object's headers are not exactly object, type, tag and tagger, in order")
        values.append(value)
    if not _OBJECT.fullmatch(values[0]):
        raise TagObjectError("the tag object's object header is not an object id")
    if values[1] != b"commit":
        raise TagObjectError("the tag object does not tag a commit")
    body_at = len(head) + 2
    start = max(_signature_start(data), body_at)
    signature = data[start:] if start < len(data) else None
    return TagObject(values[0].decode("ascii"), "commit", values[2], values[3], data[body_at:start], data[:start],
                     signature)
