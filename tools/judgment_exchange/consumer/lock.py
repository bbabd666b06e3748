"""The consumer's lock (RFC 0019 §7 "The consumer retains the catalog location, tag, resolved commit and
manifest for the import"; issue #10 item 5; docs/release-contract.md, "The lock").

A lock is one closed JSON object:

    {"lockVersion": 2, "location": "<normal_location(LOCATION): a local directory as its real path>",
     "tag": "vMAJOR.MINOR.PATCH", "commit": "<40 lowercase hex>",
     "manifestDigest": "sha256:<hex over manifest.json's stored bytes at that commit>",
     "entries": {"<id>": "<the row's entryDigest>", ...},
     "withdrawn": {"<id>": {"tag": "<the release it was imported at>", "commit": "<its commit>",
                            "entryDigest": "<the entryDigest imported>"}, ...}}

A lock holding signers (issue #36 item 5; docs/signing.md) is version 3, the same object with two members more:
`"signers": ["PRINCIPAL namespaces=\"git\" ssh-ed25519 BASE64", ...]` (the lines of the set that governs the next
release, comments dropped) and `"tagObject": "<the verified tag object's id>"`. A lock is written at version 3 only
when it holds signers, so an unsigned catalog's consumers keep writing version 2, byte for byte.

Every member is required; no other member is admitted. `withdrawn` (version 2; issue #34 item 4) keeps each
imported entry a later release withdrew, with the release, commit and entryDigest it was imported at, across
`--update`s until a reviewed `--forget ID`: it stays imported (§7), and its artifact pair stays held. A
version-1 lock (no `withdrawn`) is still read, as one with none; only `--update` writes it again, as version 2. It is
written with sorted keys, two-space
indentation, ASCII only and a final newline, atomically (a temporary file beside it, then a rename or a
link), and never through a symlink.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tempfile
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..canon import is_digest
from ..catalog.grammar import ENTRY_ID, release_key
from ..codes.catalog import LOCK_MALFORMED
from ..jsonstrict import Bounds, JsonRefusal, integer, loads
from ..refusal import Refusal
from ..tree import id_order, read_regular

LOCK_VERSION = 2
SIGNED_LOCK_VERSION = 3
"""A lock holding signers (issue #36 item 5) is written at version 3; a lock without is written at LOCK_VERSION,
byte for byte as before."""
READ_VERSIONS = (1, 2, 3)
LOCK_BOUND = 1024 * 1024
MAX_ENTRIES = 1024
MAX_WITHDRAWN = 4096
MEMBERS_1 = ("commit", "entries", "location", "lockVersion", "manifestDigest", "tag")
MEMBERS = ("commit", "entries", "location", "lockVersion", "manifestDigest", "tag", "withdrawn")
MEMBERS_3 = ("commit", "entries", "location", "lockVersion", "manifestDigest", "signers", "tag", "tagObject",
             "withdrawn")
WITHDRAWN_MEMBERS = ("commit", "entryDigest", "tag")
OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
FULL_COMMIT = re.compile(r"[0-9a-f]{40}")
MALFORMED = LOCK_MALFORMED
_Value = TypeVar("_Value")


@dataclass(frozen=True)
class Withdrawn:
    """An imported entry a later release withdrew: the release, commit and entryDigest it was imported at."""

    tag: str
    commit: str
    entry_digest: str

    def as_json(self) -> dict[str, str]:
        return {"tag": self.tag, "commit": self.commit, "entryDigest": self.entry_digest}

    def shown(self) -> str:
        """How show and upgrade-diff say it (issue #34 item 4)."""
        return f"withdrawn, imported at {self.commit} ({self.tag})"


def _by_id(items: dict[str, _Value]) -> dict[str, _Value]:
    return dict(sorted(items.items(), key=lambda item: id_order(item[0])))


@dataclass(frozen=True)
class Lock:
    """What an installation imported: one release of one catalog and each imported entry's entryDigest, and
    each entry a later release withdrew, where it was imported (`withdrawn`). `version` is the form it was read
    in (a lock is always written as LOCK_VERSION); it is not part of the state compared."""

    location: str
    tag: str
    commit: str
    manifest_digest: str
    entries: dict[str, str] = field(default_factory=dict)
    withdrawn: dict[str, Withdrawn] = field(default_factory=dict)
    version: int = field(default=LOCK_VERSION, compare=False)
    signers: tuple[str, ...] = ()
    """Version 3 (issue #36 item 5): the lines of the signers set that governs the next release (docs/signing.md);
    () for a lock of an unsigned catalog."""
    tag_object: str | None = None
    """Version 3: the verified tag object's id of the locked release (re-checking it with another tag object at the
    same commit is release-tag-moved)."""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "lockVersion": LOCK_VERSION, "location": self.location, "tag": self.tag, "commit": self.commit,
            "manifestDigest": self.manifest_digest, "entries": _by_id(self.entries),
            "withdrawn": {i: w.as_json() for i, w in _by_id(self.withdrawn).items()}}
        if self.signers:  # only a lock holding signers is version 3: an unsigned catalog's lock is unchanged
            out |= {"lockVersion": SIGNED_LOCK_VERSION, "signers": list(self.signers), "tagObject": self.tag_object}
        return out

    def encode(self) -> bytes:
        return (json.dumps(self.as_json(), indent=2, sort_keys=True, ensure_ascii=True) + "\n").encode("ascii")


_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/@\s]*@")


