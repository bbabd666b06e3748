"""Issue #36 item 2: `exchange release TAG --sign` (git's SSH signing, verified by the project's verifier before it
returns) and `exchange release-verify` on a catalog that signs."""

from __future__ import annotations

import shutil

import pytest

from judgment_exchange.refusal import Refusal
from judgment_exchange.releasing.published import verify_pushed_tag
from judgment_exchange.releasing.release import make_release
from judgment_exchange.signing.chain import verify_release_tag
from judgment_exchange.signing.signers import read_signers

from ..support.gitrepo import GitRepo, git_identity
from .support import (
    NEEDS_GIT_SSH,
    git_sign_tag,
    git_verify_tag,
    make_key,
    manifest_digest,
    release_message,
    tag_object_bytes,
)

pytestmark = NEEDS_GIT_SSH

EMPTY = {"manifest.json": b"[]\n", "releases.json": b"[]\n"}


@pytest.fixture
def keys(tmp_path):
    where = tmp_path / "keys"
    where.mkdir()
    return {name: make_key(where, name) for name in ("k1", "k2")}


@pytest.fixture
def catalog(tmp_path, monkeypatch, keys):
    """An empty catalog whose release-signers names k1, its repository configured to sign with k1."""
    git_identity(monkeypatch)
    repo = GitRepo(tmp_path / "catalog")
    repo.snapshot(EMPTY | {"release-signers": (keys["k1"].line("one") + "\n").encode()}, "signers")
    use_key(repo, keys["k1"].private_path)
    return repo


def use_key(repo: GitRepo, path) -> None:
    repo.git("config", "gpg.format", "ssh")
    repo.git("config", "user.signingKey", str(path))


def signers_file(tmp_path, *keys_and_names) -> object:
    path = tmp_path / "allowed"
    path.write_text("".join(k.line(n) + "\n" for k, n in keys_and_names), encoding="ascii")
    return path


def test_release_sign_makes_a_tag_git_and_the_project_verify(catalog, keys, tmp_path):
    outcome = make_release(str(catalog.path), "v0.1.0", sign=True)
    assert outcome.status == 0, outcome.lines
    assert any("signed tag v0.1.0" in line for line in outcome.lines)
    allowed = signers_file(tmp_path, (keys["k1"], "one"))
    assert git_verify_tag(catalog, "v0.1.0", allowed) == 0
    data = tag_object_bytes(catalog, "v0.1.0")
    digest = manifest_digest(catalog, "v0.1.0")
    assert f"Catalog release v0.1.0\n\nmanifestDigest: {digest}\n".encode() in data
    assert f'"manifestDigest": "{digest}"' in catalog.git("show", "v0.1.0:releases.json")  # the ledger row's
    commit = catalog.rev("v0.1.0^{commit}")
    signer = verify_release_tag(data, tag="v0.1.0", commit=commit, manifest_digest=digest,
                                signers=read_signers(allowed.read_bytes()))
    assert not isinstance(signer, Refusal) and signer.principal == "one"
    assert git_verify_tag(catalog, "v0.1.0", signers_file(tmp_path, (keys["k2"], "two"))) != 0  # another key's file
    assert verify_pushed_tag(str(catalog.path), "v0.1.0", "main").problems == []


def test_release_sign_without_release_signers_is_refused(tmp_path, monkeypatch, keys):
    git_identity(monkeypatch)
    repo = GitRepo(tmp_path / "plain")
    head = repo.snapshot(EMPTY)
    use_key(repo, keys["k1"].private_path)
    outcome = make_release(str(repo.path), "v0.1.0", sign=True)
    assert outcome.status == 1 and "has no release-signers" in outcome.lines[0]
    assert repo.rev("HEAD") == head and repo.git("tag", "--list") == ""
    assert make_release(str(repo.path), "v0.1.0").status == 0  # the near miss: unsigned, without --sign


def test_release_sign_with_release_signers_out_of_form_is_refused(tmp_path, monkeypatch, keys):
    git_identity(monkeypatch)
    repo = GitRepo(tmp_path / "bad")
    repo.snapshot(EMPTY | {"release-signers": (keys["k1"].line("one", 'namespaces="file"') + "\n").encode()})
    use_key(repo, keys["k1"].private_path)
    outcome = make_release(str(repo.path), "v0.1.0", sign=True)
    assert outcome.status == 1 and "release-signers-malformed" in outcome.lines[0]


def test_attack_release_sign_with_a_key_the_set_does_not_hold_is_refused_before_the_commit(catalog, keys):
    head = catalog.rev("HEAD")
    use_key(catalog, keys["k2"].private_path)
    outcome = make_release(str(catalog.path), "v0.1.0", sign=True)
    assert outcome.status == 1 and "is not in the set that governs v0.1.0" in outcome.lines[0]
    assert catalog.rev("HEAD") == head and catalog.git("tag", "--list") == ""


def test_attack_release_sign_with_an_unreadable_key_the_set_does_not_hold_deletes_the_tag(catalog, keys, tmp_path):
    """A key the command cannot read beforehand (no .pub beside it, as with an agent): git signs, the project's
    verifier refuses the tag it made, the local tag is deleted and nothing is pushed."""
    hidden = tmp_path / "agent-only"
    shutil.copy(keys["k2"].private_path, hidden)
    hidden.chmod(0o600)
    use_key(catalog, hidden)
    outcome = make_release(str(catalog.path), "v0.1.0", sign=True)
    assert outcome.status == 1, outcome.lines
    assert "release-signer-unknown" in outcome.lines[0] and "was deleted" in outcome.lines[0]
    assert catalog.git("tag", "--list") == ""
    assert "git reset --hard" in outcome.lines[0]


