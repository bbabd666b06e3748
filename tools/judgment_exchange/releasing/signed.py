"""`exchange release TAG --sign` and `exchange release-verify` on a signing catalog (issue #36 item 2; docs/signing.md).

Signing is git's own: `git -c gpg.format=ssh tag -s` with the maintainer's `user.signingKey` (a key file, a
`key::` literal, or an agent's key), the message `Catalog release TAG` and a line `manifestDigest: sha256:…` (the
ledger row's). Verifying is the project's (signing/): before `exchange release` returns, the tag it made is held to
item 3's rule under the set that governs it; a tag that fails is deleted and the release refused, so nothing
unverifiable is ever pushed. When the configured key can be read (a file or a literal), a key the set does not hold
is refused before the release commit is made.
"""

from __future__ import annotations

import base64
import os
import subprocess
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from ..codes.signing import RELEASE_SIGNATURE_INVALID
from ..gitfail import reason
from ..refusal import Refusal
from ..signing.chain import tag_message
from ..signing.release import Governing, check_release, governing_set, signers_of
from ..signing.signers import SIGNERS_FILE, Signers, ed25519_from_blob, fingerprint, signers_at
from ..tree import GitTree, TreeError

if TYPE_CHECKING:
    from git import Repo

    from ..tree import Tree


def own_signers_refusal(tree: Tree) -> str | None:
    """Why HEAD cannot sign: no release-signers, or one out of form; None when it can."""
    own = signers_at(tree)
    if own is None:
        return (f"HEAD has no {SIGNERS_FILE}: a catalog that signs keeps its signers file at its root (one line per "
                "maintainer key: PRINCIPAL namespaces=\"git\" ssh-ed25519 AAAA…), merged like any gate file before "
                "the first signed release (docs/signing.md)")
    if isinstance(own, Refusal):
        return f"{SIGNERS_FILE} at HEAD is out of its form ({own.code}): {own.detail}"
    return None


@dataclass
class Plan:
    """A signed release about to be made: its tag, the set that governs it, HEAD's own set, and warnings."""

    tag: str
    governing: Governing
    own: Signers
    warnings: list[str] = field(default_factory=list)


def configured_key(root: str) -> bytes | None:
    """The Ed25519 key `user.signingKey` names when it can be read here (a `key::`/literal public key, or a key file
    with its `.pub` beside it); None when it cannot (unset, an agent's key, another type)."""
    done = subprocess.run(["git", "config", "--get", "user.signingKey"], cwd=root, capture_output=True, check=False)
    value = done.stdout.decode("utf-8", "replace").strip()
    if not value:
        return None
    if value.startswith("key::"):
        value = value[5:]
    text = value
    if not value.startswith("ssh-"):
        path = os.path.expanduser(value)
        for candidate in (path, path + ".pub"):
            try:
                with open(candidate, "rb") as fh:
                    head = fh.read(4096).decode("ascii", "replace").strip()
            except OSError:
                continue
            if head.startswith("ssh-"):
                text = head
                break
        else:
            return None
    fields = text.split()
    if len(fields) < 2 or fields[0] != "ssh-ed25519":
        return None
    try:
        return ed25519_from_blob(base64.b64decode(fields[1], validate=True))
    except ValueError:
        return None


def _where(governing: Governing, tag: str) -> str:
    return (f"{SIGNERS_FILE} at the release before {tag}" if governing.source == "previous"
            else f"{SIGNERS_FILE} at HEAD (the catalog's first signed release)")


def plan(repo: Repo, tree: GitTree, tag: str, previous: str | None) -> Plan | str:
    """The set that governs TAG (item 3 (d)) and a check of the configured key against it; a string says why not."""
    try:
        governing = governing_set(tree.store, tree.commit, previous)
        own = signers_of(tree.store, tree.commit)
    except TreeError as exc:
        return f"the signers files cannot be read ({exc})"
    if isinstance(governing, Refusal):
        return f"the signers file that governs {tag} is out of its form ({governing.code}): {governing.detail}"
    if governing is None or not isinstance(own, Signers):
        return f"HEAD has no {SIGNERS_FILE} in its form"
    key = configured_key(cast(str, repo.working_tree_dir))  # release.make_release held it to be the root, a str
    if key is not None and governing.signers.find(key) is None:
        return (f"the signing key {fingerprint(key)} (git config user.signingKey) is not in the set that governs "
                f"{tag} ({_where(governing, tag)}): sign with a key it holds; a new key signs only after a release "
                "signed by a held key adds it (docs/signing.md, \"Rotation\")")
    return Plan(tag, governing, own)