def without_credentials(location: str) -> str:
    """`location` less a URL's user name and password (a consumer may give a token in the URL): what a lock
    stores and a report prints."""
    return _USERINFO.sub(r"\1", location)


def normal_location(location: str) -> str:
    """A catalog location in the one form locks compare (docs/release-contract.md, "The lock"): a local
    directory, named by a path or by a `file://` URL, as its absolute real path (so `.`, `./repo/`, a
    symlink to it and file:///…/repo name one catalog); any other location as given, less a URL's user name
    and password (never written to a lock) and a trailing slash."""
    path = location
    parsed = urllib.parse.urlsplit(location)
    if parsed.scheme == "file" and parsed.netloc in ("", "localhost") and not parsed.query and not parsed.fragment:
        path = urllib.parse.unquote(parsed.path)
    if path and os.path.isdir(path):
        return os.path.realpath(path)
    bare = without_credentials(location)
    return bare.rstrip("/") or bare


def decode(data: bytes, path: str) -> tuple[Lock | None, Refusal | None]:
    """A lock's bytes held to the closed form above; `lock-malformed` names the member otherwise."""

    def refused(detail: str) -> tuple[None, Refusal]:
        return None, Refusal(MALFORMED, path, f"{detail}; restore the lock from your records, or remove it and "
                                              "check the release you imported again")

    if len(data) > LOCK_BOUND:
        return refused(f"over the bound of {LOCK_BOUND} bytes")
    try:
        value = loads(data, Bounds(max_bytes=LOCK_BOUND, max_depth=4))
    except JsonRefusal as exc:
        return refused(f"not one strict JSON value ({exc.detail})")
    if not isinstance(value, dict):
        return refused("a lock is a JSON object")
    version = integer(value.get("lockVersion"))
    # version 1 has no withdrawn (issue #34 item 4); version 3 adds signers and tagObject (issue #36 item 5)
    members = MEMBERS_1 if version == 1 else MEMBERS_3 if version == SIGNED_LOCK_VERSION else MEMBERS
    unknown = sorted(set(value) - set(members))
    missing = [m for m in members if m not in value]
    if unknown:
        return refused(f"{len(unknown)} member(s) a lock does not have (a "
                       f"version-{version if version in (1, 3) else 2} "
                       f"lock holds exactly {', '.join(members)})")
    if missing:
        hint = (f" (a version-{SIGNED_LOCK_VERSION} lock holds signers and tagObject; lockVersion is {LOCK_VERSION} "
                "for a lock without them)" if version == SIGNED_LOCK_VERSION else "")
        return refused(f"member {missing[0]} is missing{hint}")
    if version not in READ_VERSIONS:
        return refused(f"lockVersion is {LOCK_VERSION} (or 1, a lock written before withdrawn entries were kept; or "
                       f"{SIGNED_LOCK_VERSION}, a lock holding signers)")
    location = value["location"]
    if not isinstance(location, str) or not 1 <= len(location) <= 4096:
        return refused("location is a string of 1 to 4096 characters")
    if not isinstance(value["tag"], str) or release_key(value["tag"]) is None:
        return refused("tag is a release tag vMAJOR.MINOR.PATCH")
    if not isinstance(value["commit"], str) or FULL_COMMIT.fullmatch(value["commit"]) is None:
        return refused("commit is a full commit id, 40 lowercase hexadecimal digits")
    if not is_digest(value["manifestDigest"]):
        return refused("manifestDigest is sha256: and 64 lowercase hexadecimal digits")
    entries = value["entries"]
    if not isinstance(entries, dict) or len(entries) > MAX_ENTRIES:
        return refused(f"entries is an object of at most {MAX_ENTRIES} members, id to entryDigest")
    for i, (entry_id, digest) in enumerate(entries.items()):
        if not 3 <= len(entry_id) <= 128 or ENTRY_ID.fullmatch(entry_id) is None:
            return refused(f"entries member {i + 1} is not named by an entry id")
        if not is_digest(digest):
            return refused(f"entries member {entry_id}: the value is an entryDigest (sha256: and 64 hex)")
    withdrawn, problem = _withdrawn(value.get("withdrawn", {}), entries)
    if problem is not None:
        return refused(problem)
    signers: tuple[str, ...] = ()
    tag_object: str | None = None
    if version == SIGNED_LOCK_VERSION:
        signers, problem = _signers(value["signers"])
        if problem is not None:
            return refused(problem)
        tag_object = value["tagObject"]
        if not isinstance(tag_object, str) or OBJECT_ID.fullmatch(tag_object) is None:
            return refused("tagObject is the locked release's tag object id, 40 or 64 lowercase hexadecimal digits")
    return Lock(location, value["tag"], value["commit"], value["manifestDigest"], dict(entries), withdrawn,
                version, signers, tag_object), None


