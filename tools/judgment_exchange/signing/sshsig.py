"""OpenSSH's signature format (PROTOCOL.sshsig), read within bounds and verified without ssh-keygen (issue #36).

The armored block `-----BEGIN SSH SIGNATURE-----` … `-----END SSH SIGNATURE-----` (at most 8 KiB) holds, in
strict base64:

    byte[6]  "SSHSIG"      uint32 version (1)      string publickey      string namespace
    string   reserved      string hash_algorithm   string signature

The signature is made over

    byte[6]  "SSHSIG"      string namespace      string reserved ("")      string hash_algorithm      string H(message)

This project admits namespace `git`, hash `sha512` or `sha256`, an `ssh-ed25519` public key (32 bytes, a
prime-order point) and an `ssh-ed25519` signature (64 bytes) checked with `cryptography`'s Ed25519 (keys.verify:
cofactorless, S canonical). The reserved field is empty (ssh-keygen ignores it when verifying; here a non-empty one
is refused). No trailing byte is allowed anywhere.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass

from ..keys import verify as ed25519_verify
from .signers import ed25519_from_blob, ssh_string

BEGIN = b"-----BEGIN SSH SIGNATURE-----"
END = b"-----END SSH SIGNATURE-----"
MAX_ARMOR = 8 * 1024
MAGIC = b"SSHSIG"
NAMESPACE = b"git"
HASHES = {b"sha512": hashlib.sha512, b"sha256": hashlib.sha256}
_LINE = re.compile(rb"[A-Za-z0-9+/=]{1,76}")


class SignatureError(ValueError):
    """The signature block is not one this project reads; the message says why (our words only)."""


@dataclass(frozen=True)
class SshSignature:
    """One parsed SSHSIG: the signer's 32 Ed25519 key bytes, the namespace, hash algorithm and 64 signature bytes."""

    key: bytes
    namespace: bytes
    hash_algorithm: bytes
    signature: bytes

    def signed_data(self, message: bytes) -> bytes:
        """The bytes the Ed25519 signature is over (PROTOCOL.sshsig's signed data)."""
        digest = HASHES[self.hash_algorithm](message).digest()
        return (MAGIC + ssh_string(self.namespace) + ssh_string(b"") + ssh_string(self.hash_algorithm)
                + ssh_string(digest))

    def verifies(self, message: bytes) -> bool:
        return ed25519_verify(self.key.hex(), self.signature.hex(), self.signed_data(message))


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, n: int, what: str) -> bytes:
        if self.at + n > len(self.data):
            raise SignatureError(f"the signature ends inside its {what}")
        part = self.data[self.at:self.at + n]
        self.at += n
        return part

    def string(self, what: str) -> bytes:
        return self.take(int.from_bytes(self.take(4, what), "big"), what)

    def done(self, what: str) -> None:
        if self.at != len(self.data):
            raise SignatureError(f"bytes follow the {what}")


def dearmor(armored: bytes) -> bytes:
    """The blob inside one armored block: BEGIN line, base64 lines (at most 76 characters), END line, one LF at the
    end; within 8 KiB. Raises SignatureError otherwise."""
    if len(armored) > MAX_ARMOR:
        raise SignatureError(f"the signature block is {len(armored)} bytes, over the bound of {MAX_ARMOR} bytes")
    if not armored.endswith(b"\n"):
        raise SignatureError("the signature block does not end with a line end")
    lines = armored[:-1].split(b"\n")
    if len(lines) < 3 or lines[0] != BEGIN or lines[-1] != END:
        raise SignatureError("the signature block is not one -----BEGIN SSH SIGNATURE----- … -----END SSH "
                             "SIGNATURE----- "
                             "armor")
    body = lines[1:-1]
    if not all(_LINE.fullmatch(line) for line in body):
        raise SignatureError("the signature block holds a line that is not base64")
    encoded = b"".join(body)
    try:
        blob = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise SignatureError("the signature block is not strict base64") from exc
    if base64.b64encode(blob) != encoded:
        raise SignatureError("the signature block's base64 is not canonical")
    return blob


def parse(armored: bytes) -> SshSignature:
    """An armored SSHSIG → its parts, held to this project's profile; raises SignatureError otherwise."""
    reader = _Reader(dearmor(armored))
    if reader.take(6, "preamble") != MAGIC:
        raise SignatureError("the signature does not start with SSHSIG")
    if int.from_bytes(reader.take(4, "version"), "big") != 1:
        raise SignatureError("the signature's version is not 1")
    key = ed25519_from_blob(reader.string("public key"))
    if key is None:
        raise SignatureError("the signature's key is not an ssh-ed25519 key")
    namespace = reader.string("namespace")
    if namespace != NAMESPACE:
        raise SignatureError("the signature's namespace is not git")
    if reader.string("reserved field") != b"":
        raise SignatureError("the signature's reserved field is not empty")
    hash_algorithm = reader.string("hash algorithm")
    if hash_algorithm not in HASHES:
        raise SignatureError("the signature's hash algorithm is neither sha512 nor sha256")
    inner = _Reader(reader.string("signature"))
    reader.done("signature")
    if inner.string("signature type") != b"ssh-ed25519":
        raise SignatureError("the signature is not an ssh-ed25519 signature")
    signature = inner.string("signature bytes")
    inner.done("signature bytes")
    if len(signature) != 64:
        raise SignatureError("the Ed25519 signature is not 64 bytes")
    return SshSignature(key, namespace, hash_algorithm, signature)
