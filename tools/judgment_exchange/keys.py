"""Ed25519 keys and signatures as the dialect reads them (dialect §1; witness statement §5).

The key rule (this project's reading, docs/verifier.md): a key is 64 lowercase hexadecimal
characters encoding 32 bytes that are the canonical encoding of a point on the curve (y below p,
and no x = 0 written with the sign bit set), of prime order: the eight small-order points (the
identity among them) and every point with a torsion component are refused.

The equation: RFC 8032's check without the cofactor, [S]B = R + [k]A, with S canonical (S < L);
`cryptography` computes it (it compares R's bytes, so it is cofactorless and refuses a
non-canonical R); S < L is checked here as well, before it is called.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = (-121665 * pow(121666, P - 2, P)) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)

_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX128 = re.compile(r"[0-9a-f]{128}")


def key_id(public_key_hex: str) -> str:
    """The key identifier: the first 32 hex characters of SHA-256 over the 32 key bytes (§1)."""
    return hashlib.sha256(bytes.fromhex(public_key_hex)).hexdigest()[:32]


def _decompress(data: bytes) -> tuple[int, int] | None:
    """The affine point a 32-byte encoding names, or None when it is not canonical or on the curve."""
    y = int.from_bytes(data, "little") & ((1 << 255) - 1)
    sign = data[31] >> 7
    if y >= P:
        return None
    u = (y * y - 1) % P
    v = (D * y * y + 1) % P
    x2 = u * pow(v, P - 2, P) % P
    if x2 == 0:
        return None if sign else (0, y)
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P != 0:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P != 0:
        return None
    if x & 1 != sign:
        x = P - x
    return x, y


def _add(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % P
    bb = (y1 + x1) * (y2 + x2) % P
    cc = 2 * D * t1 * t2 % P
    dd = 2 * z1 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return e * f % P, g * h % P, f * g % P, e * h % P


def _multiply(scalar: int, point: tuple[int, int]) -> tuple[int, int, int, int]:
    x, y = point
    result = (0, 1, 1, 0)
    addend = (x, y, 1, x * y % P)
    while scalar:
        if scalar & 1:
            result = _add(result, addend)
        addend = _add(addend, addend)
        scalar >>= 1
    return result


def _is_identity(point: tuple[int, int, int, int]) -> bool:
    x, y, z, _ = point
    return x % P == 0 and (y - z) % P == 0


def key_refusal(public_key_hex: object) -> str | None:
    """Why the key rule refuses a key, or None when it holds (§1, witness statement §5)."""
    if not isinstance(public_key_hex, str) or not _HEX64.fullmatch(public_key_hex):
        return "a key is 64 lowercase hexadecimal characters"
    return _point_refusal(public_key_hex)


@lru_cache(maxsize=256)
def _point_refusal(public_key_hex: str) -> str | None:
    point = _decompress(bytes.fromhex(public_key_hex))
    if point is None:
        return "the key is not the canonical encoding of a point on the curve"
    if _is_identity(_multiply(8, point)):
        return "the key is a point of small order"
    if not _is_identity(_multiply(L, point)):
        return "the key is not of prime order (it has a torsion component)"
    return None


def verify(public_key_hex: str, signature_hex: object, message: bytes) -> bool:
    """The equation of §1: a 128-hex signature, S canonical, cofactorless check; key rule first."""
    if key_refusal(public_key_hex) is not None:
        return False
    if not isinstance(signature_hex, str) or not _HEX128.fullmatch(signature_hex):
        return False
    signature = bytes.fromhex(signature_hex)
    if int.from_bytes(signature[32:], "little") >= L:
        return False
    from cryptography.exceptions import InvalidSignature  # imported when a signature is checked
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex)).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True
