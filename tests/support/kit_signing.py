"""The conformance kit's signing cases (issue #36 item 6; docs/conformance.md, "Signing"): a capability beside
the reader tiers, declared to the runner with `exchange conformance run --signing`.

Keys are test keys derived from fixed seeds (sha256 of a fixed phrase), their public keys written into the
cases (the pinned set a case passes as `--signers FILE`, a retained state's `signers`). Ed25519 signatures are
deterministic, so each stream rebuilds byte for byte. A signed tag is written into the fast-import stream as
the tag's data: the message, then the SSH signature (OpenSSH's PROTOCOL.sshsig, namespace git, sha512) over the
tag object fast-import writes — `object`, `type`, `tag`, `tagger`, a blank line and the message — made here
from the commit ids a first import of the same stream, unsigned, gives.
"""

from __future__ import annotations

import base64
import hashlib
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

KEYS = ("k1", "k2")
PRINCIPAL = "{name}@conformance-kit.example.invalid"
SIGNERS_FILE = "release-signers"


def _key(name: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(
        hashlib.sha256(f"judgment-exchange conformance kit signing key {name}".encode()).digest())


def _s(value: bytes) -> bytes:
    return len(value).to_bytes(4, "big") + value


def _blob(name: str) -> bytes:
    raw = _key(name).public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return _s(b"ssh-ed25519") + _s(raw)


def line(name: str) -> str:
    """The key's signers line: PRINCIPAL namespaces="git" ssh-ed25519 BASE64."""
    return f'{PRINCIPAL.format(name=name)} namespaces="git" ssh-ed25519 {base64.b64encode(_blob(name)).decode()}'


def signers_file(*names: str) -> bytes:
    return "".join(line(n) + "\n" for n in names).encode("ascii")


def sshsig(name: str, payload: bytes, *, tamper: bool = False) -> bytes:
    """An armored SSHSIG by key `name` over `payload` (namespace git, sha512); `tamper` flips a bit of the signature."""
    signed = b"SSHSIG" + _s(b"git") + _s(b"") + _s(b"sha512") + _s(hashlib.sha512(payload).digest())
    signature = bytearray(_key(name).sign(signed))
    if tamper:
        signature[40] ^= 0x01
    blob = (b"SSHSIG" + (1).to_bytes(4, "big") + _s(_blob(name)) + _s(b"git") + _s(b"") + _s(b"sha512")
            + _s(_s(b"ssh-ed25519") + _s(bytes(signature))))
    encoded = base64.b64encode(blob)
    return (b"-----BEGIN SSH SIGNATURE-----\n" + b"\n".join(encoded[i:i + 70] for i in range(0, len(encoded), 70))
            + b"\n-----END SSH SIGNATURE-----\n")


@dataclass(frozen=True)
class Signed:
    """How one release's tag is made: by key `by` (None: annotated, unsigned), with the manifest digest of `digest_of`
    written in its message (None: the release's own manifest), its signature tampered or not."""

    by: str | None
    digest_of: bytes | None = None
    tamper: bool = False


@dataclass
class Signing:
    """A signing case's part: how each release's tag is signed (by index), the set the case pins (`--signers FILE`;
    None: none), the retained release's signers and extra references to tag objects (name → release index)."""

    tags: dict[int, Signed]
    pinned: tuple[str, ...] | None = None
    retained_signers: tuple[str, ...] = ()
    aliases: dict[str, int] = field(default_factory=dict)


def message(tag: str, manifest: bytes) -> bytes:
    return f"Catalog release {tag}\n\nmanifestDigest: sha256:{hashlib.sha256(manifest).hexdigest()}\n".encode()


def _tag_object_id(data: bytes) -> str:
    return hashlib.sha1(b"tag %d\0" % len(data) + data).hexdigest()


def signed_stream(releases, signing: Signing) -> tuple[bytes, list[dict], dict[str, str]]:
    """The case's stream with each tag `signing` names made annotated and signed, the steps around it (update-ref
    steps for the aliases), and each signed tag's tag object id by tag."""
    from . import conformance as kit

    releases = [kit.Release(**{**r.__dict__, "annotated": r.annotated or i in signing.tags})
                for i, r in enumerate(releases)]
    stream, steps = kit.stream_of(releases)
    with tempfile.TemporaryDirectory(prefix="kit-signing-") as tmp:
        repo = kit._imported(stream, steps, Path(tmp) / "first")
        commits = kit._commits(repo, kit._refs(repo), releases)
    ids: dict[str, str] = {}
    for index, how in sorted(signing.tags.items()):
        release = releases[index]
        tag = release.tag.encode()
        when = b"%d +0000" % (kit.EPOCH + index * 86400)
        header = re.escape(b"tag " + tag + b"\nfrom :") + rb"\d+" + re.escape(
            b"\ntagger " + kit.IDENTITY.encode() + b" " + when + b"\n")
        old = re.compile(b"(" + header + b")" + re.escape(kit._data(b"release " + tag + b"\n")))
        text = message(release.tag, how.digest_of if how.digest_of is not None else release.files["manifest.json"])
        if how.by is not None:
            payload = (f"object {commits[index]}\ntype commit\ntag {release.tag}\n".encode()
                       + b"tagger " + kit.IDENTITY.encode() + b" " + when + b"\n\n" + text)
            signature = sshsig(how.by, payload, tamper=how.tamper)
            text += signature
            ids[release.tag] = _tag_object_id(payload + signature)
        stream, count = old.subn(lambda m: m.group(1) + kit._data(text), stream)  # noqa: B023 (called within the iteration)
        assert count == 1, (release.tag, count)
    extra = [{"op": "update-ref", "ref": f"refs/tags/{alias}", "object": ids[releases[index].tag]}
             for alias, index in sorted(signing.aliases.items())]
    return stream, steps + extra, ids


QUESTION = ("Unresolved question 1", "Whether an author signs an entry, the Exchange signs the manifest, both or "
            "neither; with which key; and what a desk holds a signature to, are open")
PINS = ("Security and privacy", "A desk trusts what it pins")
COVERAGE = ("release-signatures",)


def signing_cases() -> list:
    """The signing cases (issue #36 item 6), each with its Signing part; strictness project (stricter than RFC 0019,
    which leaves signing open), the same verdict at both reader tiers (empty manifests: no fixture)."""
    from .conformance import CHECKED, NO_RELEASES, Case, Release

    @dataclass
    class SigningCase(Case):
        signing: Signing | None = None

    v1, v2, v3, v4 = "v0.1.0", "v0.2.0", "v0.3.0", "v0.4.0"
    only_k1 = {"manifest.json": b"[]\n", SIGNERS_FILE: signers_file("k1")}
    both = {"manifest.json": b"[]\n", SIGNERS_FILE: signers_file("k1", "k2")}
    only_k2 = {"manifest.json": b"[]\n", SIGNERS_FILE: signers_file("k2")}
    rotation = [Release(only_k1, v1), Release(both, v2), Release(only_k2, v3)]
    rotated = {0: Signed("k1"), 1: Signed("k1"), 2: Signed("k2")}
    out = []

    def add(name, title, rfc, releases, tag, result, signing, *, codes=(), history=None, retained=None,
            withdrawn=None, changed=None, description=""):
        out.append(SigningCase(name, title, rfc, COVERAGE, releases, tag, result, codes=codes, history=history,
                               retained=retained, withdrawn=withdrawn, changed=changed, strictness="project",
                               description=description, signing=signing))

    add("signing-signed-release", "a release signed by a key of the pinned set", PINS, [Release(only_k1, v1)], v1,
        "pass", Signing({0: Signed("k1")}, pinned=("k1",)), history=NO_RELEASES,
        description="v0.1.0's annotated tag carries an SSH signature by k1 over the tag object, its tag header and "
                    "object name the release, its message's manifestDigest is the manifest's, and the consumer pins "
                    "k1 (--signers FILE): it passes.")
    add("signing-unsigned-pinned", "an unsigned release under a pinned set", PINS, [Release(only_k1, v1)], v1,
        "refuse", Signing({0: Signed(None)}, pinned=("k1",)), codes=("release-unsigned",),
        description="The same catalog's v0.1.0 as an annotated tag without a signature, the consumer pinning k1: "
                    "a pinned set requires a signature, so the import is refused as release-unsigned before any "
                    "file is checked.")
    add("signing-other-key", "a release signed by a key the pinned set does not hold", PINS,
        [Release(only_k1, v1)], v1, "refuse", Signing({0: Signed("k2")}, pinned=("k1",)),
        codes=("release-signer-unknown",),
        description="v0.1.0 is signed by k2, a valid signature, while the consumer pins k1 only (and the catalog's "
                    "own release-signers names k1): release-signer-unknown.")
    add("signing-tampered-signature", "a signature that does not verify over the tag object", PINS,
        [Release(only_k1, v1)], v1, "refuse", Signing({0: Signed("k1", tamper=True)}, pinned=("k1",)),
        codes=("release-signature-invalid",),
        description="v0.1.0's SSH signature by k1 has one bit of its Ed25519 signature flipped: it no longer "
                    "verifies over the tag object, so the import is refused as release-signature-invalid.")
    add("signing-tag-moved-name", "a signed tag object served under another tag name", PINS,
        [Release(only_k1, v1)], v2, "refuse", Signing({0: Signed("k1")}, pinned=("k1",), aliases={v2: 0}),
        codes=("release-signature-mismatch",),
        description="refs/tags/v0.2.0 names v0.1.0's signed tag object (an update-ref step): git verify-tag accepts "
                    "the signature, but the tag object's tag header names v0.1.0, not the release v0.2.0 being "
                    "checked, so the import is refused as release-signature-mismatch.")
    add("signing-manifest-digest-other", "a signed tag whose message names another manifest", PINS,
        [Release(only_k1, v1)], v1, "refuse", Signing({0: Signed("k1", digest_of=b"[ ]\n")}, pinned=("k1",)),
        codes=("release-signature-mismatch",),
        description="v0.1.0 is signed by k1, but its message's manifestDigest line is the digest of another "
                    "manifest than manifest.json at the tagged commit: release-signature-mismatch.")
    add("signing-rotation-held-key", "a rotation in two releases, from a retained release holding k1", QUESTION,
        rotation, v3, "pass", Signing(rotated, retained_signers=("k1",)), history=CHECKED, retained=0,
        withdrawn=[], changed=[],
        description="The consumer retained v0.1.0 with its signers (k1). v0.2.0 adds k2, signed by k1; v0.3.0 "
                    "removes k1, signed by k2, which v0.2.0's file holds: the chain from the retained signers "
                    "reaches v0.3.0, so it passes.")
    add("signing-removed-key", "a release signed by a key an earlier release removed", QUESTION,
        rotation + [Release(only_k2, v4)], v4, "refuse", Signing(rotated | {3: Signed("k1")}, retained_signers=("k1",)),
        codes=("release-signer-unknown",), retained=0,
        description="The rotation of signing-rotation-held-key, then v0.4.0 signed by k1, which v0.3.0 removed: the "
                    "set that governs v0.4.0 (v0.3.0's file) holds k2 only, so release-signer-unknown, though k1 "
                    "is the key the consumer retained.")
    add("signing-lock-unsigned-next", "a retained release holding signers, and an unsigned next release", QUESTION,
        [Release(only_k1, v1), Release(only_k1, v2)], v2, "refuse",
        Signing({0: Signed("k1"), 1: Signed(None)}, retained_signers=("k1",)),
        codes=("release-unsigned",), retained=0,
        description="The consumer retained v0.1.0 with its signers (k1); v0.2.0 is an annotated tag without a "
                    "signature: retained signers require every later release to be signed (a mirror cannot drop "
                    "signing), so release-unsigned.")
    malformed = {"manifest.json": b"[]\n", SIGNERS_FILE: b"k1 is trusted\n"}
    add("signing-signers-file-malformed", "a release whose own release-signers file is out of its form", PINS,
        [Release(malformed, v1)], v1, "refuse", Signing({0: Signed("k1")}, pinned=("k1",)),
        codes=("release-signers-malformed",),
        description="v0.1.0 is signed by k1, which the consumer pins, but its release-signers file holds a line "
                    "outside the allowed-signers form (docs/signing.md): the set it would hand to the next release "
                    "cannot be read, so the import is refused as release-signers-malformed (issue #35).")
    return out


def signing_record(case, record: dict, ids: dict[str, str]) -> dict:
    """A signing case's cases.json record: `signing` (the capability, and the set it pins as `--signers FILE`, or
    null) and, in its retained state, the retained release's `signers` and `tagObject`."""
    how = case.signing
    record["signing"] = {"signers": [line(k) for k in how.pinned] if how.pinned is not None else None}
    if record["retained"] is not None and how.retained_signers:
        record["retained"]["signers"] = [line(k) for k in how.retained_signers]
        record["retained"]["tagObject"] = ids[record["retained"]["tag"]]
    return record
