"""Issue #36 "Done when": the project's verifier and `git verify-tag` (a temporary allowedSignersFile,
GIT_CONFIG_GLOBAL=/dev/null) agree on every signature-layer case; where they must not agree, the test says why.

Tags are signed by git itself (`git -c gpg.format=ssh tag -s`, keys from fixed seeds written as OpenSSH private
keys); the cases git will not make (another namespace, a tampered message) are tag objects written byte by byte.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from judgment_exchange.refusal import Refusal
from judgment_exchange.signing.chain import verify_release_tag
from judgment_exchange.signing.signers import read_signers

from ..support.gitrepo import GitRepo
from .support import (
    NEEDS_GIT_SSH,
    git_sign_tag,
    git_verify_tag,
    make_key,
    manifest_digest,
    release_message,
    sshsig,
    tag_object_bytes,
    tag_payload,
    write_tag_object,
)

pytestmark = NEEDS_GIT_SSH


@pytest.fixture
def world(tmp_path):
    repo = GitRepo(tmp_path / "catalog")
    commit = repo.snapshot({"manifest.json": b"[]\n", "releases.json": b"[]\n"})
    keys = {name: make_key(tmp_path, name) for name in ("k1", "k2")}
    allowed = tmp_path / "allowed_signers"
    allowed.write_text(keys["k1"].line("one") + "\n", encoding="ascii")
    return repo, commit, keys, allowed, manifest_digest(repo, "HEAD")


def ours(repo, tag, name, commit, digest, allowed) -> str | None:
    """The project's verdict on refs/tags/TAG read as release `name`: None (verified) or the refusal's code."""
    signers = read_signers(allowed.read_bytes())
    assert not isinstance(signers, Refusal)
    result = verify_release_tag(tag_object_bytes(repo, tag), tag=name, commit=commit, manifest_digest=digest,
                                signers=signers)
    return result.code if isinstance(result, Refusal) else None


def _good(repo, keys, digest, tag="v0.1.0", key="k1"):
    git_sign_tag(repo, keys[key], tag, release_message(tag, digest))


def case_good(repo, commit, keys, digest):
    _good(repo, keys, digest)


def case_other_key(repo, commit, keys, digest):
    _good(repo, keys, digest, key="k2")


def case_tampered(repo, commit, keys, digest):
    _good(repo, keys, digest, tag="signed")
    data = tag_object_bytes(repo, "signed").replace(b"Catalog release", b"Catalog Release", 1)
    write_tag_object(repo, data.replace(b"tag signed\n", b"tag v0.1.0\n"), "v0.1.0")


def case_unsigned_annotated(repo, commit, keys, digest):
    repo.git("tag", "-a", "-m", release_message("v0.1.0", digest), "v0.1.0")


def case_lightweight(repo, commit, keys, digest):
    repo.tag("v0.1.0")


def case_namespace_not_git(repo, commit, keys, digest):
    payload = tag_payload(commit, "v0.1.0", release_message("v0.1.0", digest))
    write_tag_object(repo, payload + sshsig(keys["k1"], payload, namespace=b"file"), "v0.1.0")


CASES = {
    "good": (case_good, None),
    "other key": (case_other_key, "release-signer-unknown"),
    "tampered": (case_tampered, "release-signature-invalid"),
    "unsigned annotated": (case_unsigned_annotated, "release-unsigned"),
    "lightweight": (case_lightweight, "release-unsigned"),
    "namespace not git": (case_namespace_not_git, "release-signature-invalid"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_the_verifier_and_git_verify_tag_agree(world, name):
    repo, commit, keys, allowed, digest = world
    make, expected = CASES[name]
    make(repo, commit, keys, digest)
    verdict = ours(repo, "v0.1.0", "v0.1.0", commit, digest, allowed)
    assert verdict == expected
    assert (git_verify_tag(repo, "v0.1.0", allowed) == 0) == (verdict is None), name


def test_attack_signed_tag_placed_under_another_name_passes_git_but_is_a_mismatch(world):
    """A signed v0.1.0 tag object served as v0.2.0: git verify-tag exits 0 (it checks the signature, not that the
    tag header names the reference), and the project's rule (a) refuses it."""
    repo, commit, keys, allowed, digest = world
    _good(repo, keys, digest)
    oid = repo.rev("refs/tags/v0.1.0")
    repo.git("update-ref", "refs/tags/v0.2.0", oid)
    assert git_verify_tag(repo, "v0.2.0", allowed) == 0  # git accepts it
    assert ours(repo, "v0.2.0", "v0.2.0", commit, digest, allowed) == "release-signature-mismatch"
    assert ours(repo, "v0.1.0", "v0.1.0", commit, digest, allowed) is None  # the near miss: under its own name


def test_attack_message_naming_another_manifest_passes_git_but_is_a_mismatch(world):
    repo, commit, keys, allowed, digest = world
    other = "sha256:" + "0" * 64
    git_sign_tag(repo, keys["k1"], "v0.1.0", release_message("v0.1.0", other))
    assert git_verify_tag(repo, "v0.1.0", allowed) == 0
    assert ours(repo, "v0.1.0", "v0.1.0", commit, digest, allowed) == "release-signature-mismatch"


@pytest.mark.parametrize("options", ['namespaces="git",valid-before="20200101"', 'cert-authority,namespaces="git"',
                                     'namespaces="file"'])
def test_attack_signers_options_git_reads_are_malformed_here(world, options):
    _, _, keys, _, _ = world
    refused = read_signers((keys["k1"].line("one", options) + "\n").encode())
    assert isinstance(refused, Refusal) and refused.code == "release-signers-malformed"


def test_attack_an_rsa_key_is_malformed_here(tmp_path):
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(tmp_path / "rsa")], check=True,
                   capture_output=True)
    rsa = (tmp_path / "rsa.pub").read_text().split()
    refused = read_signers(f'one namespaces="git" {rsa[0]} {rsa[1]}\n'.encode())
    assert isinstance(refused, Refusal) and refused.code == "release-signers-malformed"


def test_attack_backdated_tag_by_an_expired_key_passes_git_verify_tag(world, tmp_path):
    """Why valid-before is refused: git checks it against the tagger time, which the signer writes. A key whose line
    says valid-before 2020 still signs a tag git verify-tag accepts, by dating the tag 2019."""
    repo, commit, keys, _, digest = world
    expired = tmp_path / "expired_signers"
    expired.write_text(keys["k1"].line("one", 'namespaces="git",valid-before="20200101"') + "\n", encoding="ascii")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", GIT_COMMITTER_NAME="Old",
               GIT_COMMITTER_EMAIL="old@example.invalid")
    for tag, date in (("v0.1.0", "2019-06-01T00:00:00Z"), ("v0.2.0", "2026-06-01T00:00:00Z")):
        subprocess.run(["git", "-c", "gpg.format=ssh", "-c", f"user.signingKey={keys['k1'].private_path}", "tag",
                        "-s", "-m", release_message(tag, digest), tag], cwd=repo.path, check=True, capture_output=True,
                       env=env | {"GIT_COMMITTER_DATE": date})
    assert git_verify_tag(repo, "v0.1.0", expired) == 0  # backdated: accepted
    assert git_verify_tag(repo, "v0.2.0", expired) != 0  # dated after valid-before: refused (the option works)
    refused = read_signers(expired.read_bytes())
    assert isinstance(refused, Refusal) and refused.code == "release-signers-malformed"
