"""The signers file: `release-signers` at a catalog's root, a restricted allowed-signers form (issue #36 item 1).

ssh-keygen(1)'s ALLOWED SIGNERS format admits principal patterns, options (`cert-authority`, `namespaces`,
`valid-after`, `valid-before`) and every key type. This project reads a strict subset, one line per key:

    PRINCIPAL namespaces="git" ssh-ed25519 BASE64 [comment]

blank lines and lines whose first character is `#` allowed; fields separated by spaces or tabs; printable ASCII
only, lines ended by LF (a CR is refused); at most 32 keys and 64 KiB, the size measured on the bytes before
anything is parsed. Everything else is `release-signers-malformed`:

- another key type, `sk-ssh-ed25519@openssh.com` included (hardware keys: not read by this verifier yet, so not
  admitted — docs/signing.md), and a key blob that is not exactly `string "ssh-ed25519", string KEY[32]` in strict
  base64, or whose key is not a prime-order point (keys.key_refusal, the dialect's key rule);
- `cert-authority`, `valid-after`, `valid-before` or any option but exactly `namespaces="git"` (git checks validity
  against the tagger time, which the signer writes: a backdated tag by an expired key passes git verify-tag);
- a key twice (on any two lines), a principal outside `[A-Za-z0-9.@_+-]{1,128}`, no key at all.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..codes.signing import RELEASE_SIGNERS_MALFORMED
from ..keys import key_refusal
from ..refusal import Refusal

if TYPE_CHECKING:
    from ..tree import Tree

SIGNERS_FILE = "release-signers"
"""The signers file's path at a catalog's root (a gate file by repository/zone's allowlist)."""

MAX_BYTES = 64 * 1024
MAX_KEYS = 32
KEY_TYPE = "ssh-ed25519"
NAMESPACES = 'namespaces="git"'

PRINCIPAL = re.compile(r"[A-Za-z0-9.@_+-]{1,128}")
_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
_FIELD = re.compile(r"[ \t]+")
_PRINTABLE = re.compile(rb"[\x20-\x7e\t\n]*")


@dataclass(frozen=True)
class Signer:
    """One key of a set: its `principal`, its 32 raw Ed25519 key bytes and the line it was read from (comment
    dropped: `PRINCIPAL namespaces="git" ssh-ed25519 BASE64`)."""

    principal: str
    key: bytes
    line: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


@dataclass(frozen=True)
class Signers:
    """A governing set: its keys in file order."""

    keys: tuple[Signer, ...]

    def find(self, key: bytes) -> Signer | None:
        return next((s for s in self.keys if s.key == key), None)

    def lines(self) -> list[str]:
        """The set's lines, comments dropped (what a lock records)."""
        return [s.line for s in self.keys]

    def text(self) -> bytes:
        """The set as a signers file (each line, LF-ended)."""
        return "".join(line + "\n" for line in self.lines()).encode("ascii")

    def key_set(self) -> frozenset[bytes]:
        return frozenset(s.key for s in self.keys)


def ssh_string(value: bytes) -> bytes:
    """SSH's wire `string` (RFC 4251 §5): a 4-byte big-endian length, then the bytes."""
    return len(value).to_bytes(4, "big") + value


def key_blob(key: bytes) -> bytes:
    """The SSH wire form of an Ed25519 public key: string "ssh-ed25519", string KEY."""
    return ssh_string(KEY_TYPE.encode("ascii")) + ssh_string(key)


def fingerprint(key: bytes) -> str:
    """OpenSSH's fingerprint of an Ed25519 key: `SHA256:` and unpadded base64 of sha256 over its blob."""
    return "SHA256:" + base64.b64encode(hashlib.sha256(key_blob(key)).digest()).decode("ascii").rstrip("=")


def ed25519_from_blob(blob: bytes) -> bytes | None:
    """The 32 key bytes of an `ssh-ed25519` key blob, or None when the blob is anything else (no trailing bytes)."""
    head = key_blob(bytes(32))[:-32]  # string "ssh-ed25519" and a 32-byte string's length
    if len(blob) != len(head) + 32 or not blob.startswith(head):
        return None
    return blob[len(head):]


def _refused(detail: str, path: str, line: int | None = None) -> Refusal:
    return Refusal(RELEASE_SIGNERS_MALFORMED, path, detail, line=line)


def _line_refusal(fields: list[str]) -> str | None:
    """Why one key line is outside the form, naming no author's text; None when it holds."""
    if not PRINCIPAL.fullmatch(fields[0]):
        return ("the principal is outside its grammar (1 to 128 letters, digits or .@_+-; no pattern, list or "
                "wildcard)")
    if len(fields) < 3:
        return 'a key line is PRINCIPAL namespaces="git" ssh-ed25519 BASE64 [comment]'
    options = fields[1]
    if options != NAMESPACES:
        lowered = options.lower()
        if lowered.startswith(("ssh-", "ecdsa-", "sk-")):
            return 'the line has no options: each key line says namespaces="git" before its key type'
        if "cert-authority" in lowered:
            return "cert-authority is refused: a signers line names one key, never a certificate authority"
        if "valid-after" in lowered or "valid-before" in lowered:
            return ("valid-after/valid-before are refused: git checks them against the tag's tagger time, which the "
                    "signer writes, so a backdated tag by an expired key still verifies")
        if "namespaces=" in lowered:
            return 'the namespaces option is exactly namespaces="git" (one namespace, git, which signs tags)'
        return 'the only option a line holds is namespaces="git"'
    if fields[2] != KEY_TYPE:
        if fields[2] == "sk-ssh-ed25519@openssh.com":
            return "sk-ssh-ed25519@openssh.com (a hardware key) is not read by this verifier: use an ssh-ed25519 key"
        return "the key type is ssh-ed25519 (an Ed25519 key): no other key type is read"
    if len(fields) < 4:
        return "the key line has no key after ssh-ed25519"
    return None


def read_signers(data: bytes, path: str = SIGNERS_FILE) -> Signers | Refusal:
    """A signers file's bytes → its set, or the first refusal (`release-signers-malformed`), reported with the line."""
    if len(data) > MAX_BYTES:
        return _refused(f"{len(data)} bytes, over the bound of {MAX_BYTES} bytes", path)
    if not _PRINTABLE.fullmatch(data):
        at = next(i for i, b in enumerate(data) if not (0x20 <= b <= 0x7e or b in (9, 10)))
        return _refused("the file is printable ASCII with LF line ends only (a CR, a control byte or a non-ASCII "
                        "byte is refused)", path, data.count(b"\n", 0, at) + 1)
    text = data.decode("ascii")
    found: list[Signer] = []
    seen: dict[bytes, int] = {}
    for number, raw in enumerate(text.split("\n"), 1):
        stripped = raw.strip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        fields = _FIELD.split(stripped)
        why = _line_refusal(fields)
        if why is not None:
            return _refused(why, path, number)
        encoded = fields[3]
        try:
            if not _BASE64.fullmatch(encoded) or len(encoded) % 4:
                raise binascii.Error("not strict base64")
            blob = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            return _refused("the key is not strict base64", path, number)
        if base64.b64encode(blob).decode("ascii") != encoded:
            return _refused("the key is not strict base64 (its encoding is not canonical)", path, number)
        key = ed25519_from_blob(blob)
        if key is None:
            return _refused('the key blob is not exactly an ssh-ed25519 key (string "ssh-ed25519", 32 key bytes)',
                            path, number)
        if key_refusal(key.hex()) is not None:
            return _refused(f"the key is refused: {key_refusal(key.hex())}", path, number)
        if key in seen:
            return _refused(f"the key of line {number} is also the key of line {seen[key]}: a key is listed once",
                            path, number)
        seen[key] = number
        if len(found) == MAX_KEYS:
            return _refused(f"more than {MAX_KEYS} keys", path, number)
        found.append(Signer(fields[0], key, f"{fields[0]} {NAMESPACES} {KEY_TYPE} {encoded}"))
    if not found:
        return _refused("the file holds no key: a signers file lists at least one", path)
    return Signers(tuple(found))


def signers_at(tree: "Tree", path: str = SIGNERS_FILE) -> Signers | Refusal | None:
    """The signers file of a catalog tree: None when it has none, its set, or `release-signers-malformed` (not a
    regular file, over 64 KiB — unread —, unreadable, or outside the form)."""
    from ..tree import FILE, MISSING, TooLarge, TreeError, kind_text

    try:
        node = tree.stat(path)
        if node.kind == MISSING:
            return None
        if node.kind != FILE:
            return _refused(f"{path} is {kind_text(node.kind)}, not a regular file", path)
        data = tree.read(path, MAX_BYTES)
    except TooLarge as exc:
        return _refused(f"{exc.size} bytes, over the bound of {MAX_BYTES} bytes", path)
    except TreeError as exc:
        return _refused(f"the file cannot be read ({exc})", path)
    return read_signers(data, path)


def check_signers_file(tree: "Tree") -> list[Refusal]:
    """The gate's phase (every pull request and push): a catalog's release-signers, when it has one, in its form."""
    found = signers_at(tree)
    return [found] if isinstance(found, Refusal) else []