def _rotation_warning(plan: Plan, signer_key: bytes) -> str | None:
    """Item 2's warning: the release removes the key that signs it while adding keys that have signed nothing."""
    added = plan.own.key_set() - plan.governing.signers.key_set()
    if plan.governing.source != "previous" or signer_key in plan.own.key_set() or not added:
        return None
    return (f"warning: {plan.tag} removes the key that signs it ({fingerprint(signer_key)}) while adding "
            f"{len(added)} new key{'s' if len(added) != 1 else ''}, which {'have' if len(added) != 1 else 'has'} "
            "signed "
            "nothing yet: rotate in two releases — add the new key in one release, then remove the old key in a "
            "release the new key signs (docs/signing.md, \"Rotation\"). Undo this one before pushing: git tag -d "
            f"{plan.tag}; git reset --hard HEAD~1")


def sign_and_verify(repo: Repo, plan: Plan, made: str, digest: str) -> str | None:
    """Make TAG signed on `made` with git's SSH signing, then verify it with the project's verifier under the
    governing set; on a failure delete the local tag and say why (None: verified)."""
    root = repo.working_tree_dir
    done = subprocess.run(["git", "-c", "gpg.format=ssh", "tag", "-s", "-m", tag_message(plan.tag, digest), plan.tag,
                           made], cwd=root, capture_output=True, check=False)
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return (f"git could not sign the tag ({said[-1][:200] if said else 'no message'}): set a signing key "
                "(git config gpg.format ssh; git config user.signingKey ~/.ssh/id_ed25519.pub, or a key:: literal "
                "with an agent)")
    try:
        ref = repo.git.rev_parse("--verify", f"refs/tags/{plan.tag}")
        tree = GitTree(repo, made)  # a fresh object store: the tag object is new
        verdict = check_release(tree.store, plan.tag, ref, made, plan.governing.signers)
    except (TreeError, Exception) as exc:  # GitCommandError, an unreadable object
        verdict = Refusal(RELEASE_SIGNATURE_INVALID, None, f"the tag made cannot be read ({reason(exc)})")
    if isinstance(verdict, Refusal):
        subprocess.run(["git", "tag", "-d", plan.tag], cwd=root, capture_output=True, check=False)
        return (f"the tag git made does not verify against the set that governs {plan.tag} "
                f"({_where(plan.governing, plan.tag)}): {verdict.code}: {verdict.detail}; the local tag {plan.tag} "
                "was deleted")
    warning = _rotation_warning(plan, verdict.key)
    if warning:
        plan.warnings.append(warning)
    return None


def pushed_tag_problems(repo: Repo, tag: str, commit: str, previous: str | None) -> list[str]:
    """`exchange release-verify`'s signature check of a pushed tag (item 2): when the catalog signs — a
    release-signers at the release before it (`previous`, its tagged commit) or at its own commit — the tag must
    keep item 3's rule under the set that governs it (a pushed tag cannot be re-signed: release.yml never signs)."""
    try:
        tree = GitTree(repo, commit)
        governing = governing_set(tree.store, commit, previous)
        if governing is None:
            return []
        if isinstance(governing, Refusal):
            return [f"{governing.code}: the signers file that governs {tag}: {governing.detail}"]
        ref = repo.git.rev_parse("--verify", f"refs/tags/{tag}")
        verdict = check_release(tree.store, tag, ref, commit, governing.signers)
    except Exception as exc:  # TreeError, GitCommandError
        return [f"{RELEASE_SIGNATURE_INVALID}: {tag}'s tag cannot be read ({reason(exc)})"]
    if isinstance(verdict, Refusal):
        return [f"{verdict.code}: {verdict.detail} (governed by {_where(governing, tag)}; sign with exchange release "
                f"{tag} --sign, docs/signing.md)"]
    return []
