"""Signed releases' codes (issue #36; docs/signing.md): the catalog's `release-signers` file, a release tag's SSH
signature (OpenSSH's PROTOCOL.sshsig, git's `gpg.format=ssh`) and the chain of governing signer sets.

Add a code as `"code": Code(section, meaning, fix, command)`; `python -m judgment_exchange.codes --write`
regenerates docs/codes.md from these records (tests/test_codes.py fails while it is stale).
"""

from ..coderecord import Code

RELEASE_UNSIGNED = "release-unsigned"
RELEASE_SIGNER_UNKNOWN = "release-signer-unknown"
RELEASE_SIGNATURE_INVALID = "release-signature-invalid"
RELEASE_SIGNATURE_MISMATCH = "release-signature-mismatch"
RELEASE_SIGNERS_MALFORMED = "release-signers-malformed"
RELEASE_SIGNERS_UNPINNED = "release-signers-unpinned"

_ISSUE = "issue #36 (docs/signing.md; stricter than RFC 0019, which leaves signing open: unresolved question 1)"

RECORDS: dict[str, Code] = {
    RELEASE_UNSIGNED: Code(
        f"{_ISSUE} item 3: a signed release is an annotated tag object carrying an SSH signature",
        "A release that must be signed is not: its tag is lightweight, or an annotated tag without a signature "
        "(a catalog whose releases are signed, a lock holding signers, or --require-signed).",
        "Check the release a maintainer signed: fetch its tags from the catalog's own location (git fetch --tags). "
        "A maintainer makes a signed release with exchange release vX.Y.Z --sign (docs/signing.md).",
    ),
    RELEASE_SIGNER_UNKNOWN: Code(
        f"{_ISSUE} item 3 (d): the key must be in the signers set that governs the release — the release-signers "
        "file at the release before it on its first-parent ledger history, else its own",
        "The release's tag is signed by a key that the signers set governing it does not hold (the detail gives "
        "the key's SHA256 fingerprint).",
        "Do not import it: a release is signed by a key of the set before it (rotation is a release that adds a "
        "key, signed by a held key, then one that removes the old key, signed by the new). A maintainer signs with "
        "a key listed in release-signers (git config user.signingKey).",
    ),
    RELEASE_SIGNATURE_INVALID: Code(
        f"{_ISSUE} item 3 (c): an SSHSIG (PROTOCOL.sshsig) with namespace git, hash sha512 or sha256 and an "
        "Ed25519 key, verifying over the tag object's bytes before the signature, within 8 KiB",
        "The release tag's signature does not verify over the tag object, or is not an SSH signature the project "
        "reads (another format, another namespace, hash or key type, malformed, or over 8 KiB).",
        "Do not import it: the tag was altered or signed otherwise. A maintainer signs with an Ed25519 SSH key "
        "(git -c gpg.format=ssh tag -s, as exchange release vX.Y.Z --sign runs it).",
    ),
    RELEASE_SIGNATURE_MISMATCH: Code(
        f"{_ISSUE} item 3 (a, b): the tag object's `tag` header is the release's name, its `object` the release's "
        "commit, and its message's manifestDigest the sha256 of manifest.json at that commit",
        "The signed tag object names another tag or commit than the release it is read as (a signed tag placed "
        "under another name still passes git verify-tag), or its message's manifestDigest is not the manifest at "
        "the release's commit, or it has no such line.",
        "Do not import it: the signature is real but for another release. A maintainer makes the tag with "
        "exchange release vX.Y.Z --sign, which writes the line manifestDigest: sha256:… from the ledger row.",
    ),
    RELEASE_SIGNERS_MALFORMED: Code(
        f"{_ISSUE} item 1: release-signers holds lines PRINCIPAL namespaces=\"git\" ssh-ed25519 BASE64 [comment], "
        "blank and # lines, at most 32 keys and 64 KiB, read strictly",
        "A signers file (release-signers at the catalog's root, or one given with --signers) is not in the "
        "restricted allowed-signers form: another key type, cert-authority, valid-after/valid-before, a "
        "namespace other than exactly git, a key twice, a principal outside [A-Za-z0-9.@_+-]{1,128}, a malformed "
        "key, no key, or over its bounds.",
        "Write one line per maintainer key: PRINCIPAL namespaces=\"git\" ssh-ed25519 AAAA… (the .pub file's "
        "key), with no other option (docs/signing.md, \"The signers file\").",
    ),
    RELEASE_SIGNERS_UNPINNED: Code(
        f"{_ISSUE} item 4: --require-signed holds a release to keys the consumer already trusts",
        "--require-signed was given with neither --signers nor a lock holding signers: the release is checked "
        "only against its own commit's signers file, which proves nothing about where it came from.",
        "Get the catalog's signers file from its maintainers' own channel and pass it: --signers FILE; later "
        "checks hold the lock's signers (docs/signing.md, \"Pinning\").",
    ),
}
