"""Test keys from fixed seeds, signers lines, hand-made SSH signatures and signed tags (issue #36).

Keys are Ed25519 keys derived from fixed seeds with `cryptography` and written as OpenSSH private keys, so git's
own `tag -s` (gpg.format=ssh) can sign with them through ssh-keygen; `sshsig` builds a PROTOCOL.sshsig block
independently of the package (namespace, hash and reserved field chosen by the test) for the cases ssh-keygen
will not make.
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..support.gitrepo import GitRepo


def _git_version() -> tuple[int, ...]:
    try:
        out = subprocess.run(["git", "--version"], capture_output=True, text=True, check=False).stdout
        return tuple(int(p) for p in out.split()[2].split(".")[:2])
    except (OSError, IndexError, ValueError):
        return (0,)


NEEDS_GIT_SSH = pytest.mark.skipif(
    shutil.which("ssh-keygen") is None or _git_version() < (2, 34),
    reason="comparison with git verify-tag needs git >= 2.34 (SSH signing) and OpenSSH's ssh-keygen")


def _s(value: bytes) -> bytes:
    return len(value).to_bytes(4, "big") + value


@dataclass
class TestKey:
    """A fixed-seed Ed25519 key: its private key file (OpenSSH form, mode 600), `.pub` file and raw public bytes."""

    __test__ = False
    seed: bytes
    private_path: Path

    @property
    def private(self) -> Ed25519PrivateKey:
        return Ed25519PrivateKey.from_private_bytes(self.seed)

    @property
    def raw(self) -> bytes:
        return self.private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)

    @property
    def openssh(self) -> str:
        """`ssh-ed25519 AAAA…`"""
        return self.private.public_key().public_bytes(serialization.Encoding.OpenSSH,
                                                      serialization.PublicFormat.OpenSSH).decode("ascii")

    @property
    def blob(self) -> bytes:
        return _s(b"ssh-ed25519") + _s(self.raw)

    def line(self, principal: str = "maintainer@example.invalid", options: str = 'namespaces="git"') -> str:
        return f"{principal} {options} {self.openssh}".replace("  ", " ")


def make_key(directory: Path, name: str) -> TestKey:
    """The key named `name`: seed sha256("issue-36 test key " + name), written under `directory`."""
    seed = hashlib.sha256(f"issue-36 test key {name}".encode()).digest()
    key = Ed25519PrivateKey.from_private_bytes(seed)
    path = directory / f"{name}"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                                       serialization.NoEncryption()))
    os.chmod(path, 0o600)
    test_key = TestKey(seed, path)
    (directory / f"{name}.pub").write_text(test_key.openssh + "\n", encoding="ascii")
    return test_key


def sshsig(key: TestKey, message: bytes, *, namespace: bytes = b"git", hash_alg: bytes = b"sha512",
           reserved: bytes = b"") -> bytes:
    """An armored PROTOCOL.sshsig block over `message`, made here (not by the package)."""
    digest = hashlib.new(hash_alg.decode(), message).digest()
    signed = b"SSHSIG" + _s(namespace) + _s(reserved) + _s(hash_alg) + _s(digest)
    signature = _s(b"ssh-ed25519") + _s(key.private.sign(signed))
    blob = (b"SSHSIG" + (1).to_bytes(4, "big") + _s(key.blob) + _s(namespace) + _s(reserved) + _s(hash_alg)
            + _s(signature))
    encoded = base64.b64encode(blob)
    lines = [encoded[i:i + 70] for i in range(0, len(encoded), 70)]
    return b"-----BEGIN SSH SIGNATURE-----\n" + b"\n".join(lines) + b"\n-----END SSH SIGNATURE-----\n"


def tag_payload(commit: str, tag: str, message: str, tagger: str = "Release Test <release-test@example.invalid> "
                "1791979200 +0000") -> bytes:
    return f"object {commit}\ntype commit\ntag {tag}\ntagger {tagger}\n\n{message}".encode()


def manifest_digest(repo: GitRepo, rev: str) -> str:
    data = subprocess.run(["git", "cat-file", "blob", f"{rev}:manifest.json"], cwd=repo.path, capture_output=True,
                          check=True).stdout
    return "sha256:" + hashlib.sha256(data).hexdigest()


def release_message(tag: str, digest: str) -> str:
    return f"Catalog release {tag}\n\nmanifestDigest: {digest}\n"


def git_sign_tag(repo: GitRepo, key: TestKey, tag: str, message: str, target: str = "HEAD") -> None:
    """git's own SSH signing: `git -c gpg.format=ssh -c user.signingKey=KEY tag -s`."""
    repo.git("-c", "gpg.format=ssh", "-c", f"user.signingKey={key.private_path}", "tag", "-s", "-m", message, tag,
             target)


def write_tag_object(repo: GitRepo, data: bytes, ref: str) -> str:
    """Write tag object bytes as given (`git hash-object -t tag --literally`) and point refs/tags/REF at them."""
    oid = repo.git("hash-object", "-t", "tag", "-w", "--literally", "--stdin", input=data)
    repo.git("update-ref", f"refs/tags/{ref}", oid)
    return oid


def tag_object_bytes(repo: GitRepo, tag: str) -> bytes | None:
    """The tag object a tag names, None for a lightweight tag."""
    kind = repo.git("cat-file", "-t", f"refs/tags/{tag}")
    if kind != "tag":
        return None
    return subprocess.run(["git", "cat-file", "tag", f"refs/tags/{tag}"], cwd=repo.path, capture_output=True,
                          check=True).stdout


def git_verify_tag(repo: GitRepo, tag: str, allowed: Path) -> int:
    """`git verify-tag` against `allowed` with a clean configuration: its exit status."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    return subprocess.run(["git", "-c", f"gpg.ssh.allowedSignersFile={allowed}", "verify-tag", tag], cwd=repo.path,
                          env=env, capture_output=True, check=False).returncode
