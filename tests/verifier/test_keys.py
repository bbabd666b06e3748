"""Ed25519 as the dialect reads it (§1): the gateway corpus's six vectors, and the key rule's refusals.

The small-order encodings are the eight torsion points as published in libsodium's blocklist
(ed25519_is_on_main_subgroup / crypto_sign_verify), written down here, not computed by keys.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgment_exchange import keys

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "vectors" / "gateway-corpus"
VECTORS = json.loads((CORPUS / "ed25519-vectors.json").read_text())["vectors"]
L = 2**252 + 27742317777372353535851937790883648493

SMALL_ORDER = [
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
]
NON_CANONICAL = [
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p + 1 (the identity's y, unreduced)
    "0100000000000000000000000000000000000000000000000000000000000080",  # x = 0 written with the sign bit
]


@pytest.mark.parametrize("vector", VECTORS, ids=[str(i) for i in range(len(VECTORS))])
def test_gateway_vectors_verify(vector):
    message = bytes.fromhex(vector["message"])
    assert keys.key_refusal(vector["publicKey"]) is None
    assert keys.verify(vector["publicKey"], vector["signature"], message)
    assert not keys.verify(vector["publicKey"], vector["signature"], message + b"x")


def test_six_vectors():
    assert len(VECTORS) == 6


@pytest.mark.parametrize("key", SMALL_ORDER)
def test_small_order_keys_refused(key):
    assert keys.key_refusal(key) is not None


def test_identity_forgery_refused():
    """With the identity as key, R = identity and S = 0 satisfy the bare equation for every message."""
    forged = "01" + "00" * 31 + "00" * 32
    assert not keys.verify(SMALL_ORDER[0], forged, b"anything")


@pytest.mark.parametrize("key", NON_CANONICAL)
def test_non_canonical_encodings_refused(key):
    assert keys.key_refusal(key) is not None


def test_off_curve_and_malformed_keys_refused():
    assert keys.key_refusal("02" + "00" * 31) is not None  # y = 2 has no x on the curve
    assert keys.key_refusal(VECTORS[0]["publicKey"].upper()) is not None
    assert keys.key_refusal(VECTORS[0]["publicKey"][:-2]) is not None
    assert keys.key_refusal(7) is not None


def test_mixed_order_key_refused():
    """An ordinary key plus a point of order 2: on the curve, not small order, but with a torsion component."""
    base = bytes.fromhex(VECTORS[0]["publicKey"])
    x, y = keys._decompress(base)
    mixed = (keys.P - x) % keys.P, (keys.P - y) % keys.P  # adding (0, -1) negates both coordinates
    encoded = (mixed[1] | ((mixed[0] & 1) << 255)).to_bytes(32, "little").hex()
    assert keys.key_refusal(encoded) is not None


def test_non_canonical_scalar_refused():
    vector = VECTORS[1]
    signature = bytes.fromhex(vector["signature"])
    s = int.from_bytes(signature[32:], "little") + L
    assert s < 2**256
    changed = (signature[:32] + s.to_bytes(32, "little")).hex()
    assert not keys.verify(vector["publicKey"], changed, bytes.fromhex(vector["message"]))


def test_test_key_and_its_key_id():
    public = (CORPUS / "TEST-PUBLIC-KEY").read_text().strip()
    assert keys.key_refusal(public) is None
    assert keys.key_id(public) == "ddb406e95cad582adc111a7d6fbff25d"


def test_receipts_of_the_runner_gateway_vector_verify():
    """shared/vectors/runner-gateway/v3-valid-sealed.json: three real version-3 receipts."""
    from judgment_exchange.canon import canon
    from judgment_exchange.jsonstrict import Bounds, loads

    shared = CORPUS.parent / "runner-gateway"
    vector = loads((shared / "v3-valid-sealed.json").read_bytes(), Bounds(max_bytes=10**6))
    public = (shared / "TEST-PUBLIC-KEY").read_text().strip()
    receipts = [loads(text.encode(), Bounds(max_bytes=10**6)) for path, text in vector["files"].items()
                if path.startswith("receipts/")]
    assert len(receipts) == 3
    for receipt in receipts:
        unsigned = {k: v for k, v in receipt.items() if k != "signature"}
        message = b"judgment-pack-gateway/receipt/3:" + canon(unsigned)
        assert keys.verify(public, receipt["signature"], message)
        assert not keys.verify(public, receipt["signature"], message + b" ")
