"""The rule one release's tag is held to (issue #36 item 3), as a pure function of bytes and values.

A release R's tag is verified when
(a) it is an annotated tag object whose `tag` header is R's name and whose `object` is R's commit
    (`release-signature-mismatch` otherwise: a signed tag placed under another name passes git verify-tag);
(b) its message has one line `manifestDigest: sha256:…` equal to sha256 of manifest.json at R's commit (mismatch
    otherwise);
(c) its SSHSIG — namespace git, hash sha512 or sha256, an Ed25519 key — verifies over the tag object's bytes before
    the signature (`release-signature-invalid` otherwise, and for a block over 8 KiB or malformed);
(d) the key is in the set that governs R (`release-signer-unknown` otherwise).
A lightweight tag (no tag object) or an annotated tag without a signature is `release-unsigned`. Which set governs
R (the `release-signers` at the release before R on its first-parent ledger history, else R's own) is the
caller's to find; this module is given it.

Refusal details name the tag (in §3's grammar, checked by the caller), commits and key fingerprints only, never
a principal or any other text of the tag object.
"""

from __future__ import annotations

import re

from ..codes.signing import (
    RELEASE_SIGNATURE_INVALID,
    RELEASE_SIGNATURE_MISMATCH,
    RELEASE_SIGNER_UNKNOWN,
    RELEASE_UNSIGNED,
)
from ..refusal import Refusal
from . import sshsig, tagobject
from .signers import Signer, Signers, fingerprint

_DIGEST_LINE = re.compile(rb"manifestDigest: (sha256:[0-9a-f]{64})")


def message_digest(message: bytes) -> str | None:
    """The message's one `manifestDigest: sha256:…` line's digest; None when there is none or more than one."""
    found = [m.group(1) for line in message.split(b"\n") if (m := _DIGEST_LINE.fullmatch(line))]
    return found[0].decode("ascii") if len(found) == 1 else None


def tag_message(tag: str, manifest_digest: str) -> str:
    """The message `exchange release TAG --sign` writes: `Catalog release TAG`, a blank line, the digest line."""
    return f"Catalog release {tag}\n\nmanifestDigest: {manifest_digest}\n"


def verify_release_tag(tag_object: bytes | None, *, tag: str, commit: str, manifest_digest: str,
                       signers: Signers) -> Signer | Refusal:
    """The signer of R's tag under the governing `signers`, or the refusal of item 3's rule (first in its order).

    `tag_object`: the bytes of the tag object R's reference names, None for a lightweight tag; `commit`: R's commit
    (full id); `manifest_digest`: `sha256:` over manifest.json at R's commit."""
    def refuse(code: str, detail: str) -> Refusal:
        return Refusal(code, None, f"release {tag}: {detail}")

    if tag_object is None:
        return refuse(RELEASE_UNSIGNED, "the tag is lightweight (no tag object): it carries no signature")
    try:
        parsed = tagobject.parse(tag_object)
    except tagobject.TagObjectError as exc:
        return refuse(RELEASE_SIGNATURE_INVALID, f"{exc}")
    if parsed.signature is None:
        return refuse(RELEASE_UNSIGNED, "the annotated tag carries no signature")
    if parsed.tag != tag.encode("ascii"):
        return refuse(RELEASE_SIGNATURE_MISMATCH, "the signed tag object names another tag in its tag header (a "
                      "signed tag placed under another name)")
    if parsed.object != commit:
        return refuse(RELEASE_SIGNATURE_MISMATCH, f"the signed tag object names another commit than {commit}")
    found = message_digest(parsed.message)
    if found is None:
        return refuse(RELEASE_SIGNATURE_MISMATCH, "the tag's message has no single line manifestDigest: sha256:…")
    if found != manifest_digest:
        return refuse(RELEASE_SIGNATURE_MISMATCH, f"the tag's message names manifestDigest {found}, and manifest.json "
                      f"at {commit} is {manifest_digest}")
    if not parsed.ssh_signed:
        return refuse(RELEASE_SIGNATURE_INVALID, "the tag's signature is not an SSH signature (another format)")
    try:
        signature = sshsig.parse(parsed.signature)
    except sshsig.SignatureError as exc:
        return refuse(RELEASE_SIGNATURE_INVALID, f"{exc}")
    if not signature.verifies(parsed.payload):
        return refuse(RELEASE_SIGNATURE_INVALID, f"the signature by {fingerprint(signature.key)} does not verify over "
                      "the tag object")
    signer = signers.find(signature.key)
    if signer is None:
        return refuse(RELEASE_SIGNER_UNKNOWN, f"signed by {fingerprint(signature.key)}, a key the signers set that "
                      f"governs it does not hold ({len(signers.keys)} keys)")
    return signer


def check_release_tag(tag_object: bytes | None, *, tag: str, commit: str, manifest_digest: str,
                      signers: Signers) -> Refusal | None:
    """Item 3's rule: None when R's tag is verified under `signers`, else the refusal."""
    verdict = verify_release_tag(tag_object, tag=tag, commit=commit, manifest_digest=manifest_digest,
                                 signers=signers)
    return verdict if isinstance(verdict, Refusal) else None