def _signers(value: object) -> tuple[tuple[str, ...], str | None]:
    """The `signers` member (version 3): a non-empty array of signers lines in release-signers' form, each as the
    signers file reads it back (signing/signers.py)."""
    from ..signing.signers import MAX_KEYS, Signers, read_signers

    if not isinstance(value, list) or not 1 <= len(value) <= MAX_KEYS or not all(isinstance(v, str) for v in value):
        return (), f"signers is an array of 1 to {MAX_KEYS} lines of the release-signers form"
    if any("\n" in v or "\r" in v for v in value):
        return (), "signers holds a line break inside a line"
    read = read_signers("".join(v + "\n" for v in value).encode("ascii", "replace"), "signers")
    if not isinstance(read, Signers) or list(read.lines()) != value:  # a Signers, not a Refusal
        return (), ("signers is not in the release-signers form (one line PRINCIPAL namespaces=\"git\" ssh-ed25519 "
                    "BASE64 each, no comment)")
    return tuple(value), None


def _withdrawn(value: object, entries: Mapping[str, object]) -> tuple[dict[str, Withdrawn], str | None]:
    """The `withdrawn` member held to its closed form: id to {tag, commit, entryDigest}, none also in entries."""
    if not isinstance(value, dict) or len(value) > MAX_WITHDRAWN:
        return {}, f"withdrawn is an object of at most {MAX_WITHDRAWN} members, id to {{tag, commit, entryDigest}}"
    out: dict[str, Withdrawn] = {}
    for i, (entry_id, item) in enumerate(value.items()):
        if not 3 <= len(entry_id) <= 128 or ENTRY_ID.fullmatch(entry_id) is None:
            return {}, f"withdrawn member {i + 1} is not named by an entry id"
        if entry_id in entries:
            return {}, f"withdrawn member {entry_id} is also an imported entry: an entry is one or the other"
        if not isinstance(item, dict) or set(item) != set(WITHDRAWN_MEMBERS):
            return {}, f"withdrawn member {entry_id} is an object of exactly {', '.join(WITHDRAWN_MEMBERS)}"
        if not isinstance(item["tag"], str) or release_key(item["tag"]) is None:
            return {}, f"withdrawn member {entry_id}: tag is a release tag vMAJOR.MINOR.PATCH"
        if not isinstance(item["commit"], str) or FULL_COMMIT.fullmatch(item["commit"]) is None:
            return {}, f"withdrawn member {entry_id}: commit is a full commit id, 40 lowercase hexadecimal digits"
        if not is_digest(item["entryDigest"]):
            return {}, f"withdrawn member {entry_id}: entryDigest is sha256: and 64 lowercase hexadecimal digits"
        out[entry_id] = Withdrawn(item["tag"], item["commit"], item["entryDigest"])
    return out, None


def load(path: str) -> tuple[Lock | None, Refusal | None]:
    """The lock at `path`: (None, None) when there is none; OSError when it cannot be read (a symlink,
    a directory or a FIFO there is refused, never followed or waited on), its strerror saying once what
    is there and that nothing was read."""
    try:
        data = read_regular(path, LOCK_BOUND)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        raise OSError(exc.errno, f"{_what_is_there(path, exc)}; nothing was read", path) from exc
    return decode(data, path)


def _what_is_there(path: str, exc: OSError) -> str:
    """Why the lock at `path` could not be read, in words: what lies there, else the system's reason."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        return "a directory, not a lock file"
    if mode is not None and stat.S_ISLNK(mode):
        return "a symlink: a lock is never read through one"
    if mode is not None and not stat.S_ISREG(mode):
        return "not a regular file (a FIFO, socket or device), not a lock file"
    return exc.strerror or str(exc)


def _mode(st: os.stat_result | None) -> int:
    """The replaced lock's permission bits, else a new file's (0666 less the umask)."""
    if st is not None:
        return stat.S_IMODE(st.st_mode)
    umask = os.umask(0)  # read by setting it; set straight back
    os.umask(umask)
    return 0o666 & ~umask


def write(path: str, lock: Lock, *, replace: bool) -> None:
    """Write the lock atomically, never through a symlink: a temporary file in the same directory, then
    a link that fails when the file appeared meanwhile (`replace` False), or a rename over the regular
    file there (`replace` True). OSError when anything but a regular file is there."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and (not replace or not stat.S_ISREG(st.st_mode)):
        code = errno.EEXIST if stat.S_ISREG(st.st_mode) else errno.EPERM
        raise OSError(code, "not a regular file the lock can replace; nothing written" if code == errno.EPERM
                      else "a lock appeared there meanwhile; nothing written", path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".exchange-lock-", dir=directory)
    try:
        os.fchmod(fd, _mode(st))  # not mkstemp's 0600: the lock keeps its mode, a new one the umask's
        with os.fdopen(fd, "wb") as fh:
            fh.write(lock.encode())
            fh.flush()
            os.fsync(fh.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)  # fails with EEXIST instead of replacing what appeared meanwhile
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
