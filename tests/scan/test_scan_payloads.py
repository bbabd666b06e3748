"""Base64 payloads in a recorded result, scanned as bytes (issue #11 item 2; RFC 0019 §§4, 6; docs/scanning.md).

Each attack hides a key or token in a payload whose decoded bytes are not UTF-8 text, or in a key
encoding with no PEM header; each is caught at the payload's line, and nothing of it is quoted.
The near-misses (files a result may carry, public keys and certificates, text, digests) pass. Keys are
generated at test time by `cryptography`; samples come from scan_samples.py.
"""

from __future__ import annotations

import base64
import datetime
import gzip
import random
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import NameOID

from judgment_exchange.scan import scan_entry
from judgment_exchange.scan.payloads import CANDIDATES_MAX
from judgment_exchange.tree import WorkingTree

from . import scan_entry_builder as builder
from .scan_samples import SAMPLES

SOURCES = "fixtures/basic/sources.json"
_rng = random.Random(20261130)
_RSA = rsa.generate_private_key(public_exponent=65537, key_size=2048)
_EC = ec.generate_private_key(ec.SECP256R1())
_ED = ed25519.Ed25519PrivateKey.generate()
_PEM = SAMPLES["secret-private-key"]
_PADDING = "\n" + "a recorded note of the run. " * 12


def _random(n: int) -> bytes:
    return bytes(_rng.randrange(256) for _ in range(n))


def _der(key, form, encryption=None) -> bytes:
    return key.private_bytes(ser.Encoding.DER, form, encryption or ser.NoEncryption())


def _scan_payload(tmp_path: Path, raw: bytes, urlsafe: bool = False) -> tuple[list, int, str]:
    docs = builder.fresh()
    value = (base64.urlsafe_b64encode(raw) if urlsafe else base64.b64encode(raw)).decode()
    docs[SOURCES]["registry"]["response"]["result"]["attachment"] = value
    builder.write(tmp_path, docs)
    refusals = scan_entry(WorkingTree(str(tmp_path)), builder.ENTRY, "acme.vendor-intake")
    return refusals, builder.line_of(tmp_path, SOURCES, '"attachment"'), value


def _assert_caught(tmp_path: Path, raw: bytes, code: str = "secret-private-key", urlsafe: bool = False) -> None:
    refusals, line, value = _scan_payload(tmp_path, raw, urlsafe)
    assert [(r.code, r.path.rsplit("/", 1)[-1], r.detail.split(":", 1)[0]) for r in refusals] == [
        (code, "sources.json", f"line {line}")
    ]
    windows = {value[i : i + 12] for i in range(0, len(value) - 12)}
    assert not any(w in refusals[0].detail for w in windows), "a refusal quotes the payload"
    assert "(the value is not shown)" in refusals[0].detail


# --- PEM and key headers behind bytes that are not UTF-8 ------------------------------------------------


def test_base64_payload_with_leading_ff_byte_is_scanned(tmp_path: Path) -> None:
    _assert_caught(tmp_path, b"\xff" + (_PEM + _PADDING).encode())


def test_base64_payload_with_leading_nul_byte_is_scanned(tmp_path: Path) -> None:
    _assert_caught(tmp_path, b"\x00" + (_PEM + _PADDING).encode())


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"], ids=["bom", "le", "be"])
def test_utf16_pem_header_in_base64_is_caught(tmp_path: Path, codec: str) -> None:
    _assert_caught(tmp_path, (_PEM + _PADDING).encode(codec))


@pytest.mark.parametrize("codec", ["utf-32", "utf-32-le", "utf-32-be"], ids=["bom", "le", "be"])
def test_utf32_pem_header_in_base64_is_caught(tmp_path: Path, codec: str) -> None:
    _assert_caught(tmp_path, (_PEM + _PADDING).encode(codec))


def test_pem_header_inside_binary_bytes_is_caught(tmp_path: Path) -> None:
    _assert_caught(tmp_path, _random(200) + _PEM.encode() + _random(200))


def test_latin1_payload_with_a_token_is_caught(tmp_path: Path) -> None:
    text = "caf\xe9 r\xe9sum\xe9 \xa9 2026: token " + SAMPLES["secret-github-token"] + _PADDING
    _assert_caught(tmp_path, text.encode("latin-1"), "secret-github-token")


def test_utf16_payload_with_a_token_among_non_latin_text_is_caught(tmp_path: Path) -> None:
    text = "\u8a18\u9332 " + SAMPLES["secret-aws-access-key"] + " \u8a18\u9332" + _PADDING
    _assert_caught(tmp_path, text.encode("utf-16-le"), "secret-aws-access-key")


def test_urlsafe_base64_payload_is_scanned(tmp_path: Path) -> None:
    _assert_caught(tmp_path, b"\xff\xfe\xfd" + (_PEM + _PADDING).encode(), urlsafe=True)


