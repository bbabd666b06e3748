"""Issue #36 item 3: one release's tag held to the rule, on tag objects made byte by byte (no git): every code of
the rule triggered beside its near miss."""

from __future__ import annotations

import hashlib

import pytest

from judgment_exchange.refusal import Refusal
from judgment_exchange.signing import sshsig, tagobject
from judgment_exchange.signing.chain import check_release_tag, message_digest, verify_release_tag
from judgment_exchange.signing.signers import Signer, read_signers

from .support import make_key, release_message, tag_payload
from .support import sshsig as make_sig

COMMIT = "1" * 40
OTHER_COMMIT = "2" * 40
DIGEST = "sha256:" + hashlib.sha256(b"[]\n").hexdigest()
OTHER_DIGEST = "sha256:" + hashlib.sha256(b"[ ]\n").hexdigest()


@pytest.fixture(scope="module")
def k(tmp_path_factory):
    where = tmp_path_factory.mktemp("keys")
    return {name: make_key(where, name) for name in ("k1", "k2")}


@pytest.fixture(scope="module")
def governing(k):
    return read_signers((k["k1"].line("one") + "\n").encode())


def signed(key, *, tag="v0.1.0", commit=COMMIT, digest=DIGEST, message=None, **sig) -> bytes:
    payload = tag_payload(commit, tag, message if message is not None else release_message(tag, digest))
    return payload + make_sig(key, payload, **sig)


def verdict(data, signers, tag="v0.1.0", commit=COMMIT, digest=DIGEST):
    return verify_release_tag(data, tag=tag, commit=commit, manifest_digest=digest, signers=signers)


def code(result) -> str | None:
    return result.code if isinstance(result, Refusal) else None


@pytest.mark.parametrize("hash_alg", [b"sha512", b"sha256"])
def test_a_signed_release_verifies(k, governing, hash_alg):
    result = verdict(signed(k["k1"], hash_alg=hash_alg), governing)
    assert isinstance(result, Signer) and result.principal == "one"
    assert check_release_tag(signed(k["k1"]), tag="v0.1.0", commit=COMMIT, manifest_digest=DIGEST,
                             signers=governing) is None


def test_unsigned_lightweight_and_annotated(k, governing):
    assert code(verdict(None, governing)) == "release-unsigned"
    assert code(verdict(tag_payload(COMMIT, "v0.1.0", release_message("v0.1.0", DIGEST)), governing)) == \
        "release-unsigned"


def test_attack_tag_object_under_another_name_is_a_mismatch(k, governing):
    data = signed(k["k1"], tag="v0.1.0")
    assert code(verdict(data, governing, tag="v0.2.0")) == "release-signature-mismatch"
    assert "another tag" in verdict(data, governing, tag="v0.2.0").detail
    assert verdict(data, governing, tag="v0.1.0").principal == "one"  # the near miss: its own name


def test_attack_tag_object_of_another_commit_is_a_mismatch(k, governing):
    assert code(verdict(signed(k["k1"], commit=OTHER_COMMIT), governing)) == "release-signature-mismatch"


def test_attack_message_naming_another_manifest_is_a_mismatch(k, governing):
    result = verdict(signed(k["k1"], digest=OTHER_DIGEST), governing)
    assert code(result) == "release-signature-mismatch" and OTHER_DIGEST in result.detail


@pytest.mark.parametrize("message", ["Catalog release v0.1.0\n",
                                     f"x\n\nmanifestDigest: {DIGEST}\nmanifestDigest: {DIGEST}\n",
                                     f"x\n\nmanifestDigest:  {DIGEST}\n", f"x\n\nmanifestDigest: {DIGEST} \n"])
def test_attack_a_message_without_one_exact_digest_line_is_a_mismatch(k, governing, message):
    assert code(verdict(signed(k["k1"], message=message), governing)) == "release-signature-mismatch"
    assert message_digest(f"other words\nmanifestDigest: {DIGEST}\n".encode()) == DIGEST  # the near miss


def test_attack_tampered_tag_is_invalid(k, governing):
    data = signed(k["k1"])
    tampered = data.replace(b"Catalog release", b"Catalog Release", 1)
    assert code(verdict(tampered, governing)) == "release-signature-invalid"
    assert code(verdict(data, governing)) is None


@pytest.mark.parametrize("options", [dict(namespace=b"file"), dict(namespace=b"gitx"), dict(hash_alg=b"sha384"),
                                     dict(reserved=b"x")])
def test_attack_signature_outside_the_profile_is_invalid(k, governing, options):
    assert code(verdict(signed(k["k1"], **options), governing)) == "release-signature-invalid"


def test_attack_another_armor_is_invalid(k, governing):
    payload = tag_payload(COMMIT, "v0.1.0", release_message("v0.1.0", DIGEST))
    pgp = b"-----BEGIN PGP SIGNATURE-----\n\niQ==\n-----END PGP SIGNATURE-----\n"
    assert code(verdict(payload + pgp, governing)) == "release-signature-invalid"


def test_attack_a_signature_block_over_8_kib_is_invalid(k, governing):
    data = signed(k["k1"])
    at = data.index(b"-----BEGIN SSH")
    block = data[at:]
    padded = block.replace(b"\n-----END", b"\n" + b"\n".join([b"A" * 64] * 130) + b"\n-----END")
    assert len(padded) > sshsig.MAX_ARMOR
    result = verdict(data[:at] + padded, governing)
    assert code(result) == "release-signature-invalid" and "over the bound of 8192" in result.detail


@pytest.mark.parametrize("damage", [
    lambda b: b.replace(b"\n-----END", b"=\n-----END"),       # base64 padding broken
    lambda b: b.replace(b"-----END SSH SIGNATURE-----\n", b"-----END SSH SIGNATURE-----"),  # no final LF
    lambda b: b[:40] + b[44:],                                  # truncated
    lambda b: b.replace(b"U1NIU0lH", b"U1NIU0lI", 1),           # magic SSHSIH
])
def test_attack_a_malformed_signature_block_is_invalid(k, governing, damage):
    data = signed(k["k1"])
    at = data.index(b"-----BEGIN SSH")
    assert code(verdict(data[:at] + damage(data[at:]), governing)) == "release-signature-invalid"


def test_attack_signed_by_a_key_the_set_does_not_hold(k, governing):
    result = verdict(signed(k["k2"]), governing)
    assert code(result) == "release-signer-unknown"
    assert k["k2"].openssh.split()[1] not in result.detail and "SHA256:" in result.detail
    both = read_signers(f"{k['k1'].line('one')}\n{k['k2'].line('two')}\n".encode())
    assert verdict(signed(k["k2"]), both).principal == "two"  # the near miss: a set holding k2


def test_the_tag_object_splits_as_git_splits_it(k):
    data = signed(k["k1"])
    parsed = tagobject.parse(data)
    assert parsed.tag == b"v0.1.0" and parsed.object == COMMIT and parsed.ssh_signed
    assert parsed.payload + parsed.signature == data
    assert parsed.message == release_message("v0.1.0", DIGEST).encode()


@pytest.mark.parametrize("data", [b"object x\n\n", b"type commit\nobject " + COMMIT.encode() + b"\n\n",
                                  f"object {COMMIT}\ntype tree\ntag v0.1.0\ntagger t 1 +0000\n\n".encode(),
                                  f"object {COMMIT}\ntype commit\ntag v0.1.0\ntagger t 1 +0000\n".encode()])
def test_attack_a_tag_object_outside_its_form_is_invalid(governing, data):
    assert code(verdict(data, governing)) == "release-signature-invalid"