def test_rotation_in_one_release_warns(catalog, keys):
    assert make_release(str(catalog.path), "v0.1.0", sign=True).status == 0
    (catalog.path / "release-signers").write_text(keys["k2"].line("two") + "\n", encoding="ascii")
    catalog.git("commit", "-q", "-am", "k1 out, k2 in")
    outcome = make_release(str(catalog.path), "v0.2.0", sign=True)  # signed by k1, the held key
    assert outcome.status == 0, outcome.lines
    assert any(line.startswith("warning: v0.2.0 removes the key that signs it") for line in outcome.lines)


def test_rotation_in_two_releases_does_not_warn(catalog, keys):
    assert make_release(str(catalog.path), "v0.1.0", sign=True).status == 0
    (catalog.path / "release-signers").write_text(keys["k1"].line("one") + "\n" + keys["k2"].line("two") + "\n",
                                                  encoding="ascii")
    catalog.git("commit", "-q", "-am", "k2 added")
    outcome = make_release(str(catalog.path), "v0.2.0", sign=True)  # signed by k1
    assert outcome.status == 0 and not any("warning" in line for line in outcome.lines), outcome.lines
    (catalog.path / "release-signers").write_text(keys["k2"].line("two") + "\n", encoding="ascii")
    catalog.git("commit", "-q", "-am", "k1 removed")
    use_key(catalog, keys["k2"].private_path)
    outcome = make_release(str(catalog.path), "v0.3.0", sign=True)  # signed by k2, held since v0.2.0
    assert outcome.status == 0 and not any("warning" in line for line in outcome.lines), outcome.lines
    assert verify_pushed_tag(str(catalog.path), "v0.3.0", "main").problems == []


def test_release_verify_refuses_an_unsigned_release_of_a_signing_catalog(catalog):
    assert make_release(str(catalog.path), "v0.1.0", sign=True).status == 0
    catalog.git("commit", "-q", "--allow-empty", "-m", "work")
    assert make_release(str(catalog.path), "v0.2.0").status == 0  # made without --sign
    problems = verify_pushed_tag(str(catalog.path), "v0.2.0", "main").problems
    assert len(problems) == 1 and problems[0].startswith("release-unsigned"), problems


def test_attack_a_release_signed_by_a_removed_key_is_refused(catalog, keys):
    catalog.git("config", "user.signingKey", str(keys["k1"].private_path))
    assert make_release(str(catalog.path), "v0.1.0", sign=True).status == 0
    (catalog.path / "release-signers").write_text(keys["k2"].line("two") + "\n", encoding="ascii")
    catalog.git("commit", "-q", "-am", "k1 out, k2 in")
    assert make_release(str(catalog.path), "v0.2.0", sign=True).status == 0  # k1 still governs v0.2.0 (warned)
    catalog.git("commit", "-q", "--allow-empty", "-m", "work")
    # v0.3.0 is governed by v0.2.0's file, k2 alone: a tag signed by k1 is refused, by the command and the workflow
    refused = make_release(str(catalog.path), "v0.3.0", sign=True)
    assert refused.status == 1 and "is not in the set that governs v0.3.0" in refused.lines[0]
    made = make_release(str(catalog.path), "v0.3.0")  # unsigned, then signed by hand with the removed key
    assert made.status == 0
    catalog.git("tag", "-d", "v0.3.0")
    git_sign_tag(catalog, keys["k1"], "v0.3.0", release_message("v0.3.0", manifest_digest(catalog, "HEAD")))
    problems = verify_pushed_tag(str(catalog.path), "v0.3.0", "main").problems
    assert len(problems) == 1 and problems[0].startswith("release-signer-unknown"), problems


def test_release_verify_of_an_unsigned_catalog_is_unchanged(tmp_path, monkeypatch):
    git_identity(monkeypatch)
    repo = GitRepo(tmp_path / "plain")
    repo.snapshot(EMPTY)
    assert make_release(str(repo.path), "v0.1.0").status == 0
    assert verify_pushed_tag(str(repo.path), "v0.1.0", "main").problems == []


def test_the_commands_exchange_release_sign_and_release_verify(catalog, keys, tmp_path, capsys):
    """`exchange release v0.1.0 --sign` under the repository's gpg.format=ssh and user.signingKey; `exchange
    release-verify` passes it, and refuses (exit 1) an unsigned v0.2.0 of the same catalog."""
    from judgment_exchange.cli import main as exchange

    assert exchange(["release", "v0.1.0", "--sign", "--catalog", str(catalog.path)]) == 0
    assert "signed tag v0.1.0" in capsys.readouterr().out
    assert git_verify_tag(catalog, "v0.1.0", signers_file(tmp_path, (keys["k1"], "one"))) == 0
    assert exchange(["release-verify", "v0.1.0", "--catalog", str(catalog.path), "--main", "main"]) == 0
    catalog.git("commit", "-q", "--allow-empty", "-m", "work")
    assert exchange(["release", "v0.2.0", "--catalog", str(catalog.path)]) == 0
    capsys.readouterr()
    assert exchange(["release-verify", "v0.2.0", "--catalog", str(catalog.path), "--main", "main"]) == 1
    assert "release-unsigned" in capsys.readouterr().out