# --- private keys without a PEM header --------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        _der(_RSA, ser.PrivateFormat.PKCS8),
        _der(_RSA, ser.PrivateFormat.TraditionalOpenSSL),
        _der(_EC, ser.PrivateFormat.PKCS8) + _random(120),
        _random(40) + _der(_EC, ser.PrivateFormat.TraditionalOpenSSL) + _random(120),
        _random(100) + _der(_ED, ser.PrivateFormat.PKCS8) + _random(100),
        _der(_EC, ser.PrivateFormat.PKCS8, ser.BestAvailableEncryption(b"a passphrase")),
    ],
    ids=["rsa-pkcs8", "rsa-pkcs1", "ec-pkcs8", "ec-sec1-inside-bytes", "ed25519-pkcs8-inside-bytes",
         "encrypted-pkcs8"],
)
def test_der_private_key_in_base64_is_caught(tmp_path: Path, raw: bytes) -> None:
    _assert_caught(tmp_path, raw)


def test_openssh_binary_private_key_in_base64_is_caught(tmp_path: Path) -> None:
    pem = _ED.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH, ser.NoEncryption()).decode()
    body = base64.b64decode("".join(pem.strip().splitlines()[1:-1]))
    _assert_caught(tmp_path, body + _random(60))


def test_many_candidate_key_structures_in_a_payload_are_scan_incomplete(tmp_path: Path) -> None:
    """Confirming candidates is bounded: past CANDIDATES_MAX, the payload is refused as unfinished."""
    not_a_key = b"\x30\x06\x02\x01\x00\x02\x01\x05"  # SEQUENCE { INTEGER 0, INTEGER 5 }: a PKCS#1 prefix
    refusals, line, _ = _scan_payload(tmp_path, not_a_key * (CANDIDATES_MAX + 1))
    assert [(r.code, r.detail.split(":", 1)[0]) for r in refusals] == [("scan-incomplete", f"line {line}")]


def test_fewer_candidate_key_structures_than_the_bound_pass(tmp_path: Path) -> None:
    not_a_key = b"\x30\x06\x02\x01\x00\x02\x01\x05"
    refusals, _, _ = _scan_payload(tmp_path, b"\x89PNG\r\n\x1a\n" + not_a_key * CANDIDATES_MAX)
    assert refusals == []


# --- a payload that cannot be classified is held to the entropy check --------------------------------------


def test_unclassified_base64_payload_falls_back_to_the_entropy_check(tmp_path: Path) -> None:
    _assert_caught(tmp_path, _random(600), "secret-high-entropy-base64")


def test_base64_that_does_not_decode_falls_back_to_the_entropy_check(tmp_path: Path) -> None:
    docs = builder.fresh()
    value = base64.b64encode(_random(600)).decode().rstrip("=") + "A"  # 4n+1 characters: no base64 reads it
    assert len(value) % 4 == 1
    docs[SOURCES]["registry"]["response"]["result"]["attachment"] = value
    builder.write(tmp_path, docs)
    refusals = scan_entry(WorkingTree(str(tmp_path)), builder.ENTRY)
    assert [r.code for r in refusals] == ["secret-high-entropy-base64"]


# --- near-misses: what a result legitimately carries ------------------------------------------------------


def _certificate() -> bytes:
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "records.example.com")])
    return (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(_RSA.public_key())
        .serial_number(7).not_valid_before(datetime.datetime(2026, 1, 1))
        .not_valid_after(datetime.datetime(2027, 1, 1)).sign(_RSA, hashes.SHA256())
        .public_bytes(ser.Encoding.DER)
    )


@pytest.mark.parametrize(
    "raw",
    [
        b"\x89PNG\r\n\x1a\n" + _random(600),
        b"\xff\xd8\xff\xe0" + _random(600),
        gzip.compress(_random(600)),
        b"%PDF-1.7\n" + _random(600),
        b"PK\x03\x04" + _random(600),
        _certificate(),
        _RSA.public_key().public_bytes(ser.Encoding.DER, ser.PublicFormat.SubjectPublicKeyInfo),
        ("Vendor row 17: status open, digest sha256:" + "0a1b2c3d" * 8 + _PADDING).encode("utf-8"),
        ("\u8a18\u9332\u306e\u30c6\u30ad\u30b9\u30c8 " * 30).encode("utf-16"),
        ("a -----BEGIN PUBLIC KEY----- block" + _PADDING).encode("utf-16-le"),
        bytes(600),
    ],
    ids=["png", "jpeg", "gzip", "pdf", "zip", "der-certificate", "der-public-key", "utf8-text-with-digest",
         "utf16-cjk-text", "utf16-public-key-header", "zeros"],
)
def test_classified_payloads_without_a_shape_pass(tmp_path: Path, raw: bytes) -> None:
    refusals, _, _ = _scan_payload(tmp_path, raw)
    assert refusals == []
