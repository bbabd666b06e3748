"""A base64 payload's decoded bytes: the texts it is scanned as, key structures in it, and whether it is classified.

RFC 0019 §§4, 6: the scan refuses the common shapes of a key wherever it is. A payload's bytes are
read as text in every encoding the scan decodes (UTF-8, UTF-16 LE or BE with or without a byte
order mark, UTF-16 and UTF-32 ASCII by dropping NUL bytes, Latin-1 for bytes that are not UTF-8),
so a PEM header behind a leading 0xFF or NUL byte, or written in UTF-16, is still a PEM header.
DER-encoded private keys (PKCS#8, encrypted PKCS#8, PKCS#1, SEC1) are found by their ASN.1 prefix
anywhere in the bytes and confirmed with `cryptography`'s loader on the bounded structure; the
binary OpenSSH key (`openssh-key-v1\\0`) by its magic. A payload that is neither text nor a
recognised file format is not classified: the caller holds it to the entropy check, never silence.
Values found never leave the scan package.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

PRINTABLE_SHARE = 0.9
"""The share of printable characters (tab, LF and CR included) above which a decoding is text."""

KEY_STRUCTURE_MAX = 65_536
"""The largest DER structure given to the loader (an RSA-16384 PKCS#8 key is about 9.5 KiB)."""

CANDIDATES_MAX = 64
"""Key-structure candidates confirmed per payload; more leave the payload unestablished (scan-incomplete)."""

_MAGICS: tuple[tuple[int, bytes], ...] = (
    (0, b"\x89PNG\r\n\x1a\n"),
    (0, b"\xff\xd8\xff"),
    (0, b"GIF87a"),
    (0, b"GIF89a"),
    (0, b"%PDF-"),
    (0, b"PK\x03\x04"),
    (0, b"PK\x05\x06"),
    (0, b"\x1f\x8b\x08"),
    (0, b"II*\x00"),
    (0, b"MM\x00*"),
    (8, b"WEBP"),
)
"""File formats a recorded result may carry as base64 (PNG, JPEG, GIF, PDF, ZIP and its documents, gzip, TIFF, WebP)."""

_DER_LENGTH = rb"(?:[\x00-\x7f]|\x81[\x80-\xff]|\x82[\x01-\xff][\x00-\xff]|\x83[\x01-\xff][\x00-\xff]{2})"
_PBE_OID = (
    rb"\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x05[\x01\x03\x04\x06\x0a\x0b\x0d]"  # PBES1, PBES2 (PKCS#5)
    rb"|\x06\x0a\x2a\x86\x48\x86\xf7\x0d\x01\x0c\x01[\x01-\x06]"  # PKCS#12 PBE
)
KEY_PREFIX = re.compile(
    rb"\x30" + _DER_LENGTH + rb"(?="
    rb"\x02\x01\x00\x30" + _DER_LENGTH + rb"\x06"  # PKCS#8 PrivateKeyInfo v1
    rb"|\x02\x01\x01\x30" + _DER_LENGTH + rb"\x06"  # PKCS#8 OneAsymmetricKey v2
    rb"|\x02\x01\x00\x02"  # PKCS#1 RSAPrivateKey, DSA (version 0, then an integer)
    rb"|\x02\x01\x01\x04"  # SEC1 ECPrivateKey (version 1, then the key's octets)
    rb"|\x30" + _DER_LENGTH + rb"(?:" + _PBE_OID + rb")"  # EncryptedPrivateKeyInfo
    rb")",
    re.S,
)
"""The ASN.1 prefix of each private key structure: a SEQUENCE, then its version and the next tag."""

OPENSSH_MAGIC = b"openssh-key-v1\x00"
"""The binary OpenSSH private key format's first bytes (its PEM body decoded)."""

KEY_HEADER = re.compile(rb"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-[0-9]+:")
"""A PEM private key header of any label, or a PuTTY key's first line, as ASCII bytes (PrivateKeyBlockDetector's
and detect-secrets' shapes): searched in the bytes as they are and with every NUL dropped (UTF-16, UTF-32)."""


@dataclass(frozen=True)
class Payload:
    """What a payload's bytes are: the texts to scan, a private key found, whether it is classified."""

    texts: tuple[str, ...]
    key: str | None
    classified: bool
    incomplete: bool


def decode(value: str) -> bytes | None:
    """A base64 or base64url value's bytes, padding optional; None when it does not decode."""
    try:
        return base64.b64decode(value.replace("-", "+").replace("_", "/") + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def read_payload(raw: bytes) -> Payload:
    """The texts, key and classification of one payload's bytes."""
    texts: list[str] = []
    proper: list[str] = []
    stripped = raw.removeprefix(b"\xef\xbb\xbf")
    try:
        proper.append(stripped.decode("utf-8"))
    except UnicodeDecodeError:
        proper.append(raw.decode("latin-1"))
    proper.extend(_utf16(raw))
    texts.extend(proper)
    if b"\x00" in raw:
        texts.append(raw.replace(b"\x00", b"").decode("latin-1"))
    key, incomplete = private_key(raw)
    classified = any(_is_text(t) for t in proper) or known_format(raw) or is_der(raw)
    return Payload(tuple(dict.fromkeys(texts)), key, classified, incomplete)


def _utf16(raw: bytes) -> list[str]:
    """UTF-16 readings: by its byte order mark, or, without one, LE or BE where it reads as mostly Latin text."""
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return [raw.decode("utf-16", "replace")]
    if len(raw) % 2 or b"\x00" not in raw:
        return []
    out = []
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        if text and sum(ord(c) < 0x100 for c in text) * 2 >= len(text):
            out.append(text)
    return out


def _is_text(text: str) -> bool:
    if not text:
        return True
    printable = sum(map(str.isprintable, text)) + text.count("\t") + text.count("\n") + text.count("\r")
    return printable >= PRINTABLE_SHARE * len(text)


def known_format(raw: bytes) -> bool:
    """Whether the bytes begin with the signature of a file format a result may carry."""
    return any(raw[at : at + len(magic)] == magic for at, magic in _MAGICS)


def der_length(raw: bytes, at: int) -> int | None:
    """The whole length (header included) of the DER value at `at`, or None when its header is not DER's."""
    if at + 2 > len(raw):
        return None
    first = raw[at + 1]
    if first < 0x80:
        return 2 + first
    count = first & 0x7F
    if count == 0 or count > 3 or at + 2 + count > len(raw) or raw[at + 2] == 0:
        return None
    length = int.from_bytes(raw[at + 2 : at + 2 + count], "big")
    if length < 0x80:
        return None
    return 2 + count + length


def is_der(raw: bytes) -> bool:
    """Whether the bytes are exactly one DER SEQUENCE (a certificate, a public key, a signed message …)."""
    return len(raw) >= 2 and raw[0] == 0x30 and der_length(raw, 0) == len(raw)


def private_key(raw: bytes) -> tuple[str | None, bool]:
    """(the key's form, or None; whether the candidates ran past CANDIDATES_MAX) for one payload's bytes."""
    if OPENSSH_MAGIC in raw:
        return "OpenSSH private key (binary)", False
    if KEY_HEADER.search(raw) or (b"\x00" in raw and KEY_HEADER.search(raw.replace(b"\x00", b""))):
        return "private key block", False
    tried = 0
    for m in KEY_PREFIX.finditer(raw):
        length = der_length(raw, m.start())
        if length is None or length > KEY_STRUCTURE_MAX or m.start() + length > len(raw):
            continue
        if tried == CANDIDATES_MAX:
            return None, True
        tried += 1
        form = _confirmed(raw[m.start() : m.start() + length])
        if form:
            return form, False
    return None, False


def _confirmed(blob: bytes) -> str | None:
    """The key's form when cryptography's loader reads the structure as a private key (or an encrypted one)."""
    from cryptography.hazmat.primitives.serialization import load_der_private_key

    try:
        load_der_private_key(blob, password=None, unsafe_skip_rsa_key_validation=True)
    except TypeError:  # the structure is an encrypted private key: a password would open it
        return "encrypted private key (DER)"
    except Exception:  # ValueError, UnsupportedAlgorithm: not a private key the loader reads
        return None
    return "private key (DER)"
